import { createHmac, randomBytes } from 'node:crypto';
import type { Keys } from '../platform/keys.js';
import { randomString } from '../platform/secrets.js';

/**
 * Signing per Standard Webhooks (https://www.standardwebhooks.com), so partners can verify deliveries with an
 * existing library: `webhook-id` is the event id, `webhook-timestamp` the time of the attempt in epoch seconds,
 * `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret's bytes.
 */

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** Whether a value is a signing secret in the `whsec_<base64>` form with at least 24 bytes of key. */
export function isSigningSecret(value: string): boolean {
  if (!value.startsWith(PREFIX)) return false;
  const b64 = value.slice(PREFIX.length);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(b64) && Buffer.from(b64, 'base64').length >= 24;
}

/**
 * The partner's webhook signing key (`whsec_...`) for Connect webhooks, webhook subscriptions, report and micro entry
 * callbacks, derived from the master key and
 * the partner id, so it needs no storage and every process sharing the master key signs alike.
 */
export function partnerWebhookSecret(keys: Keys, partnerId: string): string {
  return PREFIX + createHmac('sha256', keys.derive('connect-webhook-signing')).update(partnerId).digest('base64');
}

/** A new event id: `evt_` + 27 letters and digits. Stays the same across retries and redeliveries. */
export function newEventId(): string {
  return 'evt_' + randomString(27);
}

/** The v1 signature of one message. */
export function sign(secret: string, eventId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`).digest('base64');
}

/** The three Standard Webhooks headers for one attempt. */
export function signatureHeaders(secret: string, eventId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': sign(secret, eventId, timestampSeconds, body),
  };
}
