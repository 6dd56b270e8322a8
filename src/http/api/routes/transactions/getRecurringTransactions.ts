import Type from 'typebox';
import { getRecurringTransactions } from '../../../../modules/aggregation/recurring.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { CustomerIdParam } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { RecurringTransactions, RecurringTransactionsRequest } from '../../../../contract/schemas/recurring.js';

/** POST /aggregation/customers/{customerId}/recurring-transactions */
export default function getRecurringTransactionsRoute(app: App, runtime: Runtime): void {
  app.post('/aggregation/customers/:customerId/recurring-transactions', {
    schema: {
      operationId: 'GetRecurringTransactions',
      tags: ['Transactions'],
      summary: 'Get Recurring Transactions for Customer',
      description:
        "Recurring debit and credit streams among the posted transactions of the given accounts (all of the customer's when `accountIds` is absent or empty): the same payee, amounts within a quarter of their median, at least three at a steady cadence from weekly to annually (docs/aggregation.md). Amounts are magnitudes. 404 for an unknown customer or account (14001) or a customer without accounts (16412).",
      params: Type.Object(CustomerIdParam),
      body: Type.Optional(RecurringTransactionsRequest),
      response: { 200: RecurringTransactions, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => getRecurringTransactions(runtime, request.caller.partnerId, request.params.customerId, request.body?.accountIds ?? []),
  });
}
