import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DashboardSettings } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/** Signed out as well (the sign-in page asks), and a GET: neither a session nor the authentication rate limit. */

/** GET /dashboard/api/settings: what the signed-out pages may offer (sign-up only when the operator allows it). */
export default function getSettings(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/settings', {
    schema: { hide: true, summary: 'Dashboard settings', response: dashboardResponses(DashboardSettings) },
    handler: async () => ({ signUp: runtime.config.dashboardSignUp }),
  });
}
