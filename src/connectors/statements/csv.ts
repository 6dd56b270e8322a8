/**
 * Reading a CSV export into rows: the encoding, the separator, quoting (csv-parse does the tokenising), and where
 * the table starts when the bank puts a summary block above it. The work is bounded before it starts (size, rows,
 * row length, columns), so an upload of any shape costs time in proportion to its size.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { dateShape, parseAmount } from './values.js';

/** Largest file read. A year of a busy account is far smaller. */
export const MAX_CSV_BYTES = 10 * 1024 * 1024;
/** Most rows read, blank ones included. */
export const MAX_CSV_ROWS = 100_000;
/** Most columns in a row. */
export const MAX_CSV_COLUMNS = 200;
/** Most characters in one row's fields (a quoted field may span lines). */
export const MAX_CSV_ROW_CHARS = 64 * 1024;

export type CsvDelimiter = ',' | ';' | '\t';

export interface CsvRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

export interface CsvTable {
  delimiter: CsvDelimiter;
  /** The file's rows, blank ones left out. */
  rows: CsvRow[];
}

export type StatementFileErrorCode =
  | 'too_large'
  | 'too_many_rows'
  | 'unreadable'
  | 'unsupported_format'
  | 'empty'
  | 'unknown_layout'
  | 'invalid_mapping'
  | 'invalid_options';

/** A file that is refused whole, with a message for the user. `details` carries what the caller can show or ask. */
export class StatementFileError extends Error {
  constructor(
    readonly code: StatementFileErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'StatementFileError';
  }
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * The text of an upload. Bytes are read as UTF-8, as UTF-16 when they start with its byte-order mark (spreadsheet
 * "Unicode text" exports), and as Windows-1252 when they are not valid UTF-8 (older bank exports).
 */
export function decodeStatementText(input: string | Uint8Array): string {
  if (typeof input === 'string') {
    if (input.length > MAX_CSV_BYTES || Buffer.byteLength(input, 'utf8') > MAX_CSV_BYTES) {
      throw new StatementFileError('too_large', `The file is larger than ${mib(MAX_CSV_BYTES)}, the most a statement file may be.`);
    }
    return input;
  }
  if (input.byteLength > MAX_CSV_BYTES) {
    throw new StatementFileError('too_large', `The file is larger than ${mib(MAX_CSV_BYTES)}, the most a statement file may be.`);
  }
  if (input[0] === 0xff && input[1] === 0xfe) return new TextDecoder('utf-16le').decode(input);
  if (input[0] === 0xfe && input[1] === 0xff) return new TextDecoder('utf-16be').decode(input);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return new TextDecoder('windows-1252').decode(input);
  }
}

const DELIMITERS: CsvDelimiter[] = [',', ';', '\t'];
/** How much of the file the separator is guessed from. */
const SNIFF_CHARS = 64 * 1024;
const SNIFF_LINES = 100;

/**
 * Guesses the separator from the first lines: the candidate that appears the same non-zero number of times outside
 * quotes on the most lines (a preamble or a decimal comma varies; the table's separator does not), then the one with
 * more columns, then comma before semicolon before tab.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts: number[][] = [];
  let line = [0, 0, 0];
  let quoted = false;
  let fieldStart = true;
  let blank = true;
  const end = Math.min(text.length, SNIFF_CHARS);
  for (let i = 0; i < end && counts.length < SNIFF_LINES; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      }
      continue;
    }
    if (c === '\n' || c === '\r') {
      if (!blank) counts.push(line);
      line = [0, 0, 0];
      fieldStart = true;
      blank = true;
      continue;
    }
    const which = DELIMITERS.indexOf(c as CsvDelimiter);
    if (which !== -1) {
      line[which]!++;
      fieldStart = true;
      blank = false;
      continue;
    }
    if (c === '"' && fieldStart) quoted = true;
    else if (c !== ' ') fieldStart = false;
    if (c !== ' ') blank = false;
  }
  if (!blank && counts.length < SNIFF_LINES) counts.push(line);

  let best: CsvDelimiter = ',';
  let bestScore = -1;
  let bestWidth = 0;
  DELIMITERS.forEach((delimiter, which) => {
    const tally = new Map<number, number>();
    for (const c of counts) if (c[which]! > 0) tally.set(c[which]!, (tally.get(c[which]!) ?? 0) + 1);
    let score = 0;
    let width = 0;
    for (const [n, lines] of tally) {
      if (lines > score || (lines === score && n > width)) [score, width] = [lines, n];
    }
    if (score > bestScore || (score === bestScore && width > bestWidth)) [best, bestScore, bestWidth] = [delimiter, score, width];
  });
  return best;
}

export interface ReadCsvOptions {
  /** The separator, when known; guessed otherwise. */
  delimiter?: CsvDelimiter;
}

/**
 * Reads an export into rows. Refuses (StatementFileError) a file over MAX_CSV_BYTES, with more than MAX_CSV_ROWS
 * rows, a row longer than MAX_CSV_ROW_CHARS or wider than MAX_CSV_COLUMNS, or broken quoting. Cells keep their text
 * as written, without the spaces around unquoted ones.
 */
export function readCsv(input: string | Uint8Array, options: ReadCsvOptions = {}): CsvTable {
  let text = decodeStatementText(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let firstLine = 1;
  let delimiter = options.delimiter;
  // Spreadsheet exports may name their separator on a first line of its own.
  const hint = /^sep=([,;\t|])[ \t]*(\r\n|\n|\r)/i.exec(text);
  if (hint) {
    if (delimiter === undefined && hint[1] !== '|') delimiter = hint[1] as CsvDelimiter;
    text = text.slice(hint[0].length);
    firstLine = 2;
  }
  delimiter ??= detectDelimiter(text);

  const wide = firstWideLine(text, delimiter);
  if (wide !== undefined) {
    throw new StatementFileError('unreadable', `Line ${wide + firstLine - 1} has more than ${MAX_CSV_COLUMNS} columns; this is not a bank export.`);
  }
  const records = tokenise(text, delimiter);
  if (records.length > MAX_CSV_ROWS) {
    throw new StatementFileError('too_many_rows', `The file has more than ${MAX_CSV_ROWS} rows, the most a statement file may have.`);
  }
  const rows: CsvRow[] = [];
  let line = firstLine;
  for (const cells of records) {
    const start = line;
    line += 1;
    let blank = true;
    for (const cell of cells) {
      if (cell.includes('\n') || cell.includes('\r')) line += cell.match(/\r\n|\r|\n/g)!.length;
      if (blank && cell.trim() !== '') blank = false;
    }
    if (cells.length > MAX_CSV_COLUMNS) {
      throw new StatementFileError('unreadable', `Line ${start} has more than ${MAX_CSV_COLUMNS} columns; this is not a bank export.`);
    }
    if (!blank) rows.push({ line: start, cells });
  }
  return { delimiter, rows };
}

/**
 * The first line (1-based) with more than MAX_CSV_COLUMNS fields, found in one pass before tokenising: the tokeniser
 * would build every field of a line of a million separators first. Quotes open at the start of a field, as there.
 */
function firstWideLine(text: string, delimiter: CsvDelimiter): number | undefined {
  const sep = delimiter.charCodeAt(0);
  const QUOTE = 34;
  const CR = 13;
  const LF = 10;
  let line = 1;
  let fields = 1;
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) i++;
        else quoted = false;
      } else if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) line++;
      continue;
    }
    if (c === sep) {
      if (++fields > MAX_CSV_COLUMNS) return line;
      fieldStart = true;
    } else if (c === LF || c === CR) {
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      line++;
      fields = 1;
      fieldStart = true;
    } else if (c === QUOTE && fieldStart) quoted = true;
    else if (c !== 32 && c !== 9) fieldStart = false;
  }
  return undefined;
}

function tokenise(text: string, delimiter: CsvDelimiter): string[][] {
  const options = {
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    ltrim: true,
    rtrim: true,
    max_record_size: MAX_CSV_ROW_CHARS,
    // One past the limit, so that too many rows are told apart from exactly enough without reading the rest.
    to: MAX_CSV_ROWS + 1,
  };
  try {
    return parse(text, options) as string[][];
  } catch (error) {
    // `"6" SUB` (text after a closing quote) is refused when spaces after quotes are trimmed; read it as written.
    if (error instanceof CsvError && (error.code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE' || error.code === 'CSV_INVALID_CLOSING_QUOTE')) {
      try {
        return parse(text, { ...options, rtrim: false }) as string[][];
      } catch (retry) {
        throw unreadable(retry);
      }
    }
    throw unreadable(error);
  }
}

function unreadable(error: unknown): unknown {
  if (!(error instanceof CsvError)) return error;
  const line = (error as CsvError & { lines?: number }).lines;
  const at = typeof line === 'number' ? ` (line ${line})` : '';
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new StatementFileError('unreadable', `A quoted field is never closed${at}: the file is not valid CSV.`);
    case 'CSV_MAX_RECORD_SIZE':
      return new StatementFileError('unreadable', `A row is longer than ${MAX_CSV_ROW_CHARS} characters${at}; this is not a bank export.`);
    default:
      return new StatementFileError('unreadable', `The file is not valid CSV${at}: ${error.message}`);
  }
}

/** A cell that holds a date, in any form values.ts reads (whether or not the day exists). */
export function isDateCell(cell: string): boolean {
  return cell.length <= 64 && dateShape(cell) !== undefined;
}

function isAmountCell(cell: string): boolean {
  return cell.length <= 64 && (parseAmount(cell, '.') !== undefined || parseAmount(cell, ',') !== undefined);
}

/**
 * A row of column names: two or more filled cells, none a date or an amount. With `isKnownName`, cells that look like
 * amounts (a German `VWZ1`, which reads as 1 in the currency VWZ) are let through when at least two cells, and at least
 * half of them, are names it knows.
 */
export function isLabelRow(cells: string[], isKnownName?: (cell: string) => boolean): boolean {
  let filled = 0;
  let amounts = 0;
  let known = 0;
  for (const cell of cells) {
    const s = cell.trim();
    if (s === '') continue;
    if (s.length > 100 || isDateCell(s)) return false;
    if (isAmountCell(s)) {
      if (!isKnownName) return false;
      amounts++;
    } else if (isKnownName?.(s)) known++;
    filled++;
  }
  return filled >= 2 && (amounts === 0 || (known >= 2 && known * 2 >= filled));
}

/** The width of a row without its trailing empty cells (some exports end every data row with a separator). */
export function usedWidth(cells: string[]): number {
  let n = cells.length;
  while (n > 0 && cells[n - 1]!.trim() === '') n--;
  return n;
}

/** How far down the header may be, and how many rows below a candidate are looked at. */
const HEADER_SEARCH_ROWS = 50;
const HEADER_LOOKAHEAD = 20;

/**
 * Finds the header row, skipping a preamble such as a summary block: among the first rows of names, the one with the
 * most rows below it that fit under it (no wider, with a date). -1 when the file starts with data (no header).
 */
export function locateHeader(rows: CsvRow[], isKnownName?: (cell: string) => boolean): number {
  let best = -1;
  let bestScore = 0;
  let firstLabel = -1;
  let firstData = -1;
  const limit = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let i = 0; i < limit; i++) {
    const cells = rows[i]!.cells;
    if (firstData === -1 && cells.some(isDateCell)) firstData = i;
    if (!isLabelRow(cells, isKnownName)) continue;
    if (firstLabel === -1) firstLabel = i;
    const width = usedWidth(cells);
    let score = 0;
    for (let j = i + 1; j < Math.min(rows.length, i + 1 + HEADER_LOOKAHEAD); j++) {
      const below = rows[j]!.cells;
      if (usedWidth(below) <= width && below.some(isDateCell)) score++;
    }
    if (score > bestScore) [best, bestScore] = [i, score];
  }
  if (best !== -1) return best;
  if (firstData !== -1 && (firstLabel === -1 || firstData < firstLabel)) return -1;
  return firstLabel;
}

/**
 * A cell that starts a summary line: "Total", "Total credits", "Ending balance as of ...", "Balance:". Only such
 * phrases as a whole count, so that "TOTAL WINE & MORE" or "BALANCE TRANSFER" stay transactions.
 */
const SUMMARY_LABEL =
  /^(?:(?:grand |sub-?)?totals?|summary|(?:(?:beginning|ending|opening|closing|starting|available|current|ledger|previous|new|statement) )?balance|transaction count|statement period)(?:\s*:?\s*$|[\s:]+(?:as of|for|of|on|credits?|debits?|deposits?|withdrawals?|amount|\(|[-+$\d]))/i;

/** A summary line (totals, balances) rather than a transaction, as banks put above or below the table. */
export function isSummaryRow(cells: string[]): boolean {
  return cells.some((cell) => cell.length <= 200 && SUMMARY_LABEL.test(cell.trim()));
}
