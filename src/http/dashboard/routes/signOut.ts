import { endSession } from '../../../modules/dashboard/sessions.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { setSessionCookie } from '../../plugins/dashboard.js';
import { dashboardNoContent } from './common.js';

/** POST /dashboard/api/signout: deletes the session server-side and clears the cookie. */
export default function signOut(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/signout', {
    schema: { hide: true, summary: 'Dashboard sign-out', response: dashboardNoContent() },
    handler: async (request, reply) => {
      await endSession(runtime, request.dashboard.sessionId);
      setSessionCookie(request, reply, '', 0);
      return reply.code(204).send(null);
    },
  });
}
