import Type from 'typebox';
import { listCustomerTransactions } from '../../../../modules/aggregation/transactions.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { cachedCustomerRead } from '../../../response-cache.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { TransactionList, TransactionQuery } from '../../../../contract/schemas/transactions.js';
import { queryOf } from './list-query.js';

/** GET /aggregation/v3/customers/{customerId}/transactions */
export default function getAllCustomerTransactions(app: App, runtime: Runtime): void {
  app.get('/aggregation/v3/customers/:customerId/transactions', {
    schema: {
      operationId: 'GetAllCustomerTransactions',
      tags: ['Transactions'],
      summary: 'Get all customer transactions',
      description:
        "The customer's transactions across all accounts dated from `fromDate` to `toDate` (inclusive; the date is the transaction date, or the posted date when the institution gives none), ordered by that date and then id (`sort` asc or desc, default desc), paged by `start` (from 1) and `limit` (default 25, at most 1000). Pending transactions are left out unless `includePending=true`. Only aggregated accounts have transactions; when the customer has accounts and none has been aggregated yet, the answer is 409 (14064): call Refresh Customer Accounts first.",
      params: Type.Object({ customerId: Type.String({ description: 'Customer id' }) }),
      querystring: Type.Object(TransactionQuery),
      response: { 200: TransactionList, ...errorResponses(400, 401, 404, 406, 409) },
    },
    handler: (request, reply) =>
      cachedCustomerRead(app, request, reply, request.params.customerId, (customer) => listCustomerTransactions(runtime, customer, queryOf(request.query))),
  });
}
