import { resetCustomer } from '../../../../modules/sandbox/controls.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { CustomerResetResult } from '../../../../contract/schemas/dashboard.js';
import { CustomerParams, callerOf, dashboardResponses } from '../common.js';

/** POST /dashboard/api/customers/:customerId/sandbox/reset: resets the customer, as /sandbox/v1 does. */
export default function resetSandboxCustomer(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/customers/:customerId/sandbox/reset', {
    schema: { hide: true, summary: 'Reset a customer', params: CustomerParams, response: dashboardResponses(CustomerResetResult, 409) },
    handler: async (request) => resetCustomer(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId),
  });
}
