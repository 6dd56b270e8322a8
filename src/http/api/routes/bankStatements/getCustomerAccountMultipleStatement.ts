import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { CustomerAccountMultipleStatements, StatementIndexesQuery } from '../../../../contract/schemas/bank-statements.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { listAccountStatements } from '../../../../modules/statements/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/v3/customers/{customerId}/accounts/{accountId}/statement */
export default function getCustomerAccountMultipleStatement(app: App, runtime: Runtime): void {
  app.get('/aggregation/v3/customers/:customerId/accounts/:accountId/statement', {
    schema: {
      operationId: 'GetCustomerAccountMultipleStatement',
      tags: ['Bank Statements'],
      summary: 'Get Customer Account Multiple Statement Details',
      description:
        'Details of the statements at the comma-separated `index`es (default 1, each 1 to 24), one entry per index in the order asked: the asset id to fetch the statement with (Get Asset by Customer and ID), its period (`description`) and date (`documentDate`, the last day of the period); for an index without a statement with transactions, `code` 16201 and `message` instead. `asOfDate` is when it was asked (the customer clock). A malformed list answers 400 (10010). See docs/statements.md.',
      params: AccountParams,
      querystring: StatementIndexesQuery,
      response: { 200: CustomerAccountMultipleStatements, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) =>
      listAccountStatements(runtime, request.caller.partnerId, request.params.customerId, request.params.accountId, request.query.index),
  });
}
