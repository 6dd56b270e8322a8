import { errorResponses } from '../../../../contract/schemas/common.js';
import { WebhookSubscription, WebhookSubscriptionInput } from '../../../../contract/schemas/webhook-subscriptions.js';
import { createSubscription } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /notification-subscriptions/webhooks */
export default function createWebhookSubscription(app: App, runtime: Runtime): void {
  app.post('/notification-subscriptions/webhooks', {
    schema: {
      operationId: 'CreateWebhookSubscription',
      tags: ['Webhook Subscription'],
      summary: 'Create Webhook Subscription',
      description:
        "Subscribes the partner to events by name (GET /notification-subscriptions/webhooks/events lists them) at the url, or at an event's own url; a condition sends only the events whose subscribeFor field (accountId, customerId, institutionId, as the event allows) is among includes and not among excludes. The subscription and its events are active at once (201). Each name once (16306); https on port 443, http for Test Drive partners (16300 to 16303); at most 100 subscriptions (409, 16309). Notifications are signed with the partner's webhook signing key (docs/webhook-subscriptions.md).",
      body: WebhookSubscriptionInput,
      response: { 201: WebhookSubscription, ...errorResponses(400, 401, 406, 409, 415) },
    },
    handler: async (request, reply) => reply.code(201).send(await createSubscription(runtime, request.caller, request.body)),
  });
}
