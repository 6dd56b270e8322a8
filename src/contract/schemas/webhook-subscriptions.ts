import Type from 'typebox';
import { CONNECT_EVENT_TYPES, type ConnectEventType } from './connect.js';
import { RequiredString } from './common.js';

/**
 * Webhook subscriptions (docs/webhook-subscriptions.md): a partner's standing request to hear of events by name,
 * at a URL of the subscription or of each event, optionally only for some accounts, customers or institutions.
 * Shapes follow the reference's Webhook Subscription operations; ids are UUIDs and dates ISO 8601, as there.
 */

/** A field a condition may filter an event on. */
export const CONDITION_FIELDS = ['accountId', 'customerId', 'institutionId'] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];

/** An event type Ledgerlink sends to subscriptions: its name, what it means, and the fields a condition may name. */
export interface WebhookEventType {
  name: string;
  description: string;
  conditionFields: readonly ConditionField[];
}

const ACCOUNT_FIELDS = ['accountId', 'customerId', 'institutionId'] as const;
const TRANSACTION_FIELDS = ['accountId', 'customerId'] as const;

const CONNECT_DESCRIPTIONS: Record<ConnectEventType, string> = {
  started: 'A customer opened a Connect session',
  institutionSelected: 'A customer chose an institution in Connect',
  credentialsSubmitted: 'A customer submitted sign-in credentials in Connect',
  oauthStarted: "A customer was sent to an institution's OAuth sign-in from Connect",
  mfa: 'The institution asked a Connect session MFA questions',
  mfaAnswered: 'A customer answered MFA questions in Connect',
  discovered: 'Connect found the accounts of a sign-in',
  added: 'A customer added accounts through Connect',
  invalidCredentials: 'The institution refused the credentials a customer gave in Connect',
  error: 'A Connect session met an error',
  done: 'A Connect session finished',
  cancelled: 'A customer left a Connect session',
  accountsDeleted: 'A customer deleted accounts in Connect',
  institutionLoginDeleted: 'A customer deleted an institution login in Connect',
};

/**
 * Every event Ledgerlink sends to webhook subscriptions, in the reference's names where it names them
 * (manage.txpush.account.created, authorization.accesstoken.expiry); the others follow the same pattern.
 */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  { name: 'manage.txpush.account.created', description: 'An account was added for a customer', conditionFields: ACCOUNT_FIELDS },
  { name: 'manage.txpush.account.modified', description: "An account's data changed (balance, name, status, consent dates)", conditionFields: ACCOUNT_FIELDS },
  { name: 'manage.txpush.account.deleted', description: 'An account was deleted', conditionFields: ACCOUNT_FIELDS },
  { name: 'manage.txpush.transaction.created', description: 'Transactions were added to an account', conditionFields: TRANSACTION_FIELDS },
  { name: 'manage.txpush.transaction.modified', description: 'Transactions of an account changed', conditionFields: TRANSACTION_FIELDS },
  { name: 'manage.txpush.transaction.deleted', description: 'Transactions of an account were deleted', conditionFields: TRANSACTION_FIELDS },
  {
    name: 'authorization.accesstoken.expiry',
    description: 'The consent behind an account ends within seven days: the customer must renew it through Connect Fix',
    conditionFields: ACCOUNT_FIELDS,
  },
  ...CONNECT_EVENT_TYPES.map((t) => ({ name: `connect.${t}`, description: CONNECT_DESCRIPTIONS[t], conditionFields: ['customerId'] as const })),
];

/** The statuses a subscription or one of its events can be set to. */
export const WEBHOOK_STATUSES = ['active', 'inactive'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

const Uuid = (description: string, example: string) => Type.String({ minLength: 36, maxLength: 36, description, examples: [example] });
const SubscriptionId = Uuid('The subscription id (a UUID)', '661f3c48-f596-423b-81f5-d275d4dd1345');
const WebhookEventId = Uuid('The id of an event of a subscription (a UUID)', '661f3c48-f596-423b-81f5-d275d4dd1346');
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Where notifications go: https on port 443 (plain http on port 80 for Test Drive partners)',
  examples: ['https://example.com/webhooks'],
});
const Status = Type.String({ minLength: 1, maxLength: 10, description: 'active or inactive', examples: ['active'] });
const DateTime = (description: string) => Type.String({ format: 'date-time', description, examples: ['2026-03-16T06:06:20Z'] });

export const WebhookCondition = Type.Object(
  {
    subscribeFor: RequiredString({
      maxLength: 50,
      description: `The field the event is filtered on: ${CONDITION_FIELDS.join(', ')}, as the event allows`,
      examples: ['accountId'],
    }),
    includes: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000, description: 'Only these values (ids) are sent', examples: [['5011648377']] }),
    ),
    excludes: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000, description: 'These values (ids) are not sent', examples: [['5011648378']] }),
    ),
  },
  { description: 'Which of the events are sent: those whose subscribeFor field is among includes (when given) and not among excludes' },
);

const EventName = RequiredString({
  maxLength: 255,
  description: 'The event type, one of List Available Webhook Subscription Events',
  examples: ['manage.txpush.account.created'],
});

/** An event as a request names it. */
export const WebhookEventInput = Type.Object(
  {
    name: EventName,
    url: Type.Optional(Type.String({ ...Url, description: "Where this event goes instead of the subscription's URL" })),
    condition: Type.Optional(WebhookCondition),
  },
  { xml: { name: 'event' } },
);

export const WebhookSubscriptionInput = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Array(Type.Object(WebhookEventInput.properties), { maxItems: 100, description: 'The events to send; each name once' }),
  },
  {
    xml: { name: 'subscription' },
    examples: [
      {
        url: 'https://example.com/webhooks',
        events: [{ name: 'manage.txpush.account.created', condition: { subscribeFor: 'accountId', includes: ['5011648377'] } }],
      },
    ],
  },
);

/** An event of a subscription, as answered. */
const eventFields = {
  webhookEventId: WebhookEventId,
  name: Type.String({ description: 'The event type', examples: ['manage.txpush.account.created'] }),
  url: Type.Optional(Type.String({ description: "Where this event goes instead of the subscription's URL", examples: ['https://example.com/accounts'] })),
  status: Status,
  condition: Type.Optional(WebhookCondition),
};

export const WebhookSubscriptionEvent = Type.Object(eventFields, { xml: { name: 'event' } });

// Lists in XML are repeated elements named after their field (events, subscriptions), in answers as in requests: the
// items of a list carry no element name of their own.
const subscriptionFields = {
  subscriptionId: SubscriptionId,
  url: Type.Optional(Type.String({ description: 'Where notifications go (events may name their own URL)', examples: ['https://example.com/webhooks'] })),
  events: Type.Array(Type.Object(eventFields), { description: 'The events of the subscription' }),
  status: Status,
  createdDate: DateTime('When the subscription was created'),
  lastUpdatedDate: DateTime('When the subscription or one of its events last changed'),
};

export const WebhookSubscription = Type.Object(subscriptionFields, { xml: { name: 'subscription' } });

export const WebhookSubscriptionList = Type.Object(
  {
    count: Type.Integer({ description: 'Subscriptions in this page', examples: [1] }),
    offset: Type.Integer({ description: 'The page (from 1)', examples: [1] }),
    limit: Type.Integer({ description: 'Subscriptions per page', examples: [10] }),
    total: Type.Integer({ description: "All the partner's subscriptions", examples: [1] }),
    subscriptions: Type.Array(Type.Object(subscriptionFields), { description: 'Oldest first' }),
  },
  { xml: { name: 'root' } },
);

export const WebhookSubscriptionListQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The page to answer, from 1 (default 1)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Subscriptions per page, 1 to 100 (default 10)' })),
});

// Any short text is read, so that an unknown subscription answers 404 before its status is judged (16308).
export const WebhookStatusUpdate = Type.Object(
  { status: RequiredString({ maxLength: 64, description: 'active or inactive (any letter case)', examples: ['inactive'] }) },
  { xml: { name: 'status' } },
);

export const AvailableWebhookEvent = Type.Object({
  name: Type.String({ description: 'The event type', examples: ['manage.txpush.account.created'] }),
  description: Type.String({ description: 'What it reports', examples: ['An account was added for a customer'] }),
  status: Type.String({ description: 'active: Ledgerlink sends it', examples: ['active'] }),
  conditionalSubscription: Type.Object({
    applicable: Type.Boolean({ description: 'Whether a condition may filter it' }),
    fields: Type.Optional(Type.String({ description: 'The fields a condition may name, comma separated', examples: ['accountId,customerId,institutionId'] })),
    mandatory: Type.Boolean({ description: 'Whether a condition is required (never)' }),
  }),
});

export const AvailableWebhookEvents = Type.Object({ events: Type.Array(AvailableWebhookEvent) }, { xml: { name: 'root' } });

export const SubscriptionIdParams = Type.Object({ subscription_id: Type.String({ maxLength: 64, description: 'The subscription id' }) });
export const SubscriptionEventParams = Type.Object({
  subscription_id: Type.String({ maxLength: 64, description: 'The subscription id' }),
  webhook_event_id: Type.String({ maxLength: 64, description: 'The id of an event of the subscription' }),
});

/** The answer of the test operations: no body at all, as the reference's. */
export const TestQueued = Type.Null({ description: 'No body: the test notifications are queued', examples: [null] });

/** The body Ledgerlink POSTs to a subscription's URL (JSON). */
export const WebhookNotification = Type.Object({
  eventId: Type.String({ description: 'Also the webhook-id header; the same on every retry', examples: ['evt_2KWPBgLlAfxdpx2AI54pPJ85f4W'] }),
  eventType: Type.String({ description: 'The event type', examples: ['manage.txpush.account.created'] }),
  subscriptionId: SubscriptionId,
  webhookEventId: WebhookEventId,
  createdDate: DateTime('When the event happened'),
  test: Type.Optional(Type.Boolean({ description: 'true for a delivery asked for with Test Webhook Subscription' })),
  customerId: Type.Optional(Type.String({ description: 'The customer the event is about', examples: ['1005061234'] })),
  payload: Type.Record(Type.String(), Type.Unknown(), { description: 'What happened; its fields depend on the event type' }),
});
