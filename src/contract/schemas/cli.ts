/**
 * The client API of the `ledgerlink` command (/cli/v1, docs/cli.md): what the CLI calls on a running service in
 * client mode, with the partner's app key and token like any API call. Ledgerlink extensions for the CLI, kept out of
 * the OpenAPI description (they may change with the CLI) and out of the partner's request log. JSON only.
 */
import Type from 'typebox';
import { RequiredString } from './common.js';
import { Delivery, MailboxMessage } from './dashboard.js';
import { DELIVERY_STATES } from './deliveries.js';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** For bodies: null tried first, so the validator's type coercion never turns a null into "" or 0. */
const OrNull = <T extends Type.TSchema>(schema: T) => Type.Union([Type.Null(), schema]);
const Id = (description: string) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

/** The most entries one list call answers. */
export const CLI_MAX_LIMIT = 1000;

/** GET /cli/v1/requests: the latest requests, or (afterId) those after one, oldest first. */
export const CliRequestQuery = Type.Object({
  afterId: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Only requests after this id' })),
  limit: Type.Integer({ minimum: 1, maximum: CLI_MAX_LIMIT, default: 20 }),
  status: Type.Optional(Type.String({ maxLength: 3, description: 'A class such as 4xx, or a status such as 404' })),
  method: Type.Optional(Type.String({ maxLength: 16, description: 'An HTTP method, in any letter case' })),
  path: Type.Optional(Type.String({ maxLength: 500, description: 'Text the path or its query string contains, in any letter case' })),
});

/** One API request of the partner, as the request log keeps it. */
export const CliRequest = Type.Object({
  id: Type.Integer(),
  partnerId: Nullable(Type.String()),
  method: Type.String(),
  path: Type.String({ description: 'As the client sent it (secrets in the query redacted)' }),
  route: Nullable(Type.String({ description: 'The matched route pattern; null when none matched' })),
  status: Type.Integer(),
  latencyMs: Type.Number(),
  errorCode: Nullable(Type.String()),
  requestId: Type.String(),
  ip: Type.String(),
  at: Type.Integer({ description: 'Epoch milliseconds' }),
});

export const CliRequestList = Type.Object({ requests: Type.Array(CliRequest, { description: 'Oldest first' }) });

/** GET /cli/v1/deliveries: every condition given must hold. */
export const CliDeliveryQuery = Type.Object({
  state: Type.Optional(Type.Enum(DELIVERY_STATES, { description: 'pending, retrying, failed, delivered or cancelled' })),
  kind: Type.Optional(Type.Union([Type.Literal('txpush'), Type.Literal('webhook'), Type.Literal('email')])),
  eventType: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'e.g. transaction.created, connect.added' })),
  target: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'The exact URL or e-mail address' })),
  eventId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  limit: Type.Integer({ minimum: 1, maximum: CLI_MAX_LIMIT, default: 50 }),
});

export const CliDeliveryList = Type.Object({ deliveries: Type.Array(Delivery, { description: 'Newest first' }) });

export const CliDeliveryParams = Type.Object({ deliveryId: Id('Delivery id') });

/** POST /cli/v1/deliveries/{deliveryId}/redeliver. */
export const CliRedelivered = Type.Object({ delivery: Delivery });

/** GET /cli/v1/mail. */
export const CliMailQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: CLI_MAX_LIMIT, default: 50 }) });

export const CliMailMessage = Type.Object({ ...MailboxMessage.properties, partnerId: Type.String() });

export const CliMailbox = Type.Object({ messages: Type.Array(CliMailMessage, { description: 'Newest first' }) });

/** POST /cli/v1/listeners: the body names the partner, as a confirmation (like revoking tokens). */
export const CliListenerRequest = Type.Object({ partnerId: RequiredString({ maxLength: 32, description: 'The calling partner' }) });

/** A registered listener: copies of the partner's TxPUSH notifications and Connect webhooks are held for it. */
export const CliListener = Type.Object({
  listenerId: Type.Integer(),
  partnerId: Type.String(),
  target: Type.String({ description: 'The target its copies carry in delivery lists, e.g. listen://17' }),
  expiresAt: Type.Integer({ description: 'Epoch seconds: the registration lapses here unless renewed (each poll renews it)' }),
});

export const CliListenerParams = Type.Object({ listenerId: Id('Listener id') });

/** POST /cli/v1/listeners/{listenerId}/poll: waits up to `wait` seconds for deliveries, then takes up to `limit`. */
export const CliPollQuery = Type.Object({
  wait: Type.Integer({ minimum: 0, maximum: 25, default: 0, description: 'Seconds to wait when none is due' }),
  limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }),
});

/** One header of a delivery, as the service would send it. */
export const CliHeader = Type.Object({ name: Type.String(), value: Type.String() });

/** A delivery taken for the listener: what to send, and the claim to report its outcome with. */
export const CliHeldDelivery = Type.Object({
  deliveryId: Type.Integer(),
  claim: Type.String({ description: 'Send it back with the outcome' }),
  kind: Type.Union([Type.Literal('txpush'), Type.Literal('webhook')]),
  eventId: Type.String(),
  attempt: Type.Integer({ description: 'Attempts so far, this one included' }),
  headers: Type.Array(CliHeader, { description: 'Content type, webhook-id, webhook-timestamp, webhook-signature and any extra headers, signed now' }),
  body: Type.String(),
});

export const CliPolled = Type.Object({ listener: CliListener, deliveries: Type.Array(CliHeldDelivery, { description: 'Oldest first' }) });

export const CliListenerDeliveryParams = Type.Object({ listenerId: Id('Listener id'), deliveryId: Id('Delivery id') });

/** POST /cli/v1/listeners/{listenerId}/deliveries/{deliveryId}/outcome: what became of a held delivery. */
export const CliDeliveryOutcome = Type.Object({
  claim: RequiredString({ maxLength: 128 }),
  statusCode: OrNull(Type.Integer({ minimum: 100, maximum: 599, description: 'The answer of the forward target; null when none came or there is none' })),
  error: OrNull(Type.String({ maxLength: 1000, description: 'Why it failed; null when it was received' })),
  latencyMs: Type.Number({ minimum: 0, maximum: 3_600_000 }),
  response: Type.Optional(OrNull(Type.String({ maxLength: 2000, description: 'The start of what the forward target answered' }))),
});

export const CliOutcomeRecorded = Type.Object({
  deliveryId: Type.Integer(),
  state: Type.Union([Type.Literal('delivered'), Type.Literal('retrying'), Type.Literal('failed')], {
    description: 'delivered; retrying (held again at its next retry time); failed (its retry window is over)',
  }),
});
