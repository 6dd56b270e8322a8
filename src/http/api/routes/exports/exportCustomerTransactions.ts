import Type from 'typebox';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ExportQuery } from '../../../../contract/schemas/exports.js';
import { CustomerIdParam } from '../../../../contract/schemas/accounts.js';
import { prepareExport } from '../../../../modules/exports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { sendExport } from '../../../export-file.js';
import { EXPORT_DESCRIPTION, EXPORT_FILE_RESPONSE } from './send.js';

/** GET /aggregation/v1/customers/{customerId}/export (Ledgerlink extension): every account of the customer in one file. */
export default function exportCustomerTransactions(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/export', {
    config: { fileAnswer: true },
    schema: {
      operationId: 'ExportCustomerTransactions',
      tags: ['Transactions'],
      summary: "Export a customer's transactions as a file (Ledgerlink extension)",
      description: `Every account of the customer and its transactions in one file. ${EXPORT_DESCRIPTION}`,
      params: Type.Object(CustomerIdParam),
      querystring: ExportQuery,
      response: { 200: EXPORT_FILE_RESPONSE, ...errorResponses(400, 401, 404) },
    },
    handler: async (request, reply) =>
      sendExport(reply, await prepareExport(runtime, { partnerId: request.caller.partnerId, customerId: request.params.customerId, ...request.query })),
  });
}
