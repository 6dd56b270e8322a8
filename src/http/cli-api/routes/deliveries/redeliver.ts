import { CliDeliveryParams, CliRedelivered } from '../../../../contract/schemas/cli.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { redeliverDelivery } from '../../../../outbox/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /cli/v1/deliveries/{deliveryId}/redeliver (`ledgerlink deliveries redeliver`): sends a delivery again now, same event id. */
export default function redeliver(app: App, runtime: Runtime): void {
  app.post('/cli/v1/deliveries/:deliveryId/redeliver', {
    schema: {
      hide: true,
      operationId: 'CliRedeliver',
      tags: ['CLI'],
      summary: 'Redeliver a delivery (Ledgerlink extension, CLI)',
      params: CliDeliveryParams,
      response: { 200: CliRedelivered, ...errorResponses(400, 401, 403, 404, 406) },
    },
    handler: async (request) => ({
      delivery: await redeliverDelivery(runtime.database.kysely, runtime.clock, request.params.deliveryId, request.caller.partnerId),
    }),
  });
}
