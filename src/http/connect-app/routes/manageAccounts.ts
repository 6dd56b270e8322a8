import Type from 'typebox';
import { listLogins, removeAccount, removeLogin } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { ConnectLogins } from '../../../contract/schemas/connect-app.js';
import { appErrors, appNoContent, linkOf } from './link.js';

/**
 * Account management (Full links): GET /connect/api/logins, DELETE /connect/api/accounts/{accountId}
 * (webhook `accountsDeleted`), DELETE /connect/api/logins/{institutionLoginId} (webhook `institutionLoginDeleted`).
 */
export default function manageAccounts(app: App, runtime: Runtime): void {
  app.get('/connect/api/logins', {
    schema: { hide: true, summary: 'Linked logins in Connect', response: appErrors(ConnectLogins) },
    handler: async (request) => ({ logins: await listLogins(app.engine, await linkOf(runtime, request)) }),
  });
  app.delete('/connect/api/accounts/:accountId', {
    schema: {
      hide: true,
      summary: 'Delete an account in Connect',
      params: Type.Object({ accountId: Type.String({ maxLength: 32 }) }),
      response: appNoContent(),
    },
    handler: async (request, reply) => {
      await removeAccount(app.engine, await linkOf(runtime, request), request.params.accountId);
      return reply.code(204).send(null);
    },
  });
  app.delete('/connect/api/logins/:institutionLoginId', {
    schema: {
      hide: true,
      summary: 'Delete an institution login in Connect',
      params: Type.Object({ institutionLoginId: Type.String({ maxLength: 32 }) }),
      response: appNoContent(),
    },
    handler: async (request, reply) => {
      await removeLogin(app.engine, await linkOf(runtime, request), request.params.institutionLoginId);
      return reply.code(204).send(null);
    },
  });
}
