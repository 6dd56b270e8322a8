import { connectLinkFor } from '../../../modules/dashboard/connect-links.service.js';
import type { App } from '../../app-types.js';
import { DashboardConnectLink, DashboardConnectLinkBody } from '../../../contract/schemas/dashboard.js';
import { CustomerParams, dashboardResponses } from './common.js';

/** POST /dashboard/api/customers/:customerId/connect-links: a Full, Lite or Fix Connect link for the customer. */
export function generateConnectLink(app: App): void {
  app.post('/dashboard/api/customers/:customerId/connect-links', {
    schema: {
      hide: true,
      summary: 'Generate a Connect link',
      params: CustomerParams,
      body: DashboardConnectLinkBody,
      response: dashboardResponses(DashboardConnectLink),
    },
    handler: async (request) => connectLinkFor(app.engine, request.dashboard.partnerId, request.params.customerId, request.body),
  });
}
