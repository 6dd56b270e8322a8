import Type from 'typebox';
import { startCustomerRefresh } from '../../../../modules/aggregation/refresh.service.js';
import type { App } from '../../../app-types.js';
import { CustomerIdParam } from '../../../../contract/schemas/accounts.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { keepHeavySlot, partnerSlot } from '../../../plugins/heavy-work.js';

/** POST /aggregation/v2/customers/{customerId}/accounts */
export default function refreshCustomerAccountsV2(app: App): void {
  app.post('/aggregation/v2/customers/:customerId/accounts', {
    schema: {
      operationId: 'RefreshCustomerAccountsV2',
      tags: ['Accounts'],
      summary: 'Refresh customer accounts (in the background)',
      description:
        'Starts a refresh of every institution login of the customer and answers 204 at once; read the accounts to see when it finished (`aggregationSuccessDate` >= `aggregationAttemptDate`, or a non-zero `aggregationStatusCode`). Logins already being refreshed are left to that refresh.',
      params: Type.Object(CustomerIdParam),
      response: { 204: NoContent, ...errorResponses(400, 401, 404, 406, 429) },
    },
    onRequest: partnerSlot('refresh'),
    handler: async (request, reply) => {
      // The refresh goes on after the answer, and counts against the partner's limit until it ends.
      const release = keepHeavySlot(request);
      try {
        await startCustomerRefresh(app.engine, request.caller.partnerId, request.params.customerId, release);
      } catch (error) {
        release();
        throw error;
      }
      return reply.code(204).send(null);
    },
  });
}
