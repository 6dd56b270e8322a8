import Type from 'typebox';
import { customerOverview, customerSummary } from '../../../modules/dashboard/customers.service.js';
import { listCustomers } from '../../../modules/customers/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { CustomerOverview, CustomerPage } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/** GET /dashboard/api/customers: the partner's customers, searchable, a page at a time. */
export function getCustomers(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers', {
    schema: {
      hide: true,
      summary: 'Customers',
      querystring: Type.Object({
        search: Type.Optional(Type.String({ maxLength: 255 })),
        start: Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1 }),
        limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
      }),
      response: dashboardResponses(CustomerPage),
    },
    handler: async (request) => {
      const page = await listCustomers(runtime.database.kysely, request.dashboard.partnerId, {
        search: request.query.search,
        start: request.query.start,
        limit: request.query.limit,
      });
      return { found: page.found, moreAvailable: page.moreAvailable, customers: page.customers.map(customerSummary) };
    },
  });
}

/** GET /dashboard/api/customers/:customerId: one customer with institution logins, accounts and latest transactions. */
export function getCustomer(app: App): void {
  app.get('/dashboard/api/customers/:customerId', {
    schema: {
      hide: true,
      summary: 'A customer',
      params: Type.Object({ customerId: Type.String({ maxLength: 64 }) }),
      response: dashboardResponses(CustomerOverview),
    },
    handler: async (request) => customerOverview(app.engine, request.dashboard.partnerId, request.params.customerId),
  });
}
