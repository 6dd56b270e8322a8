/**
 * What the developer dashboard's JSON API (/dashboard/api) answers and takes. The browser apps' types are generated
 * from these (npm run web:types writes web/shared/contract.ts), with the contract schemas the dashboard shares.
 */
import Type from 'typebox';
import { RequiredString } from './common.js';
import { Consumer } from './consumers.js';
import { ReportSummaries } from './reports.js';
import { ConnectAccount, Experience, InstitutionRef } from './connect-app.js';
import { DELIVERY_STATES } from './deliveries.js';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS } from './exports.js';
import { institutionLoginStatusFields } from './institution-logins.js';
import { Rule } from './rules.js';
import { Transaction } from './transactions.js';

export { CONNECT_EVENT_TYPES } from './connect.js';
export {
  ClockAdvanceResult,
  CustomerResetResult,
  FiredConnectWebhook,
  FiredTxPushEvent,
  LoginErrorState,
  SANDBOX_ERROR_CODES,
  TXPUSH_EVENT_TYPES,
} from './sandbox.js';
export { Transaction };

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Epoch = (description = 'Epoch seconds') => Type.Integer({ description });

/** The signed-in partner: plan and lock state. */
export const DashboardPartner = Type.Object({
  partnerId: Type.String(),
  name: Type.String(),
  plan: Type.Union([Type.Literal('testdrive'), Type.Literal('production')]),
  lockedAt: Nullable(Epoch('When the API locked after failed authentications')),
  failedAuthentications: Type.Integer({ description: 'Since the last success' }),
  createdDate: Epoch(),
});

const sessionFields = {
  partner: DashboardPartner,
  expiresAt: Epoch('When the session ends'),
  csrfToken: Type.String({ description: 'Sent as x-csrf-token with every change' }),
};

/** GET /dashboard/api/session and POST /dashboard/api/signin: the signed-in partner with the session's CSRF token. */
export const DashboardSession = Type.Object(sessionFields);

/** POST /dashboard/api/signup: the session, with the new partner's app key shown once more. */
export const DashboardSignedUp = Type.Object({ ...sessionFields, appKey: Type.String() });

/** GET /dashboard/api/settings: what the signed-out pages may offer. */
export const DashboardSettings = Type.Object({ signUp: Type.Boolean({ description: 'Whether the operator allows sign-up' }) });

/** GET /dashboard/api/app-key and POST /dashboard/api/app-key/rotate. */
export const AppKey = Type.Object({ appKey: Type.String() });

/** POST /dashboard/api/tokens/revoke. */
export const TokensRevoked = Type.Object({ revoked: Type.Integer({ description: 'Tokens that still worked' }) });

const customerSummaryFields = {
  id: Type.String(),
  username: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  type: Type.Union([Type.Literal('testing'), Type.Literal('active')]),
  createdDate: Epoch(),
};

/** A customer as dashboard listings show it. */
export const CustomerSummary = Type.Object(customerSummaryFields);

/** GET /dashboard/api/customers: a page of the partner's customers. */
export const CustomerPage = Type.Object({ found: Type.Integer(), moreAvailable: Type.Boolean(), customers: Type.Array(CustomerSummary) });

/** An account as the customer page shows it: as Connect shows it, with its status and last aggregation. */
export const DashboardAccount = Type.Object({
  ...ConnectAccount.properties,
  status: Type.String(),
  aggregationStatusCode: Type.Integer(),
  aggregationSuccessDate: Nullable(Epoch('Last successful aggregation; null before the first')),
});

/** An institution login's refresh status (the API's institution login status), as the customer page shows it. */
export const DashboardLoginStatus = Type.Object(institutionLoginStatusFields);

/** An institution login with its accounts. */
export const DashboardInstitutionLogin = Type.Object({
  institutionLoginId: Type.Integer(),
  institution: InstitutionRef,
  aggregationStatusCode: Type.Integer(),
  statementFile: Type.Boolean({ description: 'Made by statement file uploads (no credentials): later uploads at its institution merge into it' }),
  status: DashboardLoginStatus,
  accounts: Type.Array(DashboardAccount),
});

/** GET /dashboard/api/customers/{customerId}: the customer with institution logins, accounts and latest transactions. */
export const CustomerOverview = Type.Object({
  customer: Type.Object({
    ...customerSummaryFields,
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    clock: Epoch("The customer's clock now"),
    clockOffsetSeconds: Type.Integer({ description: 'How far the customer clock runs ahead of the service clock' }),
  }),
  institutionLogins: Type.Array(DashboardInstitutionLogin),
});

/** GET /dashboard/api/customers/{customerId}/transactions: a page of the customer's (or one account's) transactions. */
export const DashboardTransactionPage = Type.Object({
  aggregated: Type.Boolean({ description: 'false until the first aggregation (of the account, when one is asked for)' }),
  accountId: Nullable(Type.String({ description: 'The account asked for; null for every account' })),
  page: Type.Integer({ description: '1-based' }),
  limit: Type.Integer(),
  found: Type.Integer(),
  moreAvailable: Type.Boolean(),
  transactions: Type.Array(Transaction, { description: 'Newest first by posted date (the transaction date while pending), then by id' }),
});

/** GET /dashboard/api/customers/{customerId}/institutions: catalogue institutions the customer may upload statement files for, best matches first. */
export const DashboardInstitutionPage = Type.Object({
  found: Type.Integer(),
  moreAvailable: Type.Boolean(),
  institutions: Type.Array(InstitutionRef),
});

const connectLinkType = Type.Union([Type.Literal('full'), Type.Literal('lite'), Type.Literal('fix')]);

/** POST /dashboard/api/customers/{customerId}/connect-links: a signed Connect link, as the API's generate calls answer it. */
export const DashboardConnectLink = Type.Object({
  type: connectLinkType,
  link: Type.String(),
  expiresAt: Epoch('When the link stops working'),
});

const txPushSubscriptionFields = {
  id: Type.Integer(),
  accountId: Type.String(),
  type: Type.Union([Type.Literal('account'), Type.Literal('transaction')]),
  callbackUrl: Type.String(),
  format: Type.Union([Type.Literal('json'), Type.Literal('xml')]),
  createdDate: Epoch(),
};

/** One TxPUSH subscription of an account (its signing key is shown only when it is made). */
export const DashboardTxPushSubscription = Type.Object(txPushSubscriptionFields);

/** GET /dashboard/api/customers/{customerId}/accounts/{accountId}/txpush: the account's subscriptions, oldest first. */
export const DashboardTxPushList = Type.Object({ subscriptions: Type.Array(DashboardTxPushSubscription) });

/** POST /dashboard/api/customers/{customerId}/accounts/{accountId}/txpush: the listener's two new subscriptions with their signing keys. */
export const DashboardTxPushSubscribed = Type.Object({
  subscriptions: Type.Array(Type.Object({ ...txPushSubscriptionFields, signingKey: Type.String({ description: 'Shown once' }) })),
});

/** One API request of the partner. */
export const RequestLogEntry = Type.Object({
  id: Type.Integer(),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  latencyMs: Type.Number(),
  errorCode: Nullable(Type.String()),
  requestId: Type.String({ description: 'The x-request-id header of the answer' }),
  at: Type.Integer({ description: 'Epoch milliseconds' }),
});

/** GET /dashboard/api/requests. */
export const RequestLog = Type.Object({ requests: Type.Array(RequestLogEntry) });

/** A header of a logged request or answer. */
export const RequestLogHeader = Type.Object({ name: Type.String(), value: Type.String({ description: '[redacted] for credentials' }) });

/** The request or the answer of a logged call, as kept: credentials and secrets redacted, the body cut at 8 KB. */
export const RequestLogMessage = Type.Object({
  headers: Type.Array(RequestLogHeader),
  body: Nullable(Type.String({ description: 'The body as text, secrets redacted, at most 8,192 characters; null when there is none to show' })),
  bytes: Nullable(Type.Integer({ description: "The whole body's size in bytes; null when it is not known" })),
  truncated: Type.Boolean({ description: 'The body is longer than what is shown' }),
  omitted: Nullable(
    Type.Union([Type.Literal('binary'), Type.Literal('not-read'), Type.Literal('not-kept')], {
      description:
        'Why there is no body to show: binary (not text), not-read (the request was refused before its body was read), not-kept (headers and bodies were not kept for this call)',
    }),
  ),
});

/** GET /dashboard/api/requests/{id}: one call with its request and its answer. */
export const RequestLogDetail = Type.Object({
  entry: RequestLogEntry,
  request: RequestLogMessage,
  response: RequestLogMessage,
});

/** One attempt of a delivery. */
export const DeliveryAttempt = Type.Object({
  attemptedAt: Epoch(),
  workerId: Type.String(),
  statusCode: Nullable(Type.Integer({ description: 'null when the target did not answer' })),
  latencyMs: Type.Number(),
  error: Nullable(Type.String()),
});

/** What the latest attempt got back. */
export const DeliveryResponse = Type.Object({
  attemptedAt: Epoch(),
  statusCode: Nullable(Type.Integer({ description: 'HTTP status or SMTP reply code; null when nothing answered' })),
  body: Nullable(
    Type.String({ description: 'The first 500 bytes of the answer (the SMTP reply for e-mail), ending in … when there was more; null when none came' }),
  ),
  error: Nullable(Type.String({ description: 'Why the attempt failed; null when it succeeded' })),
});

/** pending, retrying, failed, delivered or cancelled (docs/delivery.md, "Visibility and redelivery"). */
export const DeliveryState = Type.Enum(DELIVERY_STATES);

/** What a delivery and each of its `listen` copies have: where it goes, its state, the latest answer, every attempt. */
const deliveryTargetFields = {
  id: Type.Integer(),
  target: Type.String(),
  state: DeliveryState,
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivering'), Type.Literal('delivered'), Type.Literal('cancelled')], {
    description: 'As stored; `state` is what to show',
  }),
  inFlight: Type.Boolean({ description: 'An attempt is under way right now' }),
  createdAt: Epoch(),
  nextAttemptAt: Nullable(
    Epoch('Pending and retrying deliveries not in flight: when the next attempt is due, never before now (a due one shows now); null otherwise'),
  ),
  waitingFor: Nullable(Type.Integer({ description: 'The earlier webhook of the same Connect session to the same target it waits for' })),
  deliveredAt: Nullable(Epoch()),
  cancelledAt: Nullable(Epoch('When it failed or was cancelled')),
  redeliveredAt: Nullable(Epoch('When it was last redelivered')),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  lastResponse: Nullable(DeliveryResponse),
  attempts: Type.Array(DeliveryAttempt),
};

/** A copy of a delivery to a `ledgerlink listen --partner` listener: same event, its own target, state and attempts. */
export const DeliveryCopy = Type.Object(deliveryTargetFields);

/** A TxPUSH, webhook or e-mail delivery with every attempt, oldest first. */
export const Delivery = Type.Object({
  ...deliveryTargetFields,
  partnerId: Type.String(),
  kind: Type.Union([Type.Literal('txpush'), Type.Literal('webhook'), Type.Literal('email')]),
  eventId: Type.String(),
  eventType: Nullable(Type.String({ description: 'transaction.created, connect.added, connect.email, ...' })),
  contentType: Nullable(Type.String()),
  payload: Type.String({ description: 'The body sent (for e-mail a JSON object {from, subject, text, html}), cut at 16 KiB' }),
  payloadTruncated: Type.Boolean(),
  customerId: Nullable(Type.Integer()),
  subscriptionId: Nullable(Type.Integer()),
  connectSession: Nullable(Type.String()),
  copyOf: Nullable(Type.Integer({ description: 'For a `listen` copy listed on its own: the delivery it copies' })),
  copies: Type.Array(DeliveryCopy, { description: 'Its `listen` copies, when the list groups them (the dashboard)' }),
});

/** What the partner's deliveries can be filtered by besides the state: the event types and targets of its latest 1000. */
export const DeliveryFilters = Type.Object({
  eventTypes: Type.Array(Type.String(), { description: 'Most recently used first' }),
  targets: Type.Array(Type.String(), { description: 'Most recently used first, `listen` listeners included' }),
});

/** GET /dashboard/api/deliveries. */
export const DeliveryList = Type.Object({
  deliveries: Type.Array(Delivery),
  filters: DeliveryFilters,
  now: Epoch('The service clock: a next attempt at this time is due now'),
});

/** POST /dashboard/api/deliveries/{deliveryId}/redeliver. */
export const Redelivered = Type.Object({ delivery: Delivery });

/** A message in the local mailbox. */
export const MailboxMessage = Type.Object({
  id: Type.Integer(),
  deliveryId: Nullable(Type.Integer()),
  eventId: Type.String(),
  to: Type.String(),
  from: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  html: Nullable(Type.String()),
  createdAt: Epoch(),
});

/** GET /dashboard/api/mail. */
export const Mailbox = Type.Object({ messages: Type.Array(MailboxMessage) });

/** One of the partner's app registrations (docs/app-registration.md). */
export const DashboardApp = Type.Object({
  preAppId: Type.Integer(),
  applicationId: Nullable(Type.String({ description: 'Given at the first approval' })),
  name: Type.String(),
  status: Type.String({ description: 'P pending, A approved, R rejected' }),
  note: Nullable(Type.String()),
  submittedAt: Epoch(),
  modifiedAt: Epoch(),
  approvesAt: Nullable(Epoch('Sandbox mode: when the pending registration is approved by itself')),
  customers: Type.Integer({ description: 'Customers assigned to the app' }),
  institutionLogins: Type.Integer({ description: 'Institution logins moved under the app' }),
});

/** GET /dashboard/api/apps: oldest first. */
export const DashboardApps = Type.Object({
  mode: Type.Union([Type.Literal('sandbox'), Type.Literal('production')], {
    description: 'Who approves pending registrations: time (sandbox) or the operator',
  }),
  now: Epoch('The service clock'),
  apps: Type.Array(DashboardApp),
});

/** GET /dashboard/api/experiences: `default` first. */
export const ExperienceList = Type.Object({ experiences: Type.Array(Experience) });

/** PUT /dashboard/api/experiences/{name}: the experience as saved (optional only because the route reads it back from the list). */
export const SavedExperience = Type.Object({ experience: Type.Optional(Experience) });

// ---------- request bodies ----------

/** POST /dashboard/api/signin. */
export const DashboardSignInBody = Type.Object({ partnerId: RequiredString({ maxLength: 64 }), partnerSecret: RequiredString({ maxLength: 255 }) });

/** POST /dashboard/api/signup. */
export const DashboardSignUpBody = Type.Object({ name: RequiredString({ maxLength: 100 }), partnerSecret: Type.String({ maxLength: 255 }) });

/** POST /dashboard/api/secret. */
export const SecretChangeBody = Type.Object({ partnerSecret: RequiredString({ maxLength: 255 }), newPartnerSecret: Type.String({ maxLength: 255 }) });

/** POST /dashboard/api/unlock. */
export const UnlockBody = Type.Object({ partnerSecret: RequiredString({ maxLength: 255 }) });

/** PUT /dashboard/api/experiences/{name}. */
export const ExperienceBody = Type.Object({
  appName: Type.String({ maxLength: 255 }),
  logoUrl: Type.Union([Type.String({ maxLength: 2048 }), Type.Null()]),
  primaryColor: Type.String({ maxLength: 7 }),
});

/** POST /dashboard/api/customers: a testing customer. */
export const DashboardCustomerBody = Type.Object({
  username: RequiredString({ maxLength: 255 }),
  firstName: Type.Optional(Type.String({ maxLength: 255 })),
  lastName: Type.Optional(Type.String({ maxLength: 255 })),
});

/** GET /dashboard/api/own-bank: what the "Your own bank data" page checks, step by step. */
export const OwnBankOverview = Type.Object({
  plan: Type.Union([Type.Literal('testdrive'), Type.Literal('production')], { description: "The signed-in partner's plan: active customers need production" }),
  serviceMode: Type.Union([Type.Literal('sandbox'), Type.Literal('production')], { description: "The service's mode (LEDGERLINK_MODE)" }),
  activeCustomers: Type.Object({
    found: Type.Integer({ description: "The partner's active customers in all" }),
    customers: Type.Array(
      Type.Object({
        ...customerSummaryFields,
        institutionLogins: Type.Integer({ description: 'Its institution logins (links and statement-file logins)' }),
        accounts: Type.Integer(),
      }),
      { description: 'The first few, oldest first' },
    ),
  }),
});

/** POST /dashboard/api/customers/{customerId}/connect-links: Lite names an institution, Fix an institution login. */
export const DashboardConnectLinkBody = Type.Object({
  type: connectLinkType,
  experience: Type.Optional(Type.String({ maxLength: 64 })),
  webhook: Type.Optional(Type.String({ maxLength: 2048 })),
  institutionId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  institutionLoginId: Type.Optional(Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 })),
});

/** POST /dashboard/api/customers/{customerId}/accounts/{accountId}/txpush: notifications in JSON unless XML is asked for. */
export const DashboardTxPushBody = Type.Object({
  callbackUrl: RequiredString({ maxLength: 2048 }),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('xml')])),
});

/** POST /dashboard/api/customers/{customerId}/sandbox/clock. */
export const SandboxClockBody = Type.Object({ days: Type.Integer({ minimum: 1, maximum: 3660 }) });

/** POST /dashboard/api/customers/{customerId}/sandbox/webhook. */
export const SandboxWebhookBody = Type.Object({ eventType: Type.String({ maxLength: 64 }) });

/** POST /dashboard/api/customers/{customerId}/sandbox/txpush. */
export const SandboxTxPushBody = Type.Object({ accountId: Type.String({ maxLength: 64 }), eventType: Type.String({ maxLength: 64 }) });

/** POST /dashboard/api/customers/{customerId}/sandbox/logins/{institutionLoginId}/error. */
export const SandboxLoginErrorBody = Type.Object({ code: Type.Integer({ minimum: 0, maximum: 100_000 }) });

/** GET /dashboard/api/customers/{customerId}/accounts/{accountId}/balances: the API's balance history, for the account's chart. */
export { BalanceHistory as DashboardBalanceHistory, DailyBalance } from './balances.js';

/** The rules page (GET /dashboard/api/rules): the partner's rules, and the categories an action may set. */
export const DashboardRulesPage = Type.Object({
  rules: Type.Array(Rule),
  categories: Type.Array(Type.String(), { description: 'Every category a rule may set' }),
});
/** The rule calls of the dashboard take and answer the API's shapes (docs/aggregation.md, "Rules"). */
export {
  Rule as DashboardRule,
  RuleAction as DashboardRuleAction,
  RuleBody as DashboardRuleBody,
  RuleCondition as DashboardRuleCondition,
  RulePreview as DashboardRulePreview,
  RulePreviewBody as DashboardRulePreviewBody,
  RulePreviewTransaction as DashboardRulePreviewTransaction,
  RulesApplied as DashboardRulesApplied,
} from './rules.js';

/** The export formats the customer page offers to download, in the table's order, and their labels (same order). */
export const DASHBOARD_EXPORT_FORMATS: readonly string[] = EXPORT_FORMAT_NAMES;
export const DASHBOARD_EXPORT_LABELS: readonly string[] = EXPORT_FORMAT_NAMES.map((f) => EXPORT_FORMATS[f].label);

/** The customer page's SimpleFIN section takes and answers the API's shapes (docs/simplefin-server.md). */
export {
  SimplefinAccess as DashboardSimplefinAccess,
  SimplefinAccessList as DashboardSimplefinAccessList,
  SimplefinToken as DashboardSimplefinToken,
  SimplefinTokenBody as DashboardSimplefinTokenBody,
} from './simplefin.js';

/** The customer page's consumer section (docs/consumers.md): the API's record, absent when the customer has none. */
export const DashboardCustomerConsumer = Type.Object({ consumer: Type.Optional(Consumer) });
export { Consumer as DashboardConsumer } from './consumers.js';

/** The customer page's reports section (docs/reports.md): the customer's reports, newest first, with their status. */
export const DashboardCustomerReports = Type.Object({ reports: ReportSummaries.properties.reports });
export { ReportSummary as DashboardReportSummary } from './reports.js';
