/** Schemas of the sandbox controls (docs/sandbox.md). */
import Type from 'typebox';
import { CONNECT_EVENT_TYPES } from './connect.js';
import { RequiredString } from './common.js';

/** The most days one clock advance may move (the aggregation engine's limit of ten years of 366 days). */
export const MAX_ADVANCE_DAYS = 3660;

/** The aggregation status codes a sandbox login can be put into. */
export const SANDBOX_ERROR_CODES = [102, 103, 108, 109, 185] as const;
export type SandboxErrorCode = (typeof SANDBOX_ERROR_CODES)[number];

/** The TxPUSH events the sandbox fires on demand. */
export const TXPUSH_EVENT_TYPES = [
  'account.created',
  'account.modified',
  'account.deleted',
  'transaction.created',
  'transaction.modified',
  'transaction.deleted',
] as const;
export type TxPushEventType = (typeof TXPUSH_EVENT_TYPES)[number];

export const ClockAdvanceRequest = Type.Object(
  { days: Type.Integer({ minimum: 1, maximum: MAX_ADVANCE_DAYS, description: "How many days the customer's clock moves ahead", examples: [7] }) },
  { xml: { name: 'clock' } },
);

const LoginOutcome = Type.Object(
  {
    institutionLoginId: Type.String({ description: 'Institution login id', examples: ['6000000000'] }),
    aggregationStatusCode: Type.Integer({ description: '0, or the aggregation status code the refresh at the new time failed with', examples: [0] }),
  },
  { xml: { name: 'institutionLogin' } },
);

export const ClockAdvanceResult = Type.Object(
  {
    customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
    days: Type.Integer({ description: 'Days the clock moved ahead', examples: [7] }),
    customerDate: Type.Integer({ description: "The customer's clock afterwards, epoch seconds", examples: [1767225600] }),
    institutionLogins: Type.Array(LoginOutcome, { description: 'Each institution login, refreshed at the new time' }),
  },
  { xml: { name: 'clock' } },
);

export const LoginErrorRequest = Type.Object(
  { code: Type.Integer({ description: `The aggregation status code: one of ${SANDBOX_ERROR_CODES.join(', ')}`, examples: [103] }) },
  { xml: { name: 'error' } },
);

export const LoginErrorState = Type.Object(
  {
    customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
    institutionLoginId: Type.String({ description: 'Institution login id', examples: ['6000000000'] }),
    aggregationStatusCode: Type.Integer({ description: 'The status code the login now shows; 0 when healthy', examples: [103] }),
    message: Type.Union([Type.String(), Type.Null()], {
      description: "The institution's words for the error state; null when healthy",
      examples: ['The institution rejected the saved credentials. Sign in again.'],
    }),
  },
  { xml: { name: 'institutionLogin' } },
);

export const CustomerResetResult = Type.Object(
  {
    customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
    institutionLogins: Type.Integer({ description: 'Institution logins removed', examples: [1] }),
    accounts: Type.Integer({ description: 'Accounts removed (with their transactions)', examples: [4] }),
  },
  { xml: { name: 'reset' } },
);

export const ConnectWebhookRequest = Type.Object(
  {
    eventType: RequiredString({ maxLength: 64, description: `The Connect event type: ${CONNECT_EVENT_TYPES.join(', ')}`, examples: ['added'] }),
    webhook: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: "Where to send it; defaults to the webhook URL of the customer's latest Connect link that had one",
        examples: ['https://www.example.com/connect/webhook'],
      }),
    ),
    webhookContentType: Type.Optional(
      Type.String({ maxLength: 64, description: 'With webhook: application/json (default) or application/xml', examples: ['application/json'] }),
    ),
    payload: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: "The payload to send; defaults to an example like the one Connect sends, with the customer's own ids" },
      ),
    ),
  },
  { xml: { name: 'webhook' } },
);

export const FiredConnectWebhook = Type.Object(
  {
    eventId: Type.String({ description: 'The event id (body eventId and webhook-id header)', examples: ['evt_2fQ8mZ0kLr6Tq1vXy3bN5cHd7Wa'] }),
    eventType: Type.String({ description: 'The Connect event type', examples: ['added'] }),
    customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
    webhook: Type.String({ description: 'Where it is being delivered', examples: ['https://www.example.com/connect/webhook'] }),
  },
  { xml: { name: 'webhook' } },
);

export const TxPushEventRequest = Type.Object(
  {
    eventType: RequiredString({ maxLength: 64, description: `The event: ${TXPUSH_EVENT_TYPES.join(', ')}`, examples: ['transaction.created'] }),
    transactionId: Type.Optional(
      Type.String({ maxLength: 64, description: "For transaction events: which transaction; defaults to the account's latest", examples: ['20000012345'] }),
    ),
  },
  { xml: { name: 'event' } },
);

export const FiredTxPushEvent = Type.Object(
  {
    eventType: Type.String({ description: 'The event fired', examples: ['transaction.created'] }),
    customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
    accountId: Type.String({ description: 'Account id', examples: ['5011648377'] }),
    transactionId: Type.Optional(Type.String({ description: 'The transaction the notification carries (transaction events)', examples: ['20000012345'] })),
    notifications: Type.Integer({ description: "Notifications queued: one per subscription of the account for the event's class", examples: [1] }),
  },
  { xml: { name: 'event' } },
);
