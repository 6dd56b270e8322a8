/**
 * Recognising a bank export's layout from its header row, so the user does not have to say which column is which.
 * Known banks (the rows of layouts.ts) are matched by their header, or for an export without one by the shape of its
 * rows; anything else by common column names. When neither works, the result carries the headers and a few rows, for
 * the Connect app to ask the user for a mapping.
 */
import type { AccountType } from '../connector.js';
import { type CsvRow, type CsvTable, isDateCell, locateHeader, readCsv, usedWidth } from './csv.js';
import { isIso4217 } from '../../platform/currency.js';
import { type BuiltInRow, type HeaderVariant, LAYOUTS, type LayoutName, layoutRow } from './layouts.js';
import { type ColumnMapping, headerKey, numberedHeaders } from './mapping.js';
import { inferDateOrder, inferDecimalSeparator, parseAmount } from './values.js';

export type { LayoutName } from './layouts.js';

export interface DetectedLayout {
  ok: true;
  layout: LayoutName;
  mapping: ColumnMapping;
  /** The kind of account such an export comes from (for a file of several accounts, the default for names that do not tell). */
  accountType: AccountType;
  /** The header row (numberedHeaders for a file without one). */
  headers: string[];
  /** The first rows below the header. */
  sample: string[][];
  /** Dates could be month-first or day-first and nothing tells which; mapping.dateOrder is absent then, ask the user. */
  ambiguousDates: boolean;
}

export interface UnknownLayout {
  ok: false;
  reason: string;
  /** The row that looks most like a header (numberedHeaders when none does). */
  headers: string[];
  /** Where that row is (0-based among non-blank rows, -1 for none): the mapping's headerRow. */
  headerRow: number;
  /** The first rows below it. */
  sample: string[][];
}

export type LayoutDetection = DetectedLayout | UnknownLayout;

const SAMPLE_ROWS = 5;

/** Header names of other languages than English: a file that uses them is not likely a US one. */
const FOREIGN_NAMES = new Set<string>();

function foreign(...names: string[]): string[] {
  for (const name of names) FOREIGN_NAMES.add(name);
  return names;
}

/**
 * Column names by field, for files of no known bank, as nameKey writes them (no accents). Earlier names win when a
 * file has several. English names first, then the names of the exports of German, Dutch, French, Spanish and Italian
 * banks (FOREIGN_NAMES lists those).
 */
const SYNONYMS: Partial<Record<keyof ColumnMapping, string[]>> = {
  amount: [
    'amount',
    'transaction amount',
    'amt',
    'net amount',
    'value',
    'sum',
    'billing amount',
    ...foreign('betrag', 'umsatz', 'bedrag', 'montant', 'importe', 'importo', 'valor', 'kwota', 'belopp', 'belob', 'beloep'),
  ],
  debit: [
    'debit',
    'debits',
    'debit amount',
    'withdrawal',
    'withdrawals',
    'withdrawal amount',
    'money out',
    'paid out',
    'out',
    'outflow',
    'spent',
    'charges',
    ...foreign('soll', 'ausgang', 'belastung', 'cargo', 'cargos', 'addebiti', 'uscite'),
  ],
  credit: [
    'credit',
    'credits',
    'credit amount',
    'deposit',
    'deposits',
    'deposit amount',
    'money in',
    'paid in',
    'in',
    'inflow',
    'received',
    'payments',
    ...foreign('haben', 'eingang', 'gutschrift', 'abono', 'abonos', 'accrediti', 'entrate'),
  ],
  balance: ['balance', 'running balance', 'running bal', 'balance after', 'ledger balance', ...foreign('saldo', 'kontostand', 'solde', 'saldo nach buchung')],
  checkNum: ['check number', 'check no', 'check num', 'check', 'cheque number', 'cheque no', 'chk', 'chk no', 'check or slip', 'serial number'],
  description: [
    'description',
    'transaction description',
    'desc',
    'payee',
    'payee name',
    'merchant',
    'merchant name',
    'name',
    'narrative',
    'details',
    'transaction details',
    'particulars',
    'counterparty',
    'beneficiary',
    'transaction',
    ...foreign(
      'beguenstigter zahlungspflichtiger',
      'begunstigter zahlungspflichtiger',
      'auftraggeber empfanger',
      'auftraggeber empfaenger',
      'empfanger',
      'zahlungsempfanger',
      'naam omschrijving',
      'naam',
      'omschrijving',
      'verwendungszweck',
      'beschreibung',
      'buchungstext',
      'libelle',
      'libelle operation',
      'concepto',
      'descripcion',
      'descrizione',
      'descrizione operazione',
      'causale',
      'mededelingen',
      'beskrivning',
    ),
  ],
  memo: [
    'memo',
    'notes',
    'note',
    'original description',
    'extended details',
    'additional info',
    'additional information',
    'remarks',
    'reference',
    'ref',
    'comment',
    'comments',
    ...foreign('verwendungszweck', 'mededelingen', 'omschrijving', 'buchungstext', 'concepto', 'causale', 'notizen', 'bemerkung'),
  ],
  type: ['type', 'transaction type', 'trans type', 'txn type', ...foreign('soll haben', 'af bij', 'mutatiesoort', 'umsatzart', 'buchungsart')],
  account: ['account name', 'account'],
  accountNumber: ['account number', 'account no', 'card number', 'card no', 'card', ...foreign('auftragskonto', 'rekening')],
  status: ['status', 'transaction status'],
  currency: ['currency', 'ccy', 'curr', 'currency code', ...foreign('wahrung', 'waehrung', 'devise', 'valuta', 'moneda', 'divisa', 'munt', 'waluta')],
};
const TRANSACTION_DATES = [
  'transaction date',
  'trans date',
  'txn date',
  'date',
  'purchase date',
  'activity date',
  'value date',
  ...foreign(
    'valutadatum',
    'valuta datum',
    'wertstellung',
    'datum',
    'fecha',
    'fecha valor',
    'data',
    'data valuta',
    'data operazione',
    'date operation',
    'date de valeur',
    'rentedatum',
  ),
];
const POSTING_DATES = [
  'posting date',
  'posted date',
  'post date',
  'date posted',
  'booking date',
  'settlement date',
  'entry date',
  ...foreign('buchungstag', 'buchungsdatum', 'boekdatum', 'date comptable', 'fecha contable', 'data contabile'),
];

/** Recognises the layout of an export. Refuses (StatementFileError) what readCsv refuses. */
export function detectLayout(input: string | Uint8Array): LayoutDetection {
  return detectTableLayout(readCsv(input));
}

/** detectLayout for a file already read. */
export function detectTableLayout(table: CsvTable): LayoutDetection {
  const { rows } = table;
  const known = findKnownHeader(rows);
  if (known) return finish(table, known.row.layout, known.index, known.mapping, known.row.accountType, rows[known.index]!.cells);

  const shaped = LAYOUTS.find((row) => row.shape?.(rows));
  if (shaped) return finish(table, shaped.layout, -1, shapeMapping(shaped), shaped.accountType, numberedHeaders(widest(rows)));

  const headerRow = locateHeader(rows, isKnownName);
  if (headerRow === -1) {
    return unknown(rows, -1, 'The file has no header row naming its columns: say which column holds the date, the description and the amount.');
  }
  const headers = rows[headerRow]!.cells;
  const generic = genericMapping(headers);
  if (typeof generic === 'string') return unknown(rows, headerRow, generic);
  // `Valuta` is the currency in Dutch and Italian exports and the value date in some German ones.
  if (generic.currency !== undefined && columnHoldsDates(rows.slice(headerRow + 1, headerRow + 21), headers, generic.currency)) delete generic.currency;
  const split = generic.amount === undefined;
  const cardish = hasCardColumns(headers);
  const layout: LayoutName = split ? 'generic-split' : 'generic';
  let mapping = generic;
  // A card export whose payments to the card ("ONLINE PAYMENT - THANK YOU") are negative lists its charges positive, as
  // American Express's older download does.
  const column = (name: ColumnMapping['date'] | undefined) => headers.findIndex((h) => h.trim() === name);
  if (cardish && !split && chargesArePositive(rows.slice(headerRow + 1), column(generic.date), column(generic.description), column(generic.amount))) {
    mapping = { ...mapping, negate: true };
  }
  return finish(table, layout, headerRow, { ...mapping, headerRow }, cardish ? 'creditCard' : 'checking', headers);
}

function findKnownHeader(rows: CsvRow[]): { row: BuiltInRow; index: number; mapping: ColumnMapping } | undefined {
  const limit = Math.min(rows.length, 50);
  for (let index = 0; index < limit; index++) {
    const cells = rows[index]!.cells;
    const keys = cells.slice(0, usedWidth(cells)).map(headerKey);
    const below = rows.slice(index + 1);
    for (const row of LAYOUTS) {
      if (!row.headers?.some((variant) => headerFits(variant, keys, below))) continue;
      const mapping = knownMapping(row, cells, keys, below);
      if (mapping) return { row, index, mapping: { ...mapping, headerRow: index } };
    }
  }
  return undefined;
}

function headerFits(variant: HeaderVariant, keys: readonly string[], below: CsvRow[]): boolean {
  const wanted = variant.keys;
  if (keys.length < wanted.length || (!variant.prefix && keys.length !== wanted.length)) return false;
  const fits = variant.anyOrder ? wanted.every((k) => keys.includes(k)) : wanted.every((k, i) => keys[i] === k);
  if (!fits) return false;
  return variant.when !== 'charges-positive' || chargesArePositive(below, keys.indexOf('date'), keys.indexOf('description'), keys.indexOf('amount'));
}

/**
 * A known layout's mapping, its columns named as the file names them (so the mapping reads naturally when shown);
 * undefined when the file lacks the date, the description or the amount.
 */
function knownMapping(row: BuiltInRow, cells: string[], keys: string[], below: CsvRow[]): ColumnMapping | undefined {
  const found: Record<string, string> = {};
  for (const [field, key] of Object.entries(row.columns)) {
    const at = keys.indexOf(String(key));
    if (at !== -1) found[field] = cells[at]!.trim();
  }
  // Of amount columns each in one currency, the one the rows fill (the account's currency).
  if (row.currencyColumns) {
    const at = busiestColumn(Object.keys(row.currencyColumns), keys, below);
    if (at !== -1) found.amount = cells[at]!.trim();
  }
  const { date, description, ...rest } = found;
  if (date === undefined || description === undefined || (rest.amount ?? rest.debit ?? rest.credit) === undefined) return undefined;
  const mapping: ColumnMapping = { date, description, ...rest };
  if (row.sign === 'negate') mapping.negate = true;
  return mapping;
}

/** A layout without a header: its columns by position. */
function shapeMapping(row: BuiltInRow): ColumnMapping {
  const mapping = { ...row.columns, headerRow: -1 } as ColumnMapping;
  if (row.sign === 'negate') mapping.negate = true;
  return mapping;
}

/** Of the columns named (header keys), the one the most of the first rows have a value in; -1 when none is there. */
function busiestColumn(names: readonly string[], keys: readonly string[], below: CsvRow[]): number {
  let best = -1;
  let most = -1;
  for (const name of names) {
    const at = keys.indexOf(name);
    if (at === -1) continue;
    let filled = 0;
    for (const r of below.slice(0, 500)) if ((r.cells[at] ?? '').trim() !== '') filled++;
    if (filled > most) [best, most] = [at, filled];
  }
  return best;
}

/** A header as the name lists write it: headerKey without accents (`Libellé` is `libelle`, `Währung` `wahrung`). */
function nameKey(text: string): string {
  return headerKey(text).normalize('NFD').replace(/\p{M}/gu, '');
}

/** A money column's name without the currency it names: `Amount (EUR)`, `Debit GBP` and `Betrag EUR` are their names. */
function moneyKey(key: string): string {
  const m = / ([a-z]{3})$/.exec(key);
  return m && isIso4217(m[1]!.toUpperCase()) ? key.slice(0, m.index) : key;
}

const MONEY: readonly (keyof ColumnMapping)[] = ['amount', 'debit', 'credit', 'balance'];
const KNOWN_NAMES: ReadonlySet<string> = new Set([...Object.values(SYNONYMS).flat(), ...TRANSACTION_DATES, ...POSTING_DATES]);

/** A header cell that names a column the detection knows, in any of its languages. */
function isKnownName(cell: string): boolean {
  if (cell.length > 100) return false;
  const key = nameKey(cell);
  return KNOWN_NAMES.has(key) || KNOWN_NAMES.has(moneyKey(key));
}

/** A cell that names a currency column or line: `Currency`, `Währung`, `Devise`, `Ccy`. */
export function isCurrencyName(cell: string): boolean {
  return cell.length <= 100 && SYNONYMS.currency!.includes(nameKey(cell));
}

/** Whether a header names its columns in another language than English (a file then not likely a US one). */
export function hasForeignHeaders(headers: readonly string[]): boolean {
  return headers.some((h) => h.length <= 100 && FOREIGN_NAMES.has(moneyKey(nameKey(h))));
}

function genericMapping(headers: string[]): ColumnMapping | string {
  const keys = headers.map((h) => (h.length > 100 ? '' : nameKey(h)));
  const moneyKeys = keys.map(moneyKey);
  const taken = new Set<number>();
  const found: Partial<Record<keyof ColumnMapping, number>> = {};
  const take = (field: keyof ColumnMapping, names: string[]) => {
    const among = MONEY.includes(field) ? moneyKeys : keys;
    for (const name of names) {
      const at = among.findIndex((k, i) => k === name && !taken.has(i));
      if (at !== -1) {
        found[field] = at;
        taken.add(at);
        return;
      }
    }
  };
  const posting = keys.findIndex((k) => POSTING_DATES.includes(k));
  const transaction = keys.findIndex((k) => TRANSACTION_DATES.includes(k));
  if (transaction !== -1) {
    found.date = transaction;
    taken.add(transaction);
    if (posting !== -1) {
      found.postedDate = posting;
      taken.add(posting);
    }
  } else if (posting !== -1) {
    found.date = posting;
    taken.add(posting);
  }
  // "Amount (USD)" and the like.
  take('amount', [...SYNONYMS.amount!, ...moneyKeys.filter((k) => /^amount\b/.test(k))]);
  if (found.amount === undefined) {
    take('debit', SYNONYMS.debit!);
    take('credit', SYNONYMS.credit!);
  }
  for (const field of ['balance', 'checkNum', 'description', 'memo', 'type', 'accountNumber', 'account', 'status', 'currency'] as const)
    take(field, SYNONYMS[field]!);
  // A notes column stands in for the description only when no column is named as one.
  if (found.description === undefined && found.memo !== undefined) {
    found.description = found.memo;
    delete found.memo;
  }
  const missing = [
    found.date === undefined ? 'the date' : undefined,
    found.description === undefined ? 'the description' : undefined,
    found.amount === undefined && found.debit === undefined && found.credit === undefined ? 'the amount' : undefined,
  ].filter((m) => m !== undefined);
  if (missing.length > 0) return `No column could be recognised as ${missing.join(' or ')}: say which column holds it.`;
  const mapping: ColumnMapping = { date: 0, description: 0 };
  for (const [field, at] of Object.entries(found)) (mapping as unknown as Record<string, unknown>)[field] = headers[at]!.trim();
  return mapping;
}

function columnHoldsDates(rows: CsvRow[], headers: string[], column: ColumnMapping['date']): boolean {
  const at = typeof column === 'number' ? column : headers.findIndex((h) => h.trim() === column);
  return at !== -1 && rows.some((r) => isDateCell(r.cells[at] ?? ''));
}

const CARD_PAYMENT = /\b(?:payment|autopay)\b.*\bthank you\b|^(?:online|mobile|autopay|electronic) payment\b/i;

/** A card statement's payment to the card, by its description ("ONLINE PAYMENT - THANK YOU"). */
export function isCardPayment(description: string): boolean {
  return CARD_PAYMENT.test(description);
}

/** A header naming card columns (`Card Number`, `Card No.`, `Card Member`, `Cardholder`): a card's export. */
export function hasCardColumns(headers: readonly string[]): boolean {
  return headers.some((h) => h.length <= 100 && headerKey(h).startsWith('card'));
}

/** A card export whose charges are positive: its payments to the card are negative, and most other rows positive. */
function chargesArePositive(rows: CsvRow[], dateAt: number, descriptionAt: number, amountAt: number): boolean {
  const cells = rows.slice(0, 500).map((r) => r.cells);
  const decimal = inferDecimalSeparator(cells.map((c) => c[amountAt] ?? ''));
  let payments = 0;
  let positive = 0;
  let negative = 0;
  for (const c of cells) {
    if (!isDateCell(c[dateAt] ?? '')) continue;
    const amount = parseAmount(c[amountAt] ?? '', decimal)?.value ?? 0;
    if (amount < 0 && CARD_PAYMENT.test(c[descriptionAt] ?? '')) payments++;
    else if (amount > 0) positive++;
    else if (amount < 0) negative++;
  }
  return payments > 0 && positive > negative;
}

function widest(rows: CsvRow[]): number {
  let width = 0;
  for (const row of rows) width = Math.max(width, row.cells.length);
  return width;
}

function sampleBelow(rows: CsvRow[], headerRow: number): string[][] {
  return rows.slice(headerRow + 1, headerRow + 1 + SAMPLE_ROWS).map((r) => r.cells);
}

function unknown(rows: CsvRow[], headerRow: number, reason: string): UnknownLayout {
  const headers = headerRow === -1 ? numberedHeaders(widest(rows.slice(0, 50))) : rows[headerRow]!.cells;
  return { ok: false, reason, headers, headerRow, sample: sampleBelow(rows, headerRow) };
}

function finish(table: CsvTable, layout: LayoutName, headerRow: number, mapping: ColumnMapping, accountType: AccountType, headers: string[]): DetectedLayout {
  const dates = dateValues(table.rows.slice(headerRow + 1), mapping, headers);
  // A known bank's convention decides dates that do not tell; a file's own dates still override it.
  const decision = inferDateOrder(dates, layoutRow(layout)?.dateOrder);
  const result: ColumnMapping = { ...mapping, headerRow };
  if (!decision.ambiguous) result.dateOrder = decision.order;
  return { ok: true, layout, mapping: result, accountType, headers, sample: sampleBelow(table.rows, headerRow), ambiguousDates: decision.ambiguous };
}

function dateValues(rows: CsvRow[], mapping: ColumnMapping, headers: string[]): string[] {
  const at = (column: ColumnMapping['date'] | undefined) => {
    if (column === undefined) return -1;
    if (typeof column === 'number') return column;
    const key = headerKey(column);
    return headers.findIndex((h) => headerKey(h) === key);
  };
  const columns = [at(mapping.date), at(mapping.postedDate)].filter((i) => i >= 0);
  return rows.flatMap((r) => columns.map((i) => r.cells[i] ?? ''));
}
