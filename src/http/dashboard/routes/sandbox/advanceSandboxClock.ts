import { advanceClock } from '../../../../modules/sandbox/controls.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { ClockAdvanceResult, SandboxClockBody } from '../../../../contract/schemas/dashboard.js';
import { CustomerParams, callerOf, dashboardResponses } from '../common.js';

/** POST /dashboard/api/customers/:customerId/sandbox/clock: moves the customer's clock ahead, as /sandbox/v1 does. */
export default function advanceSandboxClock(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/customers/:customerId/sandbox/clock', {
    schema: {
      hide: true,
      summary: 'Advance a customer clock',
      params: CustomerParams,
      body: SandboxClockBody,
      response: dashboardResponses(ClockAdvanceResult, 409),
    },
    handler: async (request) => advanceClock(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId, request.body.days),
  });
}
