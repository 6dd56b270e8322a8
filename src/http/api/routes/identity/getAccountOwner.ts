import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { AccountOwner } from '../../../../contract/schemas/identity.js';
import { getAccountOwner as accountOwner } from '../../../../modules/payments/owners.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { servedPartner } from '../thirdPartyAccess/access-key.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/{accountId}/owner */
export default function getAccountOwner(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/accounts/:accountId/owner', {
    schema: {
      operationId: 'GetAccountOwner',
      tags: ['Identity'],
      summary: 'Get account owner',
      description:
        "The account's owners as the institution writes them (several in one string) and the first holder's address, as the last aggregation read them. 404 (12017) for an account whose source gives no owners (OFX, SimpleFIN, statement files). Another partner may call it with a Service-Access-Key this partner granted (401 16524, 403 16525: docs/app-registration.md). See docs/payments.md.",
      params: AccountParams,
      response: { 200: AccountOwner, ...errorResponses(401, 403, 404, 406) },
    },
    handler: async (request) =>
      accountOwner(runtime, await servedPartner(runtime, request, 'accountOwner'), request.params.customerId, request.params.accountId),
  });
}
