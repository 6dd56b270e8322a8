import { setLoginError } from '../../../../modules/sandbox/controls.service.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { LoginErrorRequest, LoginErrorState } from '../../../../contract/schemas/sandbox.js';

/** PUT /sandbox/v1/customers/{customerId}/institutionLogins/{institutionLoginId}/error */
export default function setSandboxLoginError(app: App): void {
  app.put('/sandbox/v1/customers/:customerId/institutionLogins/:institutionLoginId/error', {
    schema: {
      operationId: 'SetSandboxLoginError',
      tags: ['Sandbox'],
      summary: 'Put an institution login into an error state',
      description:
        'The login and its accounts show the aggregation status code at once, and every later refresh or historic load fails with it (error code = status code, docs/aggregation.md), as when the institution answers so, until the user signs in again through Connect Fix (POST /connect/v2/generate/fix) or the state is cleared (DELETE). Codes: 102 (institution down), 103 (credentials rejected), 108 (user action required), 109 (password change required), 185 (MFA answer needed); others are 400, 14091. Test Drive partners only (403, 14090).',
      params: InstitutionLoginParams,
      body: LoginErrorRequest,
      response: { 200: LoginErrorState, ...errorResponses(400, 401, 403, 404, 406) },
    },
    handler: async (request) => setLoginError(app.engine, request.caller, request.params.customerId, request.params.institutionLoginId, request.body.code),
  });
}
