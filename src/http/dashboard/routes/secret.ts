import { endOtherSessions } from '../../../modules/dashboard/sessions.service.js';
import { changePartnerSecret, unlockWithSecret } from '../../../modules/partners/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { SecretChangeBody, UnlockBody } from '../../../contract/schemas/dashboard.js';
import { dashboardNoContent } from './common.js';

/** POST /dashboard/api/secret: changes the partner secret (current one required); other dashboard sessions end. */
export function changeSecret(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/secret', {
    schema: {
      hide: true,
      summary: 'Change the partner secret',
      body: SecretChangeBody,
      response: dashboardNoContent(),
    },
    handler: async (request, reply) => {
      await changePartnerSecret(runtime, request.dashboard.partnerId, request.body);
      await endOtherSessions(runtime, request.dashboard.partnerId, request.dashboard.sessionId);
      return reply.code(204).send(null);
    },
  });
}

/** POST /dashboard/api/unlock: lifts a lock-out, with the current secret. */
export function unlock(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/unlock', {
    schema: {
      hide: true,
      summary: 'Unlock the partner',
      body: UnlockBody,
      response: dashboardNoContent(429),
    },
    handler: async (request, reply) => {
      await unlockWithSecret(runtime, request.dashboard.partnerId, request.body.partnerSecret, request.ip);
      return reply.code(204).send(null);
    },
  });
}
