import { resetCustomer } from '../../../../modules/sandbox/controls.service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { CustomerResetResult } from '../../../../contract/schemas/sandbox.js';

/** POST /sandbox/v1/customers/{customerId}/reset */
export default function resetSandboxCustomer(app: App): void {
  app.post('/sandbox/v1/customers/:customerId/reset', {
    schema: {
      operationId: 'ResetSandboxCustomer',
      tags: ['Sandbox'],
      summary: 'Reset a customer',
      description:
        "Removes the customer's institution logins, accounts (each with an account `deleted` notification to its subscriptions, the last they get), transactions, TxPUSH subscriptions and sign-in sessions, and sets its clock back to the service clock. The customer itself and its Connect links stay. Test Drive partners only (403, 14090).",
      params: CustomerIdParams,
      response: { 200: CustomerResetResult, ...errorResponses(401, 403, 404, 406) },
    },
    handler: async (request) => resetCustomer(app.engine, request.caller, request.params.customerId),
  });
}
