import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { OwnerMatchQuery, OwnerMatchRequest, OwnerMatchResults } from '../../../../contract/schemas/identity.js';
import { matchAccountOwner } from '../../../../modules/payments/owners.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /account-owner-verification-matchings/customers/{customerId}/accounts/{accountId} */
export default function accountMatchingScoreDetails(app: App, runtime: Runtime): void {
  app.post('/account-owner-verification-matchings/customers/:customerId/accounts/:accountId', {
    schema: {
      operationId: 'AccountMatchingScoreDetails',
      tags: ['Identity'],
      summary: 'Account owner match',
      description:
        'Matches a name (required), and optionally an address, phone number and e-mail address obtained elsewhere, against every holder of the account: each holder comes back with its data and a score from 0 to 100 for every value given (the name\'s parts and the whole name, each part of the address and the whole address, the phone, the e-mail). Scores are computed from normalised text and token similarity, documented in docs/payments.md, "How values are matched". `insights` is accepted; no identity insights are given. 404 (12017) for an account whose source gives no owners.',
      params: AccountParams,
      querystring: OwnerMatchQuery,
      body: OwnerMatchRequest,
      response: { 200: OwnerMatchResults, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => matchAccountOwner(runtime, request.caller.partnerId, request.params.customerId, request.params.accountId, request.body),
  });
}
