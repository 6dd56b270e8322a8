import { ConsentReceiptParams, ThirdPartyAccessKeyData, ThirdPartyAccessKeyReceipt } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { updateAccessKey } from '../../../../modules/apps/access.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /aggregation/v1/partners/accessKey/{consentReceiptId} */
export default function updateThirdPartyAccessKey(app: App, runtime: Runtime): void {
  app.put('/aggregation/v1/partners/accessKey/:consentReceiptId', {
    schema: {
      operationId: 'UpdateThirdPartyAccessKey',
      tags: ['Third Party Access'],
      summary: 'Update Third Party Access',
      description:
        'Replaces what the key grants (checked as at generation) under the same consent receipt id and issues a new key: the old one stops working at once, and calls count afresh. 404 (16520) for a receipt id the partner has none of, or one revoked.',
      params: ConsentReceiptParams,
      body: ThirdPartyAccessKeyData,
      response: { 200: ThirdPartyAccessKeyReceipt, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => updateAccessKey(runtime, request.caller.partnerId, request.params.consentReceiptId, request.body),
  });
}
