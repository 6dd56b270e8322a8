/**
 * SimpleFIN accounts and transactions as the connector contract's records. SimpleFIN says little about an
 * account (a name, a currency, balances), so the type is read from the words of its name and then of its
 * institution's name, and detail fields SimpleFIN has no value for are zero or empty rather than guessed.
 */
import { iso4217Code, NO_CURRENCY } from '../../platform/currency.js';
import { categorize } from '../categorize.js';
import { investmentDetailOf, loanDetailOf } from '../details.js';
import type { AccountType, ConnectorAccount, ConnectorTransaction, DepositDetail, InvestmentDetail, LineOfCreditDetail, LoanDetail } from '../connector.js';
import { sanitizeBridgeText } from './errors.js';
import type { SimplefinAccount, SimplefinConnection, SimplefinTransaction } from './wire.js';

/** What the connector needs of an account (and keeps of it in its session between calls). */
export type AccountFacts = Pick<SimplefinAccount, 'id' | 'name' | 'currency' | 'balance' | 'availableBalance' | 'balanceDate'> & {
  /** The institution holding the account (v1 organisation, v2 connection). */
  institution?: string;
};

/**
 * The institution's name: the v1 organisation's name (else its domain); in v2 the connection's organisation name
 * where the bridge gives it, else the connection's name (which the protocol says includes the institution's).
 */
export function institutionNameOf(account: SimplefinAccount, connections: readonly SimplefinConnection[]): string | undefined {
  const connection = account.connId === undefined ? undefined : connections.find((c) => c.connId === account.connId);
  const candidates = [account.org?.name, account.org?.domain, connection?.orgName, connection?.name, account.connName];
  for (const candidate of candidates) {
    const clean = candidate === undefined ? '' : sanitizeBridgeText(candidate, 255);
    if (clean) return clean;
  }
  return undefined;
}

export function factsOf(account: SimplefinAccount, connections: readonly SimplefinConnection[]): AccountFacts {
  const facts: AccountFacts = { id: account.id, name: account.name, currency: account.currency, balance: account.balance, balanceDate: account.balanceDate };
  if (account.availableBalance !== undefined) facts.availableBalance = account.availableBalance;
  const institution = institutionNameOf(account, connections);
  if (institution !== undefined) facts.institution = institution;
  return facts;
}

/** Word rules, first match wins; a phrase matches whole words, case and punctuation aside ("401(k)" is "401 k"). */
export const ACCOUNT_TYPE_RULES: ReadonlyArray<{ type: AccountType; words: readonly string[] }> = [
  { type: 'roth', words: ['roth'] },
  { type: 'investmentTaxDeferred', words: ['ira', '401k', '401 k', '403b', '403 b'] },
  { type: 'investment', words: ['brokerage', 'investment', 'investments'] },
  { type: 'mortgage', words: ['mortgage'] },
  { type: 'lineOfCredit', words: ['line of credit', 'heloc'] },
  { type: 'loan', words: ['loan', 'auto'] },
  // Before cards: "Debit card" is a checking account, and an overdrawn checking account stays one.
  { type: 'checking', words: ['checking', 'chequing', 'debit'] },
  // Before cards: "Discover Savings" is a savings account.
  { type: 'savings', words: ['savings', 'saving', 'money market', 'cd', 'certificate of deposit'] },
  { type: 'creditCard', words: ['credit card', 'card', 'visa', 'mastercard', 'master card', 'amex', 'american express', 'discover'] },
];

function words(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

function typeByWords(text: string | undefined): AccountType | undefined {
  if (!text) return undefined;
  const haystack = words(text);
  return ACCOUNT_TYPE_RULES.find((rule) => rule.words.some((w) => haystack.includes(words(w))))?.type;
}

/**
 * The account type: the account name's words first, then the institution's (a card issuer's name says "card" only
 * while the balance is not positive: Discover and American Express hold deposit accounts too), then the balance's
 * sign (money owed suggests a card), else checking.
 */
export function accountTypeOf(name: string, institution: string | undefined, balance: number): AccountType {
  const byName = typeByWords(name);
  if (byName) return byName;
  const byInstitution = typeByWords(institution);
  if (byInstitution && (byInstitution !== 'creditCard' || balance <= 0)) return byInstitution;
  return balance < 0 ? 'creditCard' : 'checking';
}

/**
 * The account's currency: the ISO 4217 code given (any letter case), or for a custom currency (points, miles:
 * SimpleFIN names them by a URL) and for anything else that is not a code "XXX", ISO 4217's code for "no currency",
 * so that amounts are never shown as some real currency and no other text is stored as one. The URL is not fetched:
 * it may point anywhere.
 */
export function currencyOf(value: string): { code: string; customUrl?: string } {
  const code = iso4217Code(value);
  if (code !== undefined) return { code };
  const v = value.trim();
  if (/^https?:\/\//i.test(v) && URL.canParse(v)) return { code: NO_CURRENCY, customUrl: v };
  return { code: NO_CURRENCY };
}

/** A validated numeric string as a number. */
export function parseAmount(value: string): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** ISO 3166-1 alpha-3 of the currencies that name one country; SimpleFIN serves mostly US institutions. */
const COUNTRY_OF_CURRENCY: Record<string, string> = { USD: 'USA', CAD: 'CAN', GBP: 'GBR', AUD: 'AUS', NZD: 'NZL', MXN: 'MEX', JPY: 'JPN', CHF: 'CHE' };

function countryOf(currency: string): string {
  return COUNTRY_OF_CURRENCY[currencyOf(currency).code] ?? 'USA';
}

/** Last four digits at the end of a name such as "Checking (1234)" or "Visa ...5678". */
function last4Of(name: string): string | undefined {
  return /(\d{4})\W*$/.exec(name)?.[1];
}

function depositDetail(available: number): DepositDetail {
  return { availableBalanceAmount: available, periodInterestRate: '' };
}

function loanDetail(balance: number, available: number): LoanDetail {
  return loanDetailOf({ principalBalance: Math.abs(balance), availableBalanceAmount: available });
}

function lineOfCreditDetail(balance: number, available: number): LineOfCreditDetail {
  return {
    interestRate: '',
    creditAvailableAmount: available,
    paymentMinAmount: 0,
    statementCloseBalance: 0,
    locPrincipalBalance: Math.abs(balance),
    paymentDueDate: 0,
    statementEndDate: 0,
  };
}

function investmentDetail(balance: number, available: number): InvestmentDetail {
  return investmentDetailOf({ availableCashBalance: available, currentBalance: balance });
}

/** An account as the contract's record; `ref` is the SimpleFIN account id, which the bridge keeps stable. */
export function mapAccount(facts: AccountFacts, displayPosition: number): ConnectorAccount {
  const name = sanitizeBridgeText(facts.name, 255) || 'SimpleFIN account';
  const institution = facts.institution ? sanitizeBridgeText(facts.institution, 255) : '';
  const balance = parseAmount(facts.balance);
  // The protocol omits available-balance when it equals the balance.
  const available = facts.availableBalance === undefined ? balance : parseAmount(facts.availableBalance);
  const last4 = last4Of(name);
  const base = {
    ref: facts.id,
    number: last4 ? `xxxx${last4}` : '',
    accountNumberDisplay: last4 ?? '',
    name,
    accountNickname: name,
    currency: currencyOf(facts.currency).code,
    balance,
    balanceDate: facts.balanceDate,
    status: 'active' as const,
    financialinstitutionAccountStatus: 'OPEN' as const,
    marketSegment: /\bbusiness\b/i.test(name) ? ('business' as const) : ('personal' as const),
    displayPosition,
    ...(institution ? { institutionName: institution } : {}),
  };
  const type = accountTypeOf(name, institution, balance);
  switch (type) {
    case 'checking':
    case 'savings':
      return { ...base, type, detail: depositDetail(available) };
    case 'creditCard':
      return { ...base, type };
    case 'loan':
    case 'mortgage':
      return { ...base, type, detail: loanDetail(balance, facts.availableBalance === undefined ? 0 : available) };
    case 'lineOfCredit':
      return { ...base, type, detail: lineOfCreditDetail(balance, facts.availableBalance === undefined ? 0 : available) };
    case 'investment':
    case 'investmentTaxDeferred':
    case 'roth':
      return { ...base, type, detail: investmentDetail(balance, facts.availableBalance === undefined ? 0 : available), position: [] };
  }
}

/** Transaction ids are unique within an account only, so the ref names the account too. */
export function transactionRef(accountId: string, transactionId: string): string {
  return `${accountId}:${transactionId}`;
}

/** Whether the bridge calls the transaction pending (some bridges only say so by a posted time of 0). */
export function isPending(t: SimplefinTransaction): boolean {
  return t.pending || t.posted === 0;
}

/**
 * When the transaction happened: transacted_at, else its posting; a pending transaction with neither is dated by
 * its account's balance date.
 */
export function transactionDateOf(t: SimplefinTransaction, balanceDate: number): number {
  if (t.transactedAt !== undefined && t.transactedAt > 0) return t.transactedAt;
  return t.posted > 0 ? t.posted : balanceDate;
}

export function mapTransaction(account: Pick<AccountFacts, 'id' | 'currency' | 'balanceDate'>, t: SimplefinTransaction): ConnectorTransaction {
  const amount = parseAmount(t.amount);
  const pending = isPending(t);
  const type = amount < 0 ? 'debit' : 'credit';
  const payee = t.payee === undefined ? '' : sanitizeBridgeText(t.payee, 255);
  const description = payee || sanitizeBridgeText(t.description, 500) || (amount < 0 ? 'Debit' : 'Credit');
  const memo = t.memo === undefined ? '' : sanitizeBridgeText(t.memo, 500);
  const record: ConnectorTransaction = {
    ref: transactionRef(account.id, t.id),
    accountRef: account.id,
    amount,
    status: pending ? 'pending' : 'active',
    description,
    type,
    transactionDate: transactionDateOf(t, account.balanceDate),
    categorization: categorize(description, memo || undefined, type, countryOf(account.currency)),
  };
  if (memo) record.memo = memo;
  if (!pending) record.postedDate = t.posted;
  return record;
}
