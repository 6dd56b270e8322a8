import { refreshLoginNow } from '../../../modules/dashboard/logins.service.js';
import type { App } from '../../app-types.js';
import { DashboardLoginStatus } from '../../../contract/schemas/dashboard.js';
import { holdHeavySlot } from '../../plugins/heavy-work.js';
import { LoginParams, dashboardResponses } from './common.js';

/** POST /dashboard/api/customers/:customerId/institutionLogins/:institutionLoginId/refresh: refreshes the login now; its status afterwards. */
export function refreshInstitutionLogin(app: App): void {
  app.post('/dashboard/api/customers/:customerId/institutionLogins/:institutionLoginId/refresh', {
    schema: {
      hide: true,
      summary: 'Refresh an institution login now',
      params: LoginParams,
      response: dashboardResponses(DashboardLoginStatus, 409, 429),
    },
    // After the session check (the scope's hook): counts against the partner's refreshes at once, as the API's refresh does.
    onRequest: async (request, reply) => holdHeavySlot(app.heavyWork, request, reply, request.dashboard.partnerId, 'refresh'),
    handler: async (request) => refreshLoginNow(app.engine, request.dashboard.partnerId, request.params.customerId, request.params.institutionLoginId),
  });
}
