import Type from 'typebox';
import { loadHistoricTransactions } from '../../../../modules/aggregation/refresh.service.js';
import type { App } from '../../../app-types.js';
import { AccountParams, MfaChallenges } from '../../../../contract/schemas/accounts.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { historicResponse } from '../../legacy-mfa.js';
import { partnerSlot } from '../../../plugins/heavy-work.js';

/** POST /aggregation/v1/customers/{customerId}/accounts/{accountId}/transactions/historic */
export default function loadHistoricTransactionsRoute(app: App): void {
  app.post('/aggregation/v1/customers/:customerId/accounts/:accountId/transactions/historic', {
    schema: {
      operationId: 'LoadHistoricTransactionsForCustomerAccount',
      tags: ['Transactions'],
      summary: 'Load historic transactions for an account',
      description:
        "Loads the account's transactions as far back as the institution serves them (two years at the test institutions) and answers 204 when they are stored. It counts as the account's initial aggregation too. A second call returns at once unless the body says `{\"force\": true}`. When the institution login needs an MFA answer (185) and its credentials are saved, the institution's questions come back as 203 with an `MFA-Session` header: answer them with `.../historic/mfa`. Any other refused aggregation is an error whose code is the aggregation status code (e.g. 103: repair the login through Connect Fix); 409 (325) when another refresh of the login did not finish within 30 seconds.",
      params: AccountParams,
      body: Type.Object(
        { force: Type.Optional(Type.Boolean({ description: 'Load again even when the history was loaded before', examples: [true] })) },
        { xml: { name: 'historic' }, description: 'Optional; an empty or absent body loads once' },
      ),
      response: { 203: MfaChallenges, 204: NoContent, ...errorResponses(400, 401, 404, 406, 409, 424, 429) },
    },
    onRequest: partnerSlot('refresh'),
    // The body is optional: no body reads as {}.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const outcome = await loadHistoricTransactions(app.engine, request.caller.partnerId, request.params.customerId, request.params.accountId, {
        force: request.body.force ?? false,
      });
      return historicResponse(outcome, reply);
    },
  });
}
