/**
 * SWIFT MT940 customer statements (and MT942 interim transaction reports, which banks put in the same files) as a
 * StatementImport. A file holds one or more messages, each a statement (or a page of one) of one account in one
 * currency: `:20:` reference, `:25:` account, `:28C:` number, `:60F:`/`:60M:` opening balance, `:61:` statement lines
 * each followed by an optional `:86:` text, `:62F:`/`:62M:` closing balance, `:64:` available and `:65:` forward
 * balances. Messages may be wrapped in SWIFT blocks (`{1:...}{2:...}{4:` ... `-}`), separated by `-` lines, and
 * preceded by a bank's own header lines.
 *
 * The account is the `:25:` account id (a currency written after it is read off) in the currency of the balance
 * fields: one account per account id and currency. A statement line's value date is the transaction date, its entry
 * date (the booking date, when given) the posted date. What cannot be read is named in `problems` with its line; the
 * rest is still imported. The work is one pass over the lines, each kept to a bounded length.
 */
import { isIso4217, NO_CURRENCY } from '../../platform/currency.js';
import { ibanCountry, isIban, maskAccountNumber } from '../account-number.js';
import { categorize } from '../categorize.js';
import type { ConnectorTransaction, TransactionType } from '../connector.js';
import { countryOfCurrency } from '../ofx/map.js';
import { noteClosingBalance } from './closing-balances.js';
import { decodeStatementText, MAX_CSV_ROWS, StatementFileError } from './csv.js';
import { refDescription } from './import.js';
import { problemList } from './problems.js';
import type { StatementAccount, StatementImport } from './types.js';
import { isoDay, noonUtc } from './values.js';

/** Most statement lines (`:61:`) a file may hold, as many as a CSV file's rows. */
export const MAX_MT940_TRANSACTIONS = MAX_CSV_ROWS;
/** Characters of a line that are read; SWIFT lines are at most 65, banks' exports somewhat longer. */
const MAX_LINE_CHARS = 2048;
/** Characters of a field (its lines together) that are read; a `:86:` text is at most 390 in SWIFT's rules. */
const MAX_FIELD_CHARS = 8192;
/** The width SWIFT wraps a field's lines at: a line this long was cut by the width, not by the writer. */
const SWIFT_LINE_WIDTH = 65;

/** A field of a message: its tag (`61`, `60F`), the line it starts on and its text, lines joined by `\n`. */
interface Field {
  tag: string;
  line: number;
  lines: string[];
  chars: number;
}

interface Message {
  line: number;
  fields: Field[];
  /** Whether it has its `:20:` reference yet: a second one starts the next message. */
  referenced: boolean;
}

/** An amount as the file writes it, exactly: units of 10^-15 (15 characters at most in SWIFT's rules, some more). */
type Exact = bigint;
const EXACT_DIGITS = 15;

interface Balance {
  credit: boolean;
  date: number;
  currency: string;
  amount: number;
  exact: Exact;
}

/** A statement line read, before its ref is chosen (which needs every line of its account). */
interface Line {
  accountKey: string;
  line: number;
  valueDate: number;
  bookingDate: number;
  amount: number;
  description: string;
  memo: string;
  type: TransactionType;
  checkNum?: string;
  bankRef?: string;
}

interface AccountState {
  account: StatementAccount;
  /** Where its latest closing balance came from: the date, then the order in the file, decides. */
  closingOrder: number;
}

/** Reads an MT940 (or MT942) file: its text, or its bytes (UTF-8, else Windows-1252). */
export function readMt940Statement(input: string | Uint8Array): StatementImport {
  let text = decodeStatementText(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const { problems, problem, countMore } = problemList();

  const reader = new StatementReader(problem);
  for (const message of splitMessages(text, problem)) reader.read(message);
  const result = reader.finish();
  countMore((n) => `${n} more problems were found.`);
  return { format: 'mt940', ...result, problems };
}

// ---------------------------------------------------------------------------------------------------------------
// Messages and fields

const TAG = /^:(\d\d[A-Z]?):/;

/**
 * The file's messages, each a list of fields. A message starts at a `{4:` block or at a `:20:` tag and ends at a
 * `-` or `-}` line (or at the next message); lines outside messages (a bank's header, block 1 to 3, block 5) are
 * left out; a line that is no tag continues the field before it.
 */
function* splitMessages(text: string, problem: (line: number | undefined, message: string) => void): Generator<Message> {
  let message: Message | undefined;
  let field: Field | undefined;
  let transactions = 0;
  let lineNumber = 0;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    lineNumber++;
    // Trailing spaces stay in a field's text: a structured text wrapped at a space needs it.
    let line = raw;
    if (line.length > MAX_LINE_CHARS) {
      line = line.slice(0, MAX_LINE_CHARS);
      problem(lineNumber, `The line is longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters: the rest was left out.`);
    }
    let bare = line.trimEnd();
    if (bare.startsWith('{')) {
      // SWIFT blocks: {1:...}{2:O940...}{3:...}{4: then the text, on this line or the next.
      const body = bare.indexOf('{4:');
      if (body === -1) continue;
      if (message) yield message;
      message = { line: lineNumber, fields: [], referenced: false };
      field = undefined;
      line = line.slice(body + 3).trimStart();
      bare = line.trimEnd();
      if (bare === '') continue;
    }
    if (bare === '-' || bare.startsWith('-}') || bare === '}') {
      if (message) yield message;
      message = undefined;
      field = undefined;
      continue;
    }
    const tag = TAG.exec(bare);
    if (tag) {
      const name = tag[1]!;
      // A missing terminator: the next statement's reference starts a message of its own.
      if (name === '20' && message?.referenced) {
        yield message;
        message = undefined;
      }
      message ??= { line: lineNumber, fields: [], referenced: false };
      if (name === '20') message.referenced = true;
      if (name === '61' && ++transactions > MAX_MT940_TRANSACTIONS) {
        throw new StatementFileError(
          'too_many_rows',
          `The file holds more than ${MAX_MT940_TRANSACTIONS.toLocaleString('en-US')} statement lines, the most a statement file may hold. Download a shorter period.`,
        );
      }
      const value = line.slice(tag[0].length);
      field = { tag: name, line: lineNumber, lines: [value], chars: value.length };
      message.fields.push(field);
      continue;
    }
    // Continuation lines; blank lines and lines outside a field (a bank's header) carry nothing.
    if (!field || bare.trimStart() === '' || field.chars >= MAX_FIELD_CHARS) continue;
    field.chars += line.length;
    if (field.chars > MAX_FIELD_CHARS) {
      field.lines.push(line.slice(0, line.length - (field.chars - MAX_FIELD_CHARS)));
      problem(field.line, `The :${field.tag}: field is longer than ${MAX_FIELD_CHARS.toLocaleString('en-US')} characters: the rest was left out.`);
    } else field.lines.push(line);
  }
  if (message) yield message;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading messages into accounts and transactions

class StatementReader {
  private readonly accounts = new Map<string, AccountState>();
  private readonly lines: Line[] = [];
  private messages = 0;

  constructor(private readonly problem: (line: number | undefined, message: string) => void) {}

  /** Reads one message: its account, balances, statement lines and their texts. */
  read(message: Message): void {
    // An empty block 4, or a terminator line between messages.
    if (message.fields.length === 0) return;
    const order = ++this.messages;
    const first = (...tags: string[]) => message.fields.find((f) => tags.includes(f.tag));
    const accountField = first('25', '25P');
    const numberField = first('28C', '28');
    const which = numberField ? `statement ${numberField.lines[0]!.trim()}` : `the statement at line ${message.line}`;

    const opening = this.balanceOf(first('60F', '60M'));
    const closing = this.balanceOf(first('62F', '62M'));
    const available = this.balanceOf(first('64'));

    const entries: { field: Field; text?: Field }[] = [];
    let current: { field: Field; text?: Field } | undefined;
    for (const f of message.fields) {
      if (f.tag === '61') {
        current = { field: f };
        entries.push(current);
      } else if (f.tag === '86') {
        // A text after the closing balance (or before any line) is the statement's, not a transaction's.
        if (current?.text) {
          // A second text of one line continues the first, within the same bounds.
          for (const line of f.lines) {
            if (current.text.chars + line.length > MAX_FIELD_CHARS) break;
            current.text.chars += line.length;
            current.text.lines.push(line);
          }
        } else if (current) current.text = { ...f, lines: [...f.lines] };
      } else current = undefined;
    }

    if (!accountField) {
      const lost = entries.length > 0 ? `: its ${entries.length} statement line${entries.length === 1 ? '' : 's'} were left out` : '';
      this.problem(message.line, `The message names no account (no :25: field)${lost}.`);
      return;
    }
    const { id, currency: suffix } = accountIdOf(accountField.lines[0]!);
    if (id === '') {
      this.problem(accountField.line, `The account field :25: is empty${entries.length > 0 ? `: its ${entries.length} statement lines were left out` : ''}.`);
      return;
    }
    const currency = this.currencyOf(message, which, id, suffix, opening, closing);
    const accountKey = `${id} ${currency}`;
    let state = this.accounts.get(accountKey);
    if (!state) {
      state = {
        account: { ref: accountKey, type: 'checking', number: id, name: `Account ${maskAccountNumber(id)} (${currency})`, currency },
        closingOrder: 0,
      };
      this.accounts.set(accountKey, state);
    }
    if (closing) noteClosingBalance(state.account, closing.date, closing.amount);
    // The latest statement's closing balance is the account's (pages of one statement: the last page's).
    if (
      closing &&
      (state.account.balanceDate === undefined ||
        closing.date > state.account.balanceDate ||
        (closing.date === state.account.balanceDate && order > state.closingOrder))
    ) {
      state.account.balance = closing.amount;
      state.account.balanceDate = closing.date;
      state.closingOrder = order;
      if (available) state.account.availableBalance = available.amount;
      else delete state.account.availableBalance;
    }

    let sum = 0n;
    let readAll = true;
    const debits = { count: 0, sum: 0n };
    const credits = { count: 0, sum: 0n };
    for (const entry of entries) {
      const line = this.statementLine(entry.field, entry.text, accountKey);
      if (!line) {
        readAll = false;
        continue;
      }
      sum += line.exact;
      const side = line.exact < 0n ? debits : credits;
      side.count++;
      side.sum += line.exact < 0n ? -line.exact : line.exact;
      this.lines.push(line.line);
    }
    if (!readAll) return;
    if (opening && closing && opening.currency === closing.currency) {
      const moved = closing.exact - opening.exact;
      if (moved !== sum) {
        this.problem(
          first('62F', '62M')!.line,
          `In ${which} of account ${maskAccountNumber(id)}, the statement lines add up to ${exactText(sum)} ${currency}, but the closing balance less the opening one is ${exactText(moved)} ${currency}: the lines were stored as the file gives them.`,
        );
      }
    }
    // An interim report states the number and sum of its debits and credits.
    for (const [tag, side, what] of [
      ['90D', debits, 'debits'],
      ['90C', credits, 'credits'],
    ] as const) {
      const stated = statedTotal(first(tag));
      if (stated && (stated.count !== side.count || stated.sum !== side.sum)) {
        this.problem(
          first(tag)!.line,
          `In ${which} of account ${maskAccountNumber(id)}, ${side.count} ${what} add up to ${exactText(side.sum)} ${currency}, but :${tag}: states ${stated.count} of ${exactText(stated.sum)}.`,
        );
      }
    }
  }

  /** The accounts and their transactions, each with its ref; categorised by the account's currency. */
  finish(): Omit<StatementImport, 'format' | 'problems'> {
    const bankRefs = new Map<string, number>();
    for (const l of this.lines)
      if (l.bankRef !== undefined) bankRefs.set(`${l.accountKey}\u0000${l.bankRef}`, (bankRefs.get(`${l.accountKey}\u0000${l.bankRef}`) ?? 0) + 1);
    const occurrences = new Map<string, number>();
    const refText = new Map<string, string>();
    const transactions = this.lines.map((l): ConnectorTransaction => {
      let ref: string;
      if (l.bankRef !== undefined && bankRefs.get(`${l.accountKey}\u0000${l.bankRef}`) === 1) {
        // The value date too: a bank whose references repeat from one statement to the next does not merge two lines.
        ref = `//${l.bankRef}|${isoDay(l.valueDate)}`;
      } else {
        let normalised = refText.get(l.description);
        if (normalised === undefined) {
          normalised = refDescription(l.description);
          refText.set(l.description, normalised);
        }
        const base = `${isoDay(l.bookingDate)}|${l.amount}|${normalised}`;
        const key = `${l.accountKey}\u0000${base}`;
        const occurrence = (occurrences.get(key) ?? 0) + 1;
        occurrences.set(key, occurrence);
        ref = `${base}|${occurrence}`;
      }
      const account = this.accounts.get(l.accountKey)!.account;
      const t: ConnectorTransaction = {
        accountRef: account.ref,
        ref,
        amount: l.amount,
        status: 'active',
        postedDate: l.bookingDate,
        transactionDate: l.valueDate,
        description: l.description,
        type: l.type,
        categorization: categorize(l.description, l.memo || undefined, l.type, ibanCountry(account.number ?? '') ?? countryOfCurrency(account.currency)),
      };
      if (l.memo !== '') t.memo = l.memo;
      if (l.checkNum !== undefined) t.checkNum = l.checkNum;
      return t;
    });
    return { accounts: [...this.accounts.values()].map((s) => s.account), transactions };
  }

  /** The account's currency: the balance fields', else the one written after the account id, else none (XXX). */
  private currencyOf(message: Message, which: string, id: string, suffix: string | undefined, opening?: Balance, closing?: Balance): string {
    const fields = message.fields.filter((f) => f.tag === '34F' || f.tag === '90D' || f.tag === '90C');
    const named = [opening?.currency, closing?.currency, ...fields.map((f) => interimCurrency(f))].filter((c): c is string => c !== undefined);
    const stated = named[0] ?? suffix;
    const account = maskAccountNumber(id);
    if (stated === undefined) {
      this.problem(message.line, `The balances of ${which} (account ${account}) name no currency: its amounts were kept without one (XXX).`);
      return NO_CURRENCY;
    }
    const others = [...new Set(named.filter((c) => c !== stated))];
    if (others.length > 0)
      this.problem(message.line, `The balances of ${which} (account ${account}) name ${stated} and ${others.join(', ')}: its account is in ${stated}.`);
    if (!isIso4217(stated)) {
      this.problem(message.line, `The currency "${stated}" of ${which} (account ${account}) is not an ISO 4217 code: its amounts were kept without one (XXX).`);
      return NO_CURRENCY;
    }
    return stated;
  }

  /** A balance field (`C250131EUR1234,56`), or undefined (named in problems) when it cannot be read. */
  private balanceOf(field: Field | undefined): Balance | undefined {
    if (!field) return undefined;
    const text = field.lines[0]!.trim();
    const mark = text[0];
    const date = text.length >= 7 ? swiftDate(text.slice(1, 7)) : undefined;
    const currency = text.slice(7, 10);
    const amount = exactAmount(text.slice(10));
    if ((mark !== 'C' && mark !== 'D') || date === undefined || !/^[A-Z]{3}$/.test(currency) || !amount) {
      this.problem(
        field.line,
        `The balance :${field.tag}:${shown(text)} cannot be read (a C or D, a date YYMMDD, a currency and an amount such as C250131EUR1234,56).`,
      );
      return undefined;
    }
    const credit = mark === 'C';
    return { credit, date, currency, amount: credit ? amount.value : -amount.value || 0, exact: credit ? amount.exact : -amount.exact };
  }

  /** A `:61:` statement line with its `:86:` text, or undefined (named in problems) when it cannot be read. */
  private statementLine(field: Field, textField: Field | undefined, accountKey: string): { line: Line; exact: Exact } | undefined {
    const text = field.lines[0]!;
    const fail = (why: string) => {
      this.problem(field.line, `The statement line :61:${shown(text)} cannot be read: ${why}. It was left out.`);
      return undefined;
    };
    let at = 6;
    const valueDate = swiftDate(text.slice(0, 6));
    if (valueDate === undefined) return fail('its value date (YYMMDD) is not a date');
    let bookingDate = valueDate;
    if (isDigits(text.slice(6, 10), 4)) {
      at = 10;
      const entry = entryDate(valueDate, Number(text.slice(6, 8)), Number(text.slice(8, 10)));
      if (entry === undefined)
        this.problem(
          field.line,
          `The entry date ${text.slice(6, 10)} of the statement line is not a date (MMDD): its value date was taken as its booking date.`,
        );
      else bookingDate = entry;
    }
    let mark = text[at] ?? '';
    if (mark === 'R' || mark === 'E') mark += text[at + 1] ?? '';
    at += mark.length;
    if (mark === 'EC' || mark === 'ED') return fail(`it is an expected ${mark === 'EC' ? 'credit' : 'debit'} (${mark}), not booked yet`);
    if (mark !== 'C' && mark !== 'D' && mark !== 'RC' && mark !== 'RD') return fail('its mark is none of C, D, RC, RD');
    // The funds code: the third letter of the currency code, which some banks write.
    if (/[A-Z]/.test(text[at] ?? '')) at++;
    let end = at;
    while (end < text.length && end - at < 24 && /[0-9,.]/.test(text[end]!)) end++;
    const amount = exactAmount(text.slice(at, end));
    if (!amount) return fail('its amount is not a number such as 1234,56');
    at = end;
    // A reversal of a credit takes money out; a reversal of a debit puts it back.
    const out = mark === 'D' || mark === 'RC';
    const code = /^[NSF][A-Z0-9]{3}/.test(text.slice(at, at + 4)) ? text.slice(at, at + 4) : '';
    at += code.length;
    const rest = text.slice(at);
    const split = rest.indexOf('//');
    const customerRef = (split === -1 ? rest : rest.slice(0, split)).trim();
    const bankRef = split === -1 ? '' : rest.slice(split + 2).trim();
    const supplementary = tidy(field.lines.slice(1).join(' '));

    const info = textField ? readInformation(textField.lines) : { description: '', memo: '' };
    const shownRef = customerRef !== '' && !/^NONREF$/i.test(customerRef) ? customerRef : '';
    const description = info.description || supplementary || shownRef || code || (out ? 'Debit' : 'Credit');
    let memo = info.memo;
    if (memo === description) memo = '';
    const value = out ? -amount.value || 0 : amount.value;
    const type = transactionType(code, info.gvc, value);
    const line: Line = { accountKey, line: field.line, valueDate, bookingDate, amount: value, description, memo, type };
    if (type === 'check' && shownRef !== '') line.checkNum = shownRef;
    if (bankRef !== '' && !/^NONREF$/i.test(bankRef)) line.bankRef = bankRef;
    return { line, exact: out ? -amount.exact : amount.exact };
  }
}

/** The account id of a `:25:` field, and the currency written after it (`NL91ABNA0417164300EUR`, `123456 EUR`). */
export function accountIdOf(text: string): { id: string; currency?: string } {
  const compact = text.trim().replace(/\s+/g, '').slice(0, 64);
  const suffix = /^(.*[0-9])\/?([A-Z]{3})$/.exec(compact);
  // Mauritian and Seychellois IBANs end in their currency's code (...000MUR): such an IBAN is kept whole.
  const endsInCurrency = /^(?:MU|SC)\d\d/.test(compact) && isIban(compact);
  if (suffix && isIso4217(suffix[2]!) && !endsInCurrency) return { id: suffix[1]!, currency: suffix[2]! };
  return { id: compact };
}

/** An MT942's currency: `:34F:EURD0,` (floor limit) or `:90D:2EUR123,45` (number and sum of entries). */
function interimCurrency(field: Field): string | undefined {
  const text = field.lines[0]!.trim();
  if (field.tag === '34F') return /^[A-Z]{3}/.exec(text)?.[0];
  return /^\d{1,5}([A-Z]{3})/.exec(text)?.[1];
}

/** An MT942's `:90D:`/`:90C:` number and sum of entries. */
function statedTotal(field: Field | undefined): { count: number; sum: Exact } | undefined {
  if (!field) return undefined;
  const m = /^(\d{1,5})[A-Z]{3}(.*)$/.exec(field.lines[0]!.trim());
  const amount = m ? exactAmount(m[2]!) : undefined;
  return m && amount ? { count: Number(m[1]), sum: amount.exact } : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Values

function isDigits(text: string, length: number): boolean {
  if (text.length !== length) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 48 || text.charCodeAt(i) > 57) return false;
  return true;
}

/** A YYMMDD date at noon UTC; years 70 to 99 are the 1900s, as values.ts reads two-digit years. */
function swiftDate(text: string): number | undefined {
  if (!isDigits(text, 6)) return undefined;
  const yy = Number(text.slice(0, 2));
  return noonUtc(yy >= 70 ? 1900 + yy : 2000 + yy, Number(text.slice(2, 4)), Number(text.slice(4, 6)));
}

/** The entry date (MMDD) in the year that puts it nearest the value date: a line valued 31 December may be booked 2 January. */
function entryDate(valueDate: number, month: number, day: number): number | undefined {
  const year = new Date(valueDate * 1000).getUTCFullYear();
  let best: number | undefined;
  for (const y of [year - 1, year, year + 1]) {
    const date = noonUtc(y, month, day);
    if (date !== undefined && (best === undefined || Math.abs(date - valueDate) < Math.abs(best - valueDate))) best = date;
  }
  return best;
}

/** A SWIFT amount: digits with a decimal comma, which may have nothing after it (`100,`); a point is read as well. */
function exactAmount(text: string): { value: number; exact: Exact } | undefined {
  const separator = text.search(/[,.]/);
  const whole = separator === -1 ? text : text.slice(0, separator);
  const fraction = separator === -1 ? '' : text.slice(separator + 1);
  if (whole.length + fraction.length === 0 || whole.length > 20 || fraction.length > EXACT_DIGITS) return undefined;
  if ((whole !== '' && !isDigits(whole, whole.length)) || (fraction !== '' && !isDigits(fraction, fraction.length))) return undefined;
  return { value: Number(`${whole || '0'}.${fraction || '0'}`), exact: BigInt(`${whole || '0'}${fraction.padEnd(EXACT_DIGITS, '0')}`) };
}

/** An exact amount as a decimal number, `-12.5`: for messages. */
function exactText(value: Exact): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(EXACT_DIGITS + 1, '0');
  const whole = digits.slice(0, -EXACT_DIGITS);
  const fraction = digits.slice(-EXACT_DIGITS).replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A field's text as a message quotes it: short, on one line. */
function shown(text: string): string {
  const one = tidy(text);
  return one.length > 40 ? `${one.slice(0, 37)}...` : one;
}

// ---------------------------------------------------------------------------------------------------------------
// Transaction types

/** SWIFT's transaction type identification codes (`:61:` N or F and three letters) that say what a line is. */
const SWIFT_TYPES: Readonly<Record<string, TransactionType>> = {
  CHG: 'fee',
  COM: 'fee',
  BRF: 'fee',
  ODC: 'fee',
  CHK: 'check',
  ECK: 'check',
  TCK: 'check',
  DDT: 'directDebit',
  DIV: 'dividend',
  INT: 'interest',
  STO: 'repeatPayment',
  TRF: 'transfer',
  EXT: 'transfer',
};

/** German banks' business transaction codes (the three digits that open a structured `:86:`) whose meaning is plain. */
const GVC_TYPES: Readonly<Record<string, TransactionType>> = {
  '105': 'directDebit',
  '152': 'repeatPayment',
  '153': 'directDeposit',
  '166': 'transfer',
  '177': 'transfer',
  '805': 'serviceCharge',
};

function transactionType(code: string, gvc: string | undefined, amount: number): TransactionType {
  // S and a SWIFT message type: the line is that message, S103 and S202 being transfers.
  const swift = code[0] === 'S' && /^S[12]\d\d$/.test(code) ? 'transfer' : SWIFT_TYPES[code.slice(1)];
  const known = swift ?? (gvc !== undefined ? GVC_TYPES[gvc] : undefined);
  if (known) return known;
  return amount < 0 ? 'debit' : amount > 0 ? 'credit' : 'other';
}

// ---------------------------------------------------------------------------------------------------------------
// The information to the account owner (:86:)

interface Information {
  description: string;
  memo: string;
  /** The German business transaction code, when the text is structured that way. */
  gvc?: string;
}

/** Subfields of German banks' structured texts (`166?00SEPA-UEBERWEISUNG?20...?32Name`). */
const PURPOSE_CODES = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '60', '61', '62', '63'];
/** How long a German subfield is: a shorter one ended where its writer ended it, a full one may cut a word. */
const SUBFIELD_WIDTH = 27;
/** SEPA's keywords in a purpose text: the end-to-end, mandate and creditor ids are not what a reader looks for. */
const SEPA_KEYWORDS = /(?:EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|IBAN|BIC|COAM|OAMT|SQTP|PURP)\+/g;
/** Keys of the `/KEY/value` texts (Dutch and other banks, and SWIFT's own codes for the field). */
const SLASH_KEYS = new Set([
  'TRTP',
  'TRCD',
  'IBAN',
  'BIC',
  'NAME',
  'REMI',
  'EREF',
  'MARF',
  'CSID',
  'ORDP',
  'BENM',
  'ID',
  'ADDR',
  'CNTP',
  'PURP',
  'RTRN',
  'ULTC',
  'ULTD',
  'ULTB',
  'ISDT',
  'SVCL',
  'PREF',
  'OCMT',
  'CHGS',
  'EXCH',
  'BUSP',
  'KREF',
]);

/** A `:86:` text as a description (the counterparty, else the purpose) and a memo (the purpose, else the booking text). */
export function readInformation(lines: readonly string[]): Information {
  // Structured texts are wrapped wherever the width falls, inside a value too: their lines join without a space.
  const joined = lines.join('');
  if (/^\d{3}[^A-Za-z0-9\s]\d\d/.test(joined)) return readSubfields(joined, joined[3]!);
  if (joined.startsWith('/') && SLASH_KEYS.has(joined.slice(1, joined.indexOf('/', 1)))) return readSlashCodes(joined);
  let text = '';
  let width = 0;
  lines.forEach((line, i) => {
    text += i === 0 || width >= SWIFT_LINE_WIDTH ? line : ` ${line}`;
    // The first line's width counts its tag.
    width = line.length + (i === 0 ? ':86:'.length : 0);
  });
  return { description: tidy(text), memo: '' };
}

/** Joins subfields: without a space after a full one (its writer cut the text there), with one otherwise. */
function joinSubfields(parts: readonly string[]): string {
  let text = '';
  let previous = SUBFIELD_WIDTH;
  for (const part of parts) {
    text += previous >= SUBFIELD_WIDTH || text === '' ? part : ` ${part}`;
    previous = part.length;
  }
  return tidy(text);
}

function readSubfields(text: string, separator: string): Information {
  const pieces = text.split(separator);
  const gvc = pieces[0]!.slice(0, 3);
  const values = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const piece of pieces.slice(1)) {
    if (isDigits(piece.slice(0, 2), 2)) {
      const code = piece.slice(0, 2);
      last = values.get(code) ?? [];
      values.set(code, last);
      last.push(piece.slice(2));
    } else if (last) last[last.length - 1] += separator + piece;
  }
  const of = (codes: readonly string[]) => codes.flatMap((c) => values.get(c) ?? []);
  const name = joinSubfields(of(['32', '33']));
  const purpose = sepaPurpose(joinSubfields(of(PURPOSE_CODES)));
  const booking = joinSubfields(of(['00']));
  return { ...described(name, purpose, booking), gvc };
}

/** The purpose of a SEPA text (`EREF+...SVWZ+Invoice 12`): what follows SVWZ+, else the text without keywords. */
function sepaPurpose(text: string): string {
  const found = [...text.matchAll(SEPA_KEYWORDS)];
  if (found.length === 0) return text;
  const svwz = found.findIndex((m) => m[0] === 'SVWZ+');
  if (svwz !== -1) {
    const start = found[svwz]!.index + 5;
    return tidy(text.slice(start, found[svwz + 1]?.index ?? text.length));
  }
  return tidy(text.slice(0, found[0]!.index));
}

function readSlashCodes(text: string): Information {
  const tokens = text.split('/');
  const values = new Map<string, string>();
  let key: string | undefined;
  let value: string[] = [];
  const flush = () => {
    if (key !== undefined && !values.has(key)) values.set(key, value.join('/'));
  };
  for (const token of tokens.slice(1)) {
    if (SLASH_KEYS.has(token)) {
      flush();
      key = token;
      value = [];
    } else value.push(token);
  }
  flush();
  // Rabobank's counterparty: /CNTP/account/BIC/name/city/.
  const counterparty = values.get('CNTP')?.split('/')[2];
  const name = tidy(values.get('NAME') ?? counterparty ?? '');
  // Remittance information, unstructured (/REMI/USTD//text/) or structured (/REMI/STRD/CUR/reference/).
  const remittance = tidy((values.get('REMI') ?? '').replace(/^(?:USTD\/\/?|STRD\/[A-Z]*\/)/, '').replace(/\/+$/, ''));
  const booking = tidy(values.get('TRTP') ?? values.get('TRCD') ?? '');
  return described(name, remittance, booking);
}

function described(name: string, purpose: string, booking: string): Information {
  if (name !== '') return { description: name, memo: purpose || booking };
  if (purpose !== '') return { description: purpose, memo: booking };
  return { description: booking, memo: '' };
}

// ---------------------------------------------------------------------------------------------------------------
// Telling the format

/**
 * Whether a file's first bytes are an MT940 or MT942 file: a SWIFT block 2 naming one, or a `:20:` reference line
 * followed by a `:25:` account line (after whatever header lines a bank writes first).
 */
export function looksLikeMt940(head: string): boolean {
  if (/\{2:[IO]94[02]/.test(head)) return true;
  let reference = false;
  for (const raw of head.split(/\r\n|\r|\n/, 200)) {
    const body = raw.indexOf('{4:');
    const line = body === -1 ? raw : raw.slice(body + 3).trimStart();
    if (line.startsWith(':20:')) reference = true;
    else if (reference && /^:25P?:/.test(line)) return true;
  }
  return false;
}
