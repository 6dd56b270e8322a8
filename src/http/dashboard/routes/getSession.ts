import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DashboardSession } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses, sessionView } from './common.js';

/** GET /dashboard/api/session: the signed-in partner (plan, lock state) and the session's CSRF token. */
export default function getSession(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/session', {
    schema: { hide: true, summary: 'The dashboard session', response: dashboardResponses(DashboardSession) },
    handler: async (request) => sessionView(runtime, request.dashboard),
  });
}
