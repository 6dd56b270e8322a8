import { ConsentReceiptParams } from '../../../../contract/schemas/apps.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { revokeAccessKey } from '../../../../modules/apps/access.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** DELETE /aggregation/v1/partners/accessKey/{consentReceiptId} */
export default function revokeThirdPartyAccessKey(app: App, runtime: Runtime): void {
  app.delete('/aggregation/v1/partners/accessKey/:consentReceiptId', {
    schema: {
      operationId: 'RevokeThirdPartyAccessKey',
      tags: ['Third Party Access'],
      summary: 'Revoke Third Party Access',
      description:
        'Ends the key at once: calls made with it are refused (401, 16524). 404 (16520) for a receipt id the partner has none of, or one revoked already.',
      params: ConsentReceiptParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await revokeAccessKey(runtime, request.caller.partnerId, request.params.consentReceiptId);
      return reply.code(204).send(null);
    },
  });
}
