/**
 * The partner API: JSON or XML by Accept, TLS, the permitted regions, and the request log for every route and
 * for requests no route matched; partner authentication (app key only, rate limited) and everything else (app
 * key and token) in their own scopes below.
 */
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../platform/dependencies.js';
import type { App, RouteModule } from '../app-types.js';
import { requirePartner } from '../plugins/auth.js';
import { negotiateContent } from '../plugins/content.js';
import { routeNotFound } from '../plugins/errors.js';
import { logRequests } from '../plugins/request-log.js';
import { type AuthenticationLimits, checkRegion, requireTls } from '../plugins/transport.js';
import { nameScope } from '../scopes.js';
import getPartner from './routes/partners/getPartner.js';
import revokePartnerTokens from './routes/partners/revokeTokens.js';
import addCustomer from './routes/customers/addCustomer.js';
import deleteCustomer from './routes/customers/deleteCustomer.js';
import getCustomer from './routes/customers/getCustomer.js';
import getCustomers from './routes/customers/getCustomers.js';
import modifyCustomer from './routes/customers/modifyCustomer.js';
import createConsumer from './routes/consumers/createConsumer.js';
import getConsumerForCustomer from './routes/consumers/getConsumerForCustomer.js';
import getConsumer from './routes/consumers/getConsumer.js';
import modifyConsumer from './routes/consumers/modifyConsumer.js';
import generateStatementReport from './routes/reports/generateStatementReport.js';
import getPortfolioById from './routes/portfolios/getPortfolioById.js';
import getPortfolioByConsumer from './routes/portfolios/getPortfolioByConsumer.js';
import getPortfolioByCustomer from './routes/portfolios/getPortfolioByCustomer.js';
import generateVoaReport from './routes/reports/generateVoaReport.js';
import generateVoaWithIncomeReport from './routes/reports/generateVoaWithIncomeReport.js';
import generateVoiReport from './routes/reports/generateVoiReport.js';
import generateCashFlowBusinessReport from './routes/reports/generateCashFlowBusinessReport.js';
import generateCashFlowPersonalReport from './routes/reports/generateCashFlowPersonalReport.js';
import generateBalanceAnalyticsReport from './routes/reports/generateBalanceAnalyticsReport.js';
import generateCashflowAnalyticsReport from './routes/reports/generateCashflowAnalyticsReport.js';
import generatePaymentHistoryReport from './routes/reports/generatePaymentHistoryReport.js';
import generatePrequalificationCraReport from './routes/reports/generatePrequalificationCraReport.js';
import generatePrequalificationNonCraReport from './routes/reports/generatePrequalificationNonCraReport.js';
import generateTransactionsReport from './routes/reports/generateTransactionsReport.js';
import getReportByCustomer from './routes/reports/getReportByCustomer.js';
import getReportByConsumer from './routes/reports/getReportByConsumer.js';
import getReportById from './routes/reports/getReportById.js';
import getReportsByCustomer from './routes/reports/getReportsByCustomer.js';
import getReportsByConsumer from './routes/reports/getReportsByConsumer.js';
import reportReissue from './routes/reports/reportReissue.js';
import getCertifiedInstitutions from './routes/institutions/getCertifiedInstitutions.js';
import getInstitution from './routes/institutions/getInstitution.js';
import getInstitutionsByRoutingNumber from './routes/institutions/getInstitutionsByRoutingNumber.js';
import getCertifiedInstitutionsWithRssd from './routes/institutions/getCertifiedInstitutionsWithRssd.js';
import getInstitutions from './routes/institutions/getInstitutions.js';
import getCustomerAccounts from './routes/accounts/getCustomerAccounts.js';
import getCustomerAccountsSimple from './routes/accounts/getCustomerAccountsSimple.js';
import getCustomerAccount from './routes/accounts/getCustomerAccount.js';
import getCustomerAccountSimple from './routes/accounts/getCustomerAccountSimple.js';
import getAccountBalanceHistory from './routes/accounts/getAccountBalanceHistory.js';
import getAccountAchDetails from './routes/payments/getAccountAchDetails.js';
import getAccountPaymentInstructionDetails from './routes/payments/getAccountPaymentInstructionDetails.js';
import getAvailableBalance from './routes/payments/getAvailableBalance.js';
import getAvailableBalanceLive from './routes/payments/getAvailableBalanceLive.js';
import getLoanPaymentDetails from './routes/payments/getLoanPaymentDetails.js';
import getTransactionRefreshStatus from './routes/transactions/getTransactionRefreshStatus.js';
import refreshTransactions from './routes/transactions/refreshTransactions.js';
import getRecurringTransactions from './routes/transactions/getRecurringTransactions.js';
import getMicroDepositsDetails from './routes/microentries/getMicroDepositsDetails.js';
import initiateMicroAmountDeposits from './routes/microentries/initiateMicroAmountDeposits.js';
import verifyMicroAmountDeposits from './routes/microentries/verifyMicroAmountDeposits.js';
import getAccountOwner from './routes/identity/getAccountOwner.js';
import getAccountOwnerDetails from './routes/identity/getAccountOwnerDetails.js';
import accountMatchingScoreDetails from './routes/identity/accountMatchingScoreDetails.js';
import enrichTransactions from './routes/enrichment/enrichTransactions.js';
import getCustomerAccountsByInstitution from './routes/accounts/getCustomerAccountsByInstitution.js';
import getCustomerAccountsByInstitutionSimple from './routes/accounts/getCustomerAccountsByInstitutionSimple.js';
import getCustomerAccountsByInstitutionLogin from './routes/accounts/getCustomerAccountsByInstitutionLogin.js';
import getCustomerAccountsByInstitutionLoginSimple from './routes/accounts/getCustomerAccountsByInstitutionLoginSimple.js';
import deleteCustomerAccount from './routes/accounts/deleteCustomerAccount.js';
import refreshCustomerAccounts from './routes/accounts/refreshCustomerAccounts.js';
import refreshCustomerAccountsV2 from './routes/accounts/refreshCustomerAccountsV2.js';
import addAllAccounts from './routes/accounts/addAllAccounts.js';
import addAllAccountsMfa from './routes/accounts/addAllAccountsMfa.js';
import refreshCustomerAccountsByInstitutionLogin from './routes/institutionLogins/refreshCustomerAccountsByInstitutionLogin.js';
import refreshCustomerAccountsByInstitutionLoginV2 from './routes/institutionLogins/refreshCustomerAccountsByInstitutionLoginV2.js';
import deleteCustomerAccountsByInstitutionLogin from './routes/institutionLogins/deleteCustomerAccountsByInstitutionLogin.js';
import getInstitutionLoginStatus from './routes/institutionLogins/getInstitutionLoginStatus.js';
import uploadStatementFile from './routes/statements/uploadStatementFile.js';
import getStatementMappings from './routes/statements/getStatementMappings.js';
import deleteStatementMapping from './routes/statements/deleteStatementMapping.js';
import getRules from './routes/rules/getRules.js';
import createRule from './routes/rules/createRule.js';
import replaceRule from './routes/rules/replaceRule.js';
import deleteRule from './routes/rules/deleteRule.js';
import applyRules from './routes/rules/applyRules.js';
import previewRule from './routes/rules/previewRule.js';
import exportCustomerTransactions from './routes/exports/exportCustomerTransactions.js';
import exportAccountTransactions from './routes/exports/exportAccountTransactions.js';
import getCustomerAccountStatement from './routes/bankStatements/getCustomerAccountStatement.js';
import getCustomerAccountMultipleStatement from './routes/bankStatements/getCustomerAccountMultipleStatement.js';
import getAssetByCustomerID from './routes/bankStatements/getAssetByCustomerID.js';
import storeCustomerPayStatement from './routes/payStatements/storeCustomerPayStatement.js';
import createSimplefinToken from './routes/simplefin/createSimplefinToken.js';
import getSimplefinAccesses from './routes/simplefin/getSimplefinAccesses.js';
import revokeSimplefinAccess from './routes/simplefin/revokeSimplefinAccess.js';
import getAllCustomerTransactions from './routes/transactions/getAllCustomerTransactions.js';
import getCustomerAccountTransactions from './routes/transactions/getCustomerAccountTransactions.js';
import getCustomerTransaction from './routes/transactions/getCustomerTransaction.js';
import getTransactionByUniqueTransactionId from './routes/transactions/getTransactionByUniqueTransactionId.js';
import loadHistoricTransactions from './routes/transactions/loadHistoricTransactions.js';
import loadHistoricTransactionsMfa from './routes/transactions/loadHistoricTransactionsMfa.js';
import subscribeToTxPushNotifications from './routes/txpush/subscribeToTxPushNotifications.js';
import disableTxPushNotifications from './routes/txpush/disableTxPushNotifications.js';
import deleteTxPushSubscription from './routes/txpush/deleteTxPushSubscription.js';
import createTxPushTestTransaction from './routes/txpush/createTxPushTestTransaction.js';
import generateConnectUrl from './routes/connect/generateConnectUrl.js';
import generateLiteConnectUrl from './routes/connect/generateLiteConnectUrl.js';
import generateFixConnectUrl from './routes/connect/generateFixConnectUrl.js';
import verifyMicroEntryMicrodeposit from './routes/connect/verifyMicroEntryMicrodeposit.js';
import sendConnectEmail from './routes/connect/sendConnectEmail.js';
import connectV1 from './routes/connect/connectV1.js';
import getConnectWebhookSigningKey from './routes/connect/getConnectWebhookSigningKey.js';
import getMailbox from './routes/connect/getMailbox.js';
import generateJointBorrowerConnectUrl from './routes/connect/generateJointBorrowerConnectUrl.js';
import sendJointBorrowerConnectEmail from './routes/connect/sendJointBorrowerConnectEmail.js';
import getAllExperience from './routes/connect/getAllExperience.js';
import createConnectExperience from './routes/connect/createConnectExperience.js';
import advanceSandboxClock from './routes/sandbox/advanceSandboxClock.js';
import setSandboxLoginError from './routes/sandbox/setSandboxLoginError.js';
import clearSandboxLoginError from './routes/sandbox/clearSandboxLoginError.js';
import resetSandboxCustomer from './routes/sandbox/resetSandboxCustomer.js';
import fireSandboxConnectWebhook from './routes/sandbox/fireSandboxConnectWebhook.js';
import fireSandboxTxPushEvent from './routes/sandbox/fireSandboxTxPushEvent.js';
import createWebhookSubscription from './routes/webhookSubscriptions/createWebhookSubscription.js';
import listWebhookSubscriptions from './routes/webhookSubscriptions/listWebhookSubscriptions.js';
import listAvailableWebhookSubscriptionEvents from './routes/webhookSubscriptions/listAvailableWebhookSubscriptionEvents.js';
import getWebhookSubscriptionById from './routes/webhookSubscriptions/getWebhookSubscriptionById.js';
import updateWebhookSubscription from './routes/webhookSubscriptions/updateWebhookSubscription.js';
import deleteWebhookSubscription from './routes/webhookSubscriptions/deleteWebhookSubscription.js';
import changeWebhookSubscriptionStatus from './routes/webhookSubscriptions/changeWebhookSubscriptionStatus.js';
import updateWebhookSubscriptionEvent from './routes/webhookSubscriptions/updateWebhookSubscriptionEvent.js';
import deleteWebhookSubscriptionEvent from './routes/webhookSubscriptions/deleteWebhookSubscriptionEvent.js';
import changeWebhookSubscriptionEventStatus from './routes/webhookSubscriptions/changeWebhookSubscriptionEventStatus.js';
import testWebhookSubscription from './routes/webhookSubscriptions/testWebhookSubscription.js';
import testWebhookSubscriptionBasedOnEventId from './routes/webhookSubscriptions/testWebhookSubscriptionBasedOnEventId.js';
import createToken from './routes/partners/createToken.js';
import modifyPartnerSecret from './routes/partners/modifyPartnerSecret.js';
import registerApp from './routes/apps/registerApp.js';
import modifyAppRegistration from './routes/apps/modifyAppRegistration.js';
import getAppRegistrationStatus from './routes/apps/getAppRegistrationStatus.js';
import getApplications from './routes/apps/getApplications.js';
import getRegisteredInstitutions from './routes/apps/getRegisteredInstitutions.js';
import setCustomerAppId from './routes/apps/setCustomerAppId.js';
import migrateInstitutionLoginAccounts from './routes/apps/migrateInstitutionLoginAccounts.js';
import getCustomerWithAppData from './routes/apps/getCustomerWithAppData.js';
import getCustomerAuthorizationDetails from './routes/apps/getCustomerAuthorizationDetails.js';
import generateThirdPartyAccessKey from './routes/thirdPartyAccess/generateThirdPartyAccessKey.js';
import updateThirdPartyAccessKey from './routes/thirdPartyAccess/updateThirdPartyAccessKey.js';
import revokeThirdPartyAccessKey from './routes/thirdPartyAccess/revokeThirdPartyAccessKey.js';

export async function apiScope(api: FastifyInstance, opts: { runtime: Runtime; authenticationLimits: AuthenticationLimits }): Promise<void> {
  const { runtime } = opts;
  nameScope(api, 'api');
  api.decorateRequest('caller', null as never);
  api.decorateRequest('dataStamp', undefined);
  negotiateContent(api);
  requireTls(api, runtime);
  checkRegion(api, runtime);
  logRequests(api, runtime);
  // Set here, so a request no route matched gets this scope's hooks: negotiated, checked and logged like any call.
  api.setNotFoundHandler(routeNotFound);

  await api.register(async (partnerAuthentication: FastifyInstance) => {
    nameScope(partnerAuthentication, 'api-key');
    opts.authenticationLimits.apply(partnerAuthentication);
    const app = partnerAuthentication as App;
    for (const route of [createToken, modifyPartnerSecret] as RouteModule[]) route(app, runtime);
  });

  await api.register(async (partner: FastifyInstance) => {
    requirePartner(partner, runtime);
    const app = partner as App;
    for (const route of [
      revokePartnerTokens,
      getPartner,
      addCustomer,
      getCustomers,
      getCustomer,
      modifyCustomer,
      deleteCustomer,
      createConsumer,
      getConsumerForCustomer,
      getConsumer,
      modifyConsumer,
      generateVoaReport,
      generateVoaWithIncomeReport,
      generateVoiReport,
      generateCashFlowPersonalReport,
      generateCashFlowBusinessReport,
      generateBalanceAnalyticsReport,
      generateCashflowAnalyticsReport,
      generatePaymentHistoryReport,
      generatePrequalificationCraReport,
      generatePrequalificationNonCraReport,
      generateTransactionsReport,
      generateStatementReport,
      getReportByCustomer,
      getReportByConsumer,
      getReportById,
      getReportsByCustomer,
      getReportsByConsumer,
      reportReissue,
      getPortfolioByCustomer,
      getPortfolioByConsumer,
      getPortfolioById,
      getInstitutions,
      getInstitution,
      getCertifiedInstitutions,
      getInstitutionsByRoutingNumber,
      getCertifiedInstitutionsWithRssd,
      getCustomerAccounts,
      getCustomerAccountsSimple,
      getCustomerAccount,
      getCustomerAccountSimple,
      getAccountBalanceHistory,
      getAccountAchDetails,
      getAccountPaymentInstructionDetails,
      getAvailableBalance,
      getAvailableBalanceLive,
      getLoanPaymentDetails,
      initiateMicroAmountDeposits,
      verifyMicroAmountDeposits,
      getMicroDepositsDetails,
      getAccountOwner,
      getAccountOwnerDetails,
      accountMatchingScoreDetails,
      enrichTransactions,
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
      getInstitutionLoginStatus,
      uploadStatementFile,
      getStatementMappings,
      deleteStatementMapping,
      getRules,
      createRule,
      applyRules,
      previewRule,
      replaceRule,
      deleteRule,
      createSimplefinToken,
      getSimplefinAccesses,
      revokeSimplefinAccess,
      getAllCustomerTransactions,
      getCustomerAccountTransactions,
      getCustomerTransaction,
      getRecurringTransactions,
      refreshTransactions,
      getTransactionRefreshStatus,
      getTransactionByUniqueTransactionId,
      exportCustomerTransactions,
      exportAccountTransactions,
      getCustomerAccountStatement,
      getCustomerAccountMultipleStatement,
      getAssetByCustomerID,
      storeCustomerPayStatement,
      loadHistoricTransactions,
      loadHistoricTransactionsMfa,
      subscribeToTxPushNotifications,
      disableTxPushNotifications,
      deleteTxPushSubscription,
      createTxPushTestTransaction,
      generateConnectUrl,
      generateLiteConnectUrl,
      generateFixConnectUrl,
      verifyMicroEntryMicrodeposit,
      sendConnectEmail,
      generateJointBorrowerConnectUrl,
      sendJointBorrowerConnectEmail,
      getAllExperience,
      createConnectExperience,
      connectV1,
      getConnectWebhookSigningKey,
      createWebhookSubscription,
      listWebhookSubscriptions,
      listAvailableWebhookSubscriptionEvents,
      getWebhookSubscriptionById,
      updateWebhookSubscription,
      deleteWebhookSubscription,
      changeWebhookSubscriptionStatus,
      updateWebhookSubscriptionEvent,
      deleteWebhookSubscriptionEvent,
      changeWebhookSubscriptionEventStatus,
      testWebhookSubscription,
      testWebhookSubscriptionBasedOnEventId,
      getMailbox,
      advanceSandboxClock,
      setSandboxLoginError,
      clearSandboxLoginError,
      resetSandboxCustomer,
      fireSandboxConnectWebhook,
      fireSandboxTxPushEvent,
      registerApp,
      modifyAppRegistration,
      getAppRegistrationStatus,
      getApplications,
      getRegisteredInstitutions,
      setCustomerAppId,
      migrateInstitutionLoginAccounts,
      getCustomerWithAppData,
      getCustomerAuthorizationDetails,
      generateThirdPartyAccessKey,
      updateThirdPartyAccessKey,
      revokeThirdPartyAccessKey,
    ] as RouteModule[])
      route(app, runtime);
  });
}
