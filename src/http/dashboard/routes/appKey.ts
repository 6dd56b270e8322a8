import { revealAppKey, rotateAppKey } from '../../../modules/partners/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { AppKey } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/** GET /dashboard/api/app-key: the current app key, shown on demand. */
export function getAppKey(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/app-key', {
    schema: { hide: true, summary: 'Reveal the app key', response: dashboardResponses(AppKey) },
    handler: async (request) => ({ appKey: await revealAppKey(runtime, request.dashboard.partnerId) }),
  });
}

/** POST /dashboard/api/app-key/rotate: a new app key; the old one is refused from this moment. */
export function rotateKey(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/app-key/rotate', {
    schema: { hide: true, summary: 'Rotate the app key', response: dashboardResponses(AppKey) },
    handler: async (request) => ({ appKey: await rotateAppKey(runtime, request.dashboard.partnerId) }),
  });
}
