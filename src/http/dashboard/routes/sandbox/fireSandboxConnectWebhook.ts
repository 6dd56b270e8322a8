import { fireConnectWebhook } from '../../../../modules/sandbox/controls.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { FiredConnectWebhook, SandboxWebhookBody } from '../../../../contract/schemas/dashboard.js';
import { CustomerParams, callerOf, dashboardResponses } from '../common.js';

/** POST /dashboard/api/customers/:customerId/sandbox/webhook: fires a Connect webhook of the customer, as /sandbox/v1 does. */
export default function fireSandboxConnectWebhook(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/customers/:customerId/sandbox/webhook', {
    schema: {
      hide: true,
      summary: 'Fire a Connect webhook',
      params: CustomerParams,
      body: SandboxWebhookBody,
      response: dashboardResponses(FiredConnectWebhook, 409),
    },
    handler: async (request) =>
      fireConnectWebhook(app.engine, await callerOf(runtime, request.dashboard.partnerId), {
        customerId: request.params.customerId,
        eventType: request.body.eventType,
      }),
  });
}
