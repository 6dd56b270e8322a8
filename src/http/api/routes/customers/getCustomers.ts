import Type from 'typebox';
import { listCustomers } from '../../../../modules/customers/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerList } from '../../../../contract/schemas/customers.js';
import { toCustomerRecord } from '../../../../modules/customers/records.js';
import { PagingQuery } from '../../../../contract/schemas/institutions.js';

/** GET /aggregation/v1/customers */
export default function getCustomers(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers', {
    schema: {
      operationId: 'GetCustomers',
      tags: ['Customers'],
      summary: 'Get customers',
      description:
        'The calling partner\'s customers in the order they were added. `search` is found (case-insensitively) in the username, the first or last name, or "first last"; `username` matches exactly; `type` is testing, active or empty for both. `start` (from 1) and `limit` (up to 1000) page the result.',
      querystring: Type.Object({
        search: Type.Optional(Type.String({ maxLength: 255, description: 'Text to find; empty lists every customer' })),
        username: Type.Optional(Type.String({ maxLength: 255, description: 'Exact username (0 or 1 customer)' })),
        type: Type.Optional(Type.String({ maxLength: 20, description: 'testing, active, or empty for all' })),
        ...PagingQuery,
      }),
      response: { 200: CustomerList, ...errorResponses(400, 401, 406) },
    },
    handler: async (request) => {
      const q = request.query;
      const page = await listCustomers(runtime.database.kysely, request.caller.partnerId, {
        search: q.search,
        username: q.username,
        type: q.type,
        start: q.start ?? 1,
        limit: q.limit ?? 25,
      });
      return { found: page.found, displaying: page.displaying, moreAvailable: page.moreAvailable, customers: page.customers.map(toCustomerRecord) };
    },
  });
}
