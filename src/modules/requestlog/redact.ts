/**
 * What the request log keeps of headers and bodies, and how secrets are taken out of them before anything is stored:
 * the log is shown on the dashboard, and a copy of the database must not hand out anyone's credentials.
 */
import { REDACTED, redactUrlSecrets } from '../../platform/redact-query.js';
import { isSecretHeaderName } from '../../platform/secret-names.js';

export { REDACTED };

/** Most characters of a body the log keeps (8 KB of ASCII); longer bodies are cut there and marked as cut. */
export const BODY_CAP = 8192;
/** Most headers of one message the log keeps, and most characters of one header's value. */
const MAX_HEADERS = 40;
const MAX_HEADER_VALUE = 256;

/**
 * Names of fields whose values are secrets: partner secrets (`partnerSecret`, `newPartnerSecret`), passwords and
 * passcodes, tokens (`token`, a SimpleFIN setup token), signatures and keys (`signingKey`, an app key), PINs, and the
 * `value` and `answer` of institution credentials and MFA answers (OFX and SimpleFIN sign-ins travel in those), and
 * a consumer's Social Security number and birthday (`ssn`, `birthday`: what identity theft needs besides a name).
 * Matched on the whole name, in any letter case; names of URLs (`urlForgotPassword`) are not secrets.
 */
const SECRET_NAME = String.raw`(?!url)[\w.-]*(?:secret|password|passwd|passcode|pass|pwd|token|signature|key|pin|ssn)|value|answer|birthday`;
const SECRET_FIELD = new RegExp(`^(?:${SECRET_NAME})$`, 'i');
/**
 * Names of header maps (`webhookHeaders`, `headers`): a member named `headers` or ending in `Headers`, in any letter
 * case, as the contract names every map of header names to values. Deny by default: headers sent on a partner's
 * behalf are often its receiver's own credentials under names no rule foresees (`X-Acme-Auth`, `Api-Id`), so every
 * value under such a member is redacted, at any depth, and only the header names are kept.
 */
const HEADER_MAP_NAME = String.raw`[\w.-]*headers`;
const HEADER_MAP = /headers$/i;
/** A JSON member whose value is redacted whatever it is: a secret field or a header map. */
const JSON_MEMBER_NAME = new RegExp(String.raw`"(?:${SECRET_NAME}|${HEADER_MAP_NAME})"\s*:\s*`, 'gi');
/** An XML attribute with a secret or header-map name. */
const XML_ATTRIBUTE = new RegExp(String.raw`(\s(?:${SECRET_NAME}|${HEADER_MAP_NAME})\s*=\s*)(?:"[^"]*(?:"|$)|'[^']*(?:'|$))`, 'gi');

/** Field names worked out already (bodies of one API repeat the same few), up to 64 characters each: emptied when full. */
const MAX_REMEMBERED = 1024;
const MAX_REMEMBERED_NAME = 64;
const fieldNames = new Map<string, boolean>();

/** Whether a field of this name holds a secret (its value is never kept). */
export function isSecretField(name: string): boolean {
  let secret = fieldNames.get(name);
  if (secret === undefined) {
    secret = SECRET_FIELD.test(name);
    if (name.length > MAX_REMEMBERED_NAME) return secret;
    if (fieldNames.size >= MAX_REMEMBERED) fieldNames.clear();
    fieldNames.set(name, secret);
  }
  return secret;
}

/** Whether a member of this name is a map of header names to values (every value under it is redacted). */
export function isHeaderMapName(name: string): boolean {
  return HEADER_MAP.test(name);
}

const JSON_TEXT = /^\s*[[{]/;

/**
 * A body as text with the values of secret fields and header maps (JSON, XML, OFX), and the secrets of any URL it
 * holds (secret query parameters, user names and passwords), replaced by `[redacted]`. Works on a body cut short too
 * (`cut`: the text is the start of a longer body): a value cut before its end is redacted as well, and so is
 * everything after an XML element left open by the cut. Field redaction recognises well-formed syntax only: request
 * bodies reach it only once a parser took them.
 */
export function redactBody(text: string, fields = true, cut = false): string {
  let out = redactUrlSecrets(text, { json: JSON_TEXT.test(text), cut });
  if (!fields) return out;
  if (out.includes('"')) out = redactJsonMembers(out);
  if (out.includes('<')) out = redactXmlElements(out, cut).replace(XML_ATTRIBUTE, `$1"${REDACTED}"`);
  return out;
}

/**
 * JSON text with the value of every member with a secret or header-map name replaced by `"[redacted]"`, whatever it
 * is (a string, a number, an object or array with all it holds); a value the text was cut inside is redacted to the
 * end.
 */
function redactJsonMembers(text: string): string {
  let out = '';
  let kept = 0;
  JSON_MEMBER_NAME.lastIndex = 0;
  for (let m = JSON_MEMBER_NAME.exec(text); m; m = JSON_MEMBER_NAME.exec(text)) {
    const start = m.index + m[0].length;
    const end = jsonValueEnd(text, start);
    if (end === start) continue;
    out += `${text.slice(kept, start)}"${REDACTED}"`;
    kept = end;
    JSON_MEMBER_NAME.lastIndex = end;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** Where the JSON value starting at `at` ends (the index after it), or the text's length when it was cut inside. */
function jsonValueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === 0x22) {
    for (let i = at + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) return i + 1;
    }
    return text.length;
  }
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) i = jsonValueEnd(text, i) - 1;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
    }
    return text.length;
  }
  // A number, true, false or null: to the next separator.
  let i = at;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break;
  }
  return i;
}

/** The name of an element as the XML parser reads it: everything up to whitespace, `/` or `>`. */
const TAG_NAME = /[^\s/>]+/y;

interface Markup {
  /** Where it ends (the index after its `>`; the text's length when it was cut before its end). */
  end: number;
  kind: 'open' | 'empty' | 'close' | 'other';
  name: string;
}

function endOf(text: string, close: string, from: number): number {
  const at = text.indexOf(close, from);
  return at < 0 ? text.length : at + close.length;
}

/**
 * The markup starting at the `<` at `at`: a start tag (`open`, or `empty` when it closes itself), an end tag, or a
 * comment, CDATA section, processing instruction or declaration (`other`), whose text may hold `<` and `>`. A `<`
 * that starts no markup is `other` too, one character long.
 */
function markupAt(text: string, at: number): Markup {
  if (text.startsWith('<!--', at)) return { end: endOf(text, '-->', at + 4), kind: 'other', name: '' };
  if (text.startsWith('<![CDATA[', at)) return { end: endOf(text, ']]>', at + 9), kind: 'other', name: '' };
  if (text.startsWith('<?', at)) return { end: endOf(text, '?>', at + 2), kind: 'other', name: '' };
  if (text.startsWith('<!', at)) return { end: endOf(text, '>', at + 2), kind: 'other', name: '' };
  const close = text.charCodeAt(at + 1) === 0x2f;
  TAG_NAME.lastIndex = at + (close ? 2 : 1);
  const name = TAG_NAME.exec(text)?.[0];
  if (name === undefined) return { end: at + 1, kind: 'other', name: '' };
  // To the `>` that ends the tag, past attribute values (which may hold `>`).
  let quote = 0;
  for (let i = TAG_NAME.lastIndex; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) {
      const kind = close ? 'close' : text.charCodeAt(i - 1) === 0x2f ? 'empty' : 'open';
      return { end: i + 1, kind, name };
    }
    // Not XML (an OFX tag never closed): the tag ends where the next one starts.
    else if (c === 0x3c) return { end: i, kind: close ? 'close' : 'open', name };
  }
  return { end: text.length, kind: close ? 'close' : 'open', name };
}

const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1);
/** Whether an element's whole content is redacted: a secret field, or a header map (its header names too). */
const redactsElement = (name: string) => isSecretField(name) || isHeaderMapName(name);

/**
 * Most markup redactXmlElements reads in one text (an 8 KB body holds at most 2,731 tags): enough for any body the
 * parsers took, while a text built to make the search for close tags slow (many unclosed secret elements, each looked
 * past to the end) stops there, and everything after is redacted.
 */
const MAX_MARKUP = 20_000;

/**
 * XML (and OFX) with the content of every element with a secret or header-map name replaced by `[redacted]`: everything up to its
 * matching end tag, comments and CDATA sections included (the parser reads `<value><!---->x</value>` and
 * `<value><![CDATA[x]]></value>` as `x`). An element without an end tag is cut short when `cut` (the text is the start
 * of a longer body): redacted to the end; otherwise it is an OFX element, which ends where the next tag starts.
 */
function redactXmlElements(text: string, cut: boolean): string {
  let work = 0;
  let out = '';
  let kept = 0;
  let at = text.indexOf('<');
  while (at >= 0) {
    if (++work > MAX_MARKUP) return `${out}${text.slice(kept, at)}${REDACTED}`;
    const tag = markupAt(text, at);
    if (tag.kind !== 'open' || !redactsElement(localName(tag.name))) {
      at = text.indexOf('<', tag.end);
      continue;
    }
    // Its content: to the end tag that closes it (same-named elements inside counted), or where it ends otherwise.
    const name = tag.name.toLowerCase();
    let depth = 1;
    let contentEnd = -1;
    let nextTag = -1;
    for (let i = text.indexOf('<', tag.end); i >= 0 && contentEnd < 0; ) {
      if (++work > MAX_MARKUP) return `${out}${text.slice(kept, tag.end)}${REDACTED}`;
      const inner = markupAt(text, i);
      if (inner.kind === 'open' || inner.kind === 'close') {
        if (nextTag < 0) nextTag = i;
        if (inner.name.toLowerCase() === name && (inner.kind === 'open' ? ++depth : --depth) === 0) contentEnd = i;
      }
      i = text.indexOf('<', inner.end);
    }
    if (contentEnd < 0) contentEnd = cut || nextTag < 0 ? text.length : nextTag;
    if (contentEnd > tag.end) {
      out += `${text.slice(kept, tag.end)}${REDACTED}`;
      kept = contentEnd;
    }
    at = text.indexOf('<', Math.max(contentEnd, tag.end));
  }
  return out + text.slice(kept);
}

/** Deepest nesting redactedJson writes out; parsed bodies are at most 32 deep (MAX_JSON_DEPTH). */
const MAX_JSON_NESTING = 64;

/** A string as the log writes it in JSON: at most BODY_CAP characters of it, the secrets of URLs in it redacted. */
function jsonString(s: string): string {
  const cut = s.length > BODY_CAP;
  return JSON.stringify(redactUrlSecrets(cut ? s.slice(0, BODY_CAP) : s, { cut }));
}

/**
 * A parsed JSON body as the log keeps it: serialised again with the value of every member with a secret name (as
 * parsed, so `"p\u0061rtnerSecret"` is `partnerSecret`) replaced by `[redacted]`, whatever its type; inside a header
 * map (isHeaderMapName) every value but null, at any depth, the names kept; and the secrets of URLs in strings
 * (redactUrlSecrets) redacted. At most BODY_CAP characters, and no more of the value is walked than that takes.
 */
export function redactedJson(value: unknown): string {
  let out = '';
  const walk = (v: unknown, depth: number, headers: boolean): void => {
    if (v === null || typeof v !== 'object') {
      if (headers && v !== null) out += `"${REDACTED}"`;
      else out += typeof v === 'string' ? jsonString(v) : (JSON.stringify(v) ?? 'null');
      return;
    }
    if (depth > MAX_JSON_NESTING) {
      out += '"…"';
      return;
    }
    const array = Array.isArray(v);
    out += array ? '[' : '{';
    let first = true;
    for (const key of array ? v.keys() : Object.keys(v)) {
      if (out.length >= BODY_CAP) return;
      if (!first) out += ',';
      first = false;
      const item = (v as Record<string | number, unknown>)[key];
      if (array) walk(item, depth + 1, headers);
      else {
        const name = localName(key as string);
        out += `${jsonString(key as string)}:`;
        if (isSecretField(name)) out += `"${REDACTED}"`;
        else walk(item, depth + 1, headers || isHeaderMapName(name));
      }
    }
    out += array ? ']' : '}';
  };
  walk(value, 0, false);
  return capped(out);
}

/** What the log keeps of a request body it could not read as a body the service takes, in place of its bytes. */
export const NOT_STORED = '[not stored: the body could not be read as JSON or XML]';
/** What the log keeps of a statement file: the file holds full account numbers and a person's spending. */
export const STATEMENT_FILE_NOT_STORED = '[not stored: a statement file]';
/** What the log keeps of a request that carries a person's document (a pay statement), in place of its bytes. */
export const DOCUMENT_NOT_STORED = '[not stored: a document]';
/** What the log keeps of an answer that gives full account numbers (ACH and loan payment details). */
export const ACCOUNT_NUMBERS_NOT_STORED = '[not stored: full account numbers]';

/**
 * Headers as the log keeps them: one `name: value` line each, in the order given, values of credential headers
 * (the app key and token headers under any configured name, and every name isSecretHeaderName reads as a secret's:
 * cookies, authorization, MFA sessions and answers, passwords, PINs) replaced by `[redacted]`, secrets of URLs in
 * other values redacted (redactUrlSecrets), those values then cut at 256 characters, at most 40 headers.
 */
export function headerLines(headers: Record<string, unknown>, secretNames: ReadonlySet<string>): string {
  let out = '';
  let n = 0;
  for (const name in headers) {
    const raw = headers[name];
    if (raw === undefined) continue;
    if (n++ === MAX_HEADERS) break;
    let value = Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (secretNames.has(name) || isSecretHeaderName(name)) value = REDACTED;
    else {
      value = redactUrlSecrets(value);
      if (value.length > MAX_HEADER_VALUE) value = `${value.slice(0, MAX_HEADER_VALUE)}…`;
    }
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
