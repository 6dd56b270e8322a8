import Type from 'typebox';
import { endOtherSessions } from '../../../modules/dashboard/sessions.js';
import { changePartnerSecret, unlockWithSecret } from '../../../modules/partners/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { RequiredString } from '../../../contract/schemas/common.js';
import { DASHBOARD_API, dashboardResponses } from './common.js';

/** POST /dashboard/api/secret: changes the partner secret (current one required); other dashboard sessions end. */
export function changeSecret(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/secret', {
    ...DASHBOARD_API,
    schema: {
      hide: true,
      summary: 'Change the partner secret',
      body: Type.Object({ partnerSecret: RequiredString({ maxLength: 255 }), newPartnerSecret: Type.String({ maxLength: 255 }) }),
      response: dashboardResponses(),
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
    ...DASHBOARD_API,
    schema: {
      hide: true,
      summary: 'Unlock the partner',
      body: Type.Object({ partnerSecret: RequiredString({ maxLength: 255 }) }),
      response: dashboardResponses(429),
    },
    handler: async (request, reply) => {
      await unlockWithSecret(runtime, request.dashboard.partnerId, request.body.partnerSecret, request.ip);
      return reply.code(204).send(null);
    },
  });
}
