import Type from 'typebox';
import { refreshCustomerAccounts } from '../../../../modules/aggregation/refresh.service.js';
import type { App } from '../../../app-types.js';
import { AccountList, CustomerIdParam } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { partnerSlot } from '../../../plugins/heavy-work.js';

/** POST /aggregation/v1/customers/{customerId}/accounts */
export default function refreshCustomerAccountsRoute(app: App): void {
  app.post('/aggregation/v1/customers/:customerId/accounts', {
    schema: {
      operationId: 'RefreshCustomerAccounts',
      tags: ['Accounts'],
      summary: 'Refresh customer accounts',
      description:
        "Aggregates every institution login of the customer now and answers with the accounts afterwards. The first refresh of an account (its initial aggregation) loads 180 days of transactions and is required before its transactions can be read. Each account's `aggregationStatusCode` tells how its refresh went (0, or e.g. 103 when the saved sign-in no longer works); a refresh is complete when that is 0 and `aggregationSuccessDate` >= `aggregationAttemptDate`. When a refresh of the same institution login is already running, this call waits for it (up to 30 seconds) and answers with its result, or 409 (325) after that. The body is an empty object or nothing.",
      params: Type.Object(CustomerIdParam),
      response: { 200: AccountList, ...errorResponses(400, 401, 404, 406, 409, 429) },
    },
    onRequest: partnerSlot('refresh'),
    handler: async (request) => ({ accounts: await refreshCustomerAccounts(app.engine, request.caller.partnerId, request.params.customerId) }),
  });
}
