import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { SubscriptionEventParams } from '../../../../contract/schemas/webhook-subscriptions.js';
import { deleteSubscriptionEvent } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** DELETE /notification-subscriptions/webhooks/{subscription_id}/events/{webhook_event_id} */
export default function deleteWebhookSubscriptionEvent(app: App, runtime: Runtime): void {
  app.delete('/notification-subscriptions/webhooks/:subscription_id/events/:webhook_event_id', {
    schema: {
      operationId: 'DeleteWebhookSubscriptionEvent',
      tags: ['Webhook Subscription'],
      summary: 'Delete Webhook Subscription Event',
      description: 'Removes one event from a subscription (204); the subscription stays, even with no events left. 404 for an unknown subscription or event.',
      params: SubscriptionEventParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await deleteSubscriptionEvent(runtime, request.caller.partnerId, request.params.subscription_id, request.params.webhook_event_id);
      return reply.code(204).send(null);
    },
  });
}
