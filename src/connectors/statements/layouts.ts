/**
 * The banks' CSV exports Ledgerlink reads without a column mapping: one row per layout, and the one place a bank is
 * added (with a fixture in test/fixtures/statements/layouts/, which a test asks every row for, and its line in
 * docs/connectors.md's table). detectLayout matches a file against the rows' headers, or for an export without a
 * header against their shapes; readCsvStatement takes from the row the account's title, the date order for dates that
 * do not tell, the decimal separator when the bank always writes the same, the currency its exports are always in,
 * amount columns that each hold one currency, and a fee column.
 */
import type { AccountType } from '../connector.js';
import { type CsvRow, isDateCell, usedWidth } from './csv.js';
import { type ColumnField, headerKey } from './mapping.js';
import { type DateOrder, type DecimalSeparator, inferDateOrder, parseAmount } from './values.js';

/** How a layout's amounts carry their sign. */
export type SignRule =
  /** One amount column, money out negative. */
  | 'signed'
  /** One amount column, money out positive (card exports that list charges as positive): every sign is flipped. */
  | 'negate'
  /** One amount column, unsigned or not; a type column saying debit or credit (Af/Bij) gives the sign. */
  | 'type'
  /** Unsigned columns of money out and money in. */
  | 'split';

/** A header row a layout is known by. */
export interface HeaderVariant {
  /** Header keys (headerKey) in order. */
  readonly keys: readonly string[];
  /** More columns may follow (exports that grew columns over time). */
  readonly prefix?: boolean;
  /** The same keys in any order (an export whose columns moved about). */
  readonly anyOrder?: boolean;
  /**
   * What the rows below must show too, for a header other exports share: `charges-positive`, a card export whose
   * payments to the card are negative and most other rows positive.
   */
  readonly when?: 'charges-positive';
}

export interface LayoutRow {
  readonly layout: string;
  /** The bank and the kind of export, as docs/connectors.md names them. */
  readonly bank: string;
  /** The account's name when the file names none. */
  readonly title: string;
  /** The kind of account the export comes from (for a file of several accounts, the default for names that do not tell). */
  readonly accountType: AccountType;
  /** The header rows the layout is known by. */
  readonly headers?: readonly HeaderVariant[];
  /** For an export without a header: whether a file's first rows are of this layout. */
  readonly shape?: (rows: readonly CsvRow[]) => boolean;
  /** Fields to header keys (headerKey), or to positions for an export without a header. */
  readonly columns: { readonly [F in ColumnField]?: string | number };
  readonly sign: SignRule;
  /** How dates such as 03/04/2026 are read when the file's own dates do not tell. */
  readonly dateOrder: DateOrder;
  /** The decimal separator, for a bank that always writes the same one. */
  readonly decimal?: DecimalSeparator;
  /** The currency the bank's exports are always in; a currency column, codes beside the amounts or a header still win. */
  readonly currency?: string;
  /** Amount columns (header keys) each in one currency (RBC's CAD$ and USD$): a row's amount is in its column's. */
  readonly currencyColumns?: { readonly [key: string]: string };
  /** A column (header key) of fees charged beside the row's amount, which left the account with it (Revolut). */
  readonly fee?: string;
}

/** Rows of a file without a header that must all fit a shape. */
const SHAPE_ROWS = 20;

function isAmount(cell: string): boolean {
  return cell.length <= 64 && (parseAmount(cell, '.') !== undefined || parseAmount(cell, ',') !== undefined);
}

/** The first rows all fit `fits` (a file of at least one row). */
function allFit(rows: readonly CsvRow[], fits: (cells: readonly string[]) => boolean): boolean {
  const head = rows.slice(0, SHAPE_ROWS);
  return head.length > 0 && head.every((r) => fits(r.cells.map((c) => c.trim())));
}

/** Wells Fargo: date, amount, `*`, check number, description, every field quoted; asterisks are what tell it apart. */
function wellsFargoShape(rows: readonly CsvRow[]): boolean {
  const head = rows.slice(0, SHAPE_ROWS);
  if (head.length === 0) return false;
  let fits = 0;
  let stars = 0;
  for (const { cells } of head) {
    const [date = '', amount = '', star = '', , description = ''] = cells;
    if (cells.length === 5 && isDateCell(date) && parseAmount(amount) !== undefined && (star === '*' || star === '') && description.trim() !== '') fits++;
    if (star === '*') stars++;
  }
  return fits >= head.length * 0.8 && stars > 0;
}

/** TD Canada Trust: date, description, withdrawal, deposit, balance; one unsigned amount of the two on each row. */
function tdShape(rows: readonly CsvRow[]): boolean {
  return allFit(rows, (c) => {
    if (c.length !== 5 || !isDateCell(c[0]!) || c[1] === '' || isAmount(c[1]!)) return false;
    const [out, into, balance] = [c[2]!, c[3]!, c[4]!];
    return (out === '') !== (into === '') && isAmount(out || into) && !/^[-(−]/.test(out || into) && isAmount(balance);
  });
}

/**
 * HSBC UK: date, description, signed amount, with dates that show themselves day-first (a day above 12 first). Any
 * file without a header could be three such columns, so one whose dates do not tell is left to the user's mapping.
 */
function hsbcShape(rows: readonly CsvRow[]): boolean {
  const fits = allFit(rows, (c) => usedWidth([...c]) === 3 && isDateCell(c[0]!) && c[1] !== '' && !isAmount(c[1]!) && isAmount(c[2]!));
  if (!fits) return false;
  const order = inferDateOrder(rows.slice(0, 500).map((r) => r.cells[0] ?? ''));
  return order.order === 'dmy' && !order.ambiguous && !order.conflicting;
}

/**
 * The built-in layouts, matched in this order (a header that is a prefix of another's comes after it). Sources of
 * each layout: test/fixtures/statements/README.md.
 */
const ROWS = [
  // United States.
  {
    layout: 'chase-checking',
    bank: 'Chase checking',
    title: 'Chase checking',
    accountType: 'checking',
    // Exports without the check column exist too.
    headers: [
      { keys: ['details', 'posting date', 'description', 'amount', 'type', 'balance', 'check or slip'] },
      { keys: ['details', 'posting date', 'description', 'amount', 'type', 'balance'] },
    ],
    columns: { date: 'posting date', description: 'description', amount: 'amount', type: 'type', balance: 'balance', checkNum: 'check or slip' },
    sign: 'signed',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'chase-card',
    bank: 'Chase credit card',
    title: 'Chase card',
    accountType: 'creditCard',
    headers: [{ keys: ['transaction date', 'post date', 'description', 'category', 'type', 'amount', 'memo'] }],
    columns: { date: 'transaction date', postedDate: 'post date', description: 'description', type: 'type', amount: 'amount', memo: 'memo' },
    sign: 'signed',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'bank-of-america',
    bank: 'Bank of America checking and savings',
    title: 'Bank of America account',
    accountType: 'checking',
    headers: [{ keys: ['date', 'description', 'amount', 'running bal'] }],
    columns: { date: 'date', description: 'description', amount: 'amount', balance: 'running bal' },
    sign: 'signed',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'bank-of-america-card',
    bank: 'Bank of America credit card',
    title: 'Bank of America card',
    accountType: 'creditCard',
    headers: [{ keys: ['posted date', 'reference number', 'payee', 'address', 'amount'] }],
    columns: { date: 'posted date', description: 'payee', memo: 'address', amount: 'amount' },
    sign: 'signed',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'wells-fargo',
    bank: 'Wells Fargo',
    title: 'Wells Fargo account',
    accountType: 'checking',
    shape: wellsFargoShape,
    columns: { date: 0, amount: 1, checkNum: 3, description: 4 },
    sign: 'signed',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'capital-one',
    bank: 'Capital One credit card',
    title: 'Capital One card',
    accountType: 'creditCard',
    headers: [{ keys: ['transaction date', 'posted date', 'card no', 'description', 'category', 'debit', 'credit'] }],
    columns: { date: 'transaction date', postedDate: 'posted date', accountNumber: 'card no', description: 'description', debit: 'debit', credit: 'credit' },
    sign: 'split',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'capital-one-360',
    bank: 'Capital One 360 checking and savings',
    title: 'Capital One 360 account',
    accountType: 'checking',
    // Its columns have come in more than one order.
    headers: [
      {
        keys: ['account number', 'transaction description', 'transaction date', 'transaction type', 'transaction amount', 'balance'],
        anyOrder: true,
      },
    ],
    columns: {
      accountNumber: 'account number',
      description: 'transaction description',
      date: 'transaction date',
      type: 'transaction type',
      amount: 'transaction amount',
      balance: 'balance',
    },
    sign: 'type',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'amex',
    bank: 'American Express (the current download, with or without the cardholder columns, and the older Date, Description, Amount one)',
    title: 'American Express card',
    accountType: 'creditCard',
    headers: [
      { keys: ['date', 'description', 'card member', 'account', 'amount'], prefix: true },
      {
        keys: [
          'date',
          'description',
          'amount',
          'extended details',
          'appears on your statement as',
          'address',
          'city state',
          'zip code',
          'country',
          'reference',
          'category',
        ],
        prefix: true,
      },
      // The older download is a plain Date,Description,Amount file: its negative payments to the card give it away.
      { keys: ['date', 'description', 'amount'], when: 'charges-positive' },
    ],
    columns: { date: 'date', description: 'description', accountNumber: 'account', amount: 'amount', memo: 'extended details' },
    sign: 'negate',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'citi',
    bank: 'Citi credit card',
    title: 'Citi card',
    accountType: 'creditCard',
    headers: [{ keys: ['status', 'date', 'description', 'debit', 'credit'], prefix: true }],
    columns: { status: 'status', date: 'date', description: 'description', debit: 'debit', credit: 'credit' },
    sign: 'split',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'discover',
    bank: 'Discover card',
    title: 'Discover card',
    accountType: 'creditCard',
    headers: [{ keys: ['trans date', 'post date', 'description', 'amount', 'category'] }],
    columns: { date: 'trans date', postedDate: 'post date', description: 'description', amount: 'amount' },
    sign: 'negate',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'us-bank',
    bank: 'U.S. Bank',
    title: 'U.S. Bank account',
    accountType: 'checking',
    headers: [{ keys: ['date', 'transaction', 'name', 'memo', 'amount'] }],
    columns: { date: 'date', type: 'transaction', description: 'name', memo: 'memo', amount: 'amount' },
    sign: 'signed',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'ally',
    bank: 'Ally Bank',
    title: 'Ally account',
    accountType: 'checking',
    headers: [{ keys: ['date', 'time', 'amount', 'type', 'description'] }],
    columns: { date: 'date', amount: 'amount', type: 'type', description: 'description' },
    sign: 'signed',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'schwab',
    bank: 'Charles Schwab Bank checking',
    title: 'Schwab account',
    accountType: 'checking',
    headers: [{ keys: ['date', 'status', 'type', 'checknumber', 'description', 'withdrawal', 'deposit', 'runningbalance'] }],
    columns: {
      date: 'date',
      status: 'status',
      type: 'type',
      checkNum: 'checknumber',
      description: 'description',
      debit: 'withdrawal',
      credit: 'deposit',
      balance: 'runningbalance',
    },
    sign: 'split',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'pnc',
    bank: 'PNC',
    title: 'PNC account',
    accountType: 'checking',
    headers: [{ keys: ['date', 'description', 'withdrawals', 'deposits', 'balance'] }],
    columns: { date: 'date', description: 'description', debit: 'withdrawals', credit: 'deposits', balance: 'balance' },
    sign: 'split',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'usaa',
    bank: 'USAA',
    title: 'USAA account',
    accountType: 'checking',
    headers: [{ keys: ['date', 'description', 'original description', 'category', 'amount', 'status'] }],
    columns: { date: 'date', description: 'description', memo: 'original description', amount: 'amount', status: 'status' },
    sign: 'signed',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  {
    layout: 'mint',
    bank: 'Mint (an aggregator export of several accounts)',
    title: 'Imported account',
    accountType: 'checking',
    headers: [{ keys: ['date', 'description', 'original description', 'amount', 'transaction type', 'category', 'account name', 'labels', 'notes'] }],
    columns: { date: 'date', description: 'description', memo: 'original description', amount: 'amount', type: 'transaction type', account: 'account name' },
    sign: 'type',
    dateOrder: 'mdy',
    currency: 'USD',
  },
  // United Kingdom and Europe.
  {
    layout: 'monzo',
    bank: 'Monzo',
    title: 'Monzo account',
    accountType: 'checking',
    headers: [{ keys: ['transaction id', 'date', 'time', 'type', 'name', 'emoji', 'category', 'amount', 'currency'], prefix: true }],
    columns: { date: 'date', type: 'type', description: 'name', amount: 'amount', currency: 'currency', memo: 'description' },
    sign: 'signed',
    dateOrder: 'dmy',
    currency: 'GBP',
  },
  {
    layout: 'revolut',
    bank: 'Revolut',
    title: 'Revolut account',
    accountType: 'checking',
    headers: [{ keys: ['type', 'product', 'started date', 'completed date', 'description', 'amount', 'fee', 'currency', 'state', 'balance'], prefix: true }],
    columns: {
      type: 'type',
      account: 'product',
      date: 'started date',
      postedDate: 'completed date',
      description: 'description',
      amount: 'amount',
      currency: 'currency',
      status: 'state',
      balance: 'balance',
    },
    fee: 'fee',
    sign: 'signed',
    dateOrder: 'dmy',
  },
  {
    layout: 'n26',
    bank: 'N26 (the layout before 2023)',
    title: 'N26 account',
    accountType: 'checking',
    headers: [{ keys: ['date', 'payee', 'account number', 'transaction type', 'payment reference'], prefix: true }],
    // `Account number` is the other party's.
    columns: { date: 'date', description: 'payee', type: 'transaction type', memo: 'payment reference', amount: 'amount eur' },
    sign: 'signed',
    dateOrder: 'dmy',
    currency: 'EUR',
  },
  {
    layout: 'n26-2023',
    bank: 'N26 (the layout since 2023)',
    title: 'N26 account',
    accountType: 'checking',
    headers: [
      { keys: ['booking date', 'value date', 'partner name', 'partner iban', 'type', 'payment reference', 'account name', 'amount eur'], prefix: true },
    ],
    columns: {
      date: 'booking date',
      description: 'partner name',
      type: 'type',
      memo: 'payment reference',
      account: 'account name',
      amount: 'amount eur',
    },
    sign: 'signed',
    dateOrder: 'dmy',
    currency: 'EUR',
  },
  {
    layout: 'ing-nl',
    bank: 'ING (Netherlands)',
    title: 'ING account',
    accountType: 'checking',
    headers: [
      {
        keys: ['datum', 'naam omschrijving', 'rekening', 'tegenrekening', 'code', 'af bij', 'bedrag eur', 'mutatiesoort', 'mededelingen'],
        prefix: true,
      },
    ],
    columns: {
      date: 'datum',
      description: 'naam omschrijving',
      accountNumber: 'rekening',
      type: 'af bij',
      amount: 'bedrag eur',
      memo: 'mededelingen',
      balance: 'saldo na mutatie',
    },
    sign: 'type',
    dateOrder: 'dmy',
    decimal: ',',
    currency: 'EUR',
  },
  {
    layout: 'rabobank',
    bank: 'Rabobank',
    title: 'Rabobank account',
    accountType: 'checking',
    headers: [
      {
        keys: ['iban bban', 'munt', 'bic', 'volgnr', 'datum', 'rentedatum', 'bedrag', 'saldo na trn', 'tegenrekening iban bban', 'naam tegenpartij'],
        prefix: true,
      },
    ],
    columns: {
      accountNumber: 'iban bban',
      currency: 'munt',
      date: 'rentedatum',
      postedDate: 'datum',
      amount: 'bedrag',
      balance: 'saldo na trn',
      description: 'naam tegenpartij',
      memo: 'omschrijving 1',
    },
    sign: 'signed',
    dateOrder: 'dmy',
    decimal: ',',
    currency: 'EUR',
  },
  {
    layout: 'sparkasse',
    bank: 'Sparkasse (CSV-CAMT V2)',
    title: 'Sparkasse account',
    accountType: 'checking',
    headers: [
      {
        keys: [
          'auftragskonto',
          'buchungstag',
          'valutadatum',
          'buchungstext',
          'verwendungszweck',
          'glaeubiger id',
          'mandatsreferenz',
          'kundenreferenz end to end',
          'sammlerreferenz',
          'lastschrift ursprungsbetrag',
          'auslagenersatz ruecklastschrift',
          'beguenstigter zahlungspflichtiger',
          'kontonummer iban',
          'bic swift code',
          'betrag',
          'waehrung',
          'info',
        ],
        prefix: true,
      },
    ],
    columns: {
      accountNumber: 'auftragskonto',
      postedDate: 'buchungstag',
      date: 'valutadatum',
      memo: 'verwendungszweck',
      description: 'beguenstigter zahlungspflichtiger',
      amount: 'betrag',
      currency: 'waehrung',
      status: 'info',
    },
    sign: 'signed',
    dateOrder: 'dmy',
    decimal: ',',
    currency: 'EUR',
  },
  {
    layout: 'bunq',
    bank: 'bunq',
    title: 'bunq account',
    accountType: 'checking',
    headers: [
      { keys: ['date', 'interest date', 'amount', 'account', 'counterparty', 'name', 'description'] },
      { keys: ['date', 'interest date', 'amount', 'counterparty', 'name', 'description'] },
    ],
    // `Counterparty` is the other party's account.
    columns: { date: 'date', amount: 'amount', accountNumber: 'account', description: 'name', memo: 'description' },
    sign: 'signed',
    dateOrder: 'dmy',
    currency: 'EUR',
  },
  {
    layout: 'barclays',
    bank: 'Barclays (UK)',
    title: 'Barclays account',
    accountType: 'checking',
    headers: [{ keys: ['number', 'date', 'account', 'amount', 'subcategory', 'memo'] }],
    // The memo is the description; `Subcategory` is left alone, as its words are not always the amount's direction.
    columns: { date: 'date', accountNumber: 'account', amount: 'amount', description: 'memo' },
    sign: 'signed',
    dateOrder: 'dmy',
    currency: 'GBP',
  },
  {
    layout: 'hsbc-uk',
    bank: 'HSBC (UK)',
    title: 'HSBC account',
    accountType: 'checking',
    shape: hsbcShape,
    columns: { date: 0, description: 1, amount: 2 },
    sign: 'signed',
    dateOrder: 'dmy',
    currency: 'GBP',
  },
  // Canada.
  {
    layout: 'rbc',
    bank: 'RBC Royal Bank',
    title: 'RBC account',
    accountType: 'checking',
    headers: [{ keys: ['account type', 'account number', 'transaction date', 'cheque number', 'description 1', 'description 2', 'cad', 'usd'], prefix: true }],
    columns: {
      account: 'account type',
      accountNumber: 'account number',
      date: 'transaction date',
      checkNum: 'cheque number',
      description: 'description 1',
      memo: 'description 2',
      amount: 'cad',
    },
    currencyColumns: { cad: 'CAD', usd: 'USD' },
    sign: 'signed',
    dateOrder: 'mdy',
  },
  {
    layout: 'td',
    bank: 'TD Canada Trust',
    title: 'TD account',
    accountType: 'checking',
    shape: tdShape,
    columns: { date: 0, description: 1, debit: 2, credit: 3, balance: 4 },
    sign: 'split',
    dateOrder: 'mdy',
    currency: 'CAD',
  },
  // Ledgerlink's own CSV export (src/modules/exports/csv.ts): an account per Account ID, each in its Currency.
  {
    layout: 'ledgerlink',
    bank: 'Ledgerlink export',
    title: 'Ledgerlink export',
    accountType: 'checking',
    headers: [
      {
        keys: [
          'date',
          'posted date',
          'account',
          'account id',
          'account number',
          'account type',
          'currency',
          'amount',
          'description',
          'memo',
          'check number',
          'type',
          'transaction id',
        ],
      },
    ],
    // Not the type column: its values (a debit, a credit) would set signs the amounts already carry.
    columns: {
      date: 'date',
      postedDate: 'posted date',
      account: 'account',
      accountNumber: 'account id',
      currency: 'currency',
      amount: 'amount',
      description: 'description',
      memo: 'memo',
      checkNum: 'check number',
    },
    sign: 'signed',
    dateOrder: 'ymd',
    decimal: '.',
  },
] as const satisfies readonly LayoutRow[];

/** A built-in layout's name. */
export type BuiltInLayout = (typeof ROWS)[number]['layout'];
/** A layout detectLayout names: a built-in one, or `generic` and `generic-split` for files told by their column names. */
export type LayoutName = BuiltInLayout | 'generic' | 'generic-split';

export interface BuiltInRow extends LayoutRow {
  readonly layout: BuiltInLayout;
}

/** The built-in layouts, in the order they are matched. */
export const LAYOUTS: readonly BuiltInRow[] = ROWS;

const BY_NAME: ReadonlyMap<string, BuiltInRow> = new Map(LAYOUTS.map((row) => [row.layout, row]));

/** The row of a built-in layout; undefined for the generic layouts and a given mapping (`custom`). */
export function layoutRow(layout: string): BuiltInRow | undefined {
  return BY_NAME.get(layout);
}

/** The account's name for a file of this layout that names none. */
export function layoutTitle(layout: string): string {
  return layoutRow(layout)?.title ?? 'Imported account';
}

/** What reading a file takes from its layout's row, its columns found in the file's header. */
export interface LayoutReading {
  decimal?: DecimalSeparator;
  /** The currency the bank's exports are always in. */
  currency?: string;
  /** Amount columns each in one currency: position, ISO code and the header as written. */
  currencyColumns?: { at: number; code: string; header: string }[];
  /** The fee column's position. */
  fee?: number;
}

/** The reading of a file of this layout (nothing for the generic layouts or a given mapping), `headers` its header row. */
export function layoutReading(layout: string, headers: readonly string[]): LayoutReading {
  const row = layoutRow(layout);
  if (!row) return {};
  const reading: LayoutReading = {};
  if (row.decimal !== undefined) reading.decimal = row.decimal;
  if (row.currency !== undefined) reading.currency = row.currency;
  const keys = headers.map((h) => (h.length > 100 ? '' : headerKey(h)));
  if (row.currencyColumns) {
    reading.currencyColumns = Object.entries(row.currencyColumns).flatMap(([key, code]) => {
      const at = keys.indexOf(key);
      return at === -1 ? [] : [{ at, code, header: headers[at]!.trim() }];
    });
  }
  if (row.fee !== undefined && keys.includes(row.fee)) reading.fee = keys.indexOf(row.fee);
  return reading;
}
