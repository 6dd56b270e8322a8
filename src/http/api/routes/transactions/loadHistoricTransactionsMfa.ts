import { answerHistoricMfa } from '../../../../modules/aggregation/refresh.service.js';
import type { App } from '../../../app-types.js';
import { AccountParams, MfaAnswersBody, MfaChallenges, MfaSessionHeaders } from '../../../../contract/schemas/accounts.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { historicResponse, mfaAnswersOf } from '../../legacy-mfa.js';
import { partnerSlot } from '../../../plugins/heavy-work.js';

/** POST /aggregation/v1/customers/{customerId}/accounts/{accountId}/transactions/historic/mfa */
export default function loadHistoricTransactionsMfa(app: App): void {
  app.post('/aggregation/v1/customers/:customerId/accounts/:accountId/transactions/historic/mfa', {
    schema: {
      operationId: 'LoadHistoricTransactionsForCustomerAccountMfa',
      tags: ['Transactions'],
      summary: 'Answer the MFA questions of a historic load',
      description:
        'Answers the questions of a 203 from Load Historic Transactions, with its `MFA-Session` header (answers as for addall/mfa). The new sign-in is saved on the institution login (its error status cleared, as Connect Fix does) and the history is loaded: 204, 203 when the institution asks more, or the aggregation failure (187 wrong answer).',
      params: AccountParams,
      headers: MfaSessionHeaders,
      body: MfaAnswersBody,
      response: { 203: MfaChallenges, 204: NoContent, ...errorResponses(400, 401, 404, 406, 409, 424, 429) },
    },
    onRequest: partnerSlot('refresh'),
    handler: async (request, reply) => {
      const outcome = await answerHistoricMfa(
        app.engine,
        request.caller.partnerId,
        request.params.customerId,
        request.params.accountId,
        request.headers['mfa-session'],
        mfaAnswersOf(request.body),
      );
      return historicResponse(outcome, reply);
    },
  });
}
