/**
 * What the request log keeps of headers and bodies, and how secrets are taken out of them before anything is stored:
 * the log is shown on the dashboard, and a copy of the database must not hand out anyone's credentials.
 */
import { redactQuerySecrets } from '../../platform/redact-query.js';

/** Most characters of a body the log keeps (8 KB of ASCII); longer bodies are cut there and marked as cut. */
export const BODY_CAP = 8192;
/** Most headers of one message the log keeps, and most characters of one header's value. */
const MAX_HEADERS = 40;
const MAX_HEADER_VALUE = 256;

export const REDACTED = '[redacted]';

/**
 * Names of fields whose values are secrets: partner secrets (`partnerSecret`, `newPartnerSecret`), passwords and
 * passcodes, tokens (`token`, a SimpleFIN setup token), signatures and keys (`signingKey`, an app key), PINs, and the
 * `value` and `answer` of institution credentials and MFA answers (OFX and SimpleFIN sign-ins travel in those).
 * Matched on the whole name, in any letter case; names of URLs (`urlForgotPassword`) are not secrets.
 */
const SECRET_NAME = String.raw`(?!url)[\w.-]*(?:secret|password|passwd|passcode|pass|pwd|token|signature|key|pin)|value|answer`;
const SECRET_FIELD = new RegExp(`^(?:${SECRET_NAME})$`, 'i');
/** A JSON member with a secret name, its value a string (perhaps cut short) or a bare number, boolean or null. */
const JSON_MEMBER = new RegExp(String.raw`("(?:${SECRET_NAME})"\s*:\s*)(?:"(?:[^"\\]|\\.)*(?:"|\\?$)|[^\s,}\]]+)`, 'gi');
/** An XML element (or an OFX tag, which need not be closed) with a secret name: its text up to the next tag. */
const XML_ELEMENT = new RegExp(String.raw`(<(?:[\w.-]+:)?(?:${SECRET_NAME})(?:\s[^<>]*)?>)[^<]+`, 'gi');
/** An XML attribute with a secret name. */
const XML_ATTRIBUTE = new RegExp(String.raw`(\s(?:${SECRET_NAME})\s*=\s*)(?:"[^"]*(?:"|$)|'[^']*(?:'|$))`, 'gi');
/** Header names whose values are credentials, whatever the deployment calls them (Finicity-App-Key, Authorization, ...). */
const SECRET_HEADER = /key|token|secret|passw|auth|cookie|session|signature|credential/i;

/** Whether a field of this name holds a secret (its value is never kept). */
export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name);
}

/**
 * A body as text with the values of secret fields (JSON, XML, OFX) and of secret query parameters in any URL it
 * holds replaced by `[redacted]`. Works on a body cut short too: a value cut before its end is redacted as well.
 */
export function redactBody(text: string, fields = true): string {
  let out = redactQuerySecrets(text);
  if (!fields) return out;
  if (out.includes('"')) out = out.replace(JSON_MEMBER, `$1"${REDACTED}"`);
  if (out.includes('<')) out = out.replace(XML_ELEMENT, `$1${REDACTED}`).replace(XML_ATTRIBUTE, `$1"${REDACTED}"`);
  return out;
}

/**
 * Headers as the log keeps them: one `name: value` line each, in the order given, values of credential headers
 * (the app key and token headers under any configured name, cookies, authorization, MFA sessions) replaced by
 * `[redacted]`, other values cut at 256 characters, at most 40 headers.
 */
export function headerLines(headers: Record<string, unknown>, secretNames: ReadonlySet<string>): string {
  let out = '';
  let n = 0;
  for (const name in headers) {
    const raw = headers[name];
    if (raw === undefined) continue;
    if (n++ === MAX_HEADERS) break;
    let value = Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (secretNames.has(name) || SECRET_HEADER.test(name)) value = REDACTED;
    else if (value.length > MAX_HEADER_VALUE) value = `${value.slice(0, MAX_HEADER_VALUE)}…`;
    out += n === 1 ? `${name}: ${value}` : `\n${name}: ${value}`;
  }
  return out;
}

/** The lines of headerLines as name and value pairs. */
export function parseHeaderLines(lines: string): { name: string; value: string }[] {
  if (lines === '') return [];
  return lines.split('\n').map((line) => {
    const at = line.indexOf(': ');
    return at < 0 ? { name: line, value: '' } : { name: line.slice(0, at), value: line.slice(at + 2) };
  });
}

/** A body's first BODY_CAP bytes as text, or undefined when they are not text (a NUL byte, or bytes that are not UTF-8). */
export function bodyText(bytes: Buffer, whole: number): string | undefined {
  let text = bytes.toString('utf8', 0, Math.min(bytes.length, BODY_CAP));
  // A character cut in two at the cap decodes as one replacement character at the very end.
  if (whole > BODY_CAP && text.endsWith('\uFFFD')) text = text.slice(0, -1);
  return text.includes('\0') || text.includes('\uFFFD') ? undefined : text;
}

/** At most BODY_CAP characters of an already redacted text (a `[redacted]` may make it a little longer than what it replaced). */
export function capped(text: string): string {
  return text.length > BODY_CAP ? text.slice(0, BODY_CAP) : text;
}
