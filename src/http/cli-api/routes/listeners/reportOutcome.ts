import { CliDeliveryOutcome, CliListenerDeliveryParams, CliOutcomeRecorded } from '../../../../contract/schemas/cli.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { renewPolledListener } from '../../../../outbox/listeners.js';
import { recordPolledOutcome } from '../../../../outbox/polled.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { found } from './view.js';

/**
 * POST /cli/v1/listeners/{listenerId}/deliveries/{deliveryId}/outcome: what became of a delivery the listener took
 * (an attempt by the listener): delivered, or retried on the outbox's schedule. 409 (14096) when it is no longer held.
 */
export default function reportOutcome(app: App, runtime: Runtime): void {
  app.post('/cli/v1/listeners/:listenerId/deliveries/:deliveryId/outcome', {
    schema: {
      hide: true,
      operationId: 'CliReportDeliveryOutcome',
      tags: ['CLI'],
      summary: 'Report what became of a held delivery (Ledgerlink extension, CLI)',
      params: CliListenerDeliveryParams,
      body: CliDeliveryOutcome,
      response: { 200: CliOutcomeRecorded, ...errorResponses(400, 401, 403, 404, 406, 409, 415) },
    },
    handler: async (request) => {
      const db = runtime.database.kysely;
      const { listenerId, deliveryId } = request.params;
      const now = epochSeconds(runtime.clock);
      const listener = found(await renewPolledListener(db, listenerId, request.caller.partnerId, now), listenerId);
      return { deliveryId, state: await recordPolledOutcome(db, listener, deliveryId, request.body, now) };
    },
  });
}
