import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { AchDetails } from '../../../../contract/schemas/payments.js';
import { getAchDetails } from '../../../../modules/payments/ach.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { servedPartner } from '../thirdPartyAccess/access-key.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/{accountId}/details */
export default function getAccountAchDetails(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/accounts/:accountId/details', {
    schema: {
      operationId: 'GetAccountACHDetails',
      tags: ['Payments'],
      summary: 'Get account ACH details',
      description:
        "The routing number and full account number of a checking or savings account, for ACH payments, as its source states them: the test bank's accounts, OFX Direct Connect accounts and OFX statement files of US banks (BANKID and ACCTID). 400 (14020) for other account types, and for accounts whose source gives no routing number or full account number (SimpleFIN, CSV and other statement files). Another partner may call it with a Service-Access-Key this partner granted (401 16524, 403 16525: docs/app-registration.md). See docs/payments.md.",
      params: AccountParams,
      response: { 200: AchDetails, ...errorResponses(400, 401, 403, 404, 406) },
    },
    // The answer gives full account numbers: the request log keeps its size only.
    config: { answerHoldsAccountNumbers: true },
    handler: async (request) =>
      getAchDetails(runtime, await servedPartner(runtime, request, 'moneyTransferDetails'), request.params.customerId, request.params.accountId),
  });
}
