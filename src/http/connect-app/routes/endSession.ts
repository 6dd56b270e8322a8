import { cancelSession, finishSession } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { ConnectEndBody, ConnectRedirect } from '../../../contract/schemas/connect-app.js';
import { appErrors, linkOf } from './link.js';

/** POST /connect/api/done (webhook `done`; spends a single-use link) and POST /connect/api/cancel (webhook `cancelled`). */
export default function endSession(app: App, runtime: Runtime): void {
  app.post('/connect/api/done', {
    schema: { hide: true, summary: 'Finish Connect', body: ConnectEndBody, response: appErrors(ConnectRedirect) },
    handler: async (request) => finishSession(app.engine, await linkOf(runtime, request), request.body.reason || 'done'),
  });
  app.post('/connect/api/cancel', {
    schema: { hide: true, summary: 'Leave Connect', body: ConnectEndBody, response: appErrors(ConnectRedirect) },
    handler: async (request) => cancelSession(app.engine, await linkOf(runtime, request), request.body.reason || 'exit'),
  });
}
