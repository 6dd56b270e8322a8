import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DASHBOARD_API, dashboardResponses, sessionView } from './common.js';

/** GET /dashboard/api/session: the signed-in partner (plan, lock state) and the session's CSRF token. */
export default function getSession(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/session', {
    ...DASHBOARD_API,
    schema: { hide: true, summary: 'The dashboard session', response: dashboardResponses() },
    handler: async (request) => sessionView(runtime, request.dashboard),
  });
}
