import { generateSigningSecret } from '../../outbox/sign.js';
import { signingSecretKey } from '../../outbox/enqueue.js';
import type { Keys } from '../../platform/keys.js';
import { decryptValue, encryptValue } from '../../platform/secrets.js';

/** A new subscription signing key (`whsec_` + base64 of 32 random bytes) and its encrypted form for storage. */
export function newSigningKey(keys: Keys): { signingKey: string; sealed: string } {
  const signingKey = generateSigningSecret();
  return { signingKey, sealed: encryptValue(signingSecretKey(keys), signingKey) };
}

/** The stored signing key of a subscription, decrypted. */
export function openSigningKey(keys: Keys, sealed: string): string {
  return decryptValue(signingSecretKey(keys), sealed);
}
