import { startLink } from '../../../../modules/aggregation/linking.service.js';
import type { App } from '../../../app-types.js';
import { AccountList, CustomerInstitutionParams, AddAllBody, MfaChallenges } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { addAllResponse } from '../../legacy-mfa.js';

/** POST /aggregation/v1/customers/{customerId}/institutions/{institutionId}/accounts/addall */
export default function addAllAccounts(app: App): void {
  app.post('/aggregation/v1/customers/:customerId/institutions/:institutionId/accounts/addall', {
    schema: {
      operationId: 'AddAllAccounts',
      tags: ['Accounts'],
      summary: 'Link all accounts with credentials (legacy)',
      description:
        'Signs in at a credential institution with a filled-in sign-in form and links every account found, without a browser (the legacy call public setup scripts use; Connect uses the same engine). Answers 200 with the accounts (balances, details, positions; no transactions until the initial aggregation), or 203 with MFA questions and an `MFA-Session` header, to be answered with `.../addall/mfa`. Linking again with the same credentials updates the same accounts instead of adding new ones. Testing customers may link only at test institutions (403); OAuth institutions need Connect (400, 14063). A refused sign-in is an error whose code is the aggregation status code: 103 wrong credentials, 108, 109, 185, 187 (400), 102 institution down (424).',
      params: CustomerInstitutionParams,
      body: AddAllBody,
      response: { 200: AccountList, 203: MfaChallenges, ...errorResponses(400, 401, 403, 404, 406, 409, 424) },
    },
    handler: async (request, reply) => {
      const { partnerId } = request.caller;
      const step = await startLink(app.engine, {
        partnerId,
        customerId: request.params.customerId,
        institutionId: request.params.institutionId,
        credentials: request.body.credentials.map((c) => ({ id: c.id, value: c.value, ...(c.name !== undefined ? { name: c.name } : {}) })),
      });
      return addAllResponse(app.engine, partnerId, step, reply);
    },
  });
}
