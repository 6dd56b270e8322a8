/**
 * The asset reports (docs/reports.md): Verification of Assets, VOA with income, Prequalification (CRA) and Asset
 * Summary (non-CRA). One computation with the differences of each: whether it lists transactions and positions, how
 * it counts insufficient funds fees, and the income it carries.
 */
import type { Static } from 'typebox';
import type { ReportAccount, ReportAsset, ReportTransaction } from '../../contract/schemas/reports.js';
import type { TransactionRecord } from '../aggregation/records.js';
import { analysisInputOf } from './analysis/from-records.js';
import type { IncomeAnalysis } from './analysis/lending.js';
import { incomeAnalysis } from './analysis/lending.js';
import { incomeStreamRecord, incomeSummaryRecord } from './analysis/records.js';
import { averageDailyBalance, balanceOn, cents, DAY, dayOf } from './balances.js';
import type { ReportAccountInput, ReportInput, ReportOptions } from './input.js';
import type { ReportBody } from './records.js';

type AccountOut = Static<typeof ReportAccount>;
type AssetOut = Static<typeof ReportAsset>;
type TransactionOut = Static<typeof ReportTransaction>;

/** The windows of the asset summary's averages and of the recent fee counts: two months and six months, in days. */
export const TWO_MONTHS_DAYS = 61;
export const SIX_MONTHS_DAYS = 182;

/**
 * An insufficient funds or overdraft fee, by what banks write on it. A fee debit only: the returned payment itself
 * is not a fee.
 */
const NSF_FEE = /\bNSF\b|INSUFFICIENT\s+FUNDS|OVERDRAFT\s+(ITEM\s+)?FEE|RETURNED\s+ITEM\s+FEE/i;

/** Whether a transaction is an insufficient funds fee. */
export function isInsufficientFundsFee(t: Pick<TransactionRecord, 'amount' | 'description' | 'memo'>): boolean {
  return t.amount < 0 && (NSF_FEE.test(t.description) || (t.memo !== undefined && NSF_FEE.test(t.memo)));
}

/** A stored transaction as reports list it. */
export function reportTransaction(t: TransactionRecord): TransactionOut {
  const c = t.categorization;
  return {
    id: t.id,
    amount: t.amount,
    postedDate: t.postedDate,
    description: t.description,
    ...(t.memo !== undefined ? { memo: t.memo } : {}),
    ...(c?.normalizedPayeeName ? { normalizedPayee: c.normalizedPayeeName } : {}),
    ...(c?.category ? { category: c.category } : {}),
    ...(t.type !== undefined ? { type: t.type } : {}),
    ...(t.investmentTransactionType !== undefined ? { investmentTransactionType: t.investmentTransactionType } : {}),
    ...(t.ticker !== undefined ? { symbol: t.ticker } : {}),
  };
}

/** The account fields every report shows. The owner is the report's consumer (who the partner says owns them). */
export function reportAccountBase(a: ReportAccountInput, input: ReportInput, withOwner = true): AccountOut {
  const c = input.consumer;
  const address = [c.address, [c.city, [c.state, c.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')].filter(Boolean).join(', ');
  return {
    id: Number(a.account.id),
    number: a.account.number,
    ...(withOwner ? { ownerName: `${c.firstName} ${c.lastName}`.toUpperCase() } : {}),
    ...(withOwner && address ? { ownerAddress: address.toUpperCase() } : {}),
    name: a.account.name,
    type: a.account.type,
    currency: a.account.currency,
    aggregationStatusCode: a.account.aggregationStatusCode,
    balance: a.account.balance,
    balanceDate: a.account.balanceDate,
    availableBalance: availableBalanceOf(a),
  };
}

/** The available balance: the institution's when it gives one, else the balance. */
export function availableBalanceOf(a: ReportAccountInput): number {
  return a.account.detail?.availableBalanceAmount ?? a.account.balance;
}

/** The asset summary of an account: its balances now, at the start of the period, and averaged over 2 and 6 months. */
export function accountAsset(a: ReportAccountInput, input: ReportInput): AssetOut {
  const today = dayOf(input.asOf);
  const current = a.account.balance;
  const average = (days: number) => averageDailyBalance(a.balances, dayOf(input.asOf - (days - 1) * DAY), today) ?? current;
  const start = dayOf(input.period.from);
  const beginning = balanceOn(a.balances, start) ?? a.balances.find((b) => b.day >= start)?.balance ?? current;
  return {
    type: a.account.type,
    availableBalance: availableBalanceOf(a),
    currentBalance: current,
    twoMonthAverage: average(TWO_MONTHS_DAYS),
    sixMonthAverage: average(SIX_MONTHS_DAYS),
    beginningBalance: beginning,
  };
}

/** The insufficient funds fees of an account: in the period, in the last `recentDays`, and days since the latest. */
export function insufficientFunds(a: ReportAccountInput, input: ReportInput, recentDays: number) {
  const fees = a.transactions.filter(isInsufficientFundsFee);
  const recentFrom = input.asOf - recentDays * DAY;
  const latest = fees.reduce<number | undefined>((max, t) => (max === undefined || t.postedDate > max ? t.postedDate : max), undefined);
  return {
    total: fees.length,
    recent: fees.filter((t) => t.postedDate >= recentFrom).length,
    daysSinceLatest: latest === undefined ? undefined : Math.max(0, Math.floor((input.asOf - latest) / DAY)),
  };
}

/** What the four asset reports do differently. */
interface AssetVariant {
  transactions: boolean;
  positions: boolean;
  /** 'requested': the fee counts when showNsf asks (VOA); 'checking': always, for checking accounts (prequalification). */
  nsf: 'requested' | 'checking';
  /** The window of the recent fee count: 2 months (VOA) or 6 (prequalification). */
  nsfRecent: 'Over2Months' | 'Over6Months';
  income: boolean;
}

/** The income streams of an account, their deposits as the report's transaction records. */
export function incomeStreamsOf(a: ReportAccountInput, income: IncomeAnalysis): unknown[] {
  const records = new Map((a.incomeTransactions ?? a.transactions).map((t) => [t.id, t]));
  const streams = income.accounts.find((x) => x.accountId === Number(a.account.id))?.incomeStreams ?? [];
  return streams.map((s) => incomeStreamRecord(s, (t) => reportTransaction(records.get(t.id)!)));
}

function assetAccount(a: ReportAccountInput, input: ReportInput, options: ReportOptions, variant: AssetVariant, income?: IncomeAnalysis): AccountOut {
  const months = averageDailyBalance(a.balances, dayOf(input.period.from), dayOf(input.asOf));
  const out: AccountOut = { ...reportAccountBase(a, input), averageMonthlyBalance: months ?? a.account.balance };
  const showNsf = variant.nsf === 'requested' ? options.showNsf === true : a.account.type === 'checking';
  if (showNsf) {
    const nsf = insufficientFunds(a, input, variant.nsfRecent === 'Over2Months' ? TWO_MONTHS_DAYS : SIX_MONTHS_DAYS);
    out.totNumberInsufficientFundsFeeDebitTxAccount = nsf.total;
    out[`totNumberInsufficientFundsFeeDebitTx${variant.nsfRecent}Account`] = nsf.recent;
    if (nsf.daysSinceLatest !== undefined) out.totNumberDaysSinceMostRecentInsufficientFundsFeeDebitTxAccount = nsf.daysSinceLatest;
  }
  const oldest = a.transactions[0]?.postedDate;
  if (variant.transactions && oldest !== undefined) out.oldestTransactionDate = oldest;
  out.transactions = variant.transactions ? a.transactions.map(reportTransaction) : [];
  if (variant.positions && a.account.position) {
    out.position = a.account.position.map((p) => {
      const marketValue = p.marketValue === undefined ? undefined : Number(p.marketValue);
      return {
        id: p.id,
        currency: a.account.currency,
        ...(p.symbol !== undefined ? { symbol: p.symbol } : {}),
        ...(p.fundName !== undefined ? { securityName: p.fundName } : {}),
        ...((p.units ?? p.quantity) !== undefined ? { units: (p.units ?? p.quantity)! } : {}),
        ...(marketValue !== undefined && Number.isFinite(marketValue) ? { marketValue } : {}),
        ...(p.unitPrice !== undefined ? { currentPrice: p.unitPrice } : {}),
      };
    });
  }
  out.asset = accountAsset(a, input);
  if (income) out.incomeStreams = incomeStreamsOf(a, income);
  return out;
}

/** The dates a report covers: its transactions' first and last posted dates (the period when it has none). */
export function coverage(input: ReportInput, seasonedDays: number): Pick<ReportBody, 'startDate' | 'endDate' | 'days' | 'seasoned'> {
  let start: number | undefined;
  let end: number | undefined;
  for (const a of input.accounts)
    for (const t of a.transactions) {
      if (start === undefined || t.postedDate < start) start = t.postedDate;
      if (end === undefined || t.postedDate > end) end = t.postedDate;
    }
  const startDate = start ?? input.period.from;
  const endDate = end ?? input.period.to;
  const days = Math.round((endDate - startDate) / DAY);
  return { startDate, endDate, days, seasoned: days > seasonedDays };
}

/** The report's institutions, each with its accounts in input order. */
export function byInstitution(input: ReportInput, account: (a: ReportAccountInput) => AccountOut): NonNullable<ReportBody['institutions']> {
  const out = new Map<string, NonNullable<ReportBody['institutions']>[number]>();
  for (const a of input.accounts) {
    const id = a.account.institutionId;
    let institution = out.get(id);
    if (!institution) {
      institution = { id: Number(id), name: a.institutionName, urlHomeApp: a.institutionUrl, accounts: [] };
      out.set(id, institution);
    }
    institution.accounts.push(account(a));
  }
  return [...out.values()];
}

/**
 * The income analysis of the deposits a report reads (docs/reports-analysis.md, "Income streams"): its period's, or
 * where the kind reads income from further back (VOA with income), the deposits of that income history.
 */
export function reportIncome(input: ReportInput, options: ReportOptions): IncomeAnalysis {
  const incomeFrom = input.period.incomeFrom;
  const accounts = incomeFrom === undefined ? input.accounts : input.accounts.map((a) => ({ ...a, transactions: a.incomeTransactions ?? a.transactions }));
  return incomeAnalysis(analysisInputOf(accounts, { from: incomeFrom ?? input.period.from, asOf: input.asOf }), {
    ...(options.incomeStreamConfidenceMinimum !== undefined ? { confidenceMinimum: options.incomeStreamConfidenceMinimum } : {}),
  });
}

function assetReport(input: ReportInput, options: ReportOptions, variant: AssetVariant): ReportBody {
  const income = variant.income ? reportIncome(input, options) : undefined;
  const institutions = byInstitution(input, (a) => assetAccount(a, input, options, variant, income));
  const assets = institutions.flatMap((i) => i.accounts.map((a) => a.asset!));
  const sum = (pick: (x: AssetOut) => number) => cents(assets.reduce((total, x) => total + pick(x), 0));
  return {
    ...coverage(input, 180),
    consolidatedAvailableBalance: sum((x) => x.availableBalance ?? x.currentBalance),
    institutions,
    assets: {
      type: 'all',
      availableBalance: sum((x) => x.availableBalance ?? x.currentBalance),
      currentBalance: sum((x) => x.currentBalance),
      twoMonthAverage: sum((x) => x.twoMonthAverage),
      sixMonthAverage: sum((x) => x.sixMonthAverage ?? x.currentBalance),
      beginningBalance: sum((x) => x.beginningBalance),
    },
    ...(income ? { income: income.income.map(incomeSummaryRecord) } : {}),
  };
}

/** Verification of Assets: balances, averages, transactions and positions, NSF counts when asked. */
export const voaReport = (input: ReportInput, options: ReportOptions): ReportBody =>
  assetReport(input, options, { transactions: true, positions: true, nsf: 'requested', nsfRecent: 'Over2Months', income: false });

/** VOA with income: the VOA, with the income streams of its deposit accounts and their summaries by confidence. */
export const voaWithIncomeReport = (input: ReportInput, options: ReportOptions): ReportBody =>
  assetReport(input, options, { transactions: true, positions: true, nsf: 'requested', nsfRecent: 'Over2Months', income: true });

/** Prequalification (CRA): balances and averages, NSF counts of checking accounts, no transactions. */
export const prequalificationReport = (input: ReportInput, options: ReportOptions): ReportBody =>
  assetReport(input, options, { transactions: false, positions: false, nsf: 'checking', nsfRecent: 'Over6Months', income: false });

/** Asset Summary (non-CRA): what the prequalification report shows, for non-CRA purposes. */
export const assetSummaryReport = prequalificationReport;

/** Verification of Income: each account's income streams and the summaries by confidence; no balances or assets. */
export function voiReport(input: ReportInput, options: ReportOptions): ReportBody {
  const income = reportIncome(input, options);
  const institutions = byInstitution(input, (a) => ({ ...reportAccountBase(a, input), incomeStreams: incomeStreamsOf(a, income) }));
  return { ...coverage(input, 180), institutions, income: income.income.map(incomeSummaryRecord) };
}
