/**
 * An uploaded statement file, whatever it is: its format told by the media type it came with or by its first bytes
 * (formats.ts), read by that format's reader, and refused whole (StatementFileError) when it is too large, is not
 * a statement at all (a PDF, a spreadsheet workbook, other binary data), or holds nothing to import.
 */
import {
  SNIFFED_MEDIA_TYPES,
  STATEMENT_FORMATS,
  STATEMENT_FORMAT_NAMES,
  type StatementFormatName,
  statementFormatsSaid,
} from '../../contract/schemas/statements.js';
import { storableText } from '../../platform/storable-text.js';
import { MAX_CSV_BYTES, StatementFileError } from './csv.js';
import { readerOf, STATEMENT_READERS, type StatementReadOptions } from './formats.js';
import type { StatementImport } from './types.js';

/** The largest statement file of any kind (the CSV reader's limit; an OFX file of a year is far smaller too). */
export const MAX_STATEMENT_BYTES = MAX_CSV_BYTES;
/** Most accounts one file may hold (as many as a live OFX sign-on lists); each is a row to store and an event. */
export const MAX_STATEMENT_ACCOUNTS = 200;

/** What each accepted media type says about the file: its format, or `sniff` (decided from the first bytes). */
const MEDIA_TYPES: ReadonlyMap<string, StatementFormatName | 'sniff'> = new Map<string, StatementFormatName | 'sniff'>([
  ...STATEMENT_FORMAT_NAMES.flatMap((f) => [...Object.keys(STATEMENT_FORMATS[f].media), ...STATEMENT_FORMATS[f].aliases].map((t) => [t, f] as const)),
  ...SNIFFED_MEDIA_TYPES.map((t) => [t, 'sniff'] as const),
]);

/** The media types a statement upload may carry. */
export const STATEMENT_MEDIA_TYPES: readonly string[] = [...MEDIA_TYPES.keys()];

const FORMATS_SAID = statementFormatsSaid();

/**
 * How a file sent with this Content-Type is read: its format, `sniff`, or undefined for a type that is not a
 * statement file. No Content-Type at all is sniffed.
 */
export function formatOfMediaType(contentType: string | undefined): StatementFormatName | 'sniff' | undefined {
  if (contentType === undefined || contentType.trim() === '') return 'sniff';
  return MEDIA_TYPES.get(contentType.split(';')[0]!.trim().toLowerCase());
}

/** How much of the file its kind is told from. */
const SNIFF_BYTES = 4096;

function startsWith(bytes: Uint8Array, ...prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/**
 * The format of a file from its first bytes, by the readers' sniff tests in turn (CSV, any text, last); refused
 * when it is binary (a PDF, a workbook or archive, bytes that are no text).
 */
export function sniffStatementFormat(bytes: Uint8Array): StatementFormatName {
  if (startsWith(bytes, 0x25, 0x50, 0x44, 0x46, 0x2d)) {
    throw unsupported(`This is a PDF. Download the statement from your bank as ${FORMATS_SAID} instead.`);
  }
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04) || startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0)) {
    throw unsupported(`This is a spreadsheet workbook or another archive, not text. Save it as CSV, or download ${FORMATS_SAID}.`);
  }
  const head = bytes.subarray(0, SNIFF_BYTES);
  const utf16 = startsWith(head, 0xff, 0xfe) || startsWith(head, 0xfe, 0xff);
  if (!utf16 && head.includes(0)) throw unsupported(`The file is not text, so it is none of ${FORMATS_SAID}.`);
  const start = headText(head);
  const format = STATEMENT_READERS.find((r) => r.sniff(start))!.name;
  if (format === 'csv') refuseOtherDocument(start);
  return format;
}

/** The first bytes of a file as text, its byte-order mark removed: UTF-16 decoded, anything else as Latin-1, which keeps one character per byte (all the markers need). */
function headText(head: Uint8Array): string {
  const le = startsWith(head, 0xff, 0xfe);
  const text = le || startsWith(head, 0xfe, 0xff) ? new TextDecoder(le ? 'utf-16le' : 'utf-16be').decode(head) : Buffer.from(head).toString('latin1');
  return text.replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '');
}

/**
 * Text no other reader claims is taken for CSV, but a document that plainly is something else (markup, JSON) is
 * refused as a format Ledgerlink does not read, so it is never asked for a column mapping.
 */
function refuseOtherDocument(start: string): void {
  const other = otherDocument(start);
  if (other) throw unsupported(`This is ${other}, not a statement file Ledgerlink reads: download it from your bank as ${FORMATS_SAID}.`);
}

/** What a text that is no CSV file is, when it plainly is something else: markup or JSON. */
function otherDocument(start: string): string | undefined {
  const first = start.trimStart();
  if (/^<(?:!doctype\s+html|html)\b/i.test(first)) return 'a web page (HTML)';
  if (first.startsWith('<')) return 'an XML document';
  if (/^[{[]\s*["{[]/.test(first)) return 'a JSON document';
  return undefined;
}

/** A file in a format Ledgerlink does not read (415, naming the formats it reads). */
function unsupported(message: string): StatementFileError {
  return new StatementFileError('unsupported_format', message, { formats: STATEMENT_FORMAT_NAMES.map((f) => STATEMENT_FORMATS[f].label) });
}

export interface StatementFileOptions extends StatementReadOptions {
  /** The kind of file when the caller knows it; otherwise told from the media type, then from the first bytes. */
  format?: StatementFormatName;
  /** The Content-Type it was sent with. */
  contentType?: string;
}

/**
 * Reads an uploaded file into a StatementImport. CSV options (mapping, account name and type, currency) apply to
 * CSV files only; an OFX/QFX file states its accounts itself. Refuses (StatementFileError) a file of more than
 * MAX_STATEMENT_BYTES, one that is empty or not a statement, a CSV whose layout is unknown and no mapping given,
 * a mapping that does not fit, and a file from which nothing could be read.
 */
export function readStatementFile(bytes: Uint8Array, options: StatementFileOptions = {}): StatementImport {
  if (bytes.byteLength > MAX_STATEMENT_BYTES) {
    throw new StatementFileError('too_large', `The file is larger than ${MAX_STATEMENT_BYTES / 1024 / 1024} MB, the most a statement file may be.`);
  }
  if (bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) throw new StatementFileError('empty', 'The file is empty.');
  const byType = options.format ?? formatOfMediaType(options.contentType);
  if (byType === undefined) throw new StatementFileError('unreadable', `A statement file is ${FORMATS_SAID}; ${options.contentType} is none of them.`);
  const format = byType === 'sniff' ? sniffStatementFormat(bytes) : byType;
  if (format === 'csv' && byType !== 'sniff') refuseOtherDocument(headText(bytes.subarray(0, SNIFF_BYTES)));
  const { format: _format, contentType: _contentType, ...readOptions } = options;
  return withoutNul(checkAccounts(readerOf(format).read(bytes, readOptions)));
}

function checkAccounts(read: StatementImport): StatementImport {
  if (read.accounts.length > MAX_STATEMENT_ACCOUNTS) {
    throw new StatementFileError(
      'too_large',
      `The file holds ${read.accounts.length} accounts; a statement file may hold at most ${MAX_STATEMENT_ACCOUNTS}. Download fewer accounts at a time.`,
    );
  }
  return read;
}

const clean = storableText;

/** The read file without NUL characters (storableText), so both databases store the same text. */
function withoutNul(read: StatementImport): StatementImport {
  for (const a of read.accounts) {
    a.ref = clean(a.ref);
    a.number = clean(a.number);
    a.name = clean(a.name);
    a.currency = clean(a.currency);
  }
  for (const t of read.transactions) {
    t.accountRef = clean(t.accountRef);
    t.ref = clean(t.ref);
    t.description = clean(t.description);
    if (t.memo !== undefined) t.memo = clean(t.memo);
    if (t.checkNum !== undefined) t.checkNum = clean(t.checkNum);
  }
  for (const p of read.problems) p.message = clean(p.message);
  return read;
}
