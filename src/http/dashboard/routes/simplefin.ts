import Type from 'typebox';
import { errorResponses } from '../../../contract/schemas/common.js';
import { DashboardSimplefinAccessList, DashboardSimplefinToken, DashboardSimplefinTokenBody } from '../../../contract/schemas/dashboard.js';
import { listAccesses, mintSetupToken, revokeAccess } from '../../../modules/simplefin/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { CustomerParams, dashboardNoContent, dashboardResponses } from './common.js';

const base = '/dashboard/api/customers/:customerId/simplefin';

/** GET /dashboard/api/customers/:customerId/simplefin/accesses: the customer's SimpleFIN accesses, as the API lists them. */
export function getSimplefinAccesses(app: App, runtime: Runtime): void {
  app.get(`${base}/accesses`, {
    schema: { hide: true, summary: "A customer's SimpleFIN accesses", params: CustomerParams, response: dashboardResponses(DashboardSimplefinAccessList) },
    handler: async (request) => ({ accesses: await listAccesses(runtime, request.dashboard.partnerId, request.params.customerId) }),
  });
}

/** POST /dashboard/api/customers/:customerId/simplefin/tokens: a setup token, as the API mints it (201; 409 14180 without a public URL). */
export function createSimplefinToken(app: App, runtime: Runtime): void {
  app.post(`${base}/tokens`, {
    schema: {
      hide: true,
      summary: 'Create a SimpleFIN setup token',
      params: CustomerParams,
      body: DashboardSimplefinTokenBody,
      response: { 201: DashboardSimplefinToken, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await mintSetupToken(runtime, request.dashboard.partnerId, request.params.customerId, request.body?.accountIds)),
  });
}

/** DELETE /dashboard/api/customers/:customerId/simplefin/accesses/:accessId: revokes an access (204). */
export function revokeSimplefinAccess(app: App, runtime: Runtime): void {
  app.delete(`${base}/accesses/:accessId`, {
    schema: {
      hide: true,
      summary: 'Revoke a SimpleFIN access',
      params: Type.Object({ ...CustomerParams.properties, accessId: Type.String({ maxLength: 64 }) }),
      response: dashboardNoContent(),
    },
    handler: async (request, reply) => {
      await revokeAccess(runtime, request.dashboard.partnerId, request.params.customerId, request.params.accessId);
      return reply.code(204).send(null);
    },
  });
}
