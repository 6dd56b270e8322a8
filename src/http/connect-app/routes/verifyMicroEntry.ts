import { verifyConnectMicroEntry } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { ConnectMicroEntry, ConnectMicroEntryAmounts } from '../../../contract/schemas/connect-app.js';
import { appErrors, linkOf } from './link.js';

/** POST /connect/api/microentry/amounts: the micro entry verification page's answer. */
export default function verifyMicroEntry(app: App, runtime: Runtime): void {
  app.post('/connect/api/microentry/amounts', {
    schema: { hide: true, summary: 'Verify micro entry amounts', body: ConnectMicroEntryAmounts, response: appErrors(ConnectMicroEntry) },
    handler: async (request) => verifyConnectMicroEntry(app.engine, await linkOf(runtime, request), request.body.amounts),
  });
}
