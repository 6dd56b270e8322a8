/**
 * Reading a QIF file (Quicken Interchange Format) into the statement shape the other readers produce. QIF is a line
 * format: a `!` header opens a section (`!Type:Bank`, `!Account`, `!Type:Invst`, ...), and each record of a section is
 * a run of lines whose first character says what the rest is (D date, T amount, P payee, ...), ended by a `^` line.
 * A file names no currency, no account number and no transaction id, and writes dates and amounts as the program
 * that wrote it likes (`8/31' 0`, `12/31/2025`, `31.12.2025`; `1,234.56` or `1.234,56`): the date order and the
 * decimal separator are decided from the whole file, as for CSV, and refs are derived from what a transaction says.
 */
import type { AccountType, ConnectorPosition, ConnectorTransaction, InvestmentTransactionType, TransactionType } from '../connector.js';
import { countryOfCurrency, positionRecordOf } from '../ofx/map.js';
import { categorize } from '../categorize.js';
import { MAX_CSV_ROWS, StatementFileError, decodeStatementText } from './csv.js';
import { type CsvStatementOptions, cached, checkOptions } from './import.js';
import { headerKey } from './mapping.js';
import { problemList } from './problems.js';
import { MAX_STATEMENT_POSITIONS, type StatementAccount, type StatementImport } from './types.js';
import { type DecimalSeparator, inferDateOrder, inferDecimalSeparator, isoDay, parseAmount, parseDate } from './values.js';

/** A line longer than this is no QIF (whose fields are a few dozen characters): the file is refused. */
export const MAX_QIF_LINE_CHARS = 64 * 1024;
/** Most transactions read from one file, as for a CSV file's rows. */
export const MAX_QIF_TRANSACTIONS = MAX_CSV_ROWS;
/** Split lines of one transaction that are read; a transaction's total does not depend on them. */
const MAX_SPLITS = 1000;
/** Split lines shown in the memo. */
const SPLITS_IN_MEMO = 20;
/** Characters kept of a payee, a memo or a split's text (Quicken's own fields are far shorter). */
const MAX_TEXT_CHARS = 256;
/** Characters of the normalised payee that go into a transaction's ref, as for CSV. */
const REF_DESCRIPTION_CHARS = 80;

/** Whether a file starting with `head` (a byte-order mark removed) is QIF: it opens with one of its headers. */
export function isQifHead(head: string): boolean {
  return /^\s*!(?:type\s*:|account\b|option\s*:|clear\s*:)/i.test(head.slice(0, 256));
}

/** The kinds of transaction section, by the name after `!Type:` (spaces removed, lower case). */
const TRANSACTION_SECTIONS = {
  bank: { title: 'Bank account', accountType: 'checking' },
  cash: { title: 'Cash', accountType: 'checking' },
  ccard: { title: 'Credit card', accountType: 'creditCard' },
  otha: { title: 'Other asset', accountType: 'savings' },
  othl: { title: 'Other liability', accountType: 'loan' },
  invst: { title: 'Investment account', accountType: 'investment' },
} as const satisfies Record<string, { title: string; accountType: AccountType }>;
type SectionType = keyof typeof TRANSACTION_SECTIONS;

/** The fields read (of transactions, accounts and securities); others (cleared status, address, flags...) are not kept. */
const READ_CODES: ReadonlySet<string> = new Set(['D', 'T', 'U', 'N', 'P', 'M', 'L', 'Y', 'I', 'Q', 'O', 'S', '$', '/']);

/** Sections that hold no transactions: lists of categories, classes, memorised transactions and prices. */
const SKIPPED_SECTIONS: ReadonlySet<string> = new Set(['cat', 'class', 'memorized', 'memorised', 'prices']);

interface Split {
  category: string;
  memo?: string;
  amount?: string;
}

/** A record as written: its fields by code (the last of a code wins), and a bank record's split lines. */
interface RawRecord {
  line: number;
  fields: Map<string, string>;
  splits?: Split[];
  splitsLeftOut: number;
}

interface RawTransaction {
  account: AccountEntry;
  section: SectionType;
  record: RawRecord;
}

/** An account of the file: named by an `!Account` record, or the file's own when it has none. */
interface AccountEntry {
  ref: string;
  name: string;
  /** The `T` of its `!Account` record. */
  typeText?: string;
  balanceText?: string;
  balanceDateText?: string;
  /** The first transaction section that followed it; accounts without one (an account list) are not imported. */
  section?: SectionType;
}

type Section =
  | { kind: 'none' }
  | { kind: 'transactions'; type: SectionType; account: AccountEntry }
  | { kind: 'account' }
  | { kind: 'security' }
  | { kind: 'skipped' }
  | { kind: 'unknown'; header: string; line: number; records: number };

/**
 * Reads a QIF file. Refuses it whole (StatementFileError) when it is too large, has a line of more than
 * MAX_QIF_LINE_CHARS or more than MAX_QIF_TRANSACTIONS transactions, or when the options are invalid; otherwise
 * records that cannot be read are named in `problems` with their line, and the rest is read. `accountName` names
 * the file's account when the file has no `!Account` record (and keeps its ref), `accountType` says the kind of a
 * file's only account, and `currency` is the accounts' currency (USD otherwise: QIF names none).
 */
export function readQifStatement(input: string | Uint8Array, options: CsvStatementOptions = {}): StatementImport {
  const settings = checkOptions(options);
  let text = decodeStatementText(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const { problems, problem, countMore } = problemList();

  // Read first, interpreted once the whole file has said how it writes dates and amounts.
  const accounts = new Map<string, AccountEntry>();
  const imported: AccountEntry[] = [];
  const raw: RawTransaction[] = [];
  const dateTexts: string[] = [];
  const amountTexts: string[] = [];
  const securities = new Map<string, string>();
  const securityKinds = new Map<string, string>();
  let implicit: AccountEntry | undefined;
  let current: AccountEntry | undefined;
  let section: Section = { kind: 'none' };
  let record: RawRecord | undefined;
  let split: Split | undefined;

  const endSection = () => {
    if (section.kind === 'unknown' && section.records > 0) {
      const n = section.records;
      problem(section.line, `The section ${quote(section.header)} is not one Ledgerlink reads: its ${n} record${n === 1 ? ' was' : 's were'} left out.`);
    }
  };
  const endRecord = () => {
    const r = record;
    record = undefined;
    split = undefined;
    if (r === undefined) return;
    switch (section.kind) {
      case 'transactions': {
        if (raw.length >= MAX_QIF_TRANSACTIONS) {
          throw new StatementFileError('too_many_rows', `The file has more than ${MAX_QIF_TRANSACTIONS} transactions, the most a statement file may have.`);
        }
        raw.push({ account: section.account, section: section.type, record: r });
        const date = r.fields.get('D');
        if (date !== undefined) dateTexts.push(normaliseDate(date));
        for (const code of section.type === 'invst' ? ['T', 'U', 'I', 'Q', 'O', '$'] : ['T', 'U']) {
          const value = r.fields.get(code);
          if (value !== undefined) amountTexts.push(value);
        }
        for (const s of r.splits ?? []) if (s.amount !== undefined) amountTexts.push(s.amount);
        break;
      }
      case 'account': {
        const name = tidy(r.fields.get('N') ?? '') || tidy(r.fields.get('D') ?? '');
        if (name === '') {
          problem(r.line, 'An account record without a name (N): the transactions after it were read into the file’s own account.');
          current = undefined;
          break;
        }
        const ref = `qif:${slug(name) || name}`;
        let entry = accounts.get(ref);
        if (!entry) {
          entry = { ref, name: cut(name) };
          accounts.set(ref, entry);
        }
        const type = r.fields.get('T');
        if (type) entry.typeText = type;
        const balance = r.fields.get('$');
        if (balance) {
          entry.balanceText = balance;
          amountTexts.push(balance);
          const asOf = r.fields.get('/');
          if (asOf) {
            entry.balanceDateText = normaliseDate(asOf);
            dateTexts.push(entry.balanceDateText);
          } else delete entry.balanceDateText;
        }
        // Each account record, in an AutoSwitch list or not, is the account of the transactions that follow it.
        current = entry;
        break;
      }
      case 'security': {
        const name = tidy(r.fields.get('N') ?? '');
        const symbol = tidy(r.fields.get('S') ?? '');
        if (name !== '' && symbol !== '') securities.set(name.toLowerCase(), symbol);
        const kind = tidy(r.fields.get('T') ?? '');
        if (name !== '' && kind !== '') securityKinds.set(name.toLowerCase(), kind);
        break;
      }
      case 'unknown':
        section.records++;
        break;
      case 'none':
        problem(r.line, 'A record before any !Type or !Account line: Ledgerlink cannot tell what it is, so it was left out.');
        break;
      case 'skipped':
        break;
    }
  };
  const openSection = (header: string, line: number) => {
    const key = header.slice(1).toLowerCase();
    const colon = key.indexOf(':');
    const word = (colon === -1 ? key : key.slice(0, colon)).trim();
    const what = colon === -1 ? '' : key.slice(colon + 1).replace(/\s+/g, '');
    // AutoSwitch marks where a list of accounts starts and ends; every account record is read the same way.
    if (word === 'option' || word === 'clear') return;
    endSection();
    if (word === 'account' && colon === -1) section = { kind: 'account' };
    else if (word === 'type' && Object.hasOwn(TRANSACTION_SECTIONS, what)) {
      const type = what as SectionType;
      const account = current ?? (implicit ??= { ref: '', name: '' });
      if (account.section === undefined) {
        account.section = type;
        imported.push(account);
      }
      section = { kind: 'transactions', type, account };
    } else if (word === 'type' && what === 'security') section = { kind: 'security' };
    else if (word === 'type' && SKIPPED_SECTIONS.has(what)) section = { kind: 'skipped' };
    else section = { kind: 'unknown', header: header.trim(), line, records: 0 };
  };
  const addField = (code: string, value: string, line: number) => {
    if (section.kind === 'skipped') return;
    record ??= { line, fields: new Map(), splitsLeftOut: 0 };
    if (section.kind === 'transactions' && section.type !== 'invst' && (code === 'S' || code === 'E' || code === '$' || code === '%')) {
      addSplitLine(record, code, value);
      return;
    }
    if (READ_CODES.has(code)) record.fields.set(code, value);
  };
  // A split starts at its S line, or at an E or $ line when the split before already has one.
  const addSplitLine = (r: RawRecord, code: string, value: string) => {
    const starts = code === 'S' || split === undefined || (code === 'E' && split.memo !== undefined) || (code === '$' && split.amount !== undefined);
    if (starts) {
      split = { category: code === 'S' ? value : '' };
      r.splits ??= [];
      if (r.splits.length < MAX_SPLITS) r.splits.push(split);
      else r.splitsLeftOut++;
    }
    if (code === 'E') split!.memo = value;
    else if (code === '$') split!.amount = value;
  };

  const lineBreak = /\r\n|\r|\n/g;
  let lineNumber = 0;
  for (let start = 0; start <= text.length; ) {
    lineBreak.lastIndex = start;
    const found = lineBreak.exec(text);
    const end = found ? found.index : text.length;
    lineNumber++;
    if (end - start > MAX_QIF_LINE_CHARS) {
      throw new StatementFileError('unreadable', `Line ${lineNumber} is longer than ${MAX_QIF_LINE_CHARS} characters; this is not a QIF file.`);
    }
    const line = text.slice(start, end).trim();
    start = found ? end + found[0].length : text.length + 1;
    if (line === '') continue;
    const code = line[0]!;
    if (code === '!') {
      endRecord();
      openSection(line, lineNumber);
    } else if (code === '^') endRecord();
    else addField(code, line.slice(1).trim(), lineNumber);
  }
  endRecord();
  endSection();

  const decision = inferDateOrder(dateTexts);
  const dateOrder = decision.order;
  if (decision.ambiguous) {
    problem(
      undefined,
      `Dates such as ${decision.example} could be month-first or day-first, and no date in the file tells which: they were read month-first, as Quicken writes them in the US.`,
    );
  }
  const decimal = inferDecimalSeparator(amountTexts);
  const currency = settings.currency ?? 'USD';
  const country = countryOfCurrency(currency);
  // Dates repeat through a file; each distinct one is worked out once.
  const readDate = cached((value: string) => parseDate(normaliseDate(value), dateOrder));
  const dayOf = cached(isoDay);

  if (implicit) {
    const name = settings.accountName ?? TRANSACTION_SECTIONS[implicit.section!].title;
    implicit.ref = settings.accountName !== undefined ? `qif:${slug(settings.accountName) || settings.accountName}` : `qif:${implicit.section}`;
    implicit.name = name;
  }
  // Two entries with one ref (the file's own account named like an !Account one) are one account.
  const statementAccounts = new Map<string, StatementAccount>();
  for (const entry of imported) {
    if (statementAccounts.has(entry.ref)) continue;
    const account: StatementAccount = {
      ref: entry.ref,
      type: (entry.typeText !== undefined ? accountTypeOf(entry.typeText) : undefined) ?? TRANSACTION_SECTIONS[entry.section!].accountType,
      number: '',
      name: entry.name,
      currency,
    };
    if (entry.balanceText !== undefined) {
      const balance = parseAmount(entry.balanceText, decimal);
      if (balance) {
        account.balance = balance.value;
        const asOf = entry.balanceDateText === undefined ? undefined : parseDate(entry.balanceDateText, dateOrder);
        if (asOf !== undefined) account.balanceDate = asOf;
      }
    }
    statementAccounts.set(entry.ref, account);
  }
  if (settings.accountType !== undefined && statementAccounts.size === 1) for (const a of statementAccounts.values()) a.type = settings.accountType;

  const transactions: ConnectorTransaction[] = [];
  const occurrences = new Map<string, number>();
  const refOf = (accountRef: string, base: string) => {
    const key = `${accountRef}\u0000${base}`;
    const occurrence = (occurrences.get(key) ?? 0) + 1;
    occurrences.set(key, occurrence);
    return `${base}|${occurrence}`;
  };
  const holdings = new Map<string, Holdings>();
  const trade: ReadContext['trade'] = (accountRef, move) => {
    let account = holdings.get(accountRef);
    if (!account) holdings.set(accountRef, (account = { bySecurity: new Map(), latest: move.date }));
    account.latest = Math.max(account.latest, move.date);
    const key = move.security.toLowerCase();
    let h = account.bySecurity.get(key);
    if (!h) account.bySecurity.set(key, (h = { name: move.security, units: 0, price: undefined, priceDate: 0, line: move.line }));
    if (move.units !== undefined) h.units = Math.round((h.units + move.units) * 1e8) / 1e8;
    // The price of the latest trade (of the later line on one day) is the holding's.
    if (move.price !== undefined && (h.price === undefined || move.date >= h.priceDate)) {
      h.price = move.price;
      h.priceDate = move.date;
    }
  };
  const context: ReadContext = { decimal, country, securities, problem, refOf, day: dayOf, trade };
  for (const t of raw) {
    const { fields, line } = t.record;
    const dateText = fields.get('D');
    if (dateText === undefined || dateText === '') {
      problem(line, 'No date (D).');
      continue;
    }
    const date = readDate(dateText);
    if (date === undefined) {
      problem(line, `The date ${quote(dateText)} cannot be read${dateOrder === 'dmy' ? ' as day-first' : dateOrder === 'mdy' ? ' as month-first' : ''}.`);
      continue;
    }
    const read = t.section === 'invst' ? investmentTransactions(t, date, context) : bankTransaction(t, date, context);
    if (read) transactions.push(...read);
  }
  for (const [ref, account] of holdings) {
    const a = statementAccounts.get(ref);
    if (a) holdingsToPositions(a, account, { securities, securityKinds, problem });
  }
  if (settings.currency === undefined) {
    problem(
      undefined,
      'The file names no currency (QIF files never do): its amounts were stored as USD. If they are in another currency, upload it again with `currency`.',
    );
  }
  // In the order of the file: what is said of the whole file first (sections were named as they ended).
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  countMore((n) => `${n} more records could not be read.`);
  return {
    format: 'qif',
    accounts: [...statementAccounts.values()],
    transactions,
    problems,
    currencyFrom: settings.currency !== undefined ? 'asked' : 'default',
  };
}

interface ReadContext {
  decimal: DecimalSeparator;
  country: string;
  /** Ticker symbols by security name (lower case), from the file's `!Type:Security` list. */
  securities: ReadonlyMap<string, string>;
  problem(line: number | undefined, message: string): void;
  /** The ISO day of a date. */
  day(epochSeconds: number): string;
  /** The ref of a transaction of the account with this key: the key and its occurrence number among equal ones. */
  refOf(accountRef: string, base: string): string;
  /** Counts a trade of a security toward the account's holdings: the units it adds (or removes) and its price. */
  trade(accountRef: string, move: { security: string; units?: number; price?: number; date: number; line: number }): void;
}

/** One security's holding as the trades of the file add it up. */
interface Holding {
  /** The security as the file first names it. */
  name: string;
  units: number;
  price: number | undefined;
  priceDate: number;
  /** Where the file first names it. */
  line: number;
}

interface Holdings {
  bySecurity: Map<string, Holding>;
  /** The date of the account's last trade: the holdings are as of then. */
  latest: number;
}

/** The kinds of position, by a security list's type (T, lower case, spaces removed); others are OFX's POSOTHER. */
const POSITION_KINDS: Readonly<Record<string, { kind: string; info: string }>> = {
  stock: { kind: 'POSSTOCK', info: 'STOCKINFO' },
  etf: { kind: 'POSSTOCK', info: 'STOCKINFO' },
  mutualfund: { kind: 'POSMF', info: 'MFINFO' },
  bond: { kind: 'POSDEBT', info: 'DEBTINFO' },
  option: { kind: 'POSOPT', info: 'OPTINFO' },
};

/**
 * An investment account's holdings as positions, shaped as an OFX statement's are: each security with units left,
 * valued at its last price, as of the last trade. A file states no cash balance, so unless its account record states
 * a balance, the account's balance is what the holdings are worth then. A holding sold below nothing (a file that
 * starts after the units were bought) is left out and named.
 */
function holdingsToPositions(
  account: StatementAccount,
  holdings: Holdings,
  ctx: { securities: ReadonlyMap<string, string>; securityKinds: ReadonlyMap<string, string>; problem: ReadContext['problem'] },
): void {
  const positions: ConnectorPosition[] = [];
  for (const [key, h] of holdings.bySecurity) {
    if (h.units < 0) {
      ctx.problem(
        h.line,
        `The file takes ${-h.units} more units of ${quote(h.name)} out than it puts in (it may start after they were bought): no holding of it was derived.`,
      );
      continue;
    }
    if (h.units === 0) continue;
    if (positions.length === MAX_STATEMENT_POSITIONS) {
      ctx.problem(h.line, `${quote(account.name)} holds more than ${MAX_STATEMENT_POSITIONS} securities: ${quote(h.name)} and those after it were left out.`);
      break;
    }
    if (h.price === undefined) ctx.problem(h.line, `No trade of ${quote(h.name)} gives a price (I): its holding was valued at 0.`);
    const ticker = ctx.securities.get(key) ?? (/^[A-Z][A-Z0-9.-]{0,9}$/.test(h.name) ? h.name : undefined);
    const kinds = POSITION_KINDS[(ctx.securityKinds.get(key) ?? '').toLowerCase().replace(/\s+/g, '')] ?? { kind: 'POSOTHER', info: 'OTHERINFO' };
    const id = { uniqueIdType: ticker !== undefined ? 'TICKER' : 'NAME', uniqueId: ticker ?? h.name };
    const price = h.price ?? 0;
    const position = {
      kind: kinds.kind,
      security: id,
      heldIn: 'CASH',
      positionType: 'LONG',
      units: h.units,
      unitPrice: price,
      marketValue: round2(h.units * price),
    };
    positions.push(positionRecordOf(account.ref, position, { kind: kinds.info, id, name: h.name, ...(ticker !== undefined ? { ticker } : {}) }));
  }
  account.positions = positions;
  if (account.balance === undefined) {
    account.balance = round2(positions.reduce((sum, p) => sum + p.localMarketValue, 0));
    account.balanceDate = holdings.latest;
  }
}

/** The first of the fields that holds a readable amount; a message when one is written but none can be read. */
function amountOf(fields: Map<string, string>, codes: string[], decimal: DecimalSeparator): { value?: number; error?: string } {
  let error: string | undefined;
  for (const code of codes) {
    const text = fields.get(code);
    if (text === undefined || text === '') continue;
    const parsed = parseAmount(text, decimal);
    if (parsed) return { value: parsed.value };
    error ??= `The amount ${quote(text)} cannot be read.`;
  }
  return error === undefined ? {} : { error };
}

/** A bank, cash, card or other account's transaction: its amount as written (T, else U, else its splits' sum). */
function bankTransaction(t: RawTransaction, date: number, ctx: ReadContext): ConnectorTransaction[] | undefined {
  const { fields, splits = [], line, splitsLeftOut } = t.record;
  let { value: amount, error } = amountOf(fields, ['T', 'U'], ctx.decimal);
  if (amount === undefined && error === undefined && splits.some((s) => s.amount !== undefined)) {
    let cents = 0;
    for (const s of splits) {
      if (s.amount === undefined) continue;
      const parsed = parseAmount(s.amount, ctx.decimal);
      if (!parsed) {
        error = `The split amount ${quote(s.amount)} cannot be read, and the transaction has no total (T).`;
        break;
      }
      cents += Math.round(parsed.value * 100);
    }
    if (error === undefined) {
      if (splitsLeftOut > 0) error = `The transaction has no total (T) and more than ${MAX_SPLITS} split lines.`;
      else amount = cents / 100;
    }
  }
  if (error !== undefined || amount === undefined) {
    ctx.problem(line, error ?? 'No amount (T).');
    return undefined;
  }
  if (amount === 0) amount = 0;

  const payee = cut(tidy(fields.get('P') ?? ''));
  const memoText = cut(tidy(fields.get('M') ?? ''));
  const number = tidy(fields.get('N') ?? '');
  const category = tidy(fields.get('L') ?? '');
  const description = payee || memoText;
  const parts: string[] = [];
  if (memoText !== '' && memoText !== description) parts.push(memoText);
  if (splits.length > 0) parts.push(splitText(splits, splitsLeftOut));
  const memo = parts.join(' | ');

  const base = `${ctx.day(date)}|${amount}|${refText(description)}${number !== '' ? `|${refText(number) || number}` : ''}`;
  const checkNum = /^#?\d+$/.test(number) && !/^#?0+$/.test(number) ? number.replace(/^#/, '') : undefined;
  const type = bankType(number, checkNum, category, amount);
  const record: ConnectorTransaction = {
    accountRef: t.account.ref,
    ref: ctx.refOf(t.account.ref, base),
    amount,
    status: 'active',
    postedDate: date,
    transactionDate: date,
    description,
    type,
    categorization: categorize(description, memo || undefined, type, ctx.country),
  };
  if (memo !== '') record.memo = memo;
  if (checkNum !== undefined) record.checkNum = checkNum;
  return [record];
}

/** The split lines as a memo: `Split: Groceries -45.00 (weekly shop); Household -5.00`. */
function splitText(splits: Split[], leftOut: number): string {
  const shown = splits.slice(0, SPLITS_IN_MEMO).map((s) => {
    const words = [cut(tidy(s.category)) || 'uncategorised', s.amount !== undefined ? cut(tidy(s.amount)) : ''].filter((w) => w !== '').join(' ');
    const memo = cut(tidy(s.memo ?? ''));
    return memo !== '' ? `${words} (${memo})` : words;
  });
  const more = splits.length - shown.length + leftOut;
  return `Split: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** The type of a bank transaction: a check by its number, else what the number field says (ATM, DEP, XFER), else its sign. */
function bankType(number: string, checkNum: string | undefined, category: string, amount: number): TransactionType {
  if (checkNum !== undefined) return 'check';
  const key = number.toLowerCase();
  if (key === 'atm') return 'atm';
  if (key === 'dep' || key === 'deposit') return 'deposit';
  if (key === 'xfer' || key === 'txfr' || key === 'transfer' || category.startsWith('[')) return 'transfer';
  return amount < 0 ? 'debit' : amount > 0 ? 'credit' : 'other';
}

interface InvestmentAction {
  type: TransactionType;
  invType?: InvestmentTransactionType;
  verb: string;
  /** The sign of the cash effect of the unsigned total: 1 in, -1 out, 0 none; `written` keeps the total's own sign. */
  sign: 1 | -1 | 0 | 'written';
  /** Units of the security it adds to the holding (1) or takes from it (-1); none for cash-only actions. */
  units?: 1 | -1;
  /** A reinvestment: the income it paid for is a record of its own, as for OFX. */
  income?: { type: TransactionType; invType: InvestmentTransactionType; verb: string };
}

const BUY: InvestmentAction = { type: 'debit', invType: 'purchased', verb: 'Bought', sign: -1, units: 1 };
const SELL: InvestmentAction = { type: 'credit', invType: 'sold', verb: 'Sold', sign: 1, units: -1 };
const DIVIDEND: InvestmentAction = { type: 'dividend', invType: 'dividend', verb: 'Dividend', sign: 1 };
const INTEREST: InvestmentAction = { type: 'interest', invType: 'interest', verb: 'Interest', sign: 1 };
const GAIN: InvestmentAction = { type: 'dividend', invType: 'dividend', verb: 'Capital gain distribution', sign: 1 };
const REINVEST_DIVIDEND: InvestmentAction = {
  type: 'debit',
  invType: 'dividendReinvest',
  verb: 'Reinvestment',
  sign: -1,
  units: 1,
  income: { type: 'dividend', invType: 'dividend', verb: 'Dividend' },
};

/**
 * Quicken's investment actions (the N of a `!Type:Invst` record, in lower case). An action ending in X moves its
 * cash to or from another account (its L), and is read as the action itself.
 */
const INVESTMENT_ACTIONS: Readonly<Record<string, InvestmentAction>> = {
  buy: BUY,
  cvrshrt: { ...BUY, verb: 'Covered short' },
  sell: SELL,
  shtsell: { ...SELL, verb: 'Sold short' },
  div: DIVIDEND,
  intinc: INTEREST,
  cglong: GAIN,
  cgmid: GAIN,
  cgshort: GAIN,
  miscinc: { type: 'credit', verb: 'Income', sign: 1 },
  rtrncap: { type: 'credit', verb: 'Return of capital', sign: 1 },
  miscexp: { type: 'fee', invType: 'fee', verb: 'Expense', sign: -1 },
  margint: { type: 'interest', invType: 'interest', verb: 'Margin interest', sign: -1 },
  reinvdiv: REINVEST_DIVIDEND,
  reinvlg: REINVEST_DIVIDEND,
  reinvmd: REINVEST_DIVIDEND,
  reinvsh: REINVEST_DIVIDEND,
  reinvint: { ...REINVEST_DIVIDEND, income: { type: 'interest', invType: 'interest', verb: 'Interest' } },
  xin: { type: 'transfer', invType: 'contribution', verb: 'Transfer in', sign: 1 },
  contrib: { type: 'transfer', invType: 'contribution', verb: 'Contribution', sign: 1 },
  xout: { type: 'transfer', invType: 'transfer', verb: 'Transfer out', sign: -1 },
  withdrw: { type: 'transfer', invType: 'transfer', verb: 'Withdrawal', sign: -1 },
  shrsin: { type: 'transfer', invType: 'transfer', verb: 'Shares in', sign: 0, units: 1 },
  shrsout: { type: 'transfer', invType: 'transfer', verb: 'Shares out', sign: 0, units: -1 },
  stksplit: { type: 'other', verb: 'Split', sign: 0 },
  cash: { type: 'other', verb: 'Cash', sign: 'written' },
};

function actionOf(text: string): InvestmentAction | undefined {
  const key = text.toLowerCase().replace(/\s+/g, '');
  if (Object.hasOwn(INVESTMENT_ACTIONS, key)) return INVESTMENT_ACTIONS[key];
  // BuyX, DivX, ContribX, WithdrwX...: the same action, its cash moved to or from another account.
  if (key.endsWith('x') && Object.hasOwn(INVESTMENT_ACTIONS, key.slice(0, -1))) return INVESTMENT_ACTIONS[key.slice(0, -1)];
  return undefined;
}

/**
 * An investment account's transaction: a trade, income, an expense or a transfer, with its units (Q), price (I),
 * commission (O) and security (Y). QIF writes the total (T, else U) unsigned: the action gives its sign. A
 * reinvestment is two records, as the cash sees it: the income (`<ref>:income`) and the purchase it paid for.
 */
function investmentTransactions(t: RawTransaction, date: number, ctx: ReadContext): ConnectorTransaction[] | undefined {
  const { fields, line } = t.record;
  const actionText = tidy(fields.get('N') ?? '');
  if (actionText === '') {
    ctx.problem(line, 'An investment transaction without an action (N).');
    return undefined;
  }
  const action = actionOf(actionText);
  if (!action) {
    ctx.problem(line, `The investment action ${quote(actionText)} is not one Ledgerlink reads: the transaction was left out.`);
    return undefined;
  }
  const number = (code: string) => {
    const text = fields.get(code);
    return text === undefined || text === '' ? undefined : parseAmount(text, ctx.decimal)?.value;
  };
  const units = number('Q');
  const price = number('I');
  const commission = number('O');
  const total = amountOf(fields, ['T', 'U'], ctx.decimal);
  if (total.error !== undefined) {
    ctx.problem(line, total.error);
    return undefined;
  }
  let amount: number;
  if (action.sign === 0) amount = 0;
  else if (total.value !== undefined) amount = action.sign === 'written' ? total.value : action.sign * Math.abs(total.value);
  else if (action.sign !== 'written' && units !== undefined && price !== undefined) {
    // No total: the trade's worth, the commission paid on top of a purchase and out of a sale.
    const worth = Math.abs(units * price) + action.sign * -Math.abs(commission ?? 0);
    amount = round2(worth) * action.sign;
  } else {
    ctx.problem(line, 'No amount (T) and no quantity and price to work it out from.');
    return undefined;
  }
  if (amount === 0) amount = 0;

  const security = cut(tidy(fields.get('Y') ?? ''));
  const payee = cut(tidy(fields.get('P') ?? ''));
  const transfer = cut(tidy(fields.get('L') ?? ''));
  const memoText = cut(tidy(fields.get('M') ?? ''));
  const ticker = ctx.securities.get(security.toLowerCase()) ?? (/^[A-Z][A-Z0-9.-]{0,9}$/.test(security) ? security : undefined);
  const subject = security || payee || transfer;
  const describe = (verb: string) => (security !== '' ? `${verb} ${security}` : subject !== '' ? `${verb}: ${subject}` : verb);
  const memo = memoText || (units !== undefined && price !== undefined ? `${units} @ ${price}` : '');
  const base = `${ctx.day(date)}|${amount}|${refText(`${actionText} ${subject}`)}`;
  const ref = ctx.refOf(t.account.ref, base);
  if (security !== '') {
    if (action.verb === 'Split')
      ctx.problem(line, `The split of ${quote(security)} is not applied to its holding: the units derived for it are those before the split.`);
    const move = action.units !== undefined && units !== undefined ? Math.abs(units) * action.units : undefined;
    ctx.trade(t.account.ref, { security, date, line, ...(move !== undefined ? { units: move } : {}), ...(price !== undefined ? { price } : {}) });
  }
  const type = action.sign === 'written' ? (amount < 0 ? 'debit' : amount > 0 ? 'credit' : 'other') : action.type;

  const make = (r: string, value: number, k: { type: TransactionType; invType?: InvestmentTransactionType; verb: string }): ConnectorTransaction => {
    const description = describe(k.verb);
    const record: ConnectorTransaction = {
      accountRef: t.account.ref,
      ref: r,
      amount: value,
      status: 'active',
      postedDate: date,
      transactionDate: date,
      description,
      type: k.type,
      categorization: categorize(description, memo || undefined, k.type, ctx.country),
    };
    if (memo !== '') record.memo = memo;
    if (k.invType) record.investmentTransactionType = k.invType;
    if (units !== undefined) record.unitQuantity = units;
    if (price !== undefined) record.unitValue = price;
    if (commission !== undefined && commission !== 0) record.feeAmount = round2(Math.abs(commission));
    if (ticker !== undefined) record.ticker = ticker;
    return record;
  };
  if (action.income) {
    const value = Math.abs(amount);
    return [make(`${ref}:income`, value, action.income), make(ref, -value, action)];
  }
  return [make(ref, amount, { ...action, type })];
}

/** The kind of account an `!Account` record's type (T) names; undefined for one it does not. */
function accountTypeOf(text: string): AccountType | undefined {
  const key = text.toLowerCase().replace(/\s+/g, '');
  if (key === 'bank' || key === 'cash') return 'checking';
  if (key === 'ccard' || key === 'creditcard') return 'creditCard';
  if (key === 'otha') return 'savings';
  if (key === 'othl') return 'loan';
  if (key.includes('401') || key.includes('403')) return 'investmentTaxDeferred';
  if (key === 'invst' || key === 'port' || key === 'mutual' || key === 'investment') return 'investment';
  return undefined;
}

/**
 * A date as values.ts reads it. Quicken writes years from 2000 after an apostrophe, padded with a space
 * (`8/31' 0`, `1/ 1'00`, `12/31'2025`): spaces are dropped and such a year is written out in full.
 */
function normaliseDate(text: string): string {
  if (text.length > 64) return text;
  const s = text.replace(/\s+/g, '');
  const m = /^(\d{1,2})([/.-])(\d{1,2})'(\d{1,2}|\d{4})$/.exec(s);
  if (!m) return s;
  const year = m[4]!.length === 4 ? m[4]! : String(2000 + Number(m[4]));
  return `${m[1]}${m[2]}${m[3]}${m[2]}${year}`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS - 1)}…` : text;
}

function slug(text: string): string {
  return headerKey(text).replace(/ /g, '-').slice(0, 100);
}

/** The payee as it goes into a ref, as for CSV: letters and digits only, in lower case. */
function refText(text: string): string {
  return headerKey(text).slice(0, REF_DESCRIPTION_CHARS).trim();
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}
