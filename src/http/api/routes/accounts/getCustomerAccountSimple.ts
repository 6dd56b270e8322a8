import { getCustomerAccountSimple as getAccountSimple } from '../../../../modules/aggregation/accounts.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { AccountParams, AccountSimple } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/{accountId}/simple */
export default function getCustomerAccountSimple(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/accounts/:accountId/simple', {
    schema: {
      operationId: 'GetCustomerAccountSimple',
      tags: ['Accounts'],
      summary: 'Get customer account by id (simple)',
      description: "The basic fields of one account. Another customer's account id is 404.",
      params: AccountParams,
      response: { 200: AccountSimple, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => getAccountSimple(runtime, request.caller.partnerId, request.params.customerId, request.params.accountId),
  });
}
