import { fireConnectWebhook } from '../../../../modules/sandbox/controls.service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { ConnectWebhookRequest, FiredConnectWebhook } from '../../../../contract/schemas/sandbox.js';

/** POST /sandbox/v1/customers/{customerId}/webhooks/connect */
export default function fireSandboxConnectWebhook(app: App): void {
  app.post('/sandbox/v1/customers/:customerId/webhooks/connect', {
    schema: {
      operationId: 'FireSandboxConnectWebhook',
      tags: ['Sandbox'],
      summary: 'Fire a Connect webhook',
      description:
        "Queues a Connect webhook of any event type for the customer, delivered through the outbox with retries and signed with the partner's Connect webhook signing key, exactly like those a Connect session sends. It goes to `webhook`, or to the webhook of the customer's latest Connect link that had one (with that link's content type, headers and webhookData; 409, 14093 when there is none). Unknown event types are 400, 14092. Test Drive partners only (403, 14090).",
      params: CustomerIdParams,
      body: ConnectWebhookRequest,
      response: { 202: FiredConnectWebhook, ...errorResponses(400, 401, 403, 404, 406, 409) },
    },
    handler: async (request, reply) => {
      const fired = await fireConnectWebhook(app.engine, request.caller, { customerId: request.params.customerId, ...request.body });
      return reply.code(202).send(fired);
    },
  });
}
