/**
 * Income streams (the reference's VOI incomeStreams): recurring deposits from one payer into one deposit account, with
 * their cadence, how confident we are that they are income, whether they still come, and what they add up to per
 * month and per year. Deposits that form no stream are the account's miscellaneous deposits.
 */
import { isLoanDeposit, isTransfer } from './category-groups.js';
import { completeMonths, type DayWindow, dayOf, monthOfDay } from './dates.js';
import { insufficientFundsRole } from './nsf.js';
import { cents, mean, standardDeviation } from './stats.js';
import { type Cadence, chronological, type RecurringStream, recurringStreams } from './streams.js';
import { type AnalysisTransaction, DEPOSIT_ACCOUNT_TYPES, type AnalysisAccount } from './types.js';

export type EstimateInclusion = 'HIGH' | 'MODERATE' | 'LOW' | 'NO';

/** Net pay is taken as this share of gross pay (withholding and deductions) where only the net is seen. */
export const NET_TO_GROSS = 0.8;

const INCOME_CATEGORIES = new Set(['Paycheck', 'Income']);
const INCOME_TEXT = /PAYROLL|SALARY|\bDIR(ECT)? ?DEP|PENSION|SOC SEC|\bSSA\b|BENEFIT|ANNUITY|\bTREAS\b/;

export interface MonthAmount {
  month: number;
  net: number;
  gross: number;
}

export interface IncomeStream {
  id: string;
  accountId: number;
  name: string;
  status: 'ACTIVE' | 'INACTIVE';
  estimateInclusion: EstimateInclusion;
  confidence: number;
  cadence: { name: Cadence['name']; days: number; startDate: number; stopDate?: number };
  netMonthly: MonthAmount[];
  netAnnual: number;
  projectedNetAnnual: number;
  estimatedGrossAnnual: number;
  projectedGrossAnnual: number;
  averageMonthlyIncomeNet: number;
  averageMonthlyIncomeGross: number;
  incomeStreamMonths: number;
  transactions: AnalysisTransaction[];
}

/** The deposits that can be income: credits to a deposit account that are not transfers, loans or fee refunds. */
export function incomeCandidates(accounts: readonly AnalysisAccount[], transactions: readonly AnalysisTransaction[]): AnalysisTransaction[] {
  const deposit = new Set(accounts.filter((a) => DEPOSIT_ACCOUNT_TYPES.has(a.type)).map((a) => a.id));
  return transactions.filter((t) => t.amount > 0 && deposit.has(t.accountId) && !isTransfer(t) && !isLoanDeposit(t) && !insufficientFundsRole(t));
}

/** Interest and dividends recur but are returns on savings, not earnings: they stay miscellaneous deposits. */
function isInvestmentReturn(t: AnalysisTransaction): boolean {
  return t.type === 'interest' || t.type === 'dividend' || t.category === 'Interest Income' || t.category === 'Dividend & Cap Gains';
}

/** Whether the deposits say income by their category or their words (payroll, pension, benefits). */
function looksLikeIncome(stream: RecurringStream): number {
  const hits = stream.transactions.filter((t) => INCOME_CATEGORIES.has(t.category ?? '') || INCOME_TEXT.test(`${t.description} ${t.memo ?? ''}`.toUpperCase()));
  return hits.length / stream.transactions.length;
}

/**
 * Confidence, 0 to 100: 40 for a regular rhythm, 20 for steady amounts (falling to 0 as the amounts' spread reaches
 * half their mean), 25 for deposits that say income, 15 for history (3 points per payment after the first, at most 15).
 */
export function confidenceOf(stream: RecurringStream): number {
  const amounts = stream.transactions.map((t) => t.amount);
  const spread = standardDeviation(amounts) / mean(amounts);
  const steadiness = Math.max(0, 1 - 2 * spread);
  const history = Math.min(1, (stream.transactions.length - 1) / 5);
  return Math.round(40 * stream.regularity + 20 * steadiness + 25 * looksLikeIncome(stream) + 15 * history);
}

export function inclusionOf(confidence: number): EstimateInclusion {
  return confidence >= 70 ? 'HIGH' : confidence >= 50 ? 'MODERATE' : confidence >= 30 ? 'LOW' : 'NO';
}

/**
 * Active while the next payment is not overdue by more than half a cadence (a week at least): a stream that misses
 * one payday stays active until that grace has passed.
 */
export function isActive(lastPaymentDay: number, cadence: Cadence, today: number): boolean {
  return today <= lastPaymentDay + cadence.days + Math.max(7, Math.ceil(cadence.days / 2));
}

/** Per complete month of the window: the amounts of the given deposits (zero in months without one). */
export function monthlyAmounts(transactions: readonly AnalysisTransaction[], window: DayWindow): MonthAmount[] {
  const months = completeMonths(window);
  const byMonth = new Map<number, number>(months.map((m) => [m, 0]));
  for (const t of transactions) {
    const m = monthOfDay(dayOf(t.postedDate));
    if (byMonth.has(m)) byMonth.set(m, byMonth.get(m)! + t.amount);
  }
  return months.map((month) => {
    const net = cents(byMonth.get(month)!);
    return { month, net, gross: cents(net / NET_TO_GROSS) };
  });
}

/** The last twelve complete months: their sum and their mean (over as many months as the window has, up to twelve). */
function lastTwelve(netMonthly: readonly MonthAmount[]): { sum: number; average: number } {
  const last = netMonthly.slice(-12);
  const sum = cents(last.reduce((a, m) => a + m.net, 0));
  return { sum, average: last.length ? cents(sum / last.length) : 0 };
}

/**
 * The income streams of the customer's deposit accounts, ordered by account and first deposit; ids are
 * `<idPrefix><n>` from 1. Streams below `confidenceMinimum` are left out (their deposits stay miscellaneous).
 */
export function incomeStreams(
  accounts: readonly AnalysisAccount[],
  transactions: readonly AnalysisTransaction[],
  window: DayWindow,
  options: { idPrefix?: string; confidenceMinimum?: number } = {},
): IncomeStream[] {
  const streams: IncomeStream[] = [];
  for (const stream of recurringStreams(incomeCandidates(accounts, transactions).filter((t) => !isInvestmentReturn(t)))) {
    const confidence = confidenceOf(stream);
    if (confidence < (options.confidenceMinimum ?? 0)) continue;
    const ordered = [...stream.transactions].sort(chronological);
    const first = ordered[0]!;
    const last = ordered[ordered.length - 1]!;
    const active = isActive(dayOf(last.postedDate), stream.cadence, window.last);
    const netMonthly = monthlyAmounts(ordered, window);
    const { sum: netAnnual, average } = lastTwelve(netMonthly);
    const recent = ordered.slice(-3).map((t) => t.amount);
    const projectedNetAnnual = active ? cents(mean(recent) * stream.cadence.perYear) : 0;
    streams.push({
      id: `${options.idPrefix ?? 'income-'}${streams.length + 1}`,
      accountId: stream.accountId,
      name: stream.name,
      status: active ? 'ACTIVE' : 'INACTIVE',
      estimateInclusion: inclusionOf(confidence),
      confidence,
      cadence: { name: stream.cadence.name, days: stream.cadence.days, startDate: first.postedDate, ...(active ? {} : { stopDate: last.postedDate }) },
      netMonthly,
      netAnnual,
      projectedNetAnnual,
      estimatedGrossAnnual: cents(netAnnual / NET_TO_GROSS),
      projectedGrossAnnual: cents(projectedNetAnnual / NET_TO_GROSS),
      averageMonthlyIncomeNet: average,
      averageMonthlyIncomeGross: cents(average / NET_TO_GROSS),
      incomeStreamMonths: monthOfDay(dayOf(last.postedDate)) - monthOfDay(dayOf(first.postedDate)) + 1,
      transactions: ordered,
    });
  }
  return streams;
}

/** The deposits of an account that are in no income stream, oldest first. */
export function miscellaneousDeposits(
  accountId: number,
  accounts: readonly AnalysisAccount[],
  transactions: readonly AnalysisTransaction[],
  streams: readonly IncomeStream[],
): AnalysisTransaction[] {
  const inStreams = new Set(streams.flatMap((s) => s.transactions.map((t) => t.id)));
  return incomeCandidates(accounts, transactions)
    .filter((t) => t.accountId === accountId && !inStreams.has(t.id))
    .sort(chronological);
}

export interface IncomeSummary {
  confidenceType: EstimateInclusion;
  netMonthly: MonthAmount[];
  averageMonthlyIncomeNet: number;
  averageMonthlyIncomeGross: number;
  incomeEstimate: { netAnnual: number; projectedNetAnnual: number; estimatedGrossAnnual: number; projectedGrossAnnual: number };
}

const LEVELS: readonly EstimateInclusion[] = ['HIGH', 'MODERATE', 'LOW'];

/**
 * The reference's `income` summaries: one per inclusion level that has streams, each adding the streams of that
 * level and the levels above it (MODERATE counts HIGH streams too). Streams of level NO are in none.
 */
export function incomeSummaries(streams: readonly IncomeStream[], window: DayWindow): IncomeSummary[] {
  const out: IncomeSummary[] = [];
  LEVELS.forEach((level, i) => {
    if (!streams.some((s) => s.estimateInclusion === level)) return;
    const included = streams.filter((s) => LEVELS.indexOf(s.estimateInclusion) !== -1 && LEVELS.indexOf(s.estimateInclusion) <= i);
    const netMonthly = monthlyAmounts(
      included.flatMap((s) => s.transactions),
      window,
    );
    const { sum, average } = lastTwelve(netMonthly);
    const projected = cents(included.reduce((a, s) => a + s.projectedNetAnnual, 0));
    out.push({
      confidenceType: level,
      netMonthly,
      averageMonthlyIncomeNet: average,
      averageMonthlyIncomeGross: cents(average / NET_TO_GROSS),
      incomeEstimate: {
        netAnnual: sum,
        projectedNetAnnual: projected,
        estimatedGrossAnnual: cents(sum / NET_TO_GROSS),
        projectedGrossAnnual: cents(projected / NET_TO_GROSS),
      },
    });
  });
  return out;
}
