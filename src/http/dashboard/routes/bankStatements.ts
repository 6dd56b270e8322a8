import Type from 'typebox';
import { StatementIndexQuery } from '../../../contract/schemas/bank-statements.js';
import { errorResponses } from '../../../contract/schemas/common.js';
import { getAccountStatement } from '../../../modules/statements/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { sendStatementFile } from '../../api/routes/bankStatements/send.js';

const AccountParams = Type.Object({ customerId: Type.String({ maxLength: 64 }), accountId: Type.String({ maxLength: 64 }) });

/**
 * GET /dashboard/api/customers/:customerId/accounts/:accountId/statement?index=: the customer page's statement links,
 * Get Customer Account Statement (docs/statements.md) for the signed-in partner.
 */
export function accountStatement(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/accounts/:accountId/statement', {
    schema: {
      hide: true,
      summary: "An account's statement as a PDF file",
      params: AccountParams,
      querystring: StatementIndexQuery,
      response: errorResponses(400, 401, 404),
    },
    handler: async (request, reply) => {
      const { customerId, accountId } = request.params;
      const file = await getAccountStatement(runtime, request.dashboard.partnerId, customerId, accountId, request.query.index);
      // A browser's download keeps what the file is.
      return sendStatementFile(reply, file, 'application/pdf');
    },
  });
}
