import { DashboardCustomerConsumer } from '../../../contract/schemas/dashboard.js';
import { findConsumerOfCustomer } from '../../../modules/consumers/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { CustomerParams, dashboardResponses } from './common.js';

/** GET /dashboard/api/customers/:customerId/consumer: the customer's consumer as the API answers it, or none. */
export function getCustomerConsumer(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/consumer', {
    schema: { hide: true, summary: "A customer's consumer", params: CustomerParams, response: dashboardResponses(DashboardCustomerConsumer) },
    handler: async (request) => {
      const consumer = await findConsumerOfCustomer(runtime, request.dashboard.partnerId, request.params.customerId);
      return consumer ? { consumer } : {};
    },
  });
}
