/**
 * Enable Banking's accounts, balances and transactions as the connector contract's records.
 *
 * - An account's ref is its identification hash, which stays the same in every session (uids change with each), so a
 *   consent given again keeps the accounts, their transactions and their subscriptions.
 * - A transaction's ref is the bank's entry reference, else a hash of what it says (dates, amount, direction,
 *   remittance, counterparty); never `transaction_id`, which may change from one read to the next.
 * - Amounts come positive with a credit or debit indicator: debits are made negative. The exchange rate's instructed
 *   amount is never used: the transaction amount is what was booked on the account.
 */
import { createHash } from 'node:crypto';
import { iso4217Code, NO_CURRENCY } from '../../platform/currency.js';
import { maskAccountNumber } from '../account-number.js';
import { categorize } from '../categorize.js';
import type { AccountType, ConnectorAccount, ConnectorTransaction } from '../connector.js';
import { loanDetailOf } from '../details.js';
import { countryFacts } from './countries.js';
import { type AccountResource, type BalanceEntry, dayEpoch, type TransactionEntry } from './wire.js';

/**
 * What the connector keeps of an account resource in its session (and maps into the contract's account): the resource's
 * texts, its `other` number as text, and its ref, the identification hash.
 */
export type AccountFacts = Pick<AccountResource, 'uid' | 'iban' | 'name' | 'details' | 'product' | 'cashAccountType' | 'currency' | 'usage'> & {
  ref: string;
  other?: string;
};

/** The bank the facts come from, and the consent they were shared under. */
export interface AccountContext {
  /** ISO 3166-1 alpha-2 of the bank. */
  country: string;
  psuType: 'personal' | 'business';
  /** Epoch seconds: when the consent was given and when it ends. */
  authorizedAt: number;
  validUntil: number;
}

/** ISO 20022 cash account types as the contract's account types; any other is a current account. */
const ACCOUNT_TYPES: Readonly<Record<string, AccountType>> = {
  CACC: 'checking',
  CASH: 'checking',
  TRAN: 'checking',
  SACC: 'checking',
  SVGS: 'savings',
  MOMA: 'savings',
  LLSV: 'savings',
  ONDP: 'savings',
  CARD: 'creditCard',
  LOAN: 'loan',
  MGLD: 'loan',
  MORT: 'mortgage',
  ODFT: 'lineOfCredit',
};

export function accountTypeOf(cashAccountType: string | undefined): AccountType {
  const key = (cashAccountType ?? '').toUpperCase();
  return Object.hasOwn(ACCOUNT_TYPES, key) ? ACCOUNT_TYPES[key]! : 'checking';
}

/**
 * The balance the contract calls the account's balance, by balance type, first present wins: the booked ones
 * (closing, interim, expected, opening, previously closed), then the available ones (interim, closing, opening,
 * forward), then value-date, information and other balances, then any type not named here.
 */
export const BALANCE_ORDER: readonly string[] = ['CLBD', 'ITBD', 'XPCD', 'OPBD', 'PRCD', 'ITAV', 'CLAV', 'OPAV', 'FWAV', 'VALU', 'INFO', 'OTHR'];
/** The available balance: the available types first (interim, closing, expected, forward, opening), else the balance. */
export const AVAILABLE_ORDER: readonly string[] = ['ITAV', 'CLAV', 'XPCD', 'FWAV', 'OPAV'];

/** C0 and C1 controls, DEL, zero-width, line separators and bidirectional formatting: nothing a name needs. */
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Text from the bank as one clean line of at most `max` characters. */
export function cleanText(value: string | undefined, max = 255): string {
  if (value === undefined) return '';
  const line = value.replace(UNSAFE_TEXT, ' ').replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** A decimal string the wire check accepted, as a number. */
function amountOf(value: string): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** A signed amount: the indicator decides the sign where the bank gives one, else the amount's own sign stands. */
export function signedAmount(amount: string, indicator: 'CRDT' | 'DBIT' | undefined): number {
  const n = amountOf(amount);
  if (indicator === 'DBIT') return -Math.abs(n);
  if (indicator === 'CRDT') return Math.abs(n);
  return n;
}

/** The account's currency: the account's code, else its balance's, else its country's. */
function currencyOf(facts: AccountFacts, balances: readonly BalanceEntry[], country: string): string {
  return iso4217Code(facts.currency) ?? iso4217Code(balances[0]?.currency) ?? iso4217Code(countryFacts(country).currency) ?? NO_CURRENCY;
}

/** The first balance of the types in `order`, preferring one in the account's currency; then any of another type. */
export function pickBalance(balances: readonly BalanceEntry[], order: readonly string[], currency: string, fallback = true): BalanceEntry | undefined {
  const inCurrency = balances.filter((b) => b.currency === undefined || iso4217Code(b.currency) === currency);
  for (const pool of [inCurrency, balances]) {
    for (const type of order) {
      const found = pool.filter((b) => b.type.toUpperCase() === type).sort((a, b) => (b.at ?? 0) - (a.at ?? 0))[0];
      if (found) return found;
    }
  }
  return fallback ? (inCurrency[0] ?? balances[0]) : undefined;
}

/** The last four letters or digits of an account number. */
function lastFour(number: string): string {
  return maskAccountNumber(number)
    .replace(/[^\p{L}\p{N}]/gu, '')
    .slice(-4);
}

/** What an account of each type is called when the bank gives it no name. */
const TYPE_NAMES: Partial<Record<AccountType, string>> = {
  checking: 'Current account',
  savings: 'Savings account',
  creditCard: 'Card',
  loan: 'Loan',
  mortgage: 'Mortgage',
  lineOfCredit: 'Overdraft',
};

/** What the customer calls the account: its description, else its product, else its type and number. */
function accountName(facts: AccountFacts, type: AccountType, last4: string): string {
  const described = cleanText(facts.details) || cleanText(facts.product);
  if (described) return described;
  const kind = TYPE_NAMES[type] ?? 'Account';
  return last4 ? `${kind} ${last4}` : kind;
}

/**
 * An account as the contract's record, with its balances. Loans and mortgages are money owed, so negative whatever
 * sign the bank gives; a card's balance keeps the bank's sign (a debit is negative, a card paid beyond its balance is
 * in credit).
 */
export function mapAccount(
  facts: AccountFacts,
  balances: readonly BalanceEntry[],
  context: AccountContext,
  now: number,
  displayPosition: number,
): ConnectorAccount {
  const type = accountTypeOf(facts.cashAccountType);
  const currency = currencyOf(facts, balances, context.country);
  const booked = pickBalance(balances, BALANCE_ORDER, currency);
  const available = pickBalance(balances, AVAILABLE_ORDER, currency, false) ?? booked;
  let balance = booked ? signedAmount(booked.amount, booked.indicator) : 0;
  if (type === 'loan' || type === 'mortgage') balance = -Math.abs(balance);
  const availableAmount = available ? signedAmount(available.amount, available.indicator) : balance;
  const number = cleanText(facts.iban ?? facts.other, 64);
  const last4 = number ? lastFour(number) : '';
  const name = accountName(facts, type, last4);
  const base = {
    ref: facts.ref,
    number,
    accountNumberDisplay: last4,
    name,
    accountNickname: name,
    currency,
    balance,
    balanceDate: Math.min(booked?.at ?? now, now),
    status: 'active' as const,
    financialinstitutionAccountStatus: 'OPEN' as const,
    marketSegment: facts.usage === 'ORGA' || (facts.usage !== 'PRIV' && context.psuType === 'business') ? ('business' as const) : ('personal' as const),
    displayPosition,
    authorization: { startDate: context.authorizedAt, endDate: context.validUntil },
  };
  switch (type) {
    case 'creditCard':
      return { ...base, type };
    case 'loan':
    case 'mortgage':
      return { ...base, type, detail: loanDetailOf({ principalBalance: Math.abs(balance), availableBalanceAmount: Math.max(0, availableAmount) }) };
    case 'lineOfCredit':
      return {
        ...base,
        type,
        detail: {
          interestRate: '',
          creditAvailableAmount: availableAmount,
          paymentMinAmount: 0,
          statementCloseBalance: 0,
          locPrincipalBalance: Math.abs(Math.min(balance, 0)),
          paymentDueDate: 0,
          statementEndDate: 0,
        },
      };
    default:
      return { ...base, type: type === 'savings' ? 'savings' : 'checking', detail: { availableBalanceAmount: availableAmount, periodInterestRate: '' } };
  }
}

/** Transaction statuses that are not money moved on the account: cancelled, rejected, scheduled for later. */
const NOT_MOVED = new Set(['CNCL', 'RJCT', 'SCHD']);
/** Pending: an expected (instant balance) item or a hold. */
const PENDING = new Set(['PDNG', 'HOLD']);

/** Whether a transaction is pending: its status says so, or, without a status the connector knows, it has no booking date. */
export function isPending(t: TransactionEntry): boolean {
  if (t.status !== undefined && PENDING.has(t.status)) return true;
  if (t.status === 'BOOK') return false;
  return t.bookingDate === undefined;
}

/** Whether a transaction is one to keep (not cancelled, rejected or only scheduled). */
export function isMoved(t: TransactionEntry): boolean {
  return t.status === undefined || !NOT_MOVED.has(t.status);
}

/** When the transaction happened: its transaction date, else its booking, else its value date; undated pending items are of today. */
export function transactionDateOf(t: TransactionEntry, now: number): number {
  const day = t.transactionDate ?? t.bookingDate ?? t.valueDate;
  return day === undefined ? now : dayEpoch(day);
}

/** When it was booked: its booking date, else its value date, else its transaction date. */
function postedDateOf(t: TransactionEntry, now: number): number {
  const day = t.bookingDate ?? t.valueDate ?? t.transactionDate;
  return day === undefined ? now : dayEpoch(day);
}

/**
 * The ref of a transaction without an entry reference: a hash of what it says, so the same transaction read again
 * (under another transaction_id) keeps its ref. Pending items have no reference; when they post, the booked one comes
 * under the bank's reference, and the engine pairs the two (docs/aggregation.md, "Pending to posted").
 */
export function contentRef(t: TransactionEntry): string {
  const content = [
    t.bookingDate ?? '',
    t.valueDate ?? '',
    t.transactionDate ?? '',
    amountOf(t.amount).toFixed(2),
    t.currency ?? '',
    t.indicator ?? '',
    t.remittance.join('\n'),
    t.creditorName ?? '',
    t.creditorAccount ?? '',
    t.debtorName ?? '',
    t.debtorAccount ?? '',
  ];
  return `h:${createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 32)}`;
}

/** A transaction's ref before repeats are told apart: `e:` and the entry reference, or `h:` and the content hash. */
export function baseRefOf(t: TransactionEntry): string {
  return t.entryReference !== undefined ? `e:${t.entryReference}` : contentRef(t);
}

/** The counterparty (the creditor of a debit, the debtor of a credit), else the other name given. */
function counterpartyOf(t: TransactionEntry, amount: number): string {
  const [first, second] = amount < 0 ? [t.creditorName, t.debtorName] : [t.debtorName, t.creditorName];
  return cleanText(first) || cleanText(second);
}

export function mapTransaction(accountRef: string, ref: string, t: TransactionEntry, country: string, now: number): ConnectorTransaction {
  const amount = signedAmount(t.amount, t.indicator);
  const type = amount < 0 ? 'debit' : 'credit';
  const remittance = cleanText(t.remittance.join(' '), 500);
  const description = counterpartyOf(t, amount) || remittance || cleanText(t.bankCode) || (amount < 0 ? 'Debit' : 'Credit');
  const memo = remittance && remittance !== description ? remittance : undefined;
  const pending = isPending(t);
  const record: ConnectorTransaction = {
    ref,
    accountRef,
    amount,
    status: pending ? 'pending' : 'active',
    description,
    type,
    transactionDate: transactionDateOf(t, now),
    categorization: categorize(description, memo, type, countryFacts(country).alpha3),
  };
  if (memo !== undefined) record.memo = memo;
  if (!pending) record.postedDate = postedDateOf(t, now);
  return record;
}

/**
 * An account's transactions as the contract's records, oldest first. One entry reference given twice (a page
 * boundary repeated) is one transaction; equal content hashes are as many transactions (two equal coffees on a day),
 * told apart by `#2`, `#3`, ... in the order the bank lists them.
 */
export function mapTransactions(accountRef: string, list: readonly TransactionEntry[], country: string, now: number): ConnectorTransaction[] {
  const byRef = new Map<string, ConnectorTransaction>();
  const repeats = new Map<string, number>();
  for (const t of list) {
    if (!isMoved(t)) continue;
    let ref = baseRefOf(t);
    if (t.entryReference === undefined) {
      const n = (repeats.get(ref) ?? 0) + 1;
      repeats.set(ref, n);
      if (n > 1) ref = `${ref}#${n}`;
    }
    byRef.set(ref, mapTransaction(accountRef, ref, t, country, now));
  }
  return [...byRef.values()].sort((a, b) => a.transactionDate - b.transactionDate || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}
