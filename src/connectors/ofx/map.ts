/**
 * OFX records in the connector contract's terms: accounts with their details and positions, transactions with
 * their types, categorisation and stable refs.
 *
 * Refs: an account's is its kind and type with the institution's ids (`CHECKING:<BANKID>:<ACCTID>`,
 * `CREDITCARD:<ACCTID>`, `INVESTMENT:<BROKERID>:<ACCTID>`); a transaction's is its account's ref and its FITID, since
 * servers reuse a FITID in several accounts of one user; a position's is its account's ref, the security id and
 * where it is held. Each part is percent-encoded, so `:` only ever separates parts.
 *
 * Everything in BANKTRANLIST is posted: OFX servers send no pending list worth the name, so each transaction is
 * `active`, posted at DTPOSTED and dated DTUSER (when the user made it) or else DTPOSTED.
 */
import { investmentDetailOf } from '../details.js';
import { routingNumberOf } from '../routing-number.js';
import { categorize } from '../categorize.js';
import type {
  AccountType,
  ConnectorAccount,
  ConnectorPosition,
  ConnectorTransaction,
  DepositDetail,
  InvestmentDetail,
  InvestmentTransactionType,
  LineOfCreditDetail,
  TransactionType,
} from '../connector.js';
import {
  isOfxBankAccountType,
  type OfxAccountId,
  type OfxAccountInfo,
  type OfxBankStatement,
  type OfxInvestmentStatement,
  type OfxInvestmentTransaction,
  type OfxPosition,
  type OfxSecurity,
  type OfxTransaction,
} from './parse.js';

/** Percent-encodes a ref part; a lone surrogate (which encodeURIComponent refuses) becomes U+FFFD. */
function enc(part: string): string {
  return encodeURIComponent(part.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/** The account's ref: its type and the institution's ids. */
export function accountRefOf(account: OfxAccountId): string {
  if (account.kind === 'bank') return `${account.acctType}:${enc(account.bankId)}:${enc(account.acctId)}`;
  if (account.kind === 'creditCard') return `CREDITCARD:${enc(account.acctId)}`;
  return `INVESTMENT:${enc(account.brokerId)}:${enc(account.acctId)}`;
}

function decodePart(part: string | undefined): string | undefined {
  if (part === undefined) return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** The account a ref was made from (without BRANCHID, which the ref leaves out), or undefined for a foreign ref. */
export function accountIdOfRef(ref: string): OfxAccountId | undefined {
  const parts = ref.split(':');
  const [kind, a, b] = [parts[0] ?? '', decodePart(parts[1]), decodePart(parts[2])];
  if (kind === 'CREDITCARD' && parts.length === 2 && a) return { kind: 'creditCard', acctId: a };
  if (kind === 'INVESTMENT' && parts.length === 3 && a !== undefined && b) return { kind: 'investment', brokerId: a, acctId: b };
  if (isOfxBankAccountType(kind) && parts.length === 3 && a !== undefined && b) return { kind: 'bank', bankId: a, acctId: b, acctType: kind };
  return undefined;
}

/** A transaction's ref: unique per institution login, since the account ref is part of it. */
export function transactionRefOf(accountRef: string, fitId: string): string {
  return `${accountRef}:${enc(fitId)}`;
}

const TRANSACTION_TYPES: Readonly<Record<string, TransactionType>> = {
  CREDIT: 'credit',
  DEBIT: 'debit',
  INT: 'interest',
  DIV: 'dividend',
  FEE: 'fee',
  SRVCHG: 'serviceCharge',
  DEP: 'deposit',
  ATM: 'atm',
  POS: 'pointOfSale',
  XFER: 'transfer',
  CHECK: 'check',
  PAYMENT: 'payment',
  CASH: 'cash',
  DIRECTDEP: 'directDeposit',
  DIRECTDEBIT: 'directDebit',
  REPEATPMT: 'repeatPayment',
  OTHER: 'other',
  HOLD: 'other',
};

/** TRNTYPE as the contract's type; a type the specification does not name reads as a debit or a credit by its sign. */
export function transactionTypeOf(trntype: string, amount: number): TransactionType {
  const key = trntype.toUpperCase();
  if (Object.hasOwn(TRANSACTION_TYPES, key)) return TRANSACTION_TYPES[key]!;
  return amount < 0 ? 'debit' : 'credit';
}

const COUNTRIES: Readonly<Record<string, string>> = { USD: 'USA', CAD: 'CAN', GBP: 'GBR', AUD: 'AUS', NZD: 'NZL', CHF: 'CHE', JPY: 'JPN', MXN: 'MEX' };

/** The country for categorisation: OFX names none, so the statement currency's country, else the United States. */
export function countryOfCurrency(currency: string): string {
  return Object.hasOwn(COUNTRIES, currency) ? COUNTRIES[currency]! : 'USA';
}

/** What a transaction is called: NAME, else PAYEE/NAME, else MEMO, else its type. */
export function descriptionOf(t: Pick<OfxTransaction, 'name' | 'payee' | 'memo' | 'type'>): string {
  return t.name ?? t.payee ?? t.memo ?? t.type;
}

/** A REPLACE that names its own FITID as the one it corrects: it is the record itself (servers send these). */
function selfReplacing(r: { fitId: string; correctFitId?: string; correctAction?: string }): boolean {
  return r.correctFitId === r.fitId && r.correctAction !== 'DELETE';
}

/**
 * Applies corrections (CORRECTACTION REPLACE takes the place of the record it names, DELETE removes it) and gives
 * each FITID one ref: a FITID a server repeats within one account gets `#2`, `#3`, ... in the order sent.
 */
function withRefs<T extends { fitId: string; correctFitId?: string; correctAction?: string }>(
  records: readonly T[],
  refOf: (fitId: string) => string,
): { ref: string; id: string; record: T }[] {
  const deleted = new Set<string>();
  const replaced = new Map<string, T>();
  for (const r of records) {
    if (r.correctFitId === undefined || selfReplacing(r)) continue;
    if (r.correctAction === 'DELETE') deleted.add(r.correctFitId);
    else replaced.set(r.correctFitId, r);
  }
  const present = new Set(records.map((r) => r.fitId));
  const seen = new Map<string, number>();
  const out: { ref: string; id: string; record: T }[] = [];
  const emit = (fitId: string, record: T) => {
    const n = (seen.get(fitId) ?? 0) + 1;
    seen.set(fitId, n);
    const id = n === 1 ? fitId : `${fitId}#${n}`;
    out.push({ ref: refOf(id), id, record });
  };
  for (const r of records) {
    if (r.correctFitId !== undefined && !selfReplacing(r)) {
      // A replacement keeps the ref of what it corrects, so the stored record is updated in place.
      if (r.correctAction !== 'DELETE' && replaced.get(r.correctFitId) === r && !present.has(r.correctFitId)) emit(r.correctFitId, r);
      continue;
    }
    if (deleted.has(r.fitId)) continue;
    emit(r.fitId, replaced.get(r.fitId) ?? r);
  }
  return out;
}

function bankTransaction(accountRef: string, ref: string, t: OfxTransaction, country: string): ConnectorTransaction {
  const type = transactionTypeOf(t.type, t.amount);
  const description = descriptionOf(t);
  const memo = t.memo !== undefined && t.memo !== description ? t.memo : undefined;
  const record: ConnectorTransaction = {
    ref,
    accountRef,
    amount: t.amount,
    status: 'active',
    description,
    type,
    transactionDate: t.user ?? t.posted,
    postedDate: t.posted,
    categorization: categorize(description, memo, type, country),
  };
  if (memo !== undefined) record.memo = memo;
  if (t.checkNum !== undefined) record.checkNum = t.checkNum;
  return record;
}

/** Refs of the connector: the account's ref and the FITID. */
type RefOf = (fitId: string) => string;

/**
 * The transactions of a bank or credit card statement, as the server sent them (not yet filtered or sorted).
 * `refOf` makes a transaction's ref from its FITID; by default the account's ref and the FITID.
 */
export function bankTransactionsOf(
  accountRef: string,
  statement: OfxBankStatement,
  refOf: RefOf = (f) => transactionRefOf(accountRef, f),
): ConnectorTransaction[] {
  const country = countryOfCurrency(statement.currency);
  // The FITID (with its repeat's number) is the institution's id, the same live and in a downloaded file.
  return withRefs(statement.transactions, refOf).map(({ ref, id, record }) => ({
    ...bankTransaction(accountRef, ref, record, country),
    institutionTransactionId: id,
  }));
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function securityName(security: OfxSecurity | undefined, t: OfxInvestmentTransaction): string {
  if (security) return security.ticker ? `${security.name} (${security.ticker})` : security.name;
  return t.security?.uniqueId ?? 'cash';
}

interface InvestmentKind {
  type: TransactionType;
  invType?: InvestmentTransactionType;
  verb: string;
  /** The sign of the cash effect when TOTAL is missing: 1 in, -1 out, 0 none. */
  sign: number;
}

function investmentKindOf(t: OfxInvestmentTransaction): InvestmentKind {
  const kind = t.kind;
  if (kind.startsWith('BUY')) return { type: 'debit', invType: 'purchased', verb: 'Bought', sign: -1 };
  if (kind.startsWith('SELL')) return { type: 'credit', invType: 'sold', verb: 'Sold', sign: 1 };
  switch (kind) {
    case 'INCOME':
      if (t.incomeType === 'INTEREST') return { type: 'interest', invType: 'interest', verb: 'Interest', sign: 1 };
      if (t.incomeType === 'CGLONG' || t.incomeType === 'CGSHORT') return { type: 'dividend', invType: 'dividend', verb: 'Capital gain distribution', sign: 1 };
      if (t.incomeType === 'MISC') return { type: 'credit', verb: 'Income', sign: 1 };
      return { type: 'dividend', invType: 'dividend', verb: 'Dividend', sign: 1 };
    case 'REINVEST':
      return { type: 'debit', invType: 'dividendReinvest', verb: 'Reinvestment', sign: -1 };
    case 'TRANSFER':
      return { type: 'transfer', invType: 'transfer', verb: t.action === 'OUT' ? 'Transfer out' : 'Transfer in', sign: 0 };
    case 'INVEXPENSE':
      return { type: 'fee', invType: 'fee', verb: 'Expense', sign: -1 };
    case 'MARGININTEREST':
      return { type: 'interest', invType: 'interest', verb: 'Margin interest', sign: -1 };
    case 'RETOFCAP':
      return { type: 'credit', verb: 'Return of capital', sign: 1 };
    case 'JRNLFUND':
    case 'JRNLSEC':
      return { type: 'transfer', invType: 'transfer', verb: 'Journal', sign: 0 };
    case 'SPLIT':
      return { type: 'other', verb: 'Split', sign: 0 };
    case 'CLOSUREOPT':
      return { type: 'other', verb: 'Option closure', sign: 0 };
    default:
      return { type: 'other', verb: kind, sign: 0 };
  }
}

function cashInvestmentType(t: OfxTransaction): InvestmentTransactionType | undefined {
  switch (t.type) {
    case 'INT':
      return 'interest';
    case 'DIV':
      return 'dividend';
    case 'FEE':
    case 'SRVCHG':
      return 'fee';
    case 'DEP':
    case 'CREDIT':
    case 'DIRECTDEP':
      return t.amount > 0 ? 'contribution' : undefined;
    case 'XFER':
      return t.amount > 0 ? 'contribution' : 'transfer';
    default:
      return undefined;
  }
}

/**
 * The transactions of an investment statement: trades, income, expenses and transfers of securities, and the cash
 * movements of INVBANKTRAN. A reinvestment is two records, as the cash sees it: the income (`<ref>:income`) and the
 * purchase it paid for (`<ref>`).
 */
export function investmentTransactionsOf(
  accountRef: string,
  statement: OfxInvestmentStatement,
  securities: readonly OfxSecurity[],
  refOf: RefOf = (f) => transactionRefOf(accountRef, f),
): ConnectorTransaction[] {
  const country = countryOfCurrency(statement.currency);
  const byId = new Map(securities.map((s) => [`${s.id.uniqueIdType}:${s.id.uniqueId}`, s]));
  const out: ConnectorTransaction[] = [];
  for (const { ref, record: t } of withRefs(statement.transactions, refOf)) {
    if (t.bank) {
      const record = bankTransaction(accountRef, ref, t.bank, country);
      const invType = cashInvestmentType(t.bank);
      if (invType) record.investmentTransactionType = invType;
      out.push(record);
      continue;
    }
    const security = t.security ? byId.get(`${t.security.uniqueIdType}:${t.security.uniqueId}`) : undefined;
    const kind = investmentKindOf(t);
    const fallback = t.units !== undefined && t.unitPrice !== undefined ? round2(Math.abs(t.units * t.unitPrice)) * kind.sign : 0;
    const amount = t.total ?? fallback;
    const name = securityName(security, t);
    const description = `${kind.verb} ${name}`;
    const detail = t.units !== undefined && t.unitPrice !== undefined ? `${t.units} @ ${t.unitPrice}` : undefined;
    const memo = t.memo ?? detail;
    const make = (r: string, value: number, k: InvestmentKind, text: string): ConnectorTransaction => {
      const record: ConnectorTransaction = {
        ref: r,
        accountRef,
        amount: value,
        status: 'active',
        description: text,
        type: k.type,
        transactionDate: t.tradeDate,
        postedDate: t.tradeDate,
        categorization: categorize(text, memo, k.type, country),
      };
      if (memo !== undefined) record.memo = memo;
      if (k.invType) record.investmentTransactionType = k.invType;
      if (t.units !== undefined) record.unitQuantity = t.units;
      if (t.unitPrice !== undefined) record.unitValue = t.unitPrice;
      const fees = (t.fees ?? 0) + (t.commission ?? 0) + (t.load ?? 0) + (t.taxes ?? 0);
      if (fees !== 0) record.feeAmount = round2(fees);
      if (security?.ticker) record.ticker = security.ticker;
      if (t.security) record.securityId = t.security.uniqueId;
      return record;
    };
    if (t.kind === 'REINVEST') {
      const income: InvestmentKind =
        t.incomeType === 'INTEREST'
          ? { type: 'interest', invType: 'interest', verb: 'Interest', sign: 1 }
          : { type: 'dividend', invType: 'dividend', verb: 'Dividend', sign: 1 };
      const value = Math.abs(amount);
      out.push(make(`${ref}:income`, value, income, `${income.verb} ${name}`));
      out.push(make(ref, -value, kind, description));
      continue;
    }
    out.push(make(ref, amount, kind, description));
  }
  return out;
}

const TAX_DEFERRED: ReadonlySet<string> = new Set(['401K', '403B', 'IRA', 'KEOGH', 'SARSEP', 'SIMPLE', 'TDA']);

/** The contract's account type of an OFX account. */
export function accountTypeOf(account: OfxAccountId, info?: Pick<OfxAccountInfo, 'description' | 'productType'>): AccountType {
  if (account.kind === 'creditCard') return 'creditCard';
  if (account.kind === 'investment') {
    if (/\broth\b/i.test(info?.description ?? '')) return 'roth';
    return info?.productType && TAX_DEFERRED.has(info.productType) ? 'investmentTaxDeferred' : 'investment';
  }
  if (account.acctType === 'CHECKING') return 'checking';
  if (account.acctType === 'CREDITLINE') return 'lineOfCredit';
  return 'savings';
}

const TYPE_LABELS: Readonly<Record<string, string>> = {
  CHECKING: 'Checking',
  SAVINGS: 'Savings',
  MONEYMRKT: 'Money Market',
  CD: 'Certificate of Deposit',
  CREDITLINE: 'Line of Credit',
};

function last4(acctId: string): string {
  const chars = acctId.replace(/[^A-Za-z0-9]/g, '');
  return chars.slice(-4);
}

/** The account's name: the institution's DESC, else its type and last four characters. */
export function accountNameOf(account: OfxAccountId, info?: Pick<OfxAccountInfo, 'description'>): string {
  return info?.description ?? defaultName(account);
}

function defaultName(account: OfxAccountId): string {
  const label = account.kind === 'bank' ? (TYPE_LABELS[account.acctType] ?? 'Account') : account.kind === 'creditCard' ? 'Credit Card' : 'Brokerage';
  return `${label} ...${last4(account.acctId)}`;
}

const POSITION_TYPES: Readonly<Record<string, { type: string; inv: string }>> = {
  POSSTOCK: { type: 'stock', inv: 'STOCKINFO' },
  POSMF: { type: 'mutualFund', inv: 'MFINFO' },
  POSDEBT: { type: 'bond', inv: 'DEBTINFO' },
  POSOPT: { type: 'option', inv: 'OPTINFO' },
  POSOTHER: { type: 'other', inv: 'OTHERINFO' },
};

/** A position's ref: the account's ref, the security id, and the sub-account and direction it is held in. */
export function positionRefOf(accountRef: string, p: OfxPosition): string {
  return `${accountRef}:${enc(p.security.uniqueIdType)}:${enc(p.security.uniqueId)}:${p.heldIn}:${p.positionType}`;
}

export function positionRecordOf(accountRef: string, p: OfxPosition, security: OfxSecurity | undefined): ConnectorPosition {
  const ref = positionRefOf(accountRef, p);
  const kinds = POSITION_TYPES[p.kind] ?? { type: 'other', inv: 'OTHERINFO' };
  const averageCost = p.averageCostBasis ?? 0;
  const costBasis = round2(averageCost * p.units);
  const gain = costBasis !== 0 ? round2(p.marketValue - costBasis) : 0;
  const position: ConnectorPosition = {
    ref,
    symbol: security?.ticker ?? p.security.uniqueId,
    fundName: security?.name ?? p.security.uniqueId,
    quantity: p.units,
    marketValue: p.marketValue.toFixed(2),
    changePercent: 0,
    costBasis,
    dailyChange: 0,
    memo: p.memo ?? security?.memo ?? '',
    empPretaxContribAmount: 0,
    heldInAccount: p.marketValue.toFixed(2),
    holdType: p.heldIn,
    maturityValue: 0,
    units: p.units,
    unitPrice: p.unitPrice,
    type: kinds.type,
    status: 'A',
    invSecurityType: security?.kind ?? kinds.inv,
    securityCurrencyRate: '1.00',
    averageCost,
    cashAccount: p.heldIn === 'CASH',
    faceValue: security?.parValue ?? 0,
    holdingId: ref,
    securitySubType: security?.subType ?? '',
    rate: security?.couponRate ?? security?.yield ?? 0,
    unitType: 'SHARES',
    todayGLDollar: 0,
    todayGLPercent: 0,
    totalGLDollar: gain,
    totalGLPercent: costBasis !== 0 ? round2((gain / Math.abs(costBasis)) * 100) : 0,
    costBasisPerShare: averageCost,
    enterpriseSymbol: security?.ticker ?? '',
    localMarketValue: p.marketValue,
    localPrice: p.unitPrice,
    securityId: p.security.uniqueId,
    reinvestmentCapGains: '0.00',
    reinvestmentDividend: '0.00',
    originalPurchaseDate: 0,
  };
  const expires = security?.maturityDate ?? security?.expirationDate;
  if (expires !== undefined) position.expirationDate = expires;
  return position;
}

export interface AccountInput {
  account: OfxAccountId;
  info?: OfxAccountInfo;
  statement?: OfxBankStatement | OfxInvestmentStatement;
  securities?: readonly OfxSecurity[];
  /** ctx.now: the balance date when the server gives none. */
  now: number;
  /** From 1, in the order the institution lists its accounts. */
  displayPosition: number;
  /** Investment accounts only: whether the institution allows check writing and option trading (INVACCTINFO). */
  checkWriting?: boolean;
  optionTrading?: boolean;
}

/** An OFX account with its statement's balances (and positions) as a contract account record. */
export function accountRecordOf(input: AccountInput): ConnectorAccount {
  const { account, info, statement, now } = input;
  const ref = accountRefOf(account);
  const name = accountNameOf(account, info);
  const type = accountTypeOf(account, info);
  const base = {
    ref,
    number: account.acctId,
    accountNumberDisplay: last4(account.acctId),
    name,
    accountNickname: name,
    currency: statement?.currency ?? 'USD',
    balance: 0,
    balanceDate: now,
    status: 'active' as const,
    financialinstitutionAccountStatus: 'OPEN' as const,
    marketSegment: 'personal' as const,
    displayPosition: input.displayPosition,
  };
  if (statement?.kind === 'investment' || account.kind === 'investment') {
    const inv = statement?.kind === 'investment' ? statement : undefined;
    const byId = new Map((input.securities ?? []).map((s) => [`${s.id.uniqueIdType}:${s.id.uniqueId}`, s]));
    const positions = (inv?.positions ?? []).map((p) => positionRecordOf(ref, p, byId.get(`${p.security.uniqueIdType}:${p.security.uniqueId}`)));
    const cash = inv?.balance?.availableCash ?? 0;
    const invested = (inv?.positions ?? []).reduce((sum, p) => sum + p.marketValue, 0);
    const total = round2(cash + invested);
    const margin = inv?.balance?.marginBalance ?? 0;
    const detail: InvestmentDetail = investmentDetailOf({
      marginBalance: margin,
      availableCashBalance: cash,
      currentBalance: total,
      vestedBalance: total,
      marginAllowed: margin !== 0 || (inv?.positions ?? []).some((p) => p.heldIn === 'MARGIN'),
      cashAccountAllowed: true,
      allowedCheckWriting: input.checkWriting ? 'ALLOW' : 'DENY',
      allowedOptionTrade: input.optionTrading ? 'ALLOW' : 'DENY',
    });
    return {
      ...base,
      balance: total,
      balanceDate: Math.min(inv?.asOf ?? now, now),
      type: type as 'investment' | 'investmentTaxDeferred' | 'roth',
      detail,
      position: positions,
    };
  }
  const bank = statement;
  const ledger = bank?.ledgerBalance;
  const balance = ledger?.amount ?? 0;
  const withBalance = { ...base, balance, balanceDate: Math.min(ledger?.asOf ?? now, now) };
  if (type === 'creditCard') return { ...withBalance, type };
  if (type === 'lineOfCredit') {
    const detail: LineOfCreditDetail = {
      interestRate: '',
      creditAvailableAmount: bank?.availableBalance?.amount ?? 0,
      paymentMinAmount: 0,
      statementCloseBalance: balance,
      locPrincipalBalance: Math.max(0, -balance),
      paymentDueDate: 0,
      statementEndDate: 0,
    };
    return { ...withBalance, type, detail };
  }
  const detail: DepositDetail = { availableBalanceAmount: bank?.availableBalance?.amount ?? balance, periodInterestRate: '' };
  const depositType = type === 'checking' ? 'checking' : 'savings';
  const digits = /\d{4}$/.exec(account.acctId)?.[0];
  // A US bank's BANKID is its routing and transit number (BANKACCTFROM): with the ACCTID, what ACH payments need.
  const routingNumber = account.kind === 'bank' ? routingNumberOf(account.bankId) : undefined;
  return {
    ...withBalance,
    type: depositType,
    detail,
    ...(digits ? { realAccountNumberLast4: digits } : {}),
    ...(routingNumber ? { routingNumber } : {}),
  };
}
