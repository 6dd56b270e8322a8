import { connectWebhookSecret } from '../../../../modules/connect/webhooks.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConnectWebhookSigningKey } from '../../../../contract/schemas/connect.js';

/** GET /connect/v2/webhooks/signingKey (Ledgerlink extension) */
export default function getConnectWebhookSigningKey(app: App, runtime: Runtime): void {
  app.get('/connect/v2/webhooks/signingKey', {
    schema: {
      operationId: 'GetConnectWebhookSigningKey',
      tags: ['Connect'],
      summary: 'Connect webhook signing key (Ledgerlink extension)',
      description:
        'The `whsec_` secret that signs every Connect webhook of the partner (Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`). Verify deliveries with it; see docs/connect.md.',
      response: { 200: ConnectWebhookSigningKey, ...errorResponses(401, 406) },
    },
    handler: async (request) => ({ signingKey: connectWebhookSecret(runtime, request.caller.partnerId) }),
  });
}
