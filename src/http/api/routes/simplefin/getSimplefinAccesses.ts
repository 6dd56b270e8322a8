import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { SimplefinAccessList } from '../../../../contract/schemas/simplefin.js';
import { listAccesses } from '../../../../modules/simplefin/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/v1/customers/{customerId}/simplefin/accesses (Ledgerlink extension): the customer's SimpleFIN accesses. */
export default function getSimplefinAccesses(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/simplefin/accesses', {
    schema: {
      operationId: 'GetSimplefinAccesses',
      tags: ['SimpleFIN'],
      summary: 'List SimpleFIN accesses (Ledgerlink extension)',
      description:
        "The SimpleFIN accesses claimed from the customer's setup tokens, oldest first, revoked ones included (`revokedDate`): when each was claimed and last used, its requests, and today's `/accounts` requests against the daily budget. Credentials are never shown: only their hashes are kept. See docs/simplefin-server.md.",
      params: CustomerIdParams,
      response: { 200: SimplefinAccessList, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => ({ accesses: await listAccesses(runtime, request.caller.partnerId, request.params.customerId) }),
  });
}
