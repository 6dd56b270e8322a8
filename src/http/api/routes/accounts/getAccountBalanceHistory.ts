import { accountBalanceHistory } from '../../../../modules/aggregation/balances.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { BalanceHistory, BalanceHistoryQuery } from '../../../../contract/schemas/balances.js';
import { errorResponses } from '../../../../contract/schemas/common.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/{accountId}/balances/history (Ledgerlink extension): the account's daily balances. */
export default function getAccountBalanceHistory(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/accounts/:accountId/balances/history', {
    schema: {
      operationId: 'GetAccountBalanceHistory',
      tags: ['Accounts'],
      summary: 'Get account balance history (Ledgerlink extension)',
      description:
        "The account's balance on each UTC day from the day holding `fromDate` to the day holding `toDate` (epoch seconds, inclusive; both optional), oldest first: the balance a refresh read (`refresh`), a statement file's closing balance at its date (`statement`), or a balance worked out backwards from the account's posted transactions and a later observed one (`derived`: checking, savings, credit card and line of credit accounts). One per day: a later observation replaces an earlier one, an observed balance a derived one. Days with no balance are absent. See docs/aggregation.md, \"Balance history\".",
      params: AccountParams,
      querystring: BalanceHistoryQuery,
      response: { 200: BalanceHistory, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => accountBalanceHistory(runtime, request.caller.partnerId, request.params.customerId, request.params.accountId, request.query),
  });
}
