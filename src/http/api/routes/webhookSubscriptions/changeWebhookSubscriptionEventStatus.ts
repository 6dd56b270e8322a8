import { errorResponses } from '../../../../contract/schemas/common.js';
import { SubscriptionEventParams, WebhookStatusUpdate } from '../../../../contract/schemas/webhook-subscriptions.js';
import { changeEventStatus } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /notification-subscriptions/webhooks/{subscription_id}/events/{webhook_event_id}/status */
export default function changeWebhookSubscriptionEventStatus(app: App, runtime: Runtime): void {
  app.put('/notification-subscriptions/webhooks/:subscription_id/events/:webhook_event_id/status', {
    schema: {
      operationId: 'ChangeWebhookSubscriptionEventStatus',
      tags: ['Webhook Subscription'],
      summary: 'Enable or Disable Webhook Subscription Event',
      description:
        'Sets one event of a subscription active or inactive (any other status is 400, 16308); an inactive event is not sent. Answers the status set.',
      params: SubscriptionEventParams,
      body: WebhookStatusUpdate,
      response: { 200: WebhookStatusUpdate, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) =>
      changeEventStatus(runtime, request.caller.partnerId, request.params.subscription_id, request.params.webhook_event_id, request.body.status),
  });
}
