import Type from 'typebox';
import { createTestingCustomer, customerOverview, customerSummary } from '../../../modules/dashboard/customers.service.js';
import { customerTransactionsPage } from '../../../modules/dashboard/transactions.service.js';
import { listCustomers } from '../../../modules/customers/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { errorResponses } from '../../../contract/schemas/common.js';
import { CustomerOverview, CustomerPage, CustomerSummary, DashboardCustomerBody, DashboardTransactionPage } from '../../../contract/schemas/dashboard.js';
import { CustomerParams, callerOf, dashboardResponses } from './common.js';

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

/** POST /dashboard/api/customers: adds a testing customer (201), by the rules of Add Testing Customer. */
export function createCustomer(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/customers', {
    schema: {
      hide: true,
      summary: 'Add a testing customer',
      body: DashboardCustomerBody,
      response: { 201: CustomerSummary, ...errorResponses(400, 401, 403, 409) },
    },
    handler: async (request, reply) => {
      const created = await createTestingCustomer(runtime, await callerOf(runtime, request.dashboard.partnerId), request.body);
      return reply.code(201).send(created);
    },
  });
}

/** GET /dashboard/api/customers/:customerId: one customer with institution logins and accounts. */
export function getCustomer(app: App): void {
  app.get('/dashboard/api/customers/:customerId', {
    schema: {
      hide: true,
      summary: 'A customer',
      params: CustomerParams,
      response: dashboardResponses(CustomerOverview),
    },
    handler: async (request) => customerOverview(app.engine, request.dashboard.partnerId, request.params.customerId),
  });
}

/** GET /dashboard/api/customers/:customerId/transactions?account&page&limit: newest first by posted date, a page at a time. */
export function getCustomerTransactions(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/transactions', {
    schema: {
      hide: true,
      summary: "A customer's transactions",
      params: CustomerParams,
      querystring: Type.Object({
        account: Type.Optional(Type.String({ maxLength: 64 })),
        page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
        limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
      }),
      response: dashboardResponses(DashboardTransactionPage),
    },
    handler: async (request) =>
      customerTransactionsPage(runtime, request.dashboard.partnerId, request.params.customerId, {
        accountId: request.query.account || undefined,
        page: request.query.page,
        limit: request.query.limit,
      }),
  });
}
