import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { SubscriptionIdParams } from '../../../../contract/schemas/webhook-subscriptions.js';
import { deleteSubscription } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** DELETE /notification-subscriptions/webhooks/{subscription_id} */
export default function deleteWebhookSubscription(app: App, runtime: Runtime): void {
  app.delete('/notification-subscriptions/webhooks/:subscription_id', {
    schema: {
      operationId: 'DeleteWebhookSubscription',
      tags: ['Webhook Subscription'],
      summary: 'Delete Webhook Subscription',
      description:
        "Deletes the subscription and its events (204); notifications still queued for it are cancelled. 404 for an unknown subscription or another partner's.",
      params: SubscriptionIdParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await deleteSubscription(runtime, request.caller.partnerId, request.params.subscription_id);
      return reply.code(204).send(null);
    },
  });
}
