import { startConnectSession } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { ConnectSession } from '../../../contract/schemas/connect-app.js';
import { appErrors, openedLinkOf } from './link.js';

/** POST /connect/api/session: the Connect app opened with a link (webhook `started`, for the primary borrower of a joint borrower link). */
export default function startSession(app: App, runtime: Runtime): void {
  app.post('/connect/api/session', {
    schema: { hide: true, summary: 'Open a Connect session', response: appErrors(ConnectSession) },
    handler: async (request) => startConnectSession(app.engine, await openedLinkOf(runtime, request)),
  });
}
