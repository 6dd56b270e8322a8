import { createTestTransaction } from '../../../../modules/txpush/test-transaction.service.js';
import type { App } from '../../../app-types.js';
import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CreatedTestTxPushTransaction, TestTxPushTransaction } from '../../../../contract/schemas/txpush.js';

/** POST /aggregation/v1/customers/{customerId}/accounts/{accountId}/transactions */
export default function createTxPushTestTransaction(app: App): void {
  app.post('/aggregation/v1/customers/:customerId/accounts/:accountId/transactions', {
    schema: {
      operationId: 'CreateTxPushTestTransaction',
      tags: ['TxPush'],
      summary: 'Create a TxPush test transaction',
      description:
        "Adds a transaction to an account at a test institution (403, 14089 otherwise), after its initial aggregation (409, 14064 before), and so sends the account's listeners a transaction `created` and an account `modified` notification. An active transaction moves the balance by its amount. The transaction is readable like any other; a later refresh keeps an active one and drops a pending one, as the institution does not show it.",
      params: AccountParams,
      body: TestTxPushTransaction,
      response: { 201: CreatedTestTxPushTransaction, ...errorResponses(400, 401, 403, 404, 406, 409) },
    },
    handler: async (request, reply) => {
      const created = await createTestTransaction(app.engine, request.caller.partnerId, request.params.customerId, request.params.accountId, request.body);
      return reply.code(201).send(created);
    },
  });
}
