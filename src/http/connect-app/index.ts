/**
 * The hosted Connect app: its pages, assets and the JSON API behind them, authenticated by the signed Connect
 * link each call carries (checked by the routes through link.ts), never by a partner token. JSON only, not in
 * the request log.
 */
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../platform/dependencies.js';
import type { App, RouteModule } from '../app-types.js';
import { requireTls } from '../plugins/transport.js';
import { nameScope } from '../scopes.js';
import connectPages from './routes/pages.js';
import testBankOAuth from './routes/testBankOAuth.js';
import startSession from './routes/startSession.js';
import searchConnectInstitutions from './routes/searchInstitutions.js';
import selectInstitution from './routes/selectInstitution.js';
import signIn from './routes/signIn.js';
import signInSteps from './routes/signInSteps.js';
import manageAccounts from './routes/manageAccounts.js';
import uploadStatement from './routes/uploadStatement.js';
import endSession from './routes/endSession.js';
import verifyMicroEntry from './routes/verifyMicroEntry.js';

export async function connectAppScope(scope: FastifyInstance, opts: { runtime: Runtime }): Promise<void> {
  const { runtime } = opts;
  nameScope(scope, 'connect-app');
  requireTls(scope, runtime);
  const app = scope as App;
  for (const route of [
    connectPages,
    testBankOAuth,
    startSession,
    searchConnectInstitutions,
    selectInstitution,
    signIn,
    signInSteps,
    uploadStatement,
    manageAccounts,
    endSession,
    verifyMicroEntry,
  ] as RouteModule[])
    route(app, runtime);
}
