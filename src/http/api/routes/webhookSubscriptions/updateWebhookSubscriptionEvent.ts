import { errorResponses } from '../../../../contract/schemas/common.js';
import { SubscriptionEventParams, WebhookEventInput, WebhookSubscriptionEvent } from '../../../../contract/schemas/webhook-subscriptions.js';
import { updateSubscriptionEvent } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /notification-subscriptions/webhooks/{subscription_id}/events/{webhook_event_id} */
export default function updateWebhookSubscriptionEvent(app: App, runtime: Runtime): void {
  app.put('/notification-subscriptions/webhooks/:subscription_id/events/:webhook_event_id', {
    schema: {
      operationId: 'UpdateWebhookSubscriptionEvent',
      tags: ['Webhook Subscription'],
      summary: 'Update Webhook Subscription Event',
      description:
        "One event of a subscription: its name, url and condition become those given (an absent url sends it to the subscription's); its id and status stay. A name the subscription already has for another event is 400 (16306). 404 for an unknown subscription or event.",
      params: SubscriptionEventParams,
      body: WebhookEventInput,
      response: { 200: WebhookSubscriptionEvent, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => updateSubscriptionEvent(runtime, request.caller, request.params.subscription_id, request.params.webhook_event_id, request.body),
  });
}
