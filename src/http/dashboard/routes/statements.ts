import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { statementInstitutions, uploadCustomerStatement } from '../../../modules/dashboard/statements.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { errorResponses } from '../../../contract/schemas/common.js';
import { StatementUploaded } from '../../../contract/schemas/connect-app.js';
import { DashboardInstitutionPage } from '../../../contract/schemas/dashboard.js';
import { StatementUploadQuery } from '../../../contract/schemas/statements.js';
import { holdHeavySlot, refuseUnread } from '../../plugins/heavy-work.js';
import { acceptStatementFiles, allowLongAnswer, STATEMENT_BODY_LIMIT, uploadOptions } from '../../plugins/statement-files.js';
import { CustomerParams, dashboardResponses } from './common.js';

/** GET /dashboard/api/customers/:customerId/institutions?search&limit: where the customer may upload statement files, best matches first. */
export function getStatementInstitutions(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/institutions', {
    schema: {
      hide: true,
      summary: 'Institutions a customer may upload statement files for',
      params: CustomerParams,
      querystring: Type.Object({
        search: Type.Optional(Type.String({ maxLength: 255 })),
        limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 }),
      }),
      response: dashboardResponses(DashboardInstitutionPage),
    },
    handler: async (request) => statementInstitutions(runtime, request.dashboard.partnerId, request.params.customerId, request.query),
  });
}

/**
 * POST /dashboard/api/customers/:customerId/institutions/:institutionId/statements: the file as the body, with the
 * API's options in the query; the API's service, limits and refusals, answered as Connect answers an upload.
 */
export function uploadStatement(app: App): void {
  // Its own scope: the body is the file, in whatever type it came (see acceptStatementFiles).
  void app.register(async (scope: FastifyInstance) => {
    acceptStatementFiles(scope);
    (scope as App).post('/dashboard/api/customers/:customerId/institutions/:institutionId/statements', {
      bodyLimit: STATEMENT_BODY_LIMIT,
      schema: {
        hide: true,
        summary: 'Upload a statement file for a customer',
        params: Type.Object({ ...CustomerParams.properties, institutionId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        // An upload's options, by name: this call always stores what it reads.
        querystring: Type.Pick(StatementUploadQuery, ['format', 'mapping', 'accountName', 'accountType', 'currency', 'sameAs']),
        response: { 200: StatementUploaded, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429) },
      },
      // After the session check (the scope's hook), before the body: a partner over its limit sends no 10 MB first.
      onRequest: async (request, reply) => {
        try {
          holdHeavySlot(app.heavyWork, request, reply, request.dashboard.partnerId, 'upload');
        } catch (error) {
          throw refuseUnread(reply, error);
        }
      },
      handler: async (request) => {
        allowLongAnswer(request);
        return uploadCustomerStatement(
          app.engine,
          { partnerId: request.dashboard.partnerId, customerId: request.params.customerId, institutionId: request.params.institutionId },
          uploadOptions(request.query, request.body, request.headers['content-type']),
        );
      },
    });
  });
}
