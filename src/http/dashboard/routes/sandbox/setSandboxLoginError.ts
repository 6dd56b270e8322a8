import { setLoginError } from '../../../../modules/sandbox/controls.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { LoginErrorState, SandboxLoginErrorBody } from '../../../../contract/schemas/dashboard.js';
import { LoginParams, callerOf, dashboardResponses } from '../common.js';

/** POST /dashboard/api/customers/:customerId/sandbox/logins/:institutionLoginId/error: puts the login into an error state, as /sandbox/v1 does. */
export default function setSandboxLoginError(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/customers/:customerId/sandbox/logins/:institutionLoginId/error', {
    schema: {
      hide: true,
      summary: 'Put a login into an error state',
      params: LoginParams,
      body: SandboxLoginErrorBody,
      response: dashboardResponses(LoginErrorState, 409),
    },
    handler: async (request) =>
      setLoginError(
        app.engine,
        await callerOf(runtime, request.dashboard.partnerId),
        request.params.customerId,
        request.params.institutionLoginId,
        request.body.code,
      ),
  });
}
