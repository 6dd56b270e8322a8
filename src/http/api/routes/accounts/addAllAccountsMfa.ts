import { answerLinkMfa } from '../../../../modules/aggregation/linking.service.js';
import type { App } from '../../../app-types.js';
import { AccountList, CustomerInstitutionParams, MfaAnswersBody, MfaChallenges, MfaSessionHeaders } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { addAllResponse, mfaAnswersOf } from '../../legacy-mfa.js';

/** POST /aggregation/v1/customers/{customerId}/institutions/{institutionId}/accounts/addall/mfa */
export default function addAllAccountsMfa(app: App): void {
  app.post('/aggregation/v1/customers/:customerId/institutions/:institutionId/accounts/addall/mfa', {
    schema: {
      operationId: 'AddAllAccountsMfa',
      tags: ['Accounts'],
      summary: 'Answer the MFA questions of a legacy link',
      description:
        'Answers the questions of a 203 from addall, with its `MFA-Session` header. Each answer names its question by `id` (or by its `text`); choices are answered with their `value`. Answers 200 with the linked accounts, 203 again when the institution asks more, or the aggregation failure (187 wrong answer, 185 the question timed out). An unknown, expired or finished MFA session is 404.',
      params: CustomerInstitutionParams,
      headers: MfaSessionHeaders,
      body: MfaAnswersBody,
      response: { 200: AccountList, 203: MfaChallenges, ...errorResponses(400, 401, 404, 406, 409, 424) },
    },
    handler: async (request, reply) => {
      const { partnerId } = request.caller;
      const answers = mfaAnswersOf(request.body);
      const sessionId = request.headers['mfa-session'];
      const step = await answerLinkMfa(app.engine, {
        partnerId,
        sessionId,
        answers,
        customerId: request.params.customerId,
        institutionId: request.params.institutionId,
      });
      return addAllResponse(app.engine, partnerId, step, reply);
    },
  });
}
