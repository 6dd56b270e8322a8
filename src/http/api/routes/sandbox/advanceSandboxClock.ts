import { advanceClock } from '../../../../modules/sandbox/controls.service.js';
import type { App } from '../../../app-types.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ClockAdvanceRequest, ClockAdvanceResult } from '../../../../contract/schemas/sandbox.js';

/** POST /sandbox/v1/customers/{customerId}/clock */
export default function advanceSandboxClock(app: App): void {
  app.post('/sandbox/v1/customers/:customerId/clock', {
    schema: {
      operationId: 'AdvanceSandboxClock',
      tags: ['Sandbox'],
      summary: "Advance a customer's clock",
      description:
        "Moves the customer's clock ahead by `days` and refreshes each of its institution logins at the new time, as a scheduled aggregation would: the transactions of the skipped days appear, pending ones post, and subscribed listeners receive the events of those changes. Test Drive partners only (403, 14090).",
      params: CustomerIdParams,
      body: ClockAdvanceRequest,
      response: { 200: ClockAdvanceResult, ...errorResponses(400, 401, 403, 404, 406, 409) },
    },
    handler: async (request) => advanceClock(app.engine, request.caller, request.params.customerId, request.body.days),
  });
}
