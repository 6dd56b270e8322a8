import { errorResponses } from '../../../../contract/schemas/common.js';
import { SubscriptionIdParams, WebhookSubscription } from '../../../../contract/schemas/webhook-subscriptions.js';
import { getSubscription } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /notification-subscriptions/webhooks/{subscription_id} */
export default function getWebhookSubscriptionById(app: App, runtime: Runtime): void {
  app.get('/notification-subscriptions/webhooks/:subscription_id', {
    schema: {
      operationId: 'GetWebhookSubscriptionById',
      tags: ['Webhook Subscription'],
      summary: 'Get Webhook Subscription Details',
      description:
        "One of the calling partner's webhook subscriptions with its events, conditions and statuses. Unknown ids and other partners' ids answer 404 (14001).",
      params: SubscriptionIdParams,
      response: { 200: WebhookSubscription, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => getSubscription(runtime.database.kysely, request.caller.partnerId, request.params.subscription_id),
  });
}
