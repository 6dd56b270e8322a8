/**
 * An uploaded statement file, whatever it is: told OFX/QFX or CSV by the media type it came with or by its first
 * bytes, read by the matching reader, and refused whole (StatementFileError) when it is too large, is not a
 * statement at all (a PDF, a spreadsheet workbook, other binary data), or holds nothing to import.
 */
import { storableText } from '../../platform/storable-text.js';
import { ofxFileToStatementImport } from '../ofx/statement.js';
import { MAX_CSV_BYTES, StatementFileError } from './csv.js';
import { type CsvStatementOptions, readCsvStatement } from './import.js';
import type { StatementImport } from './types.js';

/** The largest statement file of either kind (the CSV reader's limit; an OFX file of a year is far smaller too). */
export const MAX_STATEMENT_BYTES = MAX_CSV_BYTES;
/** Most accounts one file may hold (as many as a live OFX sign-on lists); each is a row to store and an event. */
export const MAX_STATEMENT_ACCOUNTS = 200;

export type StatementFormat = 'ofx' | 'csv';

/**
 * What each accepted media type says about the file: OFX, CSV, or `sniff` (decided from the first bytes). Browsers
 * label CSV files `application/vnd.ms-excel` on Windows and OFX/QFX files with nothing or octet-stream.
 */
const MEDIA_TYPES: Readonly<Record<string, StatementFormat | 'sniff'>> = {
  'application/x-ofx': 'ofx',
  'application/ofx': 'ofx',
  'application/vnd.intu.qfx': 'ofx',
  'application/x-qfx': 'ofx',
  'application/qfx': 'ofx',
  // OFX 2.x is XML.
  'application/xml': 'ofx',
  'text/xml': 'ofx',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/comma-separated-values': 'csv',
  'text/tab-separated-values': 'csv',
  'application/vnd.ms-excel': 'csv',
  'text/plain': 'sniff',
  'application/octet-stream': 'sniff',
};

/** The media types a statement upload may carry. */
export const STATEMENT_MEDIA_TYPES: readonly string[] = Object.keys(MEDIA_TYPES);

/**
 * How a file sent with this Content-Type is read: `ofx`, `csv`, `sniff`, or undefined for a type that is not a
 * statement file. No Content-Type at all is sniffed.
 */
export function formatOfMediaType(contentType: string | undefined): StatementFormat | 'sniff' | undefined {
  if (contentType === undefined || contentType.trim() === '') return 'sniff';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return Object.hasOwn(MEDIA_TYPES, type) ? MEDIA_TYPES[type] : undefined;
}

/** How much of the file its kind is told from. */
const SNIFF_BYTES = 4096;

function startsWith(bytes: Uint8Array, ...prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/**
 * The kind of a file from its first bytes: OFX when it starts with an OFX header or an `<OFX>` element (after an
 * XML declaration, blank lines or a byte-order mark), CSV when it is text; refused when it is binary.
 */
export function sniffStatementFormat(bytes: Uint8Array): StatementFormat {
  if (startsWith(bytes, 0x25, 0x50, 0x44, 0x46, 0x2d)) {
    throw new StatementFileError('unreadable', 'This is a PDF. Download the statement from your bank as OFX, QFX (Quicken) or CSV instead.');
  }
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04) || startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0)) {
    throw new StatementFileError('unreadable', 'This is a spreadsheet workbook or another archive, not text. Save it as CSV, or download OFX or QFX.');
  }
  const head = bytes.subarray(0, SNIFF_BYTES);
  const utf16 = startsWith(head, 0xff, 0xfe) || startsWith(head, 0xfe, 0xff);
  if (!utf16 && head.includes(0)) {
    throw new StatementFileError('unreadable', 'The file is not text, so it is neither OFX/QFX nor CSV.');
  }
  // Latin-1 keeps one character per byte, which is all the markers need.
  const text = utf16 ? new TextDecoder(startsWith(head, 0xff, 0xfe) ? 'utf-16le' : 'utf-16be').decode(head) : Buffer.from(head).toString('latin1');
  const start = text.replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').trimStart();
  if (/^OFXHEADER\s*:/i.test(start) || /^<\?xml[^>]*>\s*(<!--[\s\S]*?-->\s*)*<\?OFX/i.test(start) || /<OFX>/i.test(text)) return 'ofx';
  return 'csv';
}

export interface StatementFileOptions extends CsvStatementOptions {
  /** The kind of file when the caller knows it; otherwise told from the media type, then from the first bytes. */
  format?: StatementFormat;
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
  if (byType === undefined) {
    throw new StatementFileError('unreadable', `A statement file is OFX, QFX or CSV; ${options.contentType} is none of them.`);
  }
  const format = byType === 'sniff' ? sniffStatementFormat(bytes) : byType;
  return withoutNul(checkAccounts(format === 'ofx' ? readOfx(bytes) : readCsv(bytes, options)));
}

function readOfx(bytes: Uint8Array): StatementImport {
  const read = ofxFileToStatementImport(bytes);
  if (read.accounts.length === 0) {
    const why = read.problems.map((p) => p.message).join('; ') || 'it holds no statement';
    throw new StatementFileError('unreadable', `The file cannot be imported: ${why}.`);
  }
  return read;
}

function readCsv(bytes: Uint8Array, options: StatementFileOptions): StatementImport {
  const { format: _format, contentType: _contentType, ...csvOptions } = options;
  const read = readCsvStatement(bytes, csvOptions);
  if (read.transactions.length === 0) {
    const reasons = read.problems
      .slice(0, 3)
      .map((p) => (p.line !== undefined ? `line ${p.line}: ${p.message}` : p.message))
      .join(' ');
    throw new StatementFileError(
      read.problems.length > 0 ? 'unreadable' : 'empty',
      read.problems.length > 0 ? `No transaction could be read from the file. ${reasons}` : 'The file holds no transactions.',
    );
  }
  return read;
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
