import type { App } from '../app-types.js';
import type { Runtime } from '../../platform/dependencies.js';
import createToken from '../api/routes/partners/createToken.js';
import getPartner from '../api/routes/partners/getPartner.js';
import modifyPartnerSecret from '../api/routes/partners/modifyPartnerSecret.js';
import revokePartnerTokens from '../api/routes/partners/revokeTokens.js';
import health from '../system/routes/health.js';
import addCustomer from '../api/routes/customers/addCustomer.js';
import deleteCustomer from '../api/routes/customers/deleteCustomer.js';
import getCustomer from '../api/routes/customers/getCustomer.js';
import getCustomers from '../api/routes/customers/getCustomers.js';
import modifyCustomer from '../api/routes/customers/modifyCustomer.js';
import getCertifiedInstitutions from '../api/routes/institutions/getCertifiedInstitutions.js';
import getInstitution from '../api/routes/institutions/getInstitution.js';
import getInstitutionAsset from '../api/routes/institutions/getInstitutionAsset.js';
import getInstitutions from '../api/routes/institutions/getInstitutions.js';
import getCustomerAccounts from '../api/routes/accounts/getCustomerAccounts.js';
import getCustomerAccountsSimple from '../api/routes/accounts/getCustomerAccountsSimple.js';
import getCustomerAccount from '../api/routes/accounts/getCustomerAccount.js';
import getCustomerAccountSimple from '../api/routes/accounts/getCustomerAccountSimple.js';
import getCustomerAccountsByInstitution from '../api/routes/accounts/getCustomerAccountsByInstitution.js';
import getCustomerAccountsByInstitutionSimple from '../api/routes/accounts/getCustomerAccountsByInstitutionSimple.js';
import getCustomerAccountsByInstitutionLogin from '../api/routes/accounts/getCustomerAccountsByInstitutionLogin.js';
import getCustomerAccountsByInstitutionLoginSimple from '../api/routes/accounts/getCustomerAccountsByInstitutionLoginSimple.js';
import deleteCustomerAccount from '../api/routes/accounts/deleteCustomerAccount.js';
import refreshCustomerAccounts from '../api/routes/accounts/refreshCustomerAccounts.js';
import refreshCustomerAccountsV2 from '../api/routes/accounts/refreshCustomerAccountsV2.js';
import addAllAccounts from '../api/routes/accounts/addAllAccounts.js';
import addAllAccountsMfa from '../api/routes/accounts/addAllAccountsMfa.js';
import refreshCustomerAccountsByInstitutionLogin from '../api/routes/institutionLogins/refreshCustomerAccountsByInstitutionLogin.js';
import refreshCustomerAccountsByInstitutionLoginV2 from '../api/routes/institutionLogins/refreshCustomerAccountsByInstitutionLoginV2.js';
import deleteCustomerAccountsByInstitutionLogin from '../api/routes/institutionLogins/deleteCustomerAccountsByInstitutionLogin.js';
import getAllCustomerTransactions from '../api/routes/transactions/getAllCustomerTransactions.js';
import getCustomerAccountTransactions from '../api/routes/transactions/getCustomerAccountTransactions.js';
import getCustomerTransaction from '../api/routes/transactions/getCustomerTransaction.js';
import loadHistoricTransactions from '../api/routes/transactions/loadHistoricTransactions.js';
import loadHistoricTransactionsMfa from '../api/routes/transactions/loadHistoricTransactionsMfa.js';
import subscribeToTxPushNotifications from '../api/routes/txpush/subscribeToTxPushNotifications.js';
import disableTxPushNotifications from '../api/routes/txpush/disableTxPushNotifications.js';
import deleteTxPushSubscription from '../api/routes/txpush/deleteTxPushSubscription.js';
import createTxPushTestTransaction from '../api/routes/txpush/createTxPushTestTransaction.js';
import generateConnectUrl from '../api/routes/connect/generateConnectUrl.js';
import generateLiteConnectUrl from '../api/routes/connect/generateLiteConnectUrl.js';
import generateFixConnectUrl from '../api/routes/connect/generateFixConnectUrl.js';
import sendConnectEmail from '../api/routes/connect/sendConnectEmail.js';
import connectV1 from '../api/routes/connect/connectV1.js';
import getConnectWebhookSigningKey from '../api/routes/connect/getConnectWebhookSigningKey.js';
import getMailbox from '../api/routes/connect/getMailbox.js';
import connectPages from '../connect-app/routes/pages.js';
import testBankOAuth from '../connect-app/routes/testBankOAuth.js';
import startSession from '../connect-app/routes/startSession.js';
import searchConnectInstitutions from '../connect-app/routes/searchInstitutions.js';
import selectInstitution from '../connect-app/routes/selectInstitution.js';
import signIn from '../connect-app/routes/signIn.js';
import signInSteps from '../connect-app/routes/signInSteps.js';
import manageAccounts from '../connect-app/routes/manageAccounts.js';
import endSession from '../connect-app/routes/endSession.js';
import advanceSandboxClock from '../api/routes/sandbox/advanceSandboxClock.js';
import setSandboxLoginError from '../api/routes/sandbox/setSandboxLoginError.js';
import clearSandboxLoginError from '../api/routes/sandbox/clearSandboxLoginError.js';
import resetSandboxCustomer from '../api/routes/sandbox/resetSandboxCustomer.js';
import fireSandboxConnectWebhook from '../api/routes/sandbox/fireSandboxConnectWebhook.js';
import fireSandboxTxPushEvent from '../api/routes/sandbox/fireSandboxTxPushEvent.js';
import dashboardPages from '../dashboard/routes/pages.js';
import dashboardSignUp from '../dashboard/routes/signUp.js';
import dashboardSignIn from '../dashboard/routes/signIn.js';
import dashboardSignOut from '../dashboard/routes/signOut.js';
import getDashboardSession from '../dashboard/routes/getSession.js';
import getDashboardSettings from '../dashboard/routes/settings.js';
import { getAppKey, rotateKey } from '../dashboard/routes/appKey.js';
import { changeSecret, unlock } from '../dashboard/routes/secret.js';
import { revokeTokens as revokeDashboardTokens } from '../dashboard/routes/tokens.js';
import { getCustomer as getDashboardCustomer, getCustomers as getDashboardCustomers } from '../dashboard/routes/customers.js';
import { getDeliveries, getMail, getRequests, redeliver } from '../dashboard/routes/activity.js';
import { getExperiences, putExperience } from '../dashboard/routes/experiences.js';
import dashboardSandbox from '../dashboard/routes/sandbox.js';

/** A route module: registers one operation. */
export type RouteModule = (app: App, runtime: Runtime) => void;

/** Every operation of the service. A new resource adds its modules here. */
export const routes: RouteModule[] = [
  health,
  createToken,
  modifyPartnerSecret,
  revokePartnerTokens,
  getPartner,
  addCustomer,
  getCustomers,
  getCustomer,
  modifyCustomer,
  deleteCustomer,
  getInstitutions,
  getInstitution,
  getCertifiedInstitutions,
  getInstitutionAsset,
  getCustomerAccounts,
  getCustomerAccountsSimple,
  getCustomerAccount,
  getCustomerAccountSimple,
  getCustomerAccountsByInstitution,
  getCustomerAccountsByInstitutionSimple,
  getCustomerAccountsByInstitutionLogin,
  getCustomerAccountsByInstitutionLoginSimple,
  deleteCustomerAccount,
  refreshCustomerAccounts,
  refreshCustomerAccountsV2,
  addAllAccounts,
  addAllAccountsMfa,
  refreshCustomerAccountsByInstitutionLogin,
  refreshCustomerAccountsByInstitutionLoginV2,
  deleteCustomerAccountsByInstitutionLogin,
  getAllCustomerTransactions,
  getCustomerAccountTransactions,
  getCustomerTransaction,
  loadHistoricTransactions,
  loadHistoricTransactionsMfa,
  subscribeToTxPushNotifications,
  disableTxPushNotifications,
  deleteTxPushSubscription,
  createTxPushTestTransaction,
  generateConnectUrl,
  generateLiteConnectUrl,
  generateFixConnectUrl,
  sendConnectEmail,
  connectV1,
  getConnectWebhookSigningKey,
  getMailbox,
  // The hosted Connect app: its pages and the JSON API behind them (authenticated by the signed link, not a token).
  connectPages,
  testBankOAuth,
  startSession,
  searchConnectInstitutions,
  selectInstitution,
  signIn,
  signInSteps,
  manageAccounts,
  endSession,
  // Sandbox controls (Test Drive partners only): time travel, error states, events on demand, reset.
  advanceSandboxClock,
  setSandboxLoginError,
  clearSandboxLoginError,
  resetSandboxCustomer,
  fireSandboxConnectWebhook,
  fireSandboxTxPushEvent,
  // The developer dashboard: its pages and the JSON API behind them (authenticated by a session cookie, not a token).
  dashboardPages,
  getDashboardSettings,
  dashboardSignUp,
  dashboardSignIn,
  dashboardSignOut,
  getDashboardSession,
  getAppKey,
  rotateKey,
  revokeDashboardTokens,
  changeSecret,
  unlock,
  getDashboardCustomers,
  getDashboardCustomer,
  getRequests,
  getDeliveries,
  redeliver,
  getMail,
  getExperiences,
  putExperience,
  dashboardSandbox,
];

export function registerRoutes(app: App, runtime: Runtime): void {
  for (const route of routes) route(app, runtime);
}
