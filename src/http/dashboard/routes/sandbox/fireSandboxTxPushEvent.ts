import { fireTxPushEvent } from '../../../../modules/sandbox/controls.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { FiredTxPushEvent, SandboxTxPushBody } from '../../../../contract/schemas/dashboard.js';
import { CustomerParams, callerOf, dashboardResponses } from '../common.js';

/** POST /dashboard/api/customers/:customerId/sandbox/txpush: fires a TxPUSH event of one of the customer's accounts, as /sandbox/v1 does. */
export default function fireSandboxTxPushEvent(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/customers/:customerId/sandbox/txpush', {
    schema: {
      hide: true,
      summary: 'Fire a TxPUSH event',
      params: CustomerParams,
      body: SandboxTxPushBody,
      response: dashboardResponses(FiredTxPushEvent, 409),
    },
    handler: async (request) =>
      fireTxPushEvent(app.engine, await callerOf(runtime, request.dashboard.partnerId), {
        customerId: request.params.customerId,
        accountId: request.body.accountId,
        eventType: request.body.eventType,
      }),
  });
}
