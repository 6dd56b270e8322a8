import type { App } from '../app-types.js';
import type { Runtime } from '../../platform/dependencies.js';
import createToken from './partners/createToken.js';
import getPartner from './partners/getPartner.js';
import modifyPartnerSecret from './partners/modifyPartnerSecret.js';
import revokePartnerTokens from './partners/revokeTokens.js';
import health from './system/health.js';
import addCustomer from './customers/addCustomer.js';
import deleteCustomer from './customers/deleteCustomer.js';
import getCustomer from './customers/getCustomer.js';
import getCustomers from './customers/getCustomers.js';
import modifyCustomer from './customers/modifyCustomer.js';
import getCertifiedInstitutions from './institutions/getCertifiedInstitutions.js';
import getInstitution from './institutions/getInstitution.js';
import getInstitutionAsset from './institutions/getInstitutionAsset.js';
import getInstitutions from './institutions/getInstitutions.js';
import getCustomerAccounts from './accounts/getCustomerAccounts.js';
import getCustomerAccountsSimple from './accounts/getCustomerAccountsSimple.js';
import getCustomerAccount from './accounts/getCustomerAccount.js';
import getCustomerAccountSimple from './accounts/getCustomerAccountSimple.js';
import getCustomerAccountsByInstitution from './accounts/getCustomerAccountsByInstitution.js';
import getCustomerAccountsByInstitutionSimple from './accounts/getCustomerAccountsByInstitutionSimple.js';
import getCustomerAccountsByInstitutionLogin from './accounts/getCustomerAccountsByInstitutionLogin.js';
import getCustomerAccountsByInstitutionLoginSimple from './accounts/getCustomerAccountsByInstitutionLoginSimple.js';
import deleteCustomerAccount from './accounts/deleteCustomerAccount.js';
import refreshCustomerAccounts from './accounts/refreshCustomerAccounts.js';
import refreshCustomerAccountsV2 from './accounts/refreshCustomerAccountsV2.js';
import addAllAccounts from './accounts/addAllAccounts.js';
import addAllAccountsMfa from './accounts/addAllAccountsMfa.js';
import refreshCustomerAccountsByInstitutionLogin from './institutionLogins/refreshCustomerAccountsByInstitutionLogin.js';
import refreshCustomerAccountsByInstitutionLoginV2 from './institutionLogins/refreshCustomerAccountsByInstitutionLoginV2.js';
import deleteCustomerAccountsByInstitutionLogin from './institutionLogins/deleteCustomerAccountsByInstitutionLogin.js';
import getAllCustomerTransactions from './transactions/getAllCustomerTransactions.js';
import getCustomerAccountTransactions from './transactions/getCustomerAccountTransactions.js';
import getCustomerTransaction from './transactions/getCustomerTransaction.js';
import loadHistoricTransactions from './transactions/loadHistoricTransactions.js';
import loadHistoricTransactionsMfa from './transactions/loadHistoricTransactionsMfa.js';
import subscribeToTxPushNotifications from './txpush/subscribeToTxPushNotifications.js';
import disableTxPushNotifications from './txpush/disableTxPushNotifications.js';
import deleteTxPushSubscription from './txpush/deleteTxPushSubscription.js';
import createTxPushTestTransaction from './txpush/createTxPushTestTransaction.js';
import generateConnectUrl from './connect/generateConnectUrl.js';
import generateLiteConnectUrl from './connect/generateLiteConnectUrl.js';
import generateFixConnectUrl from './connect/generateFixConnectUrl.js';
import sendConnectEmail from './connect/sendConnectEmail.js';
import connectV1 from './connect/connectV1.js';
import getConnectWebhookSigningKey from './connect/getConnectWebhookSigningKey.js';
import getMailbox from './connect/getMailbox.js';
import connectPages from './connectApp/pages.js';
import testBankOAuth from './connectApp/testBankOAuth.js';
import startSession from './connectApp/startSession.js';
import searchConnectInstitutions from './connectApp/searchInstitutions.js';
import selectInstitution from './connectApp/selectInstitution.js';
import signIn from './connectApp/signIn.js';
import signInSteps from './connectApp/signInSteps.js';
import manageAccounts from './connectApp/manageAccounts.js';
import endSession from './connectApp/endSession.js';
import advanceSandboxClock from './sandbox/advanceSandboxClock.js';
import setSandboxLoginError from './sandbox/setSandboxLoginError.js';
import clearSandboxLoginError from './sandbox/clearSandboxLoginError.js';
import resetSandboxCustomer from './sandbox/resetSandboxCustomer.js';
import fireSandboxConnectWebhook from './sandbox/fireSandboxConnectWebhook.js';
import fireSandboxTxPushEvent from './sandbox/fireSandboxTxPushEvent.js';
import dashboardPages from './dashboard/pages.js';
import dashboardSignUp from './dashboard/signUp.js';
import dashboardSignIn from './dashboard/signIn.js';
import dashboardSignOut from './dashboard/signOut.js';
import getDashboardSession from './dashboard/getSession.js';
import getDashboardSettings from './dashboard/settings.js';
import { getAppKey, rotateKey } from './dashboard/appKey.js';
import { changeSecret, unlock } from './dashboard/secret.js';
import { revokeTokens as revokeDashboardTokens } from './dashboard/tokens.js';
import { getCustomer as getDashboardCustomer, getCustomers as getDashboardCustomers } from './dashboard/customers.js';
import { getDeliveries, getMail, getRequests, redeliver } from './dashboard/activity.js';
import { getExperiences, putExperience } from './dashboard/experiences.js';
import dashboardSandbox from './dashboard/sandbox.js';

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
