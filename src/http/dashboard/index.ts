/**
 * The developer dashboard: its pages and assets, and the JSON API behind them, authenticated by a session cookie
 * (and, on changes, its CSRF token), never by a partner token. JSON only, not in the request log. Sign-in and
 * sign-up count against the same authentication limits as partner authentication.
 */
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../platform/dependencies.js';
import type { App, RouteModule } from '../app-types.js';
import { guardDashboard } from '../plugins/dashboard.js';
import { type AuthenticationLimits, requireTls } from '../plugins/transport.js';
import { nameScope } from '../scopes.js';
import { getDeliveries, redeliver } from './routes/deliveries.js';
import { getMail } from './routes/mail.js';
import { getApps } from './routes/apps.js';
import { getRequest, getRequests } from './routes/requests.js';
import { getAppKey, rotateKey } from './routes/appKey.js';
import { getAccountBalances } from './routes/balances.js';
import { generateConnectLink } from './routes/connectLinks.js';
import {
  createCustomer as createDashboardCustomer,
  getCustomer as getDashboardCustomer,
  getCustomers as getDashboardCustomers,
  getCustomerTransactions as getDashboardCustomerTransactions,
} from './routes/customers.js';
import { getExperiences, putExperience } from './routes/experiences.js';
import { exportAccount, exportCustomer } from './routes/exports.js';
import { accountStatement } from './routes/bankStatements.js';
import { refreshInstitutionLogin } from './routes/institutionLogins.js';
import { createOwnBankCustomer, getOwnBank } from './routes/ownBank.js';
import getDashboardSession from './routes/getSession.js';
import dashboardPages from './routes/pages.js';
import advanceSandboxClock from './routes/sandbox/advanceSandboxClock.js';
import clearSandboxLoginError from './routes/sandbox/clearSandboxLoginError.js';
import fireSandboxConnectWebhook from './routes/sandbox/fireSandboxConnectWebhook.js';
import fireSandboxTxPushEvent from './routes/sandbox/fireSandboxTxPushEvent.js';
import resetSandboxCustomer from './routes/sandbox/resetSandboxCustomer.js';
import setSandboxLoginError from './routes/sandbox/setSandboxLoginError.js';
import { changeSecret, unlock } from './routes/secret.js';
import { getStatementInstitutions, uploadStatement } from './routes/statements.js';
import getDashboardSettings from './routes/settings.js';
import dashboardSignIn from './routes/signIn.js';
import dashboardSignOut from './routes/signOut.js';
import dashboardSignUp from './routes/signUp.js';
import { revokeTokens as revokeDashboardTokens } from './routes/tokens.js';
import { addTxPushSubscription, deleteTxPushSubscription, getTxPushSubscriptions } from './routes/txpush.js';
import { addRule, applyDashboardRules, getRules, previewDashboardRule, putRule, removeRule } from './routes/rules.js';
import { createSimplefinToken, getSimplefinAccesses, revokeSimplefinAccess } from './routes/simplefin.js';
import { getCustomerConsumer } from './routes/consumers.js';
import { getCustomerReportFile, getCustomerReports } from './routes/reports.js';

export async function dashboardScope(scope: FastifyInstance, opts: { runtime: Runtime; authenticationLimits: AuthenticationLimits }): Promise<void> {
  const { runtime } = opts;
  nameScope(scope, 'dashboard');
  requireTls(scope, runtime);
  scope.decorateRequest('dashboard', null as never);
  dashboardPages(scope as App);

  // No session yet: security headers and the same-origin check on changes.
  await scope.register(async (guest: FastifyInstance) => {
    guardDashboard(guest, runtime, 'guest');
    getDashboardSettings(guest as App, runtime);
    await guest.register(async (signing: FastifyInstance) => {
      opts.authenticationLimits.apply(signing);
      dashboardSignUp(signing as App, runtime);
      dashboardSignIn(signing as App, runtime);
    });
  });

  // A signed-in partner.
  await scope.register(async (session: FastifyInstance) => {
    guardDashboard(session, runtime, 'session');
    const app = session as App;
    for (const route of [
      dashboardSignOut,
      getDashboardSession,
      getAppKey,
      rotateKey,
      revokeDashboardTokens,
      changeSecret,
      unlock,
      getDashboardCustomers,
      createDashboardCustomer,
      getDashboardCustomer,
      getDashboardCustomerTransactions,
      getAccountBalances,
      exportCustomer,
      exportAccount,
      accountStatement,
      refreshInstitutionLogin,
      getOwnBank,
      createOwnBankCustomer,
      generateConnectLink,
      getStatementInstitutions,
      uploadStatement,
      getTxPushSubscriptions,
      addTxPushSubscription,
      deleteTxPushSubscription,
      getSimplefinAccesses,
      createSimplefinToken,
      revokeSimplefinAccess,
      getCustomerConsumer,
      getCustomerReports,
      getCustomerReportFile,
      getRules,
      addRule,
      previewDashboardRule,
      applyDashboardRules,
      putRule,
      removeRule,
      getRequests,
      getRequest,
      getDeliveries,
      redeliver,
      getMail,
      getApps,
      getExperiences,
      putExperience,
      advanceSandboxClock,
      resetSandboxCustomer,
      fireSandboxConnectWebhook,
      fireSandboxTxPushEvent,
      setSandboxLoginError,
      clearSandboxLoginError,
    ] as RouteModule[])
      route(app, runtime);
  });
}
