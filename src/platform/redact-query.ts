import { isSecretParamName } from './secret-names.js';

/** What a redacted value is replaced with, in the logs and the request log. */
export const REDACTED = '[redacted]';

/**
 * One `name=value` pair of a query string, after `?`, `&` or `;`. The value stops where a URL would end in text,
 * in HTML or in a JSON string (whose escapes, such as `\"`, are taken whole so a JSON line stays well formed).
 */
const PAIR = /([?&;])([^=&;?#\s"'<>\\]+)=((?:\\.|[^&;#\s"'<>\\])*)/g;

/**
 * Replaces the values of secret query parameters in a URL, or in any text holding URLs (a log line), with
 * `[redacted]`: bearer secrets (a Connect link's `signature`, OAuth `code` and `state`, tokens, keys) and passwords,
 * PINs and answers, named as isSecretParamName reads names (`pwd`, `Password%00`, `token[]`, `user[pin]`). Text
 * without `=` is returned as it is, at the cost of one scan.
 */
export function redactQuerySecrets(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(PAIR, (pair, sep: string, name: string) => (isSecretParamName(name) ? `${sep}${name}=${REDACTED}` : pair));
}

/**
 * The user name and password of a URL (`https://user:pass@host`, `//user@host`, `https:\/\/` as some JSON writers
 * escape it): from the `//` to the last `@` before the path.
 */
const USERINFO = /(\\?\/\\?\/)[^\s/?#]*@/g;
/** The same in JSON text, never past the end of the string it is in (its escapes taken whole, but not `\/`). */
const USERINFO_JSON = /(\\?\/\\?\/)(?:\\[^/]|[^\s/?#"\\])*@/g;
/** An authority at the very end of a text cut short: it may be a user name and password whose `@` was cut off. */
const CUT_AUTHORITY = /(\\?\/\\?\/)[^\s/?#]+$/;

/** SimpleFIN claim URLs (`/simplefin/claim/TOKEN`) carry their one-time token in the path. */
const CLAIM_PATH = '/simplefin/claim/';
const CLAIM_TOKEN = /(\/simplefin\/claim\/)[^\s/?#"'<>\\]+/g;

/**
 * A text with the secrets of the URLs in it redacted: secret query parameters (redactQuerySecrets) and the user name
 * and password before the host (`https://[redacted]@host`), and the token of a SimpleFIN claim URL. `json`: the text is JSON (a log line), whose strings a
 * user name is never looked for past. `cut`: the text is the start of a longer one, and an authority it ends with
 * is redacted too.
 */
export function redactUrlSecrets(text: string, options: { json?: boolean; cut?: boolean } = {}): string {
  let out = redactQuerySecrets(text);
  if (out.includes(CLAIM_PATH)) out = out.replace(CLAIM_TOKEN, `$1${REDACTED}`);
  if (out.includes('@')) out = out.replace(options.json ? USERINFO_JSON : USERINFO, `$1${REDACTED}@`);
  if (options.cut && out.includes('/')) out = out.replace(CUT_AUTHORITY, `$1${REDACTED}`);
  return out;
}
