import { createActiveCustomer, ownBankOverview } from '../../../modules/dashboard/own-bank.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { errorResponses } from '../../../contract/schemas/common.js';
import { CustomerSummary, DashboardCustomerBody, OwnBankOverview } from '../../../contract/schemas/dashboard.js';
import { callerOf, dashboardResponses } from './common.js';

/** GET /dashboard/api/own-bank: the checks of the "Your own bank data" page. */
export function getOwnBank(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/own-bank', {
    schema: { hide: true, summary: 'Your own bank data: plan, mode and active customers', response: dashboardResponses(OwnBankOverview) },
    handler: async (request) => ownBankOverview(app.engine, await callerOf(runtime, request.dashboard.partnerId)),
  });
}

/** POST /dashboard/api/own-bank/customers: adds an active customer (201), by the rules of Add Customer (14060 for Test Drive). */
export function createOwnBankCustomer(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/own-bank/customers', {
    schema: {
      hide: true,
      summary: 'Add an active customer',
      body: DashboardCustomerBody,
      response: { 201: CustomerSummary, ...errorResponses(400, 401, 403, 409) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await createActiveCustomer(runtime, await callerOf(runtime, request.dashboard.partnerId), request.body)),
  });
}
