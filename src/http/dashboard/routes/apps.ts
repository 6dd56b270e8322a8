import { DashboardApps } from '../../../contract/schemas/dashboard.js';
import { dashboardApps } from '../../../modules/apps/service.js';
import { epochSeconds } from '../../../platform/clock.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { dashboardResponses } from './common.js';

/** GET /dashboard/api/apps: the partner's app registrations with their status and what each app holds. */
export function getApps(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/apps', {
    schema: { hide: true, summary: 'App registrations', response: dashboardResponses(DashboardApps) },
    handler: async (request) => ({
      mode: runtime.config.mode,
      now: epochSeconds(runtime.clock),
      apps: await dashboardApps(runtime, request.dashboard.partnerId),
    }),
  });
}
