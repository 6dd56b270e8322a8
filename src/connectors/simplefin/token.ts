/**
 * SimpleFIN setup tokens and the addresses they lead to. A setup token is the base64 of a one-time claim URL; the
 * claim answers with the access URL (`https://user:pass@host/path`). Both are secrets as good as the user's bank
 * data, so no message made here ever contains them: reasons name what is wrong, never the value.
 *
 * Which addresses may be contacted is the caller's policy (UrlPolicy), applied to the claim URL and to the access
 * URL the bridge hands back: a bridge must not be able to point the service at an address the policy forbids.
 */
import { redact } from './errors.js';

/** Refusal reason for a URL the service must not contact, or undefined when it may. */
export type UrlPolicy = (url: URL) => string | undefined;

/** Pasted tokens are a few hundred characters; anything far longer is not one. */
export const MAX_SETUP_TOKEN_LENGTH = 4096;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
/** Printable ASCII without spaces: what a URL may contain once decoded from a token. */
const URL_TEXT = /^[\x21-\x7e]+$/;

const NOT_A_TOKEN = 'This is not a SimpleFIN setup token: paste the token your SimpleFIN bridge showed (a long text of letters and digits).';

/**
 * The claim URL inside a setup token. Whitespace anywhere is dropped (tokens get wrapped when copied), padding is
 * optional, and the URL-safe alphabet is read as well as the standard one.
 */
export function decodeSetupToken(token: string, allowUrl?: UrlPolicy): Checked<URL> {
  const compact = token.replace(/\s+/g, '');
  if (compact.length === 0) return { ok: false, reason: 'The setup token is empty: paste the token your SimpleFIN bridge showed.' };
  if (compact.length > MAX_SETUP_TOKEN_LENGTH) return { ok: false, reason: NOT_A_TOKEN };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(compact)) {
    return { ok: false, reason: 'This is a web address, not a setup token: paste the setup token your SimpleFIN bridge showed.' };
  }
  const unpadded = compact.replace(/=+$/, '');
  if (!BASE64.test(compact) || unpadded.length % 4 === 1) return { ok: false, reason: NOT_A_TOKEN };
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(unpadded.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  } catch {
    return { ok: false, reason: NOT_A_TOKEN };
  }
  if (!URL_TEXT.test(decoded)) return { ok: false, reason: 'The setup token does not hold a web address: make a new token at your SimpleFIN bridge.' };
  const checked = checkBridgeUrl(decoded, 'claim', allowUrl);
  return checked.ok ? checked : { ok: false, reason: redact(checked.reason, [compact, decoded]) };
}

/**
 * Checks a claim or access URL: http(s), credentials exactly where they belong (an access URL carries them, a claim
 * URL does not), and the policy. The reason never quotes the URL.
 */
export function checkBridgeUrl(value: string, kind: 'claim' | 'access', allowUrl?: UrlPolicy): Checked<URL> {
  const what = kind === 'claim' ? "The setup token's claim address" : "The bridge's access address";
  if (!URL.canParse(value)) return { ok: false, reason: `${what} is not a valid web address.` };
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `${what} must start with https:// (it is a ${url.protocol.replace(/[^a-z0-9+.-]/gi, '')} address).` };
  }
  if (kind === 'claim' && (url.username || url.password)) return { ok: false, reason: `${what} must not hold a user name or password.` };
  if (kind === 'access' && !url.username) return { ok: false, reason: `${what} holds no credentials.` };
  url.hash = '';
  const refusal = allowUrl?.(url);
  if (refusal !== undefined) {
    const secrets = [value, url.href, url.pathname, decodeURIComponent(url.username), decodeURIComponent(url.password), url.username, url.password];
    return { ok: false, reason: `${what} is not allowed: ${redact(refusal, secrets)}` };
  }
  return { ok: true, value: url };
}

/** The access URL without its credentials, and the Basic authorization header those credentials make. */
export function splitAccessUrl(accessUrl: URL): { base: URL; authorization: string } {
  const user = decodeURIComponent(accessUrl.username);
  const password = decodeURIComponent(accessUrl.password);
  const base = new URL(accessUrl.href);
  base.username = '';
  base.password = '';
  base.hash = '';
  return { base, authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` };
}

/** Loopback, private (RFC 1918, unique local) and link-local hosts, by name or literal address. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (host === '::1') return true;
  if (/^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host)) return true;
  // An IPv4-mapped IPv6 literal, as URL parsing writes it (::ffff:7f00:1 for 127.0.0.1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return false;
  const [high, low] = [Number.parseInt(mapped[1] as string, 16), Number.parseInt(mapped[2] as string, 16)];
  return isPrivateHost(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
}

/**
 * The usual policies: production contacts https addresses only, as the protocol requires; the sandbox also allows
 * plain http to loopback and private addresses, where a local test bridge runs.
 */
export function simplefinUrlPolicy(mode: 'production' | 'sandbox'): UrlPolicy {
  return (url) => {
    if (url.protocol === 'https:') return undefined;
    if (mode === 'sandbox' && url.protocol === 'http:' && isPrivateHost(url.hostname)) return undefined;
    return mode === 'sandbox' ? 'plain http is allowed only to local and private addresses' : 'only https addresses are allowed';
  };
}
