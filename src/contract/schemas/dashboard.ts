/**
 * What the developer dashboard's JSON API (/dashboard/api) answers and takes. The browser apps' types are generated
 * from these (npm run web:types writes web/shared/contract.ts), with the contract schemas the dashboard shares.
 */
import Type from 'typebox';
import { RequiredString } from './common.js';
import { ConnectAccount, Experience, InstitutionRef } from './connect-app.js';
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

/** An institution login with its accounts. */
export const DashboardInstitutionLogin = Type.Object({
  institutionLoginId: Type.Integer(),
  institution: InstitutionRef,
  aggregationStatusCode: Type.Integer(),
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
  transactions: Type.Object({
    aggregated: Type.Boolean({ description: 'false until the first aggregation' }),
    found: Type.Integer(),
    latest: Type.Array(Transaction, { description: 'Newest first' }),
  }),
});

/** One API request of the partner. */
export const RequestLogEntry = Type.Object({
  id: Type.Integer(),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  latencyMs: Type.Number(),
  errorCode: Nullable(Type.String()),
  requestId: Type.String(),
  at: Type.Integer({ description: 'Epoch milliseconds' }),
});

/** GET /dashboard/api/requests. */
export const RequestLog = Type.Object({ requests: Type.Array(RequestLogEntry) });

/** One attempt of a delivery. */
export const DeliveryAttempt = Type.Object({
  attemptedAt: Epoch(),
  workerId: Type.String(),
  statusCode: Nullable(Type.Integer({ description: 'null when the target did not answer' })),
  latencyMs: Type.Number(),
  error: Nullable(Type.String()),
});

/** A TxPUSH, webhook or e-mail delivery with every attempt, oldest first. */
export const Delivery = Type.Object({
  id: Type.Integer(),
  partnerId: Type.String(),
  kind: Type.Union([Type.Literal('txpush'), Type.Literal('webhook'), Type.Literal('email')]),
  eventId: Type.String(),
  target: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivering'), Type.Literal('delivered'), Type.Literal('cancelled')]),
  createdAt: Epoch(),
  nextAttemptAt: Nullable(Epoch('When the next attempt is due (pending deliveries only)')),
  deliveredAt: Nullable(Epoch()),
  cancelledAt: Nullable(Epoch()),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  customerId: Nullable(Type.Integer()),
  subscriptionId: Nullable(Type.Integer()),
  connectSession: Nullable(Type.String()),
  attempts: Type.Array(DeliveryAttempt),
});

/** GET /dashboard/api/deliveries. */
export const DeliveryList = Type.Object({ deliveries: Type.Array(Delivery) });

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

/** POST /dashboard/api/customers/{customerId}/sandbox/clock. */
export const SandboxClockBody = Type.Object({ days: Type.Integer({ minimum: 1, maximum: 3660 }) });

/** POST /dashboard/api/customers/{customerId}/sandbox/webhook. */
export const SandboxWebhookBody = Type.Object({ eventType: Type.String({ maxLength: 64 }) });

/** POST /dashboard/api/customers/{customerId}/sandbox/txpush. */
export const SandboxTxPushBody = Type.Object({ accountId: Type.String({ maxLength: 64 }), eventType: Type.String({ maxLength: 64 }) });

/** POST /dashboard/api/customers/{customerId}/sandbox/logins/{institutionLoginId}/error. */
export const SandboxLoginErrorBody = Type.Object({ code: Type.Integer({ minimum: 0, maximum: 100_000 }) });
