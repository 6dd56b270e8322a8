import { getCustomerTransaction as getTransaction } from '../../../../modules/aggregation/transactions.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { Transaction, TransactionIdParams } from '../../../../contract/schemas/transactions.js';

/** GET /aggregation/v2/customers/{customerId}/transactions/{transactionId} */
export default function getCustomerTransaction(app: App, runtime: Runtime): void {
  app.get('/aggregation/v2/customers/:customerId/transactions/:transactionId', {
    schema: {
      operationId: 'GetCustomerTransaction',
      tags: ['Transactions'],
      summary: 'Get customer transaction by id',
      description:
        "One transaction of the customer. Another customer's transaction id, or one that was deleted (a pending transaction the institution dropped), is 404.",
      params: TransactionIdParams,
      response: { 200: Transaction, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => getTransaction(runtime, request.caller.partnerId, request.params.customerId, request.params.transactionId),
  });
}
