/**
 * Amounts and dates as bank CSV exports write them. Each reader is given the conventions of the whole file (which
 * character is the decimal separator, whether dates are month-first or day-first), because a single value such as
 * `1,234` or `03/04/2026` cannot tell on its own; the infer* functions decide them from all of a file's values.
 */

export type DecimalSeparator = '.' | ',';
export type DateOrder = 'mdy' | 'dmy' | 'ymd';

/** No amount or date in an export is longer; longer cells are refused before any pattern runs on them. */
const MAX_VALUE_LENGTH = 64;
/** Digits a double holds exactly. */
const MAX_DIGITS = 15;

export interface ParsedAmount {
  value: number;
  /** The ISO code the value names (a code such as `EUR`, or a symbol such as `€` that stands for one currency). */
  currency?: string;
}

const SYMBOLS: Record<string, string | undefined> = {
  $: undefined,
  US$: 'USD',
  A$: 'AUD',
  AU$: 'AUD',
  C$: 'CAD',
  CA$: 'CAD',
  NZ$: 'NZD',
  R$: 'BRL',
  HK$: 'HKD',
  S$: 'SGD',
  MX$: 'MXN',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₩': 'KRW',
  '₽': 'RUB',
  '₪': 'ILS',
  '₫': 'VND',
  '฿': 'THB',
  '₱': 'PHP',
  '₺': 'TRY',
  // Written after the number as often as before it: `12,50 zł`, `1.234 Ft`, `Fr. 12.50`.
  Fr: 'CHF',
  'Fr.': 'CHF',
  Ft: 'HUF',
  zł: 'PLN',
  // Kronor and kroner of four countries: like `$`, no currency on its own.
  kr: undefined,
  'kr.': undefined,
};

const SYMBOL_RE = /^(?:[A-Z]{1,2}\$|\$|[€£¥₹₩₽₪₫฿₱₺]|(?:Fr\.?|Ft|zł|kr\.?)(?=[\s\d]))/;
const SYMBOL_AFTER_RE = /\s*([€£¥₹₩₽₪₫฿₱₺]|kr\.?|Fr\.?|Ft|zł)$/;
const CODE_PREFIX_RE = /^([A-Z]{3})(?=[\s\d.,+\-(−$€£¥])\s*/;
const CODE_SUFFIX_RE = /(?<=[\d\s.)])\s*([A-Z]{3})$/;
const DIRECTION_RE = /\s*(?<![A-Za-z])(CR|DR|Cr|Dr|cr|dr)\.?$/;
const MINUS = /^[-−–]/;

/**
 * Strips the `="..."` wrapper spreadsheet-minded exports put around values to keep their leading zeros, and the single
 * quote that neutralises a cell a spreadsheet would take for a formula (`'=SUM(A1)`, `'-5`: OWASP's CSV injection
 * advice, which Ledgerlink's own CSV export follows; a text starting with quotes before such a character got one more).
 */
export function unwrapCell(cell: string): string {
  const s = cell.trim();
  if (s.length >= 3 && s.startsWith('="') && s.endsWith('"')) return s.slice(2, -1).trim();
  return NEUTRALISED.test(s) ? s.slice(1) : s;
}

const NEUTRALISED = /^'+[=+\-@\t\r]/;

/**
 * Reads an amount: `-12.34`, `+12.34`, `$1,234.56`, `-$12.34`, `(12.34)` (negative), `12.34-`, `12.34 CR` (credit,
 * positive) and `12.34 DR` (debit, negative), `1.234,56` when the file's decimal separator is the comma, a currency
 * symbol or ISO code before or after the number. Grouping separators must group by three, so a value that does not
 * fit the file's separator is refused rather than misread. Undefined when the text is not an amount (or is empty).
 */
export function parseAmount(text: string, decimal: DecimalSeparator = '.'): ParsedAmount | undefined {
  let s = unwrapCell(text).replace(/\u00a0|\u202f/g, ' ');
  if (s === '' || s.length > MAX_VALUE_LENGTH) return undefined;
  let negative = false;
  let currency: string | undefined;
  let direction: 'CR' | 'DR' | undefined;

  const dir = DIRECTION_RE.exec(s);
  if (dir) {
    direction = dir[1]!.toUpperCase() as 'CR' | 'DR';
    s = s.slice(0, dir.index).trim();
  }
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  // Sign, currency code and symbol come in any order before the number: -$12, $-12, USD -12, -USD 12.
  for (let progress = true; progress; ) {
    progress = false;
    if (MINUS.test(s) || s.startsWith('+')) {
      if (MINUS.test(s)) negative = !negative;
      s = s.slice(1).trimStart();
      progress = true;
    }
    const code = CODE_PREFIX_RE.exec(s);
    if (code && currency === undefined) {
      currency = code[1];
      s = s.slice(code[0].length);
      progress = true;
    }
    const symbol = SYMBOL_RE.exec(s);
    if (symbol) {
      currency ??= SYMBOLS[symbol[0]];
      s = s.slice(symbol[0].length).trimStart();
      progress = true;
    }
  }
  const codeAfter = CODE_SUFFIX_RE.exec(s);
  if (codeAfter) {
    if (currency !== undefined && currency !== codeAfter[1]) return undefined;
    currency = codeAfter[1];
    s = s.slice(0, codeAfter.index).trimEnd();
  }
  const symbolAfter = SYMBOL_AFTER_RE.exec(s);
  if (symbolAfter) {
    currency ??= SYMBOLS[symbolAfter[1]!];
    s = s.slice(0, symbolAfter.index);
  }
  if (/[-−]$/.test(s)) {
    negative = !negative;
    s = s.slice(0, -1).trimEnd();
  }
  const value = parseNumber(s, decimal);
  if (value === undefined) return undefined;
  let signed = negative ? -value : value;
  if (direction === 'DR') signed = -Math.abs(signed);
  if (direction === 'CR') signed = Math.abs(signed);
  return { value: signed === 0 ? 0 : signed, ...(currency !== undefined ? { currency } : {}) };
}

/** An unsigned number with optional grouping by three (`,`, `.`, `'` or a space, whichever is not the decimal). */
function parseNumber(s: string, decimal: DecimalSeparator): number | undefined {
  if (!/^[\d.,' ]+$/.test(s)) return undefined;
  const at = s.lastIndexOf(decimal);
  const intPart = at === -1 ? s : s.slice(0, at);
  const fraction = at === -1 ? '' : s.slice(at + 1);
  if (!/^\d*$/.test(fraction)) return undefined;
  const grouping = decimal === '.' ? /^\d{1,3}(?:([,' ])\d{3})?(?:\1\d{3})*$/ : /^\d{1,3}(?:([.' ])\d{3})?(?:\1\d{3})*$/;
  if (intPart !== '' && !/^\d+$/.test(intPart) && !grouping.test(intPart)) return undefined;
  const digits = intPart.replace(/\D/g, '');
  if (digits === '' && fraction === '') return undefined;
  if (digits.length + fraction.length > MAX_DIGITS) return undefined;
  return Number(`${digits || '0'}.${fraction || '0'}`);
}

/**
 * Decides a file's decimal separator from its amounts: a value whose last separator is followed by one or two digits
 * (`12,5`, `1.234,56`) or that has both kinds shows which one is the decimal; `1,234` or `1.234` alone shows nothing.
 * The comma is chosen only when more values show it than show the point; with no evidence either way a
 * semicolon-separated file is taken to use the comma (the convention that makes exports use semicolons).
 */
export function inferDecimalSeparator(values: Iterable<string>, delimiter?: string): DecimalSeparator {
  let comma = 0;
  let point = 0;
  for (const raw of values) {
    if (raw.length > MAX_VALUE_LENGTH) continue;
    const number = /\d[\d.,' ]*/.exec(raw)?.[0].trimEnd();
    if (!number) continue;
    const lastComma = number.lastIndexOf(',');
    const lastPoint = number.lastIndexOf('.');
    if (lastComma !== -1 && lastPoint !== -1) {
      if (lastComma > lastPoint) comma++;
      else point++;
      continue;
    }
    const at = Math.max(lastComma, lastPoint);
    if (at === -1) continue;
    const sep = number[at];
    const after = number.length - at - 1;
    const several = number.indexOf(sep!) !== at;
    // `1,234,567` groups with commas; `12,34` can only be a decimal comma.
    if (several) {
      if (sep === ',') point++;
      else comma++;
    } else if (after !== 3) {
      if (sep === ',') comma++;
      else point++;
    }
  }
  if (comma > point) return ',';
  if (point > comma) return '.';
  return delimiter === ';' ? ',' : '.';
}

/** A date's parts as written, before the file's order says which is the day and which the month. */
export type DateShape =
  | { kind: 'full'; year: number; month: number; day: number }
  | { kind: 'short'; first: number; second: number; third: number; separator: string; yearDigits: number };

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** What may follow a date: a time (ignored), with seconds, fractions, AM/PM and a zone. */
const TIME_RE = /^(?:(?:T|\s+)\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?\s?(?:[AaPp]\.?[Mm]\.?)?\s?(?:Z|[+-]\d{2}(?::?\d{2})?|[A-Z]{2,5})?)?\s*$/;

function monthNumber(name: string): number | undefined {
  const key = name.toLowerCase().replace(/\.$/, '');
  return MONTHS[key] ?? (key.length > 3 ? MONTHS[key.slice(0, 3)] : undefined);
}

/** Recognises a date's form without deciding its order; undefined when the text is not a date. */
export function dateShape(text: string): DateShape | undefined {
  const s = unwrapCell(text);
  if (s === '' || s.length > MAX_VALUE_LENGTH) return undefined;
  let m: RegExpExecArray | null;
  let rest: string;
  let shape: DateShape;
  if ((m = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})/.exec(s))) {
    shape = { kind: 'full', year: +m[1]!, month: +m[3]!, day: +m[4]! };
    rest = s.slice(m[0].length);
  } else if ((m = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?!\d)/.exec(s))) {
    shape = { kind: 'short', first: +m[1]!, second: +m[3]!, third: +m[4]!, separator: m[2]!, yearDigits: m[4]!.length };
    rest = s.slice(m[0].length);
  } else if ((m = /^(\d{4})(\d{2})(\d{2})(?!\d)/.exec(s))) {
    shape = { kind: 'full', year: +m[1]!, month: +m[2]!, day: +m[3]! };
    rest = s.slice(m[0].length);
  } else if ((m = /^(\d{1,2})[ -]([A-Za-z]{3,9}\.?)[ -]?,?[ -]?(\d{4}|\d{2})(?!\d)/.exec(s))) {
    const month = monthNumber(m[2]!);
    if (month === undefined) return undefined;
    shape = { kind: 'full', year: fullYear(m[3]!), month, day: +m[1]! };
    rest = s.slice(m[0].length);
  } else if ((m = /^([A-Za-z]{3,9}\.?) (\d{1,2}),? (\d{4})(?!\d)/.exec(s))) {
    const month = monthNumber(m[1]!);
    if (month === undefined) return undefined;
    shape = { kind: 'full', year: +m[3]!, month, day: +m[2]! };
    rest = s.slice(m[0].length);
  } else {
    return undefined;
  }
  return TIME_RE.test(rest) ? shape : undefined;
}

function fullYear(digits: string): number {
  const n = Number(digits);
  // Two-digit years: 70-99 are the 1900s, the rest this century (the POSIX convention).
  return digits.length === 4 ? n : n >= 70 ? 1900 + n : 2000 + n;
}

/** Epoch seconds at noon UTC of the day, or undefined when there is no such day. */
export function noonUtc(year: number, month: number, day: number): number | undefined {
  if (year < 1900 || year > 2199 || month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  return Date.UTC(year, month - 1, day, 12) / 1000;
}

/**
 * Reads a date as epoch seconds at noon UTC of that day. Four-digit-year-first forms (`2026-03-04`, `20260304`) and
 * forms with a month name are read as they stand; `03/04/2026`, `3/4/26`, `03.04.2026` and `03-04-2026` follow the
 * given order. A time after the date is ignored.
 */
export function parseDate(text: string, order: DateOrder): number | undefined {
  const shape = dateShape(text);
  if (!shape) return undefined;
  if (shape.kind === 'full') return noonUtc(shape.year, shape.month, shape.day);
  const { first, second, third, yearDigits } = shape;
  const year = (n: number, digits: number) => fullYear(String(n).padStart(digits, '0'));
  if (order === 'ymd') return yearDigits === 2 ? noonUtc(year(first, 2), second, third) : undefined;
  const [month, day] = order === 'mdy' ? [first, second] : [second, first];
  return noonUtc(year(third, yearDigits), month, day);
}

export interface DateOrderDecision {
  order: DateOrder;
  /** Nothing in the values (nor the fallback) tells month-first from day-first; `order` is month-first then. */
  ambiguous: boolean;
  /** Some values are only possible month-first and others only day-first: the file mixes both. */
  conflicting: boolean;
  /** A value that could be either, for a message to the user. */
  example?: string;
}

/**
 * Decides month-first or day-first for a whole file from the values whose first or second part is above 12. With
 * none, `fallback` (a known layout's convention) decides; without one, dotted dates (`03.04.2026`) are day-first,
 * the convention everywhere they are used, and anything else is ambiguous.
 */
export function inferDateOrder(values: Iterable<string>, fallback?: DateOrder): DateOrderDecision {
  let dayFirst = 0;
  let monthFirst = 0;
  let short = 0;
  let dotted = 0;
  let example: string | undefined;
  for (const value of values) {
    const shape = dateShape(value);
    if (shape?.kind !== 'short') continue;
    short++;
    if (shape.separator === '.') dotted++;
    if (shape.first > 12 && shape.second <= 12) dayFirst++;
    else if (shape.second > 12 && shape.first <= 12) monthFirst++;
    else if (shape.first !== shape.second && example === undefined) example = unwrapCell(value);
  }
  const decided = (order: DateOrder, ambiguous = false, conflicting = false): DateOrderDecision => ({
    order,
    ambiguous,
    conflicting,
    ...(example !== undefined && ambiguous ? { example } : {}),
  });
  if (short === 0) return decided(fallback ?? 'mdy');
  if (dayFirst > 0 && monthFirst > 0) return decided(dayFirst > monthFirst ? 'dmy' : 'mdy', false, true);
  if (dayFirst > 0) return decided('dmy');
  if (monthFirst > 0) return decided('mdy');
  if (fallback) return decided(fallback);
  if (dotted === short) return decided('dmy');
  // Values such as 05/05/2026 read the same either way.
  return decided('mdy', example !== undefined);
}

/** ISO date (YYYY-MM-DD) of epoch seconds. */
export function isoDay(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

/** A currency code in a header: `Amount (EUR)`, `Betrag [EUR]`, `Withdrawals (SGD)`, `Debit GBP`, `EUR Amount`, `Amount in CHF`. */
const HEADER_CODE_RE = /(?<![^\s([/])([A-Z]{3})(?![^\s)\]/])/g;
/** A symbol that names one currency, in a header: `Amount (€)`, `Betrag in €`. */
const HEADER_SYMBOL_RE = /(?<![^\s([/])([€£¥₹₩₽₪₫฿₱₺]|[A-Z]{1,2}\$|zł|Ft)(?![^\s)\]/])/;

/**
 * The currency a column's header names, checked by `isCode` (ISO 4217); undefined when it names none or several.
 * Only upper-case codes count, so that words such as `Net` or `All` in a header are not read as codes.
 */
export function headerCurrency(header: string, isCode: (code: string) => boolean): string | undefined {
  const text = header.trim();
  if (text === '' || text.length > 200) return undefined;
  const codes = new Set<string>();
  // In a header all in capitals a word such as ALL or TOP is a code too: there, only a code in brackets or at the end counts.
  const capitals = !/\p{Ll}/u.test(text);
  for (const m of text.matchAll(HEADER_CODE_RE)) {
    const end = m.index + 3;
    const marked = /[)\]]/.test(text[end] ?? '') || end === text.length;
    if (isCode(m[1]!) && (!capitals || marked)) codes.add(m[1]!);
  }
  const symbol = HEADER_SYMBOL_RE.exec(text)?.[1];
  const fromSymbol = symbol === undefined ? undefined : SYMBOLS[symbol];
  if (fromSymbol !== undefined) codes.add(fromSymbol);
  return codes.size === 1 ? [...codes][0] : undefined;
}
