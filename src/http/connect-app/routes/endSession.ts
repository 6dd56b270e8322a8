import Type from 'typebox';
import { cancelSession, finishSession } from '../../../modules/connect/session.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { APP_API, appErrors, linkOf } from './link.js';

const Reason = Type.Object({ reason: Type.String({ maxLength: 200, default: '' }) });

/** POST /connect/api/done (webhook `done`; spends a single-use link) and POST /connect/api/cancel (webhook `cancelled`). */
export default function endSession(app: App, runtime: Runtime): void {
  app.post('/connect/api/done', {
    ...APP_API,
    schema: { hide: true, summary: 'Finish Connect', body: Reason, response: appErrors() },
    handler: async (request) => finishSession(app.engine, await linkOf(runtime, request), request.body.reason || 'done'),
  });
  app.post('/connect/api/cancel', {
    ...APP_API,
    schema: { hide: true, summary: 'Leave Connect', body: Reason, response: appErrors() },
    handler: async (request) => cancelSession(app.engine, await linkOf(runtime, request), request.body.reason || 'exit'),
  });
}
