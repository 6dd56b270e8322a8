import { errorResponses } from '../../../../contract/schemas/common.js';
import { SubscriptionIdParams, WebhookStatusUpdate } from '../../../../contract/schemas/webhook-subscriptions.js';
import { changeSubscriptionStatus } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /notification-subscriptions/webhooks/{subscription_id}/status */
export default function changeWebhookSubscriptionStatus(app: App, runtime: Runtime): void {
  app.put('/notification-subscriptions/webhooks/:subscription_id/status', {
    schema: {
      operationId: 'ChangeWebhookSubscriptionStatus',
      tags: ['Webhook Subscription'],
      summary: 'Enable or Disable All Webhook Events Under a Given Webhook Subscription',
      description:
        'Sets the subscription and every one of its events active or inactive (any other status is 400, 16308); nothing of an inactive subscription is sent. Answers the status set.',
      params: SubscriptionIdParams,
      body: WebhookStatusUpdate,
      response: { 200: WebhookStatusUpdate, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => changeSubscriptionStatus(runtime, request.caller.partnerId, request.params.subscription_id, request.body.status),
  });
}
