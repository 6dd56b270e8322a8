import type { Keys } from '../platform/keys.js';
import { decryptValue } from '../platform/secrets.js';
import { headersOf, signingSecretKey } from './enqueue.js';
import { signatureHeaders } from './sign.js';
import type { DeliveryRow } from './table.js';

/**
 * The headers an HTTP delivery goes with at `timestamp` (epoch seconds): its stored extra headers, its content type,
 * `webhook-id` (the event id), `webhook-timestamp` and, when it has a signing secret, `webhook-signature`. The
 * worker sends them; a polled listener (`ledgerlink listen` through the service) gets them to send on.
 */
export function deliveryRequestHeaders(
  keys: Keys,
  delivery: Pick<DeliveryRow, 'headers' | 'headers_encrypted' | 'content_type' | 'event_id' | 'body' | 'signing_secret_encrypted'>,
  timestamp: number,
): Record<string, string> {
  const secret = delivery.signing_secret_encrypted ? decryptValue(signingSecretKey(keys), delivery.signing_secret_encrypted) : undefined;
  return {
    ...headersOf(keys, delivery),
    ...(delivery.content_type ? { 'content-type': delivery.content_type } : {}),
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(timestamp),
    ...(secret ? signatureHeaders(secret, delivery.event_id, timestamp, delivery.body) : {}),
  };
}
