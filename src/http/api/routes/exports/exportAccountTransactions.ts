import { errorResponses } from '../../../../contract/schemas/common.js';
import { ExportQuery } from '../../../../contract/schemas/exports.js';
import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { prepareExport } from '../../../../modules/exports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { sendExport } from '../../../export-file.js';
import { EXPORT_DESCRIPTION, EXPORT_FILE_RESPONSE } from './send.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/{accountId}/export (Ledgerlink extension): one account in a file. */
export default function exportAccountTransactions(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/accounts/:accountId/export', {
    config: { fileAnswer: true },
    schema: {
      operationId: 'ExportCustomerAccountTransactions',
      tags: ['Transactions'],
      summary: "Export an account's transactions as a file (Ledgerlink extension)",
      description: `One account of the customer and its transactions in a file. ${EXPORT_DESCRIPTION}`,
      params: AccountParams,
      querystring: ExportQuery,
      response: { 200: EXPORT_FILE_RESPONSE, ...errorResponses(400, 401, 404) },
    },
    handler: async (request, reply) => {
      const { customerId, accountId } = request.params;
      return sendExport(reply, await prepareExport(runtime, { partnerId: request.caller.partnerId, customerId, accountId, ...request.query }));
    },
  });
}
