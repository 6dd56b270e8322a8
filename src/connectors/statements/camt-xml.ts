/**
 * The XML side of reading an ISO 20022 camt file: its bytes as text (the encoding its XML declaration names, else
 * UTF-8, else Windows-1252), parsed by fast-xml-parser with nothing expanded (a document declaring a DTD or entities
 * is refused unread; only the five predefined entities and character references are decoded, by `textOf`) and its
 * nesting limited, namespace prefixes dropped, so that `camt:Ntry` and `Ntry` read alike. fast-xml-parser keeps no
 * positions, so the lines of the elements problems name are found by a pass of their own over the text, which also
 * refuses elements of very many attributes before the parser meets them.
 */
import { type X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeStatementText, MAX_CSV_BYTES, StatementFileError } from './csv.js';

/** A parsed element: text, or children by name (an element that repeats is an array); attributes under `@name`. */
export type XmlValue = string | XmlNode | XmlValue[];
export interface XmlNode {
  [name: string]: XmlValue;
}

/** Deeper than any camt message (their deepest elements are some fifteen levels down). */
const MAX_DEPTH = 64;
/** Characters of a parser's complaint kept in a message (it may quote a huge element name). */
const COMPLAINT_CHARS = 200;

/** The parser's options: what a camt reader needs of a file, and no more (a benchmark's floor uses them too). */
export const CAMT_XML_OPTIONS = {
  // The currency is the one attribute a camt reader needs; the rest are not even collected.
  ignoreAttributes: (name: string) => name !== 'Ccy',
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // References are decoded by textOf: the parser's own decoding is entity expansion, which a bank file never needs.
  processEntities: false,
  htmlEntities: false,
  // It counts the elements enclosing the one being opened, so the root alone is 0.
  maxNestedTags: MAX_DEPTH - 1,
  // Callbacks get a matcher rather than a path string built for every element, which costs a third of the parse.
  jPath: false,
} satisfies X2jOptions;

const parser = new XMLParser(CAMT_XML_OPTIONS);

const DECLARATION = /<!(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST)/i;
const NESTING_EXCEEDED = 'Maximum nested tags exceeded';

const cut = (text: string) => (text.length > COMPLAINT_CHARS ? `${text.slice(0, COMPLAINT_CHARS - 1)}…` : text);

/** The encoding an XML declaration at the start of the bytes names, if any. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1');
  return /^(?:\uFEFF|\u00EF\u00BB\u00BF)?\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][\w.:-]{0,39})["']/.exec(head)?.[1];
}

/**
 * The file's text. An encoding the XML declaration names other than UTF-8 or UTF-16 (ISO-8859-1, Windows-1252,
 * ISO-8859-15...) decides; otherwise the bytes are read as the other statement files are (UTF-8 strictly, UTF-16 by
 * its byte-order mark, else Windows-1252).
 */
export function decodeXmlFile(input: string | Uint8Array): string {
  if (typeof input === 'string') return decodeStatementText(input);
  const declared = declaredEncoding(input);
  if (declared !== undefined && !/^utf-?(?:8|16)/i.test(declared) && input.byteLength <= MAX_CSV_BYTES) {
    let decoder: TextDecoder | undefined;
    try {
      decoder = new TextDecoder(declared);
    } catch {
      // An encoding the platform does not know: read as any other statement file.
    }
    if (decoder) return decoder.decode(input);
  }
  return decodeStatementText(input);
}

/**
 * Parses the text into elements, or refuses it (StatementFileError): a document declaring a DTD or entities (an
 * entity expansion attempt, or at least nothing a bank writes), XML that is not well-formed, or nesting deeper than
 * MAX_DEPTH. The validator and the parser each read the text once, in linear time.
 */
export function parseXmlFile(text: string): XmlNode {
  if (DECLARATION.test(text)) {
    throw new StatementFileError('unreadable', 'The file declares a DTD or entities, which no bank statement does: it was refused unread.');
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new StatementFileError('unreadable', `The file is not well-formed XML: ${cut(valid.err.msg)} (line ${valid.err.line}).`);
  try {
    return parser.parse(text) as XmlNode;
  } catch (error) {
    const message = (error as Error).message;
    if (message === NESTING_EXCEEDED) throw new StatementFileError('unreadable', `The file's elements are nested deeper than ${MAX_DEPTH} levels.`);
    throw new StatementFileError('unreadable', `The file cannot be read as XML: ${cut(message)}`);
  }
}

const isNode = (value: XmlValue | undefined): value is XmlNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every occurrence of a child element (none, one or several). */
export function childrenOf(node: XmlValue | undefined, name: string): XmlValue[] {
  if (!isNode(node) || !Object.hasOwn(node, name)) return [];
  const value = node[name]!;
  return Array.isArray(value) ? value : [value];
}

/** The element at a path of child names (the first of each when one repeats). */
export function at(node: XmlValue | undefined, ...path: string[]): XmlValue | undefined {
  let current = node;
  for (const name of path) {
    current = childrenOf(current, name)[0];
    if (current === undefined) return undefined;
  }
  return current;
}

const REFERENCE = /&(?:#(\d{1,7})|#x([0-9A-Fa-f]{1,6})|(amp|lt|gt|quot|apos));/g;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return PREDEFINED[name]!;
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

/** An element's text, references decoded and spaces collapsed; '' when it is absent or holds elements only. */
export function textOf(value: XmlValue | undefined): string {
  const first = Array.isArray(value) ? value[0] : value;
  const raw = typeof first === 'string' ? first : isNode(first) && typeof first['#text'] === 'string' ? first['#text'] : '';
  return decodeReferences(raw).replace(/\s+/g, ' ').trim();
}

/** An attribute of an element ('' when absent). */
export function attributeOf(value: XmlValue | undefined, name: string): string {
  const first = Array.isArray(value) ? value[0] : value;
  return isNode(first) && typeof first[`@${name}`] === 'string' ? (first[`@${name}`] as string).trim() : '';
}

/** What ends an element's name: white space, '/' or '>'. */
const ENDS_NAME: ReadonlySet<number> = new Set([0x20, 0x09, 0x0a, 0x0d, 0x2f, 0x3e]);
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const GREATER = 0x3e;

/** Where what starts at `from` ends (just after `end`), or -1 when it never does. */
function after(text: string, from: number, end: string): number {
  const found = text.indexOf(end, from);
  return found === -1 ? -1 : found + end.length;
}

/**
 * One pass over the markup before it is parsed: the line of each start tag with one of `names` (namespace prefix
 * aside), in document order, per name; and a refusal (StatementFileError) of an element with more than
 * `maxAttributes` attributes, whose parsing costs far more per character than anything a bank writes. Comments,
 * CDATA sections and processing instructions are stepped over (a `<` in them opens nothing), and each character is
 * looked at a bounded number of times, so the pass is linear whatever the text.
 */
export function scanStartTags(text: string, names: readonly string[], maxAttributes: number): Map<string, number[]> {
  const lines = new Map<string, number[]>(names.map((n) => [n, []]));
  let line = 1;
  // The first line break not yet counted: each is found once, so the pass stays linear on a file of one line.
  let nextBreak = text.indexOf('\n');
  let i = text.indexOf('<');
  while (i !== -1) {
    let next: number;
    if (text.startsWith('<!--', i)) next = after(text, i + 4, '-->');
    else if (text.startsWith('<![CDATA[', i)) next = after(text, i + 9, ']]>');
    else if (text.startsWith('<?', i)) next = after(text, i + 2, '?>');
    else if (text[i + 1] === '/' || text[i + 1] === '!') next = i + 2;
    else {
      let end = i + 1;
      while (end < text.length && !ENDS_NAME.has(text.charCodeAt(end))) end++;
      const name = text.slice(i + 1, end);
      const list = lines.get(name.slice(name.indexOf(':') + 1));
      if (list) {
        while (nextBreak !== -1 && nextBreak < i) {
          line++;
          nextBreak = text.indexOf('\n', nextBreak + 1);
        }
        list.push(line);
      }
      // The attributes, to the '>' outside quoted values: each is one '=' outside them.
      let attributes = 0;
      let quote = 0;
      while (end < text.length) {
        const c = text.charCodeAt(end);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === QUOTE || c === APOSTROPHE) quote = c;
        else if (c === GREATER) break;
        else if (c === EQUALS && ++attributes > maxAttributes) {
          throw new StatementFileError('unreadable', `The file has an element with more than ${maxAttributes} attributes, which no bank statement has.`);
        }
        end++;
      }
      next = end;
    }
    if (next === -1) break;
    i = text.indexOf('<', next);
  }
  return lines;
}
