import { ThirdPartyAccessKeyData, ThirdPartyAccessKeyReceipt } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { generateAccessKey } from '../../../../modules/apps/access.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /aggregation/v1/partners/accessKey */
export default function generateThirdPartyAccessKey(app: App, runtime: Runtime): void {
  app.post('/aggregation/v1/partners/accessKey', {
    schema: {
      operationId: 'GenerateThirdPartyAccessKey',
      tags: ['Third Party Access'],
      summary: 'Generate Third Party Access Key',
      description:
        "Grants another partner (`thirdPartyPartnerId`) reads of the caller's customer's accounts, product by product: moneyTransferDetails (ACH details), availableBalance, availableBalanceLive, accountOwner, each on one account in a timeframe, up to `maxCalls` calls. The answer's `proof.signature` is the key, shown once and stored hashed: the third party sends it as the Service-Access-Key header, with its own credentials, on those product calls for this customer and account. 400 for a partnerId that is not the caller's or a bad thirdPartyPartnerId (16523), a product not offered (16521) or a bad period (16522); 404 for an unknown customer or account. See docs/app-registration.md.",
      body: ThirdPartyAccessKeyData,
      response: { 200: ThirdPartyAccessKeyReceipt, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => generateAccessKey(runtime, request.caller.partnerId, request.body),
  });
}
