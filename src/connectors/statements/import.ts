/**
 * Reading a CSV bank export into the statement shape OFX files also produce: accounts, transactions with debits
 * negative, and refs that stay the same when the same transactions are uploaded again, so the import that stores
 * them can tell new ones from ones it already has (mergeByRef).
 */
import { STATEMENT_ACCOUNT_TYPES } from '../../contract/schemas/statements.js';
import { describeCurrencyValue, iso4217Code, isIso4217, NO_CURRENCY } from '../../platform/currency.js';
import { maskAccountNumber } from '../account-number.js';
import { categorize } from '../categorize.js';
import type { AccountType, ConnectorTransaction, TransactionType } from '../connector.js';
import { countryOfCurrency } from '../ofx/map.js';
import { noteClosingBalance } from './closing-balances.js';
import { type CsvRow, isSummaryRow, readCsv, StatementFileError } from './csv.js';
import { detectTableLayout, hasCardColumns, hasForeignHeaders, isCardPayment, isCurrencyName, type LayoutName } from './detect.js';
import { csvLayoutUsed, findSavedMapping, type SavedMapping } from './fingerprint.js';
import { type LayoutReading, layoutReading, layoutTitle } from './layouts.js';
import { type ColumnMapping, type ResolvedColumns, headerKey, numberedHeaders, validateMapping } from './mapping.js';
import { problemList } from './problems.js';
import type { StatementAccount, StatementImport } from './types.js';
import {
  type DateOrder,
  type DecimalSeparator,
  headerCurrency,
  inferDateOrder,
  inferDecimalSeparator,
  isoDay,
  parseAmount,
  parseDate,
  unwrapCell,
} from './values.js';

export interface CsvStatementOptions {
  /** Which column holds what (as validateMapping accepts it); detected from the header when absent. */
  mapping?: ColumnMapping;
  /** The account's name, when the file holds one account; also what keeps its ref stable across uploads. */
  accountName?: string;
  /** The kind of account, when the user knows better than the layout's guess. */
  accountType?: AccountType;
  /** ISO 4217 code (any letter case); otherwise the one the file names, else USD (accountCurrency). */
  currency?: string;
  /** Mappings saved for layouts (fingerprint.ts): without `mapping`, the one for the file's layout wins over detection. */
  savedMappings?: readonly SavedMapping[];
}

/** Characters of the normalised description that go into a transaction's ref. */
const REF_DESCRIPTION_CHARS = 80;

/**
 * Reads a CSV export. Refuses the whole file (StatementFileError) when it is too large or not CSV, when its layout is
 * not recognised and no mapping is given (details: the detection, with headers and sample rows), or when the mapping
 * does not fit it. Otherwise rows that cannot be read are listed in `problems` with their line, and the rest is read.
 */
export function readCsvStatement(input: string | Uint8Array, options: CsvStatementOptions = {}): StatementImport {
  const settings = checkOptions(options);
  const table = readCsv(input);
  const { rows } = table;
  if (rows.length === 0) throw new StatementFileError('empty', 'The file holds no rows.');

  let layout: LayoutName | 'custom';
  let guessedType: AccountType;
  let mapping: ColumnMapping;
  let headerRow: number;
  let headers: string[];
  // A saved mapping is the user's own choice for this layout (a corrected sign, say), so it wins over a built-in one.
  const saved = options.mapping === undefined ? findSavedMapping(table, options.savedMappings) : undefined;
  const chosen = options.mapping ?? saved?.mapping;
  if (chosen !== undefined) {
    layout = 'custom';
    guessedType = 'checking';
    const given = chosen as unknown;
    const requestedRow = typeof given === 'object' && given !== null ? (given as { headerRow?: unknown }).headerRow : undefined;
    if (typeof requestedRow === 'number' && Number.isInteger(requestedRow) && requestedRow >= rows.length) {
      throw new StatementFileError('invalid_mapping', `headerRow: the file has ${rows.length} rows, numbered from 0; there is no row ${requestedRow}.`);
    }
    headerRow = typeof requestedRow === 'number' && Number.isInteger(requestedRow) && requestedRow >= -1 ? requestedRow : locateHeaderFor(rows);
    headers = headerRow === -1 ? numberedHeaders(widest(rows)) : rows[headerRow]!.cells;
    if (headerRow !== -1 && hasCardColumns(headers)) guessedType = 'creditCard';
    mapping = given as ColumnMapping;
  } else {
    const detected = detectTableLayout(table);
    if (!detected.ok) throw new StatementFileError('unknown_layout', detected.reason, detected);
    ({ layout, mapping, headers } = detected);
    guessedType = detected.accountType;
    headerRow = mapping.headerRow ?? -1;
  }
  const validation = validateMapping(mapping, headers);
  if (!validation.ok) throw new StatementFileError('invalid_mapping', validation.errors.join(' '), { errors: validation.errors, headers });
  mapping = validation.mapping;
  const columns = validation.columns;
  const dataRows = rows.slice(headerRow + 1);

  const { problems, problem, countMore } = problemList();

  const cellsOf = (field: keyof ResolvedColumns) => {
    const at = columns[field];
    return at === undefined ? [] : dataRows.map((r) => r.cells[at] ?? '');
  };
  // What a bank's layout fixes: its decimal separator, currency, per-currency amount columns and fee column.
  const reading = layoutReading(layout, headers);
  const decimal = reading.decimal ?? inferDecimalSeparator([...cellsOf('amount'), ...cellsOf('debit'), ...cellsOf('credit')], table.delimiter);
  let dateOrder: DateOrder;
  if (mapping.dateOrder !== undefined) dateOrder = mapping.dateOrder;
  else {
    const decision = inferDateOrder([...cellsOf('date'), ...cellsOf('postedDate')]);
    dateOrder = decision.order;
    if (decision.ambiguous) {
      problem(
        undefined,
        `Dates such as ${decision.example} could be month-first or day-first, and no date in the file tells which: they were read month-first. ` +
          'If the file is day-first, read it again with dateOrder "dmy" in the column mapping.',
      );
    }
  }
  const headerKeys = headerRow === -1 ? undefined : headers.map(headerKey).join('\u0000');
  // Dates and descriptions repeat through a file; each distinct one is worked out once.
  const readDate = cached((text: string) => parseDate(text, dateOrder));
  const dayOf = cached(isoDay);
  const refText = cached(refDescription);

  const groups = new Map<string, AccountGroup>();
  // Categorised once the file's currency is known, at the end.
  const transactions: Omit<ConnectorTransaction, 'categorization'>[] = [];
  const occurrences = new Map<string, number>();
  const currencies = new Set<string>();
  // Currencies of the amount columns that each hold one (RBC's CAD$ and USD$): an account per currency.
  const columnCurrencies = new Set<string>();
  const perRowAccounts = columns.account !== undefined || columns.accountNumber !== undefined;
  const signs: SignEvidence = { positive: 0, negative: 0, payments: 0 };
  // Lines such as "Closing balance;1.234,56 EUR" above, within and below the table: the currency when nothing else names it.
  const summaryLines: CsvRow[] = headerRow === -1 ? [] : rows.slice(0, headerRow);

  for (const row of dataRows) {
    const cell = (field: keyof ResolvedColumns) => {
      const at = columns[field];
      return at === undefined ? '' : unwrapCell(row.cells[at] ?? '');
    };
    // Before the date: a pending row may not have its dates yet.
    const status = cell('status');
    if (PENDING_STATUS.test(status)) {
      problem(row.line, 'Pending: left out until it posts.');
      continue;
    }
    if (UNBOOKED_STATUS.test(status)) {
      problem(row.line, `The bank lists it as ${quote(status)}: it was never booked, so it was left out.`);
      continue;
    }
    const dateText = cell('date');
    const date = readDate(dateText);
    if (date === undefined) {
      if (isSummaryRow(row.cells)) {
        summaryLines.push(row);
        continue;
      }
      // Exports joined from several downloads repeat the header.
      if (headerKeys !== undefined && row.cells.map(headerKey).join('\u0000') === headerKeys) continue;
      if (dateText === '') problem(row.line, 'No date.');
      else
        problem(
          row.line,
          `The date ${quote(dateText)} cannot be read${dateOrder === 'ymd' ? '' : ` as ${dateOrder === 'mdy' ? 'month-first' : 'day-first'}`}.`,
        );
      continue;
    }
    const typeText = cell('type');
    const money = reading.currencyColumns ? readCurrencyColumns(row.cells, reading.currencyColumns, decimal) : readMoney(cell, columns, decimal);
    if (money.kind === 'missing') {
      // Balance lines such as Bank of America's "Beginning balance as of ..." have a date and no amount.
      if (!isSummaryRow(row.cells)) problem(row.line, 'No amount.');
      else summaryLines.push(row);
      continue;
    }
    if (money.kind === 'error') {
      problem(row.line, money.message);
      continue;
    }
    const columnCurrency = reading.currencyColumns && settings.currency === undefined ? money.currency : undefined;
    if (columnCurrency !== undefined) columnCurrencies.add(columnCurrency);
    else if (money.currency !== undefined) currencies.add(money.currency);
    const currencyText = cell('currency');
    if (currencyText !== '') currencies.add(iso4217Code(currencyText) ?? currencyText);
    let amount = money.value;
    const direction = money.single ? directionOf(typeText) : 0;
    const description = tidy(cell('description'));
    // A type column that says debit or credit gives the sign; negate is for the signs the amounts are written with.
    if (direction !== 0) amount = direction * Math.abs(amount);
    else {
      if (money.single) countSign(signs, amount, description, typeText);
      if (mapping.negate) amount = -amount;
    }
    if (amount === 0) amount = 0;
    const fee = reading.fee === undefined ? undefined : readFee(row.cells[reading.fee] ?? '', decimal);
    if (fee?.kind === 'error') problem(row.line, fee.message);
    // What left the account is the amount and the fee (as the running balance shows); the memo names the fee.
    if (fee?.kind === 'fee') amount = lessFee(amount, fee.value);

    const memo = [tidy(cell('memo')), fee?.kind === 'fee' ? `Fee ${fee.text} included in the amount` : ''].filter((m) => m !== '').join(' · ');
    const checkNum = cell('checkNum').replace(/^(?:#|no\.?)\s*/i, '');
    const postedText = cell('postedDate');
    const posted = postedText === '' ? undefined : readDate(postedText);

    const group = accountGroup(groups, row, cell, perRowAccounts, layout, settings, guessedType, problem, columnCurrency);
    if (!group) continue;
    if (currencyText !== '') (group.rowCurrencies ??= new Set()).add(iso4217Code(currencyText) ?? currencyText);
    const base = `${dayOf(date)}|${amount}|${refText(description)}`;
    const countKey = `${group.account.ref}\u0000${base}`;
    const occurrence = (occurrences.get(countKey) ?? 0) + 1;
    occurrences.set(countKey, occurrence);

    const transaction: Omit<ConnectorTransaction, 'categorization'> = {
      accountRef: group.account.ref,
      ref: `${base}|${occurrence}`,
      amount,
      status: 'active',
      postedDate: posted ?? date,
      transactionDate: date,
      description: description || memo,
      type: transactionType(typeText, amount, checkNum, description),
    };
    if (memo !== '' && memo !== description) transaction.memo = memo;
    if (checkNum !== '' && !/^0+$/.test(checkNum)) transaction.checkNum = checkNum;
    transactions.push(transaction);

    const balanceText = cell('balance');
    const balance = balanceText === '' ? undefined : parseAmount(balanceText, decimal);
    if (balance) group.balances.push({ date, balance: balance.value });
  }
  let currencyFrom: StatementImport['currencyFrom'] = settings.currency !== undefined ? 'asked' : undefined;
  const named: FileCurrency = {
    rows: currencies,
    header: headerRow === -1 ? undefined : headersCurrency(headers, columns),
    balanceLines: () => balanceLinesCurrency(summaryLines, decimal),
    layout: reading.currency ?? (columnCurrencies.size === 1 ? [...columnCurrencies][0] : undefined),
    foreignLooking: () =>
      decimal === ',' ||
      (headerRow !== -1 && hasForeignHeaders(headers)) ||
      // Dates the file itself shows to be day-first (a day above 12), whoever decided the order.
      dayFirstShown([...cellsOf('date'), ...cellsOf('postedDate')]),
    defaulted: () => {
      currencyFrom = 'default';
    },
  };
  if (mapping.negate === undefined && signUnknown(signs) && isCardOfNoBank(layout, settings, guessedType)) {
    throw signQuestion({ ...mapping, headerRow }, headers, headerRow, rows, signs);
  }
  const ownCurrencies = perAccountCurrencies(settings, perRowAccounts, groups, currencies);
  const currency = ownCurrencies ? ownCurrencies.first : accountCurrency(settings.currency, named, (message) => problem(undefined, message));
  if (columnCurrencies.size > 1) problem(undefined, bothColumns(reading, columnCurrencies));
  countMore((n) => `${n} more rows could not be read.`);

  if (groups.size === 0 && !perRowAccounts) accountGroup(groups, undefined, () => '', false, layout, settings, guessedType, problem);
  const accounts = [...groups.values()].map((group) => {
    const account: StatementAccount = { ...group.account, currency: group.currency ?? ownCurrencies?.of.get(group) ?? currency };
    const latest = latestBalance(group.balances);
    if (latest) {
      account.balance = latest.balance;
      account.balanceDate = latest.date;
      // Each day's last running balance, in the order the file's rows took place.
      const inOrder = latest === group.balances[0] ? [...group.balances].reverse() : group.balances;
      for (const b of inOrder) noteClosingBalance(account, b.date, b.balance);
    }
    return account;
  });
  // An account with amounts in two currency columns is an account per currency: say which is which.
  if (columnCurrencies.size > 1)
    for (const a of accounts) if (accounts.some((b) => b !== a && b.number === a.number && b.name === a.name)) a.name = `${a.name} (${a.currency})`;
  // One name given for a file of several cards: tell them apart by number (masked: a name is answered as it is).
  if (accounts.length > 1)
    for (const a of accounts) if (a.name === settings.accountName && a.number !== '') a.name = `${a.name} ${maskAccountNumber(a.number)}`;
  const country = countryOfCurrency(currency);
  const categorised = transactions.map((t): ConnectorTransaction => ({ ...t, categorization: categorize(t.description, t.memo, t.type, country) }));
  const used = csvLayoutUsed(table, headerRow, mapping, options.mapping !== undefined ? 'given' : saved ? 'saved' : layout);
  return { format: 'csv', accounts, transactions: categorised, problems, layout: used, ...(currencyFrom ? { currencyFrom } : {}) };
}

/** What a file's single-column amounts say of their sign (those a type column signs apart). */
interface SignEvidence {
  positive: number;
  negative: number;
  /** Rows that are payments to a card, by their description or type. */
  payments: number;
}

function countSign(signs: SignEvidence, amount: number, description: string, typeText: string): void {
  if (amount > 0) signs.positive++;
  else if (amount < 0) signs.negative++;
  if (isCardPayment(description) || /\bpayments?\b/i.test(typeText)) signs.payments++;
}

/** Amounts all of one sign and no payment to tell charges from money in: the file cannot say which way its signs go. */
function signUnknown(signs: SignEvidence): boolean {
  return signs.payments === 0 && (signs.positive === 0) !== (signs.negative === 0);
}

/**
 * A card's export of no bank's own layout (a bank's layout knows which way its signs go): one asked to be read as a
 * card's, or whose header names card columns.
 */
function isCardOfNoBank(layout: LayoutName | 'custom', settings: Settings, guessedType: AccountType): boolean {
  const noBank = layout === 'generic' || layout === 'generic-split' || layout === 'custom';
  return noBank && (settings.accountType ?? guessedType) === 'creditCard';
}

/**
 * The question a card export whose signs cannot be told is answered with (14112): the mapping it would be read with,
 * for the user to say `negate` true (purchases are written positive) or false (written negative).
 */
function signQuestion(mapping: ColumnMapping, headers: string[], headerRow: number, rows: CsvRow[], signs: SignEvidence): StatementFileError {
  const written = signs.positive > 0 ? 'positive' : 'negative';
  return new StatementFileError(
    'unknown_layout',
    `Every amount of this card export is ${written} and none is a payment to the card, so whether its purchases are written as positive or negative amounts cannot be told from the file.`,
    { ask: ['sign'], mapping, headers, headerRow, sample: rows.slice(headerRow + 1, headerRow + 1 + SIGN_SAMPLE_ROWS).map((r) => r.cells) },
  );
}

/** Rows below the header shown with the sign question, as with an unknown layout. */
const SIGN_SAMPLE_ROWS = 5;

/** Statuses of rows not yet booked, left out until they are: Citi's, Schwab's and USAA's `Pending`, Sparkasse's `Umsatz vorgemerkt`. */
const PENDING_STATUS = /^(?:pending|authori[sz]ed|processing|on hold|(?:umsatz )?vorgemerkt)\b/i;
/** Statuses of rows that never moved money: Revolut's `REVERTED`, `DECLINED` and `FAILED`. */
const UNBOOKED_STATUS = /^(?:reverted|declined|failed|cancell?ed|rejected)\b/i;

/** What a file says of its currency, strongest first. */
interface FileCurrency {
  /** What the rows name: a currency column's values, codes or symbols beside the amounts. */
  rows: ReadonlySet<string>;
  /** The one the amount columns' headers name (`Amount (EUR)`, `Debit GBP`). */
  header: string | undefined;
  /** The one the balance lines name, worked out only when nothing above names one. */
  balanceLines: () => string | undefined;
  /** The currency the layout's bank always uses (and RBC's one amount column filled): what the file names wins over it. */
  layout: string | undefined;
  /** Decimal commas, day-first dates or headers in another language than English: likely not a dollar account. */
  foreignLooking: () => boolean;
  /** Told when nothing names the currency and USD is taken. */
  defaulted: () => void;
}

/** Dates that show themselves day-first: a day above 12 first, or dotted (`31.10.2026`, day-first wherever it is used). */
function dayFirstShown(dates: readonly string[]): boolean {
  const decision = inferDateOrder(dates);
  return decision.order === 'dmy' && !decision.ambiguous;
}

/** The one currency the money columns' headers name; undefined when none does, or they disagree. */
function headersCurrency(headers: readonly string[], columns: ResolvedColumns): string | undefined {
  const codes = new Set<string>();
  for (const field of ['amount', 'debit', 'credit', 'balance'] as const) {
    const at = columns[field];
    const code = at === undefined ? undefined : headerCurrency(headers[at] ?? '', isIso4217);
    if (code !== undefined) codes.add(code);
  }
  return codes.size === 1 ? [...codes][0] : undefined;
}

/**
 * The one currency the lines around the table name: a `Currency;EUR` line (`Währung`, `Devise`, ...), or an amount
 * with a code or symbol on a balance or total line. Undefined when they name none, or several.
 */
function balanceLinesCurrency(lines: readonly CsvRow[], decimal: DecimalSeparator): string | undefined {
  const codes = new Set<string>();
  for (const { cells } of lines) {
    const filled = cells.map((c) => c.trim()).filter((c) => c !== '');
    if (filled.length >= 2 && isCurrencyName(filled[0]!.replace(/:$/, ''))) {
      const code = iso4217Code(filled[1]);
      if (code !== undefined) codes.add(code);
      continue;
    }
    if (!isSummaryRow(cells)) continue;
    for (const cell of filled) {
      // "Closing balance: 1.234,56 EUR" in one cell, or the label and the amount in cells of their own.
      const amount = parseAmount(cell, decimal) ?? parseAmount(cell.slice(cell.lastIndexOf(':') + 1), decimal);
      if (amount?.currency !== undefined && isIso4217(amount.currency)) codes.add(amount.currency);
    }
  }
  return codes.size === 1 ? [...codes][0] : undefined;
}

/**
 * The accounts' currency: the one asked for, else the one all rows name (a currency column, codes or symbols beside
 * the amounts), else the one the amount columns' headers name, else the one the balance lines name, else the one the
 * layout's bank always uses, else USD: named in problems when the file looks like one from outside the US. Rows that
 * name a text that is no ISO 4217 code, or several currencies, are kept as the file gives them under XXX (no currency)
 * rather than a currency they are not in; rows naming another currency than the one chosen are named. Amounts are
 * never converted.
 */
function accountCurrency(asked: string | undefined, file: FileCurrency, problem: (message: string) => void): string {
  const codes = [...file.rows].sort();
  const show = (list: readonly string[]) => list.map((c) => (isIso4217(c) ? c : describeCurrencyValue(c))).join(', ');
  if (asked !== undefined) {
    const others = codes.filter((c) => c !== asked);
    if (others.length > 0) problem(`Amounts name ${show(others)}, but the account's currency is ${asked} as asked: they were kept as the file gives them.`);
    return asked;
  }
  if (codes.length === 0) {
    const named = file.header ?? file.balanceLines();
    if (named !== undefined) return named;
    if (file.layout !== undefined) return file.layout;
    if (file.foreignLooking()) {
      problem(
        'The file names no currency (no currency column, no code or symbol beside the amounts or in their headers): it was stored as USD. If it is in another currency, upload it again with the option currency, such as EUR.',
      );
    }
    file.defaulted();
    return 'USD';
  }
  const invalid = codes.filter((c) => !isIso4217(c));
  if (codes.length === 1 && invalid.length === 0) return codes[0]!;
  if (codes.length === 1) problem(`The amounts name ${show(codes)}, which is not an ISO 4217 currency code: they were kept without a currency (XXX).`);
  else {
    const notCodes = invalid.length > 0 ? ` (${show(invalid)} not an ISO 4217 code)` : '';
    problem(
      `The amounts name several currencies (${show(codes)})${notCodes}: they were kept as the file gives them, without a currency (XXX). Upload each currency's rows as a file of its own.`,
    );
  }
  return NO_CURRENCY;
}

/**
 * The accounts' currencies when a file of several accounts names several currencies, but each account's rows one ISO
 * 4217 code of their own (a currency column beside an account column: Ledgerlink's own export); undefined otherwise.
 */
function perAccountCurrencies(
  settings: Settings,
  perRowAccounts: boolean,
  groups: ReadonlyMap<string, AccountGroup>,
  fileCurrencies: ReadonlySet<string>,
): { of: Map<AccountGroup, string>; first: string } | undefined {
  if (settings.currency !== undefined || !perRowAccounts || fileCurrencies.size < 2) return undefined;
  const of = new Map<AccountGroup, string>();
  for (const group of groups.values()) {
    const codes = [...(group.rowCurrencies ?? [])];
    if (codes.length !== 1 || !isIso4217(codes[0]!)) return undefined;
    of.set(group, codes[0]!);
  }
  const first = of.values().next().value;
  return first === undefined ? undefined : { of, first };
}

interface Settings {
  accountName?: string;
  accountType?: AccountType;
  currency?: string;
}

/** The kinds of account a CSV file's account may be said to be (the upload's `accountType`). */
const ACCOUNT_TYPES: readonly AccountType[] = STATEMENT_ACCOUNT_TYPES;

/** Checks the options a file is read with (the account's name, kind and currency), or refuses them (invalid_options). */
export function checkOptions(options: CsvStatementOptions): Settings {
  const settings: Settings = {};
  if (options.accountName !== undefined) {
    const name = typeof options.accountName === 'string' ? options.accountName.trim().replace(/\s+/g, ' ') : '';
    if (name === '' || name.length > 200) throw new StatementFileError('invalid_options', 'accountName: a name of 1 to 200 characters.');
    settings.accountName = name;
  }
  if (options.accountType !== undefined) {
    if (!ACCOUNT_TYPES.includes(options.accountType)) throw new StatementFileError('invalid_options', `accountType: one of ${ACCOUNT_TYPES.join(', ')}.`);
    settings.accountType = options.accountType;
  }
  if (options.currency !== undefined) {
    const code = typeof options.currency === 'string' ? iso4217Code(options.currency) : undefined;
    if (code === undefined) throw new StatementFileError('invalid_options', 'currency: an ISO 4217 code such as USD.');
    settings.currency = code;
  }
  return settings;
}

function locateHeaderFor(rows: CsvRow[]): number {
  const detected = detectTableLayout({ delimiter: ',', rows });
  return detected.ok ? (detected.mapping.headerRow ?? -1) : detected.headerRow;
}

function widest(rows: CsvRow[]): number {
  let width = 0;
  for (const row of rows) width = Math.max(width, row.cells.length);
  return width;
}

/** `single`: read from the one amount column, whose sign a debit/credit type column may override. */
type Money = { kind: 'amount'; value: number; single: boolean; currency?: string | undefined } | { kind: 'missing' } | { kind: 'error'; message: string };

function readMoney(cell: (field: keyof ResolvedColumns) => string, columns: ResolvedColumns, decimal: DecimalSeparator): Money {
  if (columns.amount !== undefined) {
    const text = cell('amount');
    if (text === '') return { kind: 'missing' };
    const parsed = parseAmount(text, decimal);
    return parsed
      ? { kind: 'amount', value: parsed.value, single: true, currency: parsed.currency }
      : { kind: 'error', message: `The amount ${quote(text)} cannot be read.` };
  }
  // Split columns hold unsigned amounts, though some banks write credits negative (Citi): the column gives the sign.
  const debitText = cell('debit');
  const creditText = cell('credit');
  if (debitText === '' && creditText === '') return { kind: 'missing' };
  const debit = debitText === '' ? undefined : parseAmount(debitText, decimal);
  const credit = creditText === '' ? undefined : parseAmount(creditText, decimal);
  if (debitText !== '' && !debit) return { kind: 'error', message: `The debit ${quote(debitText)} cannot be read.` };
  if (creditText !== '' && !credit) return { kind: 'error', message: `The credit ${quote(creditText)} cannot be read.` };
  const out = Math.abs(debit?.value ?? 0);
  const into = Math.abs(credit?.value ?? 0);
  if (out !== 0 && into !== 0) return { kind: 'error', message: `The row has both a debit (${debitText}) and a credit (${creditText}).` };
  return { kind: 'amount', value: into !== 0 ? into : -out, single: false, currency: credit?.currency ?? debit?.currency };
}

/**
 * The amount of a layout whose amount columns each hold one currency (RBC's CAD$ and USD$): the one filled, in its
 * column's currency. A row with amounts in both is named, not guessed at.
 */
function readCurrencyColumns(cells: readonly string[], columns: NonNullable<LayoutReading['currencyColumns']>, decimal: DecimalSeparator): Money {
  const filled = columns.filter((c) => unwrapCell(cells[c.at] ?? '') !== '');
  if (filled.length === 0) return { kind: 'missing' };
  if (filled.length > 1) {
    const amounts = filled.map((c) => `${c.header} ${unwrapCell(cells[c.at] ?? '')}`).join(', ');
    return { kind: 'error', message: `The row has amounts in more than one currency column (${amounts}): it was left out.` };
  }
  const { at, code, header } = filled[0]!;
  const text = unwrapCell(cells[at] ?? '');
  const parsed = parseAmount(text, decimal);
  return parsed
    ? { kind: 'amount', value: parsed.value, single: true, currency: code }
    : { kind: 'error', message: `The ${header} amount ${quote(text)} cannot be read.` };
}

/** The message for a file whose rows use more than one currency column. */
function bothColumns(reading: LayoutReading, codes: ReadonlySet<string>): string {
  const headers = (reading.currencyColumns ?? []).filter((c) => codes.has(c.code)).map((c) => c.header);
  return `Amounts are in the ${headers.join(' and ')} columns: each row was kept in its column's currency, an account per currency.`;
}

type Fee = { kind: 'fee'; value: number; text: string } | { kind: 'error'; message: string };

/** A fee charged beside a row's amount (Revolut's Fee column); undefined when there is none. */
function readFee(cell: string, decimal: DecimalSeparator): Fee | undefined {
  const text = unwrapCell(cell);
  if (text === '') return undefined;
  const parsed = parseAmount(text, decimal);
  if (!parsed) return { kind: 'error', message: `The fee ${quote(text)} cannot be read: the amount was stored without it.` };
  return parsed.value === 0 ? undefined : { kind: 'fee', value: Math.abs(parsed.value), text };
}

/** The amount with a fee taken off, to as many decimals as either is written with (no binary fractions added). */
function lessFee(amount: number, fee: number): number {
  const places = Math.max(decimalPlaces(amount), decimalPlaces(fee));
  const result = Number((amount - fee).toFixed(places));
  return result === 0 ? 0 : result;
}

function decimalPlaces(value: number): number {
  const text = String(value);
  const at = text.indexOf('.');
  // Values such as 1.2e-7 (a few units of a crypto asset) are written to ten places.
  if (text.includes('e')) return 10;
  return at === -1 ? 0 : text.length - at - 1;
}

/** +1 or -1 when the type column only says credit or debit (then it gives the sign of an unsigned amount), else 0. */
function directionOf(typeText: string): number {
  const key = headerKey(typeText);
  // Also the Dutch Af/Bij and the German Soll/Haben (S/H) columns.
  if (key === 'debit' || key === 'dr' || key === 'db' || key === 'af' || key === 'soll' || key === 's') return -1;
  if (key === 'credit' || key === 'cr' || key === 'bij' || key === 'haben' || key === 'h') return 1;
  return 0;
}

const TYPE_RULES: [RegExp, TransactionType][] = [
  [/\bdirect ?dep|\bpayroll\b|\bach credit\b/, 'directDeposit'],
  [/\bdirect ?debit\b|\bach debit\b/, 'directDebit'],
  [/\bstanding order\b|\brepeat\b|\brecurring\b/, 'repeatPayment'],
  [/\bservice ?charge\b/, 'serviceCharge'],
  [/\bfees?\b/, 'fee'],
  [/\binterest\b/, 'interest'],
  [/\bdividends?\b/, 'dividend'],
  [/\bdeposit\b|\bdslip\b/, 'deposit'],
  [/\batm\b/, 'atm'],
  [/\bchecks?\b|\bcheques?\b|\bchk\b/, 'check'],
  [/\btransfer\b|\bxfer\b|\bquickpay\b|\bzelle\b|\bwire\b/, 'transfer'],
  [/\bpayments?\b|\bpmt\b|\bbill ?pay\b/, 'payment'],
  [/\bpos\b|\bpoint of sale\b|\bdebit card\b|\bpurchase\b|\bsale\b/, 'pointOfSale'],
  [/\bcash\b/, 'cash'],
  [/\brefund\b|\breturn\b/, 'credit'],
  [/\bdebit\b|^(?:dr|db)$|\bwithdrawal\b/, 'debit'],
  [/\bcredit\b|^cr$/, 'credit'],
];

/** The transaction's type from the bank's own word for it, else from a check number, else from its sign. */
function transactionType(typeText: string, amount: number, checkNum: string, description: string): TransactionType {
  const key = typeText
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  if (key !== '') for (const [pattern, type] of TYPE_RULES) if (pattern.test(key)) return type;
  if ((checkNum !== '' && !/^0+$/.test(checkNum)) || /^(?:check|chk|cheque)\b/i.test(description)) return 'check';
  return amount < 0 ? 'debit' : amount > 0 ? 'credit' : 'other';
}

interface AccountGroup {
  account: Omit<StatementAccount, 'currency'>;
  balances: { date: number; balance: number }[];
  /** The currency of its amount column, for a layout whose amount columns each hold one. */
  currency?: string;
  /** The currencies its rows' currency column names. */
  rowCurrencies?: Set<string>;
}

function slug(text: string): string {
  return headerKey(text).replace(/ /g, '-').slice(0, 100);
}

function accountTypeFromName(name: string): AccountType | undefined {
  const key = headerKey(name);
  if (/\b(?:card|visa|mastercard|amex|discover|credit)\b/.test(key)) return 'creditCard';
  if (/\bsavings?\b/.test(key)) return 'savings';
  if (/\bmortgage\b/.test(key)) return 'mortgage';
  if (/\bloan\b/.test(key)) return 'loan';
  if (/\bline of credit\b|\bheloc\b/.test(key)) return 'lineOfCredit';
  if (/\bchecking\b|\bchequing\b|\bcurrent\b/.test(key)) return 'checking';
  return undefined;
}

/**
 * The account a row belongs to. Its ref is what makes a later upload land in the same account: the card or account
 * number where the file has one (with the layout, as banks number differently), else the account name (given, or
 * the row's), else the layout alone.
 */
function accountGroup(
  groups: Map<string, AccountGroup>,
  row: CsvRow | undefined,
  cell: (field: keyof ResolvedColumns) => string,
  perRow: boolean,
  layout: LayoutName | 'custom',
  settings: Settings,
  guessedType: AccountType,
  problem: (line: number | undefined, message: string) => void,
  currency?: string,
): AccountGroup | undefined {
  const number = perRow ? cell('accountNumber') : '';
  const rowName = perRow ? tidy(cell('account')) : '';
  if (perRow && number === '' && rowName === '') {
    problem(row?.line, 'No account: the row names no account.');
    return undefined;
  }
  const account =
    number !== ''
      ? `csv:${layout}:${slug(number) || number}`
      : rowName !== ''
        ? `csv:name:${slug(rowName) || rowName}`
        : settings.accountName !== undefined
          ? `csv:name:${slug(settings.accountName) || settings.accountName}`
          : `csv:${layout}`;
  const ref = currency === undefined ? account : `${account}:${currency.toLowerCase()}`;
  const existing = groups.get(ref);
  if (existing) return existing;
  const title = layoutTitle(layout);
  const name = rowName || settings.accountName || (number !== '' ? `${title} ${maskAccountNumber(number)}` : title);
  const type = settings.accountType ?? accountTypeFromName(rowName) ?? guessedType;
  const group: AccountGroup = { account: { ref, type, number, name }, balances: [] };
  if (currency !== undefined) group.currency = currency;
  groups.set(ref, group);
  return group;
}

/** The running balance after the latest row, when the file's order shows which row that is. */
function latestBalance(balances: { date: number; balance: number }[]): { date: number; balance: number } | undefined {
  if (balances.length === 0) return undefined;
  if (balances.length === 1) return balances[0];
  let ascending = true;
  let descending = true;
  for (let i = 1; i < balances.length; i++) {
    if (balances[i]!.date < balances[i - 1]!.date) ascending = false;
    if (balances[i]!.date > balances[i - 1]!.date) descending = false;
  }
  // All on one day: nothing tells whether the first or the last row came last.
  if (ascending && descending) return undefined;
  if (ascending) return balances[balances.length - 1];
  if (descending) return balances[0];
  return undefined;
}

/** `compute`, each distinct key worked out once (a file's dates and descriptions repeat). */
export function cached<K, V>(compute: (key: K) => V): (key: K) => V {
  const results = new Map<K, V>();
  return (key) => {
    if (results.has(key)) return results.get(key) as V;
    const value = compute(key);
    results.set(key, value);
    return value;
  };
}

function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}

/** The description as it goes into a ref: letters and digits only, in lower case, so spacing and punctuation changes do not matter. */
export function refDescription(description: string): string {
  return description
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, REF_DESCRIPTION_CHARS)
    .trim();
}

export interface MergeResult {
  /** Incoming transactions not seen before, in their order. */
  added: ConnectorTransaction[];
  /** Incoming transactions already among the earlier ones (or twice in the incoming ones). */
  duplicates: ConnectorTransaction[];
}

/**
 * Tells which incoming transactions are new: those whose (account ref, ref) is not among the earlier ones. CSV refs
 * count identical rows, so a second identical coffee the same day is new while a re-uploaded one is not; OFX refs are
 * FITIDs and merge the same way.
 */
export function mergeByRef(earlier: readonly ConnectorTransaction[], incoming: readonly ConnectorTransaction[]): MergeResult {
  const seen = new Set<string>();
  for (const t of earlier) seen.add(`${t.accountRef}\u0000${t.ref}`);
  const added: ConnectorTransaction[] = [];
  const duplicates: ConnectorTransaction[] = [];
  for (const t of incoming) {
    const key = `${t.accountRef}\u0000${t.ref}`;
    if (seen.has(key)) duplicates.push(t);
    else {
      seen.add(key);
      added.push(t);
    }
  }
  return { added, duplicates };
}
