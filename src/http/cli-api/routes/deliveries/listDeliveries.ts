import { CliDeliveryList, CliDeliveryQuery } from '../../../../contract/schemas/cli.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { listDeliveries as listOutbox } from '../../../../outbox/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /cli/v1/deliveries (`ledgerlink deliveries list`): the partner's deliveries with every attempt, newest first. */
export default function listDeliveries(app: App, runtime: Runtime): void {
  app.get('/cli/v1/deliveries', {
    schema: {
      hide: true,
      operationId: 'CliListDeliveries',
      tags: ['CLI'],
      summary: "The partner's deliveries (Ledgerlink extension, CLI)",
      querystring: CliDeliveryQuery,
      response: { 200: CliDeliveryList, ...errorResponses(400, 401, 403, 406) },
    },
    handler: async (request) => ({
      deliveries: await listOutbox(runtime.database.kysely, { ...request.query, partnerId: request.caller.partnerId }, runtime.clock),
    }),
  });
}
