/**
 * Recognising a bank export's layout from its header row, so the user does not have to say which column is which.
 * Known banks are matched by their exact header; anything else by common column names. When neither works, the
 * result carries the headers and a few rows, for the Connect app to ask the user for a mapping.
 */
import type { AccountType } from '../connector.js';
import { type CsvRow, type CsvTable, isDateCell, locateHeader, readCsv, usedWidth } from './csv.js';
import { isIso4217 } from '../../platform/currency.js';
import { type ColumnMapping, headerKey, numberedHeaders } from './mapping.js';
import { type DateOrder, inferDateOrder, inferDecimalSeparator, parseAmount } from './values.js';

export type LayoutName =
  | 'chase-checking'
  | 'chase-card'
  | 'bank-of-america'
  | 'wells-fargo'
  | 'capital-one'
  | 'amex'
  | 'citi'
  | 'discover'
  | 'mint'
  | 'generic'
  | 'generic-split';

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

interface KnownLayout {
  layout: LayoutName;
  accountType: AccountType;
  /** Header keys (headerKey) in order. */
  headers: string[];
  /** More columns may follow (exports that grew columns over time). */
  prefix?: boolean;
  /** Fields mapped to header keys. */
  columns: Partial<Record<keyof ColumnMapping, string>>;
  negate?: boolean;
}

const KNOWN: KnownLayout[] = [
  {
    layout: 'chase-checking',
    accountType: 'checking',
    headers: ['details', 'posting date', 'description', 'amount', 'type', 'balance', 'check or slip'],
    columns: { date: 'posting date', description: 'description', amount: 'amount', type: 'type', balance: 'balance', checkNum: 'check or slip' },
  },
  {
    layout: 'chase-card',
    accountType: 'creditCard',
    headers: ['transaction date', 'post date', 'description', 'category', 'type', 'amount', 'memo'],
    columns: { date: 'transaction date', postedDate: 'post date', description: 'description', type: 'type', amount: 'amount', memo: 'memo' },
  },
  {
    layout: 'bank-of-america',
    accountType: 'checking',
    headers: ['date', 'description', 'amount', 'running bal'],
    columns: { date: 'date', description: 'description', amount: 'amount', balance: 'running bal' },
  },
  {
    layout: 'capital-one',
    accountType: 'creditCard',
    headers: ['transaction date', 'posted date', 'card no', 'description', 'category', 'debit', 'credit'],
    columns: { date: 'transaction date', postedDate: 'posted date', accountNumber: 'card no', description: 'description', debit: 'debit', credit: 'credit' },
  },
  {
    // The longer American Express download; the three-column one is told from a generic file by its rows.
    layout: 'amex',
    accountType: 'creditCard',
    headers: ['date', 'description', 'card member', 'account', 'amount'],
    prefix: true,
    columns: { date: 'date', description: 'description', accountNumber: 'account', amount: 'amount', memo: 'extended details' },
    negate: true,
  },
  {
    layout: 'citi',
    accountType: 'creditCard',
    headers: ['status', 'date', 'description', 'debit', 'credit'],
    prefix: true,
    columns: { status: 'status', date: 'date', description: 'description', debit: 'debit', credit: 'credit' },
  },
  {
    layout: 'discover',
    accountType: 'creditCard',
    headers: ['trans date', 'post date', 'description', 'amount', 'category'],
    columns: { date: 'trans date', postedDate: 'post date', description: 'description', amount: 'amount' },
    negate: true,
  },
  {
    layout: 'mint',
    accountType: 'checking',
    headers: ['date', 'description', 'original description', 'amount', 'transaction type', 'category', 'account name', 'labels', 'notes'],
    columns: { date: 'date', description: 'description', memo: 'original description', amount: 'amount', type: 'transaction type', account: 'account name' },
  },
];

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
  if (known) return finish(table, known.layout, known.index, known.mapping, known.spec.accountType, rows[known.index]!.cells);

  const wellsFargo = wellsFargoMapping(rows);
  if (wellsFargo) return finish(table, 'wells-fargo', -1, wellsFargo, 'checking', numberedHeaders(widest(rows)));

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
  const keys = headers.map(headerKey);
  const cardish = keys.some((k) => k.startsWith('card'));
  let layout: LayoutName = split ? 'generic-split' : 'generic';
  let mapping = generic;
  // American Express's short download is a plain Date,Description,Amount file whose charges are positive; its payments
  // ("ONLINE PAYMENT - THANK YOU") are what give it away.
  if (keys.join(',') === 'date,description,amount' && chargesArePositive(rows.slice(headerRow + 1), 0, 1, 2)) {
    layout = 'amex';
    mapping = { ...mapping, negate: true };
  }
  return finish(table, layout, headerRow, { ...mapping, headerRow }, layout === 'amex' || cardish ? 'creditCard' : 'checking', headers);
}

function findKnownHeader(rows: CsvRow[]): { layout: LayoutName; index: number; mapping: ColumnMapping; spec: KnownLayout } | undefined {
  const limit = Math.min(rows.length, 50);
  for (let index = 0; index < limit; index++) {
    const cells = rows[index]!.cells;
    const keys = cells.slice(0, usedWidth(cells)).map(headerKey);
    for (const spec of KNOWN) {
      const matches = keys.length >= spec.headers.length && (spec.prefix || keys.length === spec.headers.length) && spec.headers.every((h, i) => keys[i] === h);
      // Chase checking exports without the check column exist too.
      const chaseShort = spec.layout === 'chase-checking' && keys.length === 6 && spec.headers.slice(0, 6).every((h, i) => keys[i] === h);
      if (!matches && !chaseShort) continue;
      const mapping: ColumnMapping = { date: 0, description: 0, headerRow: index };
      for (const [field, key] of Object.entries(spec.columns)) {
        const at = keys.indexOf(key);
        // Name the column as the file does, so the mapping reads naturally when shown.
        if (at !== -1) (mapping as unknown as Record<string, unknown>)[field] = cells[at]!.trim();
      }
      if (spec.negate) mapping.negate = true;
      return { layout: spec.layout, index, mapping, spec };
    }
  }
  return undefined;
}

/** Wells Fargo's export has no header: date, amount, `*`, check number, description, every field quoted. */
function wellsFargoMapping(rows: CsvRow[]): ColumnMapping | undefined {
  const head = rows.slice(0, 20);
  if (head.length === 0) return undefined;
  let fits = 0;
  let stars = 0;
  for (const { cells } of head) {
    const [date = '', amount = '', star = '', , description = ''] = cells;
    if (cells.length === 5 && isDateCell(date) && parseAmount(amount) !== undefined && (star === '*' || star === '') && description.trim() !== '') fits++;
    if (star === '*') stars++;
  }
  if (fits < head.length * 0.8 || stars === 0) return undefined;
  return { date: 0, amount: 1, checkNum: 3, description: 4, headerRow: -1 };
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

/** Known banks' exports are month-first; a file's own dates still override that. */
const LAYOUT_DATE_ORDER: Partial<Record<LayoutName, DateOrder>> = {
  'chase-checking': 'mdy',
  'chase-card': 'mdy',
  'bank-of-america': 'mdy',
  'wells-fargo': 'mdy',
  'capital-one': 'mdy',
  amex: 'mdy',
  citi: 'mdy',
  discover: 'mdy',
  mint: 'mdy',
};

function finish(table: CsvTable, layout: LayoutName, headerRow: number, mapping: ColumnMapping, accountType: AccountType, headers: string[]): DetectedLayout {
  const dates = dateValues(table.rows.slice(headerRow + 1), mapping, headers);
  const decision = inferDateOrder(dates, LAYOUT_DATE_ORDER[layout]);
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
