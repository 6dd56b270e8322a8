import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { AccountOwnerHolders, OwnerDetailsQuery } from '../../../../contract/schemas/identity.js';
import { getAccountOwnerDetails as accountOwnerDetails } from '../../../../modules/payments/owners.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/v3/customers/{customerId}/accounts/{accountId}/owner */
export default function getAccountOwnerDetails(app: App, runtime: Runtime): void {
  app.get('/aggregation/v3/customers/:customerId/accounts/:accountId/owner', {
    schema: {
      operationId: 'GetAccountOwnerDetails',
      tags: ['Identity'],
      summary: 'Get account owner details',
      description:
        'Every holder of the account with their names, relationship, classification, addresses, e-mails and phones, as the last aggregation read them. `withInsights` is accepted; no identity insights are given. 404 (12017) for an account whose source gives no owners. See docs/payments.md.',
      params: AccountParams,
      querystring: OwnerDetailsQuery,
      response: { 200: AccountOwnerHolders, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => accountOwnerDetails(runtime, request.caller.partnerId, request.params.customerId, request.params.accountId),
  });
}
