import Type from 'typebox';
import { listAccountTransactions } from '../../../../modules/aggregation/transactions.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { cachedCustomerRead } from '../../../response-cache.js';
import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { TransactionList, TransactionQuery } from '../../../../contract/schemas/transactions.js';
import { queryOf } from './list-query.js';

/** GET /aggregation/v4/customers/{customerId}/accounts/{accountId}/transactions, and its older twin under v3 that published clients still call. */
export default function getCustomerAccountTransactions(app: App, runtime: Runtime): void {
  for (const { version, operationId, deprecated } of [
    { version: 'v4', operationId: 'GetCustomerAccountTransactions', deprecated: false },
    { version: 'v3', operationId: 'GetCustomerAccountTransactionsV3', deprecated: true },
  ]) {
    app.get(`/aggregation/${version}/customers/:customerId/accounts/:accountId/transactions`, {
      schema: {
        operationId,
        deprecated,
        tags: ['Transactions'],
        summary: deprecated ? 'Get customer account transactions (v3)' : 'Get customer account transactions',
        description:
          "One account's transactions, filtered, ordered and paged exactly like Get All Customer Transactions. Before the account's initial aggregation the answer is 409 (14064). `showDailyBalance` is accepted; daily balances are not computed (docs/compatibility.md).",
        params: AccountParams,
        querystring: Type.Object({
          ...TransactionQuery,
          showDailyBalance: Type.Optional(Type.Boolean({ default: false, description: 'Accepted for compatibility; no daily balances are returned' })),
        }),
        response: { 200: TransactionList, ...errorResponses(400, 401, 404, 406, 409) },
      },
      handler: (request, reply) =>
        cachedCustomerRead(app, request, reply, request.params.customerId, (customer) =>
          listAccountTransactions(runtime, customer, request.params.accountId, queryOf(request.query)),
        ),
    });
  }
}
