import { clearLoginError } from '../../../../modules/sandbox/controls.service.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { LoginErrorState } from '../../../../contract/schemas/sandbox.js';

/** DELETE /sandbox/v1/customers/{customerId}/institutionLogins/{institutionLoginId}/error */
export default function clearSandboxLoginError(app: App): void {
  app.delete('/sandbox/v1/customers/:customerId/institutionLogins/:institutionLoginId/error', {
    schema: {
      operationId: 'ClearSandboxLoginError',
      tags: ['Sandbox'],
      summary: "Clear an institution login's error state",
      description:
        'Ends the error state of the login, whether set through the sandbox or left by a failed aggregation: the login and its accounts show status 0 and refreshes reach the institution again. Test Drive partners only (403, 14090).',
      params: InstitutionLoginParams,
      response: { 200: LoginErrorState, ...errorResponses(401, 403, 404, 406) },
    },
    handler: async (request) => clearLoginError(app.engine, request.caller, request.params.customerId, request.params.institutionLoginId),
  });
}
