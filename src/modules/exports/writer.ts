/**
 * What every export writer is given and must do, and the text rules they share. A writer turns accounts and pages of
 * their transactions into pieces of the file, so that a file of any size is written a page at a time.
 */

/** An account as exports show it: its number is masked, as in every answer of the service. */
export interface ExportAccount {
  id: number;
  name: string;
  /** The masked number (last four shown); empty when the institution gave none. */
  number: string;
  type: string;
  currency: string;
  balance: number;
  balanceDate: number;
  institutionId: number;
}

/** A posted transaction with the fields the formats carry. */
export interface ExportTransaction {
  id: number;
  amount: number;
  description: string;
  memo: string | null;
  checkNum: string | null;
  type: string | null;
  transactionDate: number | null;
  postedDate: number | null;
  /** The date lists filter and sort on (transactionDate, else postedDate). */
  effectiveDate: number;
}

export interface ExportContext {
  /** Every account of the file, in the order they are written. */
  accounts: readonly ExportAccount[];
  /** The window asked for (epoch seconds); the whole history when absent. */
  fromDate: number | undefined;
  toDate: number | undefined;
  /** When the file is written (epoch seconds). */
  now: number;
}

/** One file being written: each call answers the text that comes next. */
export interface ExportWriter {
  start(): string;
  accountStart(account: ExportAccount): string;
  transactions(account: ExportAccount, rows: readonly ExportTransaction[]): string;
  accountEnd(account: ExportAccount): string;
  end(): string;
}

export interface ExportWriterRow {
  /** The accounts in the order this format writes them (OFX groups bank statements before card statements). */
  order?(accounts: readonly ExportAccount[]): ExportAccount[];
  create(context: ExportContext): ExportWriter;
}

// A broken surrogate pair, or U+FFFE / U+FFFF, which are no characters (XML cannot hold them either).
const NOT_A_CHARACTER = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * A text as every format writes it: one line (line breaks, tabs and runs of white space become one space, as the
 * statement readers read them), no control characters (XML cannot hold them), no broken surrogate pairs and no
 * U+FFFE or U+FFFF (each becomes U+FFFD).
 */
export function plainText(text: string): string {
  return text.replace(NOT_A_CHARACTER, '\uFFFD').replace(SPACE_OR_CONTROL, ' ').trim();
}

/** The first `max` characters (code points) of a text, never half of a pair. */
export function firstChars(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('').trimEnd();
}
