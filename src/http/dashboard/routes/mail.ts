import Type from 'typebox';
import { listMail } from '../../../outbox/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { Mailbox } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/** GET /dashboard/api/mail: the partner's e-mail kept in the local mailbox, newest first. */
export function getMail(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/mail', {
    schema: {
      hide: true,
      summary: 'Mailbox',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }) }),
      response: dashboardResponses(Mailbox),
    },
    handler: async (request) => ({
      messages: (await listMail(runtime.database.kysely, { partnerId: request.dashboard.partnerId, limit: request.query.limit })).map(
        ({ partnerId: _p, ...m }) => m,
      ),
    }),
  });
}
