import { errorResponses } from '../../../../contract/schemas/common.js';
import { AvailableWebhookEvents } from '../../../../contract/schemas/webhook-subscriptions.js';
import { availableEvents } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /notification-subscriptions/webhooks/events */
export default function listAvailableWebhookSubscriptionEvents(app: App, _runtime: Runtime): void {
  app.get('/notification-subscriptions/webhooks/events', {
    schema: {
      operationId: 'ListAvailableWebhookSubscriptionEvents',
      tags: ['Webhook Subscription'],
      summary: 'List Available Webhook Subscription Events',
      description:
        'Every event Ledgerlink sends to webhook subscriptions: account and transaction changes (manage.txpush.*), a consent ending within seven days (authorization.accesstoken.expiry) and the steps of Connect sessions (connect.*), with the fields a condition may filter each on.',
      response: { 200: AvailableWebhookEvents, ...errorResponses(401, 406) },
    },
    handler: async () => availableEvents(),
  });
}
