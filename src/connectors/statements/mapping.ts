/**
 * Which column of a CSV export holds what. Layout detection produces a mapping; when it cannot, the Connect app asks
 * the user and sends one through the API, so a mapping is plain JSON and is checked against the file's header before
 * it is used.
 */
import type { DateOrder } from './values.js';

/** A column: its header text (case and spacing aside) or its 0-based position. */
export type Column = string | number;

export interface ColumnMapping {
  /** The transaction date (the posting date when the file has only that). */
  date: Column;
  description: Column;
  /** A signed amount; or else `debit` and/or `credit`, two columns of unsigned amounts. */
  amount?: Column;
  debit?: Column;
  credit?: Column;
  memo?: Column;
  checkNum?: Column;
  /** An account name per row: the file holds several accounts. */
  account?: Column;
  /** An account or card number per row (masked or last digits): one account per number. */
  accountNumber?: Column;
  /**
   * The bank's kind of transaction (debit, credit, check, ATM, fee, ...). A value that says the direction (debit or
   * credit, DR/CR, DB, Af/Bij, Soll/Haben, S/H) gives a single amount column's sign, whatever sign the amount is
   * written with, and `negate` does not flip it.
   */
  type?: Column;
  /** The posting date, when the file has it beside the transaction date. */
  postedDate?: Column;
  /** The running balance after each row. */
  balance?: Column;
  /** A status column; rows whose status is pending are left out until they post. */
  status?: Column;
  /** A column of each row's ISO 4217 currency code (`Currency`, `Währung`, `Devise`): the account's currency. */
  currency?: Column;
  /** How to read dates such as 03/04/2026; decided from the file when absent. */
  dateOrder?: DateOrder;
  /**
   * true: the file writes purchases and money out as positive amounts (card exports that list charges so), so each
   * amount's sign is flipped; false: it writes them negative. Only signs the amounts are written with: never one a
   * `type` value gave. Stating it, either way, answers the question a card export whose amounts all have one sign is
   * refused with (the file cannot tell which way they go).
   */
  negate?: boolean;
  /** The header row, 0-based among the file's non-blank rows; -1 when the file has none (columns by position then). */
  headerRow?: number;
}

export const COLUMN_FIELDS = [
  'date',
  'description',
  'amount',
  'debit',
  'credit',
  'memo',
  'checkNum',
  'account',
  'accountNumber',
  'type',
  'postedDate',
  'balance',
  'status',
  'currency',
] as const satisfies readonly (keyof ColumnMapping)[];
export type ColumnField = (typeof COLUMN_FIELDS)[number];

/** Each mapped field's 0-based column. */
export type ResolvedColumns = { [F in ColumnField]?: number };

export type MappingValidation = { ok: true; mapping: ColumnMapping; columns: ResolvedColumns } | { ok: false; errors: string[] };

const OTHER_FIELDS = ['dateOrder', 'negate', 'headerRow'] as const;
const DATE_ORDERS: readonly DateOrder[] = ['mdy', 'dmy', 'ymd'];
/** The amount fields, each of which must be a column of its own. */
const MONEY_FIELDS: readonly ColumnField[] = ['amount', 'debit', 'credit', 'balance'];

/** Header text compared without case, spacing or punctuation: `Check or Slip #` is `check or slip`. */
export function headerKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const looseKey = (text: string) => text.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');

/** The names to show for a file without a header row: `Column 1`, `Column 2`, ... */
export function numberedHeaders(width: number): string[] {
  return Array.from({ length: width }, (_, i) => `Column ${i + 1}`);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function listHeaders(headers: string[]): string {
  const shown = headers.slice(0, 30).map((h, i) => (h.trim() === '' ? `(column ${i}, unnamed)` : h.trim()));
  return shown.join(', ') + (headers.length > 30 ? ', ...' : '');
}

function resolveColumn(field: string, column: unknown, headers: string[], errors: string[]): number | undefined {
  if (typeof column === 'number') {
    if (!Number.isInteger(column) || column < 0) {
      errors.push(`${field}: a column position is a whole number from 0, not ${describe(column)}.`);
      return undefined;
    }
    if (column >= headers.length) {
      errors.push(`${field}: there is no column ${column}; the file has ${headers.length} columns, numbered from 0.`);
      return undefined;
    }
    return column;
  }
  if (typeof column !== 'string' || column.trim() === '' || column.length > 200) {
    errors.push(`${field}: give a column's header text or its position (a number from 0), not ${describe(column)}.`);
    return undefined;
  }
  for (const key of [looseKey, headerKey]) {
    const wanted = key(column);
    const found = headers.flatMap((h, i) => (key(h) === wanted ? [i] : []));
    if (found.length === 1) return found[0];
    if (found.length > 1) {
      errors.push(`${field}: ${found.length} columns are named ${describe(column.trim())}; give its position instead (${found.join(' or ')}).`);
      return undefined;
    }
  }
  errors.push(`${field}: no column is named ${describe(column.trim())}; the columns are: ${listHeaders(headers)}.`);
  return undefined;
}

/**
 * Checks a mapping (as it may arrive from a user) against the file's header row (for a file without one,
 * numberedHeaders of its width). Every message names the field it is about.
 */
export function validateMapping(mapping: unknown, headers: string[]): MappingValidation {
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) {
    return { ok: false, errors: ['The column mapping must be an object such as {"date": "Date", "description": "Description", "amount": "Amount"}.'] };
  }
  const input = mapping as Record<string, unknown>;
  const errors: string[] = [];
  const known = new Set<string>([...COLUMN_FIELDS, ...OTHER_FIELDS]);
  for (const key of Object.keys(input)) {
    if (!known.has(key)) errors.push(`${describe(key)} is not a mapping field; the fields are: ${[...known].join(', ')}.`);
  }
  const present = (field: string) => Object.hasOwn(input, field) && input[field] !== undefined && input[field] !== null;

  for (const field of ['date', 'description'] as const) {
    if (!present(field)) errors.push(`${field}: which column holds the ${field === 'date' ? 'date' : 'description'}? It is required.`);
  }
  if (present('amount') && (present('debit') || present('credit'))) {
    errors.push('amount: give either one amount column, or debit and credit columns, not both.');
  } else if (!present('amount') && !present('debit') && !present('credit')) {
    errors.push('amount: which column holds the amount? Give amount, or debit and/or credit.');
  }

  const columns: ResolvedColumns = {};
  const result: ColumnMapping = { date: 0, description: 0 };
  for (const field of COLUMN_FIELDS) {
    if (!present(field)) continue;
    const index = resolveColumn(field, input[field], headers, errors);
    if (index === undefined) continue;
    columns[field] = index;
    (result as unknown as Record<string, unknown>)[field] = input[field];
  }
  const used = new Map<number, ColumnField>();
  for (const field of COLUMN_FIELDS) {
    const index = columns[field];
    if (index === undefined) continue;
    const other = used.get(index);
    // A column may serve as both dates, or as the description and the memo; money columns must each be their own.
    const clash = other !== undefined && (MONEY_FIELDS.includes(field) || MONEY_FIELDS.includes(other) || field === 'date' || other === 'date');
    if (clash && !(other === 'date' && field === 'postedDate')) {
      errors.push(`${field}: column ${describe(headers[index] ?? index)} is already mapped to ${other}.`);
    } else if (other === undefined) used.set(index, field);
  }

  if (present('dateOrder')) {
    if (!DATE_ORDERS.includes(input.dateOrder as DateOrder)) errors.push(`dateOrder: one of ${DATE_ORDERS.join(', ')}, not ${describe(input.dateOrder)}.`);
    else result.dateOrder = input.dateOrder as DateOrder;
  }
  if (present('negate')) {
    if (typeof input.negate !== 'boolean') errors.push(`negate: true or false, not ${describe(input.negate)}.`);
    else result.negate = input.negate;
  }
  if (present('headerRow')) {
    const row = input.headerRow;
    if (typeof row !== 'number' || !Number.isInteger(row) || row < -1) {
      errors.push(`headerRow: the header's row number from 0 (or -1 for a file without a header), not ${describe(row)}.`);
    } else result.headerRow = row;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, mapping: result, columns };
}
