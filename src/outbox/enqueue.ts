import type { Executor } from '../platform/db/database.js';
import { sandboxListenerUrls } from './listeners.js';
import { ServiceError } from '../contract/errors/service-error.js';
import { epochSeconds, type Clock } from '../platform/clock.js';
import type { Keys } from '../platform/keys.js';
import { decryptValue, encryptValue } from '../platform/secrets.js';
import { isSigningSecret, newEventId } from './sign.js';
import type { DeliveryRow, NewDeliveryRow } from './table.js';
import { lockConnectSession } from './order.js';
import { isPostgresExecutor, signalDeliveriesDue } from './wake.js';

/** References a delivery may carry, so it can be listed with what caused it. */
export interface DeliveryReferences {
  customerId?: number | null;
  subscriptionId?: number | null;
  connectSession?: string | null;
  /** The webhook subscription it is queued for. */
  webhookSubscriptionId?: string | null;
  /** What the delivery carries, as lists show and filter it: `transaction.created`, `connect.added`, `connect.email`. */
  eventType?: string | null;
}

/** An HTTP notification: a TxPUSH event to a listener, or a Connect webhook. */
export interface EnqueueHttpInput extends DeliveryReferences {
  kind: 'txpush' | 'webhook';
  partnerId: string;
  /** The listener URL; validate it with listenerUrlViolation when it is registered. */
  url: string;
  body: string;
  contentType: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** A `whsec_...` secret: deliveries are signed with it (Standard Webhooks). Stored encrypted. */
  signingSecret?: string;
  /** Defaults to a new id; pass one to deliver the same event to several targets. */
  eventId?: string;
}

/** An e-mail: sent through SMTP_URL, or kept in the local mailbox. */
export interface EnqueueEmailInput extends DeliveryReferences {
  kind: 'email';
  partnerId: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Defaults to config.mailFrom. */
  from?: string;
  eventId?: string;
}

export type EnqueueInput = EnqueueHttpInput | EnqueueEmailInput;

export interface EnqueuedDelivery {
  id: number;
  eventId: string;
}

/** The body of an e-mail delivery. */
export interface EmailContent {
  from: string | null;
  subject: string;
  text: string;
  html: string | null;
}

/** What enqueueing needs from the runtime. */
export interface EnqueueContext {
  clock: Clock;
  keys: Keys;
}

/** The key signing secrets are encrypted with at rest. */
export const signingSecretKey = (keys: Keys) => keys.derive('delivery-signing-secret');

/** The key extra headers are encrypted with at rest (they often carry the receiver's own credentials). */
const headersKey = (keys: Keys) => keys.derive('delivery-headers');

/** Extra headers as stored: encrypted JSON, or null when there are none. */
export function sealHeaders(keys: Keys, headers: Record<string, string>): string | null {
  return Object.keys(headers).length > 0 ? encryptValue(headersKey(keys), JSON.stringify(headers)) : null;
}

/** The extra headers of a delivery: the encrypted ones, and any a row written before migration 0015 holds in clear. */
export function headersOf(keys: Keys, row: Pick<DeliveryRow, 'headers' | 'headers_encrypted'>): Record<string, string> {
  return {
    ...(JSON.parse(row.headers) as Record<string, string>),
    ...(row.headers_encrypted ? (JSON.parse(decryptValue(headersKey(keys), row.headers_encrypted)) as Record<string, string>) : {}),
  };
}

// Deliberately loose: one @, no spaces, a dot in the domain. The SMTP server has the last word.
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
// Set by the transport itself (webhook-*, the signature headers, too), or about the connection rather than the
// message (hop-by-hop): Node refuses `Trailer` on a body with a length, `Upgrade` or `Expect` change the exchange.
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);
// What Node's http.validateHeaderValue refuses: control characters but tab, DEL, and anything above Latin-1.
const UNSENDABLE_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** Whether a value looks like an e-mail address (what enqueueing e-mail accepts). */
export function isEmailAddress(value: string): boolean {
  return EMAIL.test(value);
}

function invalid(message: string): ServiceError {
  return new ServiceError('InvalidParameter', message);
}

/**
 * Extra headers a delivery may carry, lower-cased; 400 InvalidParameter (naming `field`) for one the transport sets
 * itself, or one Node could never send: a name that is not an RFC 7230 token, a value with a control character or
 * a character above Latin-1. Checked when they are given, since every delivery carrying them would fail for hours.
 */
export function deliveryHeaders(input: Record<string, unknown>, field = 'headers'): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    const lower = name.toLowerCase();
    const shown = JSON.stringify(name).slice(0, 80);
    if (!HEADER_NAME.test(name)) throw invalid(`Invalid parameter (${field}): ${shown} is not a header name (letters, digits and !#$%&'*+-.^_\`|~ only)`);
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-'))
      throw invalid(`Invalid parameter (${field}): ${shown} is set by Ledgerlink itself or belongs to the connection`);
    if (typeof value !== 'string') throw invalid(`Invalid parameter (${field}): the value of ${shown} must be a string`);
    if (UNSENDABLE_VALUE.test(value))
      throw invalid(
        `Invalid parameter (${field}): the value of ${shown} has a character HTTP cannot carry (a control character, a line break, or one above U+00FF)`,
      );
    headers[lower] = value;
  }
  return headers;
}

/**
 * The headers of `input` that may be sent, the others left out: for headers stored before the rules grew stricter
 * (a Connect link's), which would otherwise fail every delivery they go with.
 */
export function sendableHeaders(input: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    try {
      Object.assign(headers, deliveryHeaders({ [name]: value }));
    } catch {
      // Left out: see above.
    }
  }
  return headers;
}

function rowFor(ctx: EnqueueContext, input: EnqueueInput, now: number): NewDeliveryRow {
  const common = {
    partner_id: input.partnerId,
    kind: input.kind,
    event_id: input.eventId ?? newEventId(),
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    customer_id: input.customerId ?? null,
    subscription_id: input.subscriptionId ?? null,
    connect_session: input.connectSession ?? null,
    webhook_subscription_id: input.webhookSubscriptionId ?? null,
    event_type: input.eventType ?? null,
  };
  if (input.kind === 'email') {
    if (!isEmailAddress(input.to)) throw invalid(`"${input.to}" is not an e-mail address`);
    const content: EmailContent = { from: input.from ?? null, subject: input.subject, text: input.text, html: input.html ?? null };
    return { ...common, target: input.to, method: 'SMTP', headers: '{}', content_type: null, body: JSON.stringify(content), signing_secret_encrypted: null };
  }
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw invalid(`"${input.url}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`"${input.url}" is not an http or https URL`);
  const headers = deliveryHeaders(input.headers ?? {});
  if (input.signingSecret !== undefined && !isSigningSecret(input.signingSecret))
    throw invalid('the signing secret must be whsec_ followed by base64 of at least 24 bytes');
  return {
    ...common,
    target: url.toString(),
    method: 'POST',
    headers: '{}',
    headers_encrypted: sealHeaders(ctx.keys, headers),
    content_type: input.contentType,
    body: input.body,
    signing_secret_encrypted: input.signingSecret ? encryptValue(signingSecretKey(ctx.keys), input.signingSecret) : null,
  };
}

/**
 * Writes a delivery into the outbox, due at once. Pass the open transaction that makes the change being reported,
 * so the delivery exists exactly when the change does; workers are woken when it commits.
 * A Connect webhook of a session on PostgreSQL first takes the session's lock (order.ts), in a transaction of its
 * own when it is given none, so the session's webhooks get their ids in commit order.
 */
export async function enqueueDelivery(executor: Executor, ctx: EnqueueContext, input: EnqueueInput): Promise<EnqueuedDelivery> {
  const now = epochSeconds(ctx.clock);
  const row = rowFor(ctx, input, now);
  const session = input.kind === 'webhook' ? (input.connectSession ?? null) : null;
  if (session !== null && isPostgresExecutor(executor) && !executor.isTransaction)
    return executor.transaction().execute((tx) => insertDelivery(tx, input, row, now, session));
  return insertDelivery(executor, input, row, now, session);
}

async function insertDelivery(executor: Executor, input: EnqueueInput, row: NewDeliveryRow, now: number, session: string | null): Promise<EnqueuedDelivery> {
  if (session !== null) await lockConnectSession(executor, session);
  const { id } = await executor.insertInto('deliveries').values(row).returning('id').executeTakeFirstOrThrow();
  // Listeners registered by `ledgerlink listen` get their own copy (same event id, body and signature), marked as a
  // copy of this delivery so lists show them together: one statement, however many listeners (at most
  // MAX_LIVE_LISTENERS), since it runs inside the caller's transaction.
  if (input.kind !== 'email') {
    const copies = (await sandboxListenerUrls(executor, input.partnerId, now))
      .filter((url) => url !== row.target)
      .map((url) => ({ ...row, target: url, copy_of: Number(id) }));
    if (copies.length > 0) await executor.insertInto('deliveries').values(copies).execute();
  }
  await signalDeliveriesDue(executor);
  return { id: Number(id), eventId: row.event_id };
}
