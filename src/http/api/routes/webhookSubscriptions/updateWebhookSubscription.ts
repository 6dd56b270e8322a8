import { errorResponses } from '../../../../contract/schemas/common.js';
import { SubscriptionIdParams, WebhookSubscription, WebhookSubscriptionInput } from '../../../../contract/schemas/webhook-subscriptions.js';
import { updateSubscription } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /notification-subscriptions/webhooks/{subscription_id} */
export default function updateWebhookSubscription(app: App, runtime: Runtime): void {
  app.put('/notification-subscriptions/webhooks/:subscription_id', {
    schema: {
      operationId: 'UpdateWebhookSubscription',
      tags: ['Webhook Subscription'],
      summary: 'Update Webhook Subscription',
      description:
        "The url and the events become those given (the same rules as Create). An event named before keeps its webhookEventId and status; a new name is a new active event; an event no longer named is removed. 404 for an unknown subscription or another partner's.",
      params: SubscriptionIdParams,
      body: WebhookSubscriptionInput,
      response: { 200: WebhookSubscription, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => updateSubscription(runtime, request.caller, request.params.subscription_id, request.body),
  });
}
