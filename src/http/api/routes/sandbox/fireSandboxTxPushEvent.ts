import { fireTxPushEvent } from '../../../../modules/sandbox/controls.service.js';
import type { App } from '../../../app-types.js';
import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { FiredTxPushEvent, TxPushEventRequest } from '../../../../contract/schemas/sandbox.js';

/** POST /sandbox/v1/customers/{customerId}/accounts/{accountId}/txpush/events */
export default function fireSandboxTxPushEvent(app: App): void {
  app.post('/sandbox/v1/customers/:customerId/accounts/:accountId/txpush/events', {
    schema: {
      operationId: 'FireSandboxTxPushEvent',
      tags: ['Sandbox'],
      summary: 'Fire a TxPush event',
      description:
        "Sends the account's TxPush subscriptions of the event's class a notification, carrying the account's current record or one of its transactions (`transactionId`, by default the latest), through the same outbox path as a real change: same body, signing and retries. Nothing changes: a fired account.deleted leaves the account and its subscriptions in place. 409 when the account has no subscription of that class (14094) or no transaction (14095). Test Drive partners only (403, 14090).",
      params: AccountParams,
      body: TxPushEventRequest,
      response: { 202: FiredTxPushEvent, ...errorResponses(400, 401, 403, 404, 406, 409) },
    },
    handler: async (request, reply) => {
      const fired = await fireTxPushEvent(app.engine, request.caller, {
        customerId: request.params.customerId,
        accountId: request.params.accountId,
        ...request.body,
      });
      return reply.code(202).send(fired);
    },
  });
}
