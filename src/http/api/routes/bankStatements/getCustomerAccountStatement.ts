import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { StatementIndexQuery } from '../../../../contract/schemas/bank-statements.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { getAccountStatement } from '../../../../modules/statements/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { sendStatementFile, STATEMENT_FILE_RESPONSE } from './send.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/{accountId}/statement */
export default function getCustomerAccountStatement(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/accounts/:accountId/statement', {
    config: { fileAnswer: true },
    schema: {
      operationId: 'GetCustomerAccountStatement',
      tags: ['Bank Statements'],
      summary: 'Get Customer Account Statement',
      description:
        "The account's statement at `index` (1 the most recent, up to 24) as a PDF file, made from the transactions and daily balances Ledgerlink stored: the institution, the masked account number, the owner where the source named one, the period, the opening and closing balances and every posted transaction of the period with its running balance (at most 5,000; the summary counts them all). " +
        'A statement is a calendar month that has ended, or the period an uploaded statement file gave the account (its first to its last transaction day); every account type has statements. ' +
        'An index with no statement, or whose period has no transactions, answers 404 (16201). The file is sent as application/octet-stream whatever Accept asks; errors come in JSON, or XML when Accept asks for it. See docs/statements.md.',
      params: AccountParams,
      querystring: StatementIndexQuery,
      response: { 200: STATEMENT_FILE_RESPONSE('The statement, a PDF file'), ...errorResponses(400, 401, 404) },
    },
    handler: async (request, reply) => {
      const { customerId, accountId } = request.params;
      return sendStatementFile(reply, await getAccountStatement(runtime, request.caller.partnerId, customerId, accountId, request.query.index));
    },
  });
}
