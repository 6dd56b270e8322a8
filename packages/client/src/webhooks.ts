import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { Account, Transaction } from './types.js';

/**
 * Verification of Ledgerlink's TxPUSH notifications and Connect webhooks. They are signed per Standard Webhooks
 * (https://www.standardwebhooks.com): `webhook-id` (the event id, the same on every retry), `webhook-timestamp`
 * (epoch seconds of the attempt) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed
 * with the base64-decoded part of the `whsec_` signing key; several space-separated signatures may be sent).
 */

/** A delivery whose signature, or age, does not check out. Answer it with a non-200 status. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** Headers as node:http, fetch or a plain object carry them. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Largest difference between the delivery's timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  clock?: Clock;
}

/** A verified delivery: its event id, when it was sent, and its body as received. */
export interface VerifiedMessage {
  id: string;
  timestamp: number;
  body: string;
}

/** A transaction as push notifications carry it: the Transaction record plus amounts only pushes show. */
export type PushTransaction = Transaction &
  Record<'bonusAmount' | 'escrowAmount' | 'feeAmount' | 'interestAmount' | 'principalAmount' | 'unitQuantity' | 'unitValue', number>;

/** A TxPUSH notification (JSON): new, changed or deleted accounts or transactions of a subscribed account. */
export interface TxPushNotification {
  event:
    | { class: 'account'; type: 'created' | 'modified' | 'deleted'; records: Account[] }
    | { class: 'transaction'; type: 'created' | 'modified' | 'deleted'; records: PushTransaction[] };
}

/** A Connect webhook. */
export interface ConnectWebhook {
  customerId: string;
  eventType: string;
  eventId: string;
  payload: Record<string, unknown>;
}

const PREFIX = 'whsec_';

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function keyBytes(signingKey: string): Buffer {
  return Buffer.from(signingKey.startsWith(PREFIX) ? signingKey.slice(PREFIX.length) : signingKey, 'base64');
}

/** The `v1,` signature of one message (what the service sends in `webhook-signature`). */
export function signWebhook(signingKey: string, id: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', keyBytes(signingKey)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/**
 * Checks a delivery against one or more signing keys (a listener may serve several subscriptions) and answers it;
 * throws WebhookVerificationError when headers are missing, the timestamp is too far from now, or no signature
 * matches. `body` must be the raw body exactly as received.
 */
export function verifyWebhook(
  signingKeys: string | Iterable<string>,
  body: string | Buffer,
  headers: HeaderSource,
  options: VerifyOptions = {},
): VerifiedMessage {
  const id = header(headers, 'webhook-id');
  const stamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !stamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d+$/.test(stamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const timestamp = Number(stamp);
  const now = Math.floor((options.clock ?? systemClock).now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - timestamp) > tolerance) throw new WebhookVerificationError(`Message timestamp ${timestamp} is more than ${tolerance} s from now (${now})`);
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const offered = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s));
  for (const key of typeof signingKeys === 'string' ? [signingKeys] : signingKeys) {
    const expected = Buffer.from(signWebhook(key, id, timestamp, text));
    if (offered.some((s) => s.length === expected.length && timingSafeEqual(s, expected))) return { id, timestamp, body: text };
  }
  throw new WebhookVerificationError('No matching signature');
}

/** Verifies a TxPUSH notification sent as JSON and answers its event. */
export function verifyTxPush(
  signingKeys: string | Iterable<string>,
  body: string | Buffer,
  headers: HeaderSource,
  options?: VerifyOptions,
): TxPushNotification & { id: string } {
  const message = verifyWebhook(signingKeys, body, headers, options);
  return { id: message.id, ...(JSON.parse(message.body) as TxPushNotification) };
}

/** Verifies a Connect webhook and answers it. */
export function verifyConnectWebhook(
  signingKeys: string | Iterable<string>,
  body: string | Buffer,
  headers: HeaderSource,
  options?: VerifyOptions,
): ConnectWebhook {
  return JSON.parse(verifyWebhook(signingKeys, body, headers, options).body) as ConnectWebhook;
}
