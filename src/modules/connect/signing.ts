/**
 * Connect link signatures: HMAC-SHA256 (hex) over the link's other query parameters, sorted by name and
 * URL-encoded as `name=value&...`, keyed with a key derived from the master key. Changing, adding or removing
 * any parameter breaks the signature.
 */
import { createHmac } from 'node:crypto';
import type { Keys } from '../../platform/keys.js';
import { safeEqual } from '../../platform/secrets.js';

const PURPOSE = 'connect-links';

function canonical(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'signature')
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!)}`)
    .join('&');
}

/** The signature of a link's parameters (every one but `signature` itself). */
export function signLinkParams(keys: Keys, params: Record<string, string>): string {
  return createHmac('sha256', keys.derive(PURPOSE)).update(canonical(params)).digest('hex');
}

/** Whether the parameters carry their own valid signature. */
export function linkSignatureValid(keys: Keys, params: Record<string, string>): boolean {
  const given = params.signature;
  return typeof given === 'string' && /^[0-9a-f]{64}$/.test(given) && safeEqual(given, signLinkParams(keys, params));
}
