import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { SubscriptionEventParams, TestQueued } from '../../../../contract/schemas/webhook-subscriptions.js';
import { testSubscription } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /notification-subscriptions/webhooks/{subscription_id}/events/{webhook_event_id}/test-subscriptions */
export default function testWebhookSubscriptionBasedOnEventId(app: App, runtime: Runtime): void {
  app.get('/notification-subscriptions/webhooks/:subscription_id/events/:webhook_event_id/test-subscriptions', {
    schema: {
      operationId: 'TestWebhookSubscriptionBasedOnEventId',
      tags: ['Webhook Subscription'],
      summary: 'Test Webhook Subscription Based on Event ID',
      description:
        'Queues a test notification (test: true) to one event of the subscription, whatever its status (200, no body). 404 for an unknown subscription or event.',
      params: SubscriptionEventParams,
      response: { 200: TestQueued, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await testSubscription(runtime, request.caller.partnerId, request.params.subscription_id, request.params.webhook_event_id);
      // The reference's 200 has no body: sent as nothing at all, not as a serialised null.
      return (reply as FastifyReply).code(200).send();
    },
  });
}
