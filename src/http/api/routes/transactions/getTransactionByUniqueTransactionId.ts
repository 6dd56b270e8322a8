import { errorResponses } from '../../../../contract/schemas/common.js';
import { Transaction, UniqueTransactionIdParams } from '../../../../contract/schemas/transactions.js';
import { getCustomerTransactionByUniqueId } from '../../../../modules/aggregation/transactions.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/customers/{customerId}/transactions/{uniqueTransactionId} */
export default function getTransactionByUniqueTransactionId(app: App, runtime: Runtime): void {
  app.get('/aggregation/customers/:customerId/transactions/:uniqueTransactionId', {
    schema: {
      operationId: 'GetTransactionByUniqueTransactionId',
      tags: ['Transactions'],
      summary: 'Get transaction by unique transaction id',
      description:
        "One transaction of the customer, named by its account's id and its own joined by a hyphen (`accountId-transactionId`), the same record as Get Customer Transaction. 404 when the customer has no such transaction in that account (another customer's, a deleted one); 400 (10010) when the id is not two ids joined by a hyphen. See docs/aggregation.md.",
      params: UniqueTransactionIdParams,
      response: { 200: Transaction, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) =>
      getCustomerTransactionByUniqueId(runtime, request.caller.partnerId, request.params.customerId, request.params.uniqueTransactionId),
  });
}
