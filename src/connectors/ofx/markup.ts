/**
 * The OFX markup reader: the header block and the element tree of an OFX 1.x (SGML) or 2.x (XML) document.
 *
 * One pass, left to right, and every scan resumes where the last one stopped, so the work is linear in the size of
 * the input whatever it holds; size, depth, element count and value length are capped, so a hostile or broken server
 * cannot stall the process or fill its memory.
 *
 * SGML leaves have no closing tag: an element whose open tag is followed by text is a leaf holding that text, and a
 * closing tag of the same name right after the text is taken as its end (servers that close leaves, or close some).
 * An element followed directly by another tag is an aggregate. When a closing tag ends an outer aggregate while
 * inner elements are still open, those were empty leaves (OFX aggregates always close): they become leaves with an
 * empty value and what was read as their children moves up to the element that closed.
 */

/** The largest body read, in UTF-16 code units (a brokerage's full history fits many times over). */
export const MAX_OFX_CHARS = 20 * 1024 * 1024;
/** The deepest nesting read; OFX documents nest about ten levels. */
export const MAX_OFX_DEPTH = 32;
/** The most elements read from one document. */
export const MAX_OFX_ELEMENTS = 1_000_000;
/** The longest leaf value read; the longest OFX values (messages, memos) are a few hundred characters. */
export const MAX_OFX_VALUE_CHARS = 64 * 1024;
/**
 * The fewest characters per element a document may average (past its first few thousand elements). Real OFX
 * elements are several times longer; a body packed with tiny elements would otherwise cost more per byte than a
 * real one.
 */
export const MIN_OFX_CHARS_PER_ELEMENT = 6;
const DENSITY_GRACE = 4096;
/** The longest element name read. */
const MAX_NAME_CHARS = 64;
/** How far into the document the header may reach before the `<OFX>` body. */
const MAX_HEADER_CHARS = 8192;

/** The bounds a document is read within; the MAX_OFX_* constants unless given. */
export interface OfxLimits {
  maxChars: number;
  maxDepth: number;
  maxElements: number;
  maxValueChars: number;
}

/** Why a body is not a readable OFX document. */
export class OfxParseError extends Error {
  override readonly name = 'OfxParseError';
}

/** One element of the tree: a leaf has a value, an aggregate children. Names are upper case. */
export interface OfxElement {
  readonly name: string;
  /** The text of a leaf (entity references resolved, surrounding white space removed); undefined for aggregates. */
  readonly value: string | undefined;
  readonly children: readonly OfxElement[];
}

export interface OfxHeader {
  /** `sgml` for a 1.x `OFXHEADER:100` block (or no header at all), `xml` for a 2.x `<?OFX ...?>` instruction. */
  syntax: 'sgml' | 'xml';
  /** The header's fields with upper-case names, e.g. OFXHEADER, VERSION, ENCODING, CHARSET. */
  fields: Record<string, string>;
  /** The OFX version as a number (102, 160, 211, ...), when the header gives one. */
  version: number | undefined;
}

export interface OfxDocument {
  header: OfxHeader;
  /** The `<OFX>` element. */
  root: OfxElement;
}

interface Building {
  name: string;
  value: string | undefined;
  children: Building[];
}

const EMPTY: readonly Building[] = Object.freeze([]) as readonly Building[];

const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
]);
/** The longest reference body looked for after '&' (`#x10FFFF`, `nbsp`). */
const MAX_REFERENCE = 8;

function referenceValue(body: string): string | undefined {
  if (body.charCodeAt(0) !== 35 /* # */) return NAMED_ENTITIES.get(body);
  const hex = body[1] === 'x' || body[1] === 'X';
  const digits = body.slice(hex ? 2 : 1);
  if (digits === '' || !(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  const code = Number.parseInt(digits, hex ? 16 : 10);
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : undefined;
}

/** Resolves character and the usual named entity references; a bare `&` (common in SGML files) stays as it is. */
export function decodeEntities(text: string): string {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  let out = '';
  let copied = 0;
  while (amp >= 0) {
    // Only a few characters are looked at after each '&', so the work stays linear.
    let semi = -1;
    for (let i = amp + 1; i < text.length && i <= amp + 1 + MAX_REFERENCE; i++) {
      const c = text.charCodeAt(i);
      if (c === 59 /* ; */) {
        semi = i;
        break;
      }
      if (c === 38 /* & */) break;
    }
    const value = semi > amp + 1 ? referenceValue(text.slice(amp + 1, semi)) : undefined;
    if (value !== undefined) {
      out += text.slice(copied, amp) + value;
      copied = semi + 1;
    }
    amp = text.indexOf('&', value !== undefined ? semi + 1 : amp + 1);
  }
  return out + text.slice(copied);
}

/** Escapes a value for either syntax. */
export function encodeEntities(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 58;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

const PI_ATTRIBUTE = /([A-Za-z][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Reads the header block; returns it and where the markup starts. */
function readHeader(text: string, start: number): { header: OfxHeader; body: number } {
  let pos = start;
  while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
  const fields: Record<string, string> = Object.create(null);
  let syntax: OfxHeader['syntax'] = 'sgml';
  if (text.startsWith('<?', pos)) {
    syntax = 'xml';
    // Processing instructions (<?xml ...?>, <?OFX ...?>) before the body, each short.
    while (text.startsWith('<?', pos)) {
      const end = text.indexOf('?>', pos + 2);
      if (end < 0 || end - pos > MAX_HEADER_CHARS) throw new OfxParseError('An unterminated processing instruction in the OFX header');
      const instruction = text.slice(pos + 2, end);
      const target = /^[A-Za-z][\w.-]*/.exec(instruction)?.[0].toUpperCase();
      if (target === 'OFX') {
        for (const m of instruction.matchAll(PI_ATTRIBUTE)) fields[m[1]!.toUpperCase()] = (m[2] ?? m[3] ?? '').trim();
      } else if (target === 'XML') {
        for (const m of instruction.matchAll(PI_ATTRIBUTE)) if (m[1]!.toLowerCase() === 'encoding') fields.XMLENCODING = (m[2] ?? m[3] ?? '').trim();
      }
      pos = end + 2;
      while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
    }
  } else if (pos < text.length && text.charCodeAt(pos) !== 60) {
    const lt = text.indexOf('<', pos);
    if (lt < 0 || lt - pos > MAX_HEADER_CHARS) throw new OfxParseError('No OFX header followed by an <OFX> body');
    let sawField = false;
    for (const line of text.slice(pos, lt).split(/\r\n|\r|\n/)) {
      const colon = line.indexOf(':');
      if (colon <= 0) {
        if (line.trim() !== '') throw new OfxParseError('An OFX header line without a name and a value');
        continue;
      }
      fields[line.slice(0, colon).trim().toUpperCase()] = line.slice(colon + 1).trim();
      sawField = true;
    }
    if (!sawField || fields.OFXHEADER === undefined) throw new OfxParseError('The OFX header has no OFXHEADER field');
    pos = lt;
  }
  const version = /^\d{3}$/.test(fields.VERSION ?? '') ? Number(fields.VERSION) : undefined;
  return { header: { syntax, fields: { ...fields }, version }, body: pos };
}

/**
 * Reads an OFX document: the header and the element tree under `<OFX>`. Throws OfxParseError when the text is not
 * one (no header and body, a malformed tag, an unclosed `<OFX>`, a limit exceeded). Markup after `</OFX>` is ignored.
 */
export function parseOfxDocument(text: string, limits: Partial<OfxLimits> = {}): OfxDocument {
  const maxChars = limits.maxChars ?? MAX_OFX_CHARS;
  const maxDepth = limits.maxDepth ?? MAX_OFX_DEPTH;
  const maxElements = limits.maxElements ?? MAX_OFX_ELEMENTS;
  const maxValueChars = limits.maxValueChars ?? MAX_OFX_VALUE_CHARS;
  if (text.length > maxChars) throw new OfxParseError(`The OFX body is larger than ${maxChars} characters`);
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const { header, body } = readHeader(text, start);
  const n = text.length;

  const stack: Building[] = [];
  let root: Building | undefined;
  let rootClosed = false;
  let elements = 0;
  /** The element whose open tag came last, while nothing but text (or comments) followed it. */
  let opened: Building | undefined;
  /** The leaf that just received its value; its own closing tag may follow. */
  let leaf: Building | undefined;

  // Where the next '>' and '<' are at or after the last position asked; valid while that position is ahead of the
  // one asked now, so no stretch of the text is searched twice.
  let gtAt = -1;
  let ltAt = -1;
  const nextGt = (from: number): number => {
    if (gtAt < from) {
      const at = text.indexOf('>', from);
      gtAt = at < 0 ? n : at;
    }
    return gtAt;
  };
  const nextLt = (from: number): number => {
    if (ltAt < from) {
      const at = text.indexOf('<', from);
      ltAt = at < 0 ? n : at;
    }
    return ltAt;
  };

  const addText = (from: number, to: number, raw: boolean): void => {
    if (from >= to) return;
    const target = leaf ?? opened;
    if (!target) return; // text between aggregates carries nothing
    if (to - from > maxValueChars) throw new OfxParseError(`An OFX value is longer than ${maxValueChars} characters`);
    const piece = raw ? text.slice(from, to) : decodeEntities(text.slice(from, to));
    if (target === opened) {
      const value = raw ? piece : piece.trim();
      if (value === '') return;
      // Text right after an open tag: the element is a leaf.
      target.value = value;
      target.children = EMPTY as Building[];
      stack.pop();
      opened = undefined;
      leaf = target;
      if (stack.length === 0) rootClosed = true;
    } else {
      const value = (target.value ?? '') + (raw ? piece : piece.trimEnd());
      if (value.length > maxValueChars) throw new OfxParseError(`An OFX value is longer than ${maxValueChars} characters`);
      target.value = value;
    }
  };

  const open = (name: string, selfClosing: boolean, at: number): void => {
    if (rootClosed) return;
    if (++elements > maxElements) throw new OfxParseError(`The OFX body has more than ${maxElements} elements`);
    if (elements > DENSITY_GRACE && elements * MIN_OFX_CHARS_PER_ELEMENT > at) throw new OfxParseError('The OFX body has more elements than its size allows');
    // Children arrays are made on the first child: most elements are leaves.
    const element: Building = { name, value: undefined, children: EMPTY as Building[] };
    const parent = stack[stack.length - 1];
    if (parent) {
      if (parent.children === EMPTY) parent.children = [];
      parent.children.push(element);
    } else if (!root) root = element;
    leaf = undefined;
    if (selfClosing) {
      element.value = '';
      element.children = EMPTY as Building[];
      opened = undefined;
      if (!parent) rootClosed = true;
      return;
    }
    if (stack.length >= maxDepth) throw new OfxParseError(`The OFX body nests deeper than ${maxDepth} levels`);
    stack.push(element);
    opened = element;
  };

  const close = (name: string): void => {
    const justLeaf = leaf;
    leaf = undefined;
    opened = undefined;
    if (justLeaf && justLeaf.name === name) return;
    let i = stack.length - 1;
    while (i >= 0 && stack[i]!.name !== name) i--;
    if (i < 0) return; // a closing tag for nothing open: ignored
    const target = stack[i]!;
    if (i < stack.length - 1) {
      // The elements still open inside were empty SGML leaves; what followed them belongs to the target.
      for (let j = i + 1; j < stack.length; j++) {
        const inner = stack[j]!;
        for (const c of inner.children) target.children.push(c);
        inner.value = '';
        inner.children = EMPTY as Building[];
      }
    }
    stack.length = i;
    if (target.children.length === 0 && target.value === undefined) {
      target.value = '';
      target.children = EMPTY as Building[];
    }
    if (i === 0) rootClosed = true;
  };

  // Element names repeat all through a document: each distinct spelling is upper-cased once and shared.
  const names = new Map<string, string>();
  const nameAt = (from: number, to: number): string => {
    const raw = text.slice(from, to);
    let name = names.get(raw);
    if (name === undefined) {
      name = raw.toUpperCase();
      if (names.size < 4096) names.set(raw, name);
    }
    return name;
  };

  /** Reads a name at `at`; returns its end. */
  const nameEnd = (at: number): number => {
    let end = at;
    while (end < n && isNameChar(text.charCodeAt(end))) {
      if (++end - at > MAX_NAME_CHARS) throw new OfxParseError('An OFX element name is too long');
    }
    return end;
  };

  let segment = body;
  let scan = body;
  while (!rootClosed) {
    const lt = text.indexOf('<', scan);
    if (lt < 0) {
      addText(segment, n, false);
      break;
    }
    const c = text.charCodeAt(lt + 1);
    let next: number;
    if (c === 33 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt + 4);
        if (end < 0) throw new OfxParseError('An unterminated comment in the OFX body');
        addText(segment, lt, false);
        next = end + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        if (end < 0) throw new OfxParseError('An unterminated CDATA section in the OFX body');
        addText(segment, lt, false);
        addText(lt + 9, end, true);
        next = end + 3;
      } else {
        const end = nextGt(lt);
        if (end >= n) throw new OfxParseError('An unterminated declaration in the OFX body');
        addText(segment, lt, false);
        next = end + 1;
      }
    } else if (c === 63 /* ? */) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) throw new OfxParseError('An unterminated processing instruction in the OFX body');
      addText(segment, lt, false);
      next = end + 2;
    } else if (c === 47 /* / */ || isNameStart(c)) {
      const closing = c === 47;
      const nameStart = closing ? lt + 2 : lt + 1;
      const end = nameEnd(nameStart);
      const gt = nextGt(end);
      if (end === nameStart || gt >= n || nextLt(lt + 1) < gt) throw new OfxParseError(`A malformed tag at character ${lt}`);
      addText(segment, lt, false);
      const name = nameAt(nameStart, end);
      if (closing) close(name);
      else open(name, text.charCodeAt(gt - 1) === 47 && gt - 1 >= end, lt);
      next = gt + 1;
    } else {
      // A '<' that starts no markup is part of the text.
      scan = lt + 1;
      continue;
    }
    segment = scan = next;
  }

  if (!root) throw new OfxParseError('The OFX body has no elements');
  if (!rootClosed) throw new OfxParseError(`The OFX body ends before </${root.name}>`);
  if (root.name !== 'OFX') throw new OfxParseError(`The document is <${root.name}>, not <OFX>`);
  return { header, root };
}

/** The first child of an aggregate with this name. */
export function childOf(element: OfxElement | undefined, name: string): OfxElement | undefined {
  if (!element) return undefined;
  for (const c of element.children) if (c.name === name) return c;
  return undefined;
}

/** Every child of an aggregate with this name. */
export function childrenOf(element: OfxElement | undefined, name: string): OfxElement[] {
  return element ? element.children.filter((c) => c.name === name) : [];
}

/** The value of a leaf child, or of a leaf at a path of children; undefined when absent or empty. */
export function leafValue(element: OfxElement | undefined, ...path: string[]): string | undefined {
  let at = element;
  for (const name of path) at = childOf(at, name);
  const value = at?.value;
  return value === undefined || value === '' ? undefined : value;
}

/** What windows-1252 has at 0x80-0x9F, where ISO-8859-1 has control characters (undefined bytes stay as they are). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeSingleByte(bytes: Uint8Array, windows1252: boolean): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return windows1252 ? text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!) : text;
}

/**
 * Decodes a response's or a file's bytes. UTF-8 when they are valid UTF-8, whatever the header says: servers often
 * declare CHARSET:1252 and send UTF-8, while single-byte text is almost never valid UTF-8 by chance (and plain ASCII
 * reads the same either way). Otherwise the single-byte character set the header names: ISO-8859-1, or windows-1252
 * (CHARSET:1252, the usual 1.x pairing with ENCODING:USASCII, and the default).
 */
export function decodeOfxBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: a single-byte character set.
  }
  const head = decodeSingleByte(bytes.subarray(0, 1024), false);
  const charset = (/CHARSET\s*:\s*([A-Za-z0-9-]+)/i.exec(head)?.[1] ?? /encoding\s*=\s*["']([A-Za-z0-9_-]+)/i.exec(head)?.[1])?.toUpperCase();
  const latin1 = charset === 'ISO-8859-1' || charset === '8859-1' || charset === 'LATIN1';
  return decodeSingleByte(bytes, !latin1);
}
