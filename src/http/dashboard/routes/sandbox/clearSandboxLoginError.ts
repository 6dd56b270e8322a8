import { clearLoginError } from '../../../../modules/sandbox/controls.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { LoginErrorState } from '../../../../contract/schemas/dashboard.js';
import { LoginParams, callerOf, dashboardResponses } from '../common.js';

/** POST /dashboard/api/customers/:customerId/sandbox/logins/:institutionLoginId/clear: clears the login's error state, as /sandbox/v1 does. */
export default function clearSandboxLoginError(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/customers/:customerId/sandbox/logins/:institutionLoginId/clear', {
    schema: { hide: true, summary: 'Clear a login error state', params: LoginParams, response: dashboardResponses(LoginErrorState, 409) },
    handler: async (request) =>
      clearLoginError(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId, request.params.institutionLoginId),
  });
}
