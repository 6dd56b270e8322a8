import Type from 'typebox';
import { errorResponses } from '../../../contract/schemas/common.js';
import { ExportQuery } from '../../../contract/schemas/exports.js';
import { prepareExport } from '../../../modules/exports/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { sendExport } from '../../export-file.js';

const Params = Type.Object({ customerId: Type.String({ maxLength: 64 }) });
const AccountParams = Type.Object({ customerId: Type.String({ maxLength: 64 }), accountId: Type.String({ maxLength: 64 }) });

/**
 * GET /dashboard/api/customers/:customerId/export?format=: the customer page's download links, the API's export
 * (docs/exports.md) for the signed-in partner.
 */
export function exportCustomer(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/export', {
    schema: { hide: true, summary: "Export a customer's transactions", params: Params, querystring: ExportQuery, response: errorResponses(400, 401, 404) },
    handler: async (request, reply) =>
      sendExport(reply, await prepareExport(runtime, { partnerId: request.dashboard.partnerId, customerId: request.params.customerId, ...request.query })),
  });
}

/** GET /dashboard/api/customers/:customerId/accounts/:accountId/export?format=: one account's download links. */
export function exportAccount(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/accounts/:accountId/export', {
    schema: {
      hide: true,
      summary: "Export an account's transactions",
      params: AccountParams,
      querystring: ExportQuery,
      response: errorResponses(400, 401, 404),
    },
    handler: async (request, reply) => {
      const { customerId, accountId } = request.params;
      return sendExport(reply, await prepareExport(runtime, { partnerId: request.dashboard.partnerId, customerId, accountId, ...request.query }));
    },
  });
}
