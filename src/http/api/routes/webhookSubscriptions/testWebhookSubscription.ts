import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { SubscriptionIdParams, TestQueued } from '../../../../contract/schemas/webhook-subscriptions.js';
import { testSubscription } from '../../../../modules/webhooks/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /notification-subscriptions/webhooks/{subscription_id}/test-subscriptions */
export default function testWebhookSubscription(app: App, runtime: Runtime): void {
  app.get('/notification-subscriptions/webhooks/:subscription_id/test-subscriptions', {
    schema: {
      operationId: 'TestWebhookSubscription',
      tags: ['Webhook Subscription'],
      summary: 'Test Webhook Subscription Based on Subscription ID',
      description:
        "Queues a test notification (test: true) to each event of the subscription, whatever its status, through the outbox like any other (200, no body); the Deliveries page shows how each went. 404 for an unknown subscription or another partner's.",
      params: SubscriptionIdParams,
      response: { 200: TestQueued, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await testSubscription(runtime, request.caller.partnerId, request.params.subscription_id);
      // The reference's 200 has no body: sent as nothing at all, not as a serialised null.
      return (reply as FastifyReply).code(200).send();
    },
  });
}
