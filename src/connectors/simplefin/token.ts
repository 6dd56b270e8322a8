/**
 * SimpleFIN setup tokens and the addresses they lead to. A setup token is the base64 of a one-time claim URL; the
 * claim answers with the access URL (`https://user:pass@host/path`). Both are secrets as good as the user's bank
 * data, so no message made here ever contains them: reasons name what is wrong, never the value.
 *
 * Which addresses may be contacted is the caller's policy (UrlPolicy), applied to the claim URL and to the access
 * URL the bridge hands back: a bridge must not be able to point the service at an address the policy forbids.
 */
import { type PolicyMode, serverUrlProblem } from '../../platform/net/outbound.js';
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
  // The credentials are percent-decoded for the Authorization header: a broken escape (`%zz`, a cut UTF-8 sequence)
  // makes them unknowable, so such an address is refused here rather than failing when it is used.
  const user = decodeUrlPart(url.username);
  const password = decodeUrlPart(url.password);
  if (user === undefined || password === undefined) {
    return { ok: false, reason: `${what} holds a user name or password that is not valid percent-encoding.` };
  }
  url.hash = '';
  const refusal = allowUrl?.(url);
  if (refusal !== undefined) {
    const secrets = [value, url.href, url.pathname, user, password, url.username, url.password];
    return { ok: false, reason: `${what} is not allowed: ${redact(refusal, secrets)}` };
  }
  return { ok: true, value: url };
}

/** A percent-encoded URL part decoded, or undefined when an escape is broken or decodes to invalid UTF-8. */
export function decodeUrlPart(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The access URL without its credentials, and the Basic authorization header those credentials make. The URL is one
 * checkBridgeUrl accepted, so its credentials decode.
 */
export function splitAccessUrl(accessUrl: URL): { base: URL; authorization: string } {
  const user = decodeURIComponent(accessUrl.username);
  const password = decodeURIComponent(accessUrl.password);
  const base = new URL(accessUrl.href);
  base.username = '';
  base.password = '';
  base.hash = '';
  return { base, authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` };
}

/**
 * The policy of the service mode: the outbound target policy's check of server URLs (https only in production;
 * plain http in the sandbox, where a local test bridge runs; no address the mode refuses), the same check the
 * transport makes, which also checks the address a name resolves to when it connects.
 */
export function simplefinUrlPolicy(mode: PolicyMode): UrlPolicy {
  return (url) => serverUrlProblem(url, mode);
}
