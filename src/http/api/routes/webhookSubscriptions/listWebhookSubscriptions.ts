import { errorResponses } from '../../../../contract/schemas/common.js';
import { WebhookSubscriptionList, WebhookSubscriptionListQuery } from '../../../../contract/schemas/webhook-subscriptions.js';
import { listSubscriptions } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /notification-subscriptions/webhooks */
export default function listWebhookSubscriptions(app: App, runtime: Runtime): void {
  app.get('/notification-subscriptions/webhooks', {
    schema: {
      operationId: 'ListWebhookSubscriptions',
      tags: ['Webhook Subscription'],
      summary: 'List Webhook Subscriptions',
      description:
        "The calling partner's webhook subscriptions, active and inactive, oldest first, with their events. offset is the page (from 1, default 1), limit the page's size (1 to 100, default 10); count is the subscriptions in the page, total all of them.",
      querystring: WebhookSubscriptionListQuery,
      response: { 200: WebhookSubscriptionList, ...errorResponses(400, 401, 406) },
    },
    handler: async (request) =>
      listSubscriptions(runtime.database.kysely, request.caller.partnerId, { offset: request.query.offset ?? 1, limit: request.query.limit ?? 10 }),
  });
}
