/**
 * Cash flow (the reference's cash flow reports, personal and business): credits and debits per complete calendar
 * month, with and without transfers between the customer's own accounts, the loan deposits among the credits,
 * outflows by category group, and the totals and averages over the last twelve, six and two months.
 */
import { type CategoryGroup, categoryGroupOf, isLoanDeposit, isTransfer } from './category-groups.js';
import { completeMonths, type DayWindow, dayOf, monthOfDay } from './dates.js';
import { cents, mean } from './stats.js';
import type { AnalysisTransaction } from './types.js';

export interface MonthlyCredits {
  month: number;
  numberOfCredits: number;
  totalCreditsAmount: number;
  largestCredit: number;
  numberOfCreditsLessTransfers: number;
  totalCreditsAmountLessTransfers: number;
  averageCreditAmount: number;
  estimatedNumberOfLoanDeposits: number;
  estimatedLoanDepositAmount: number;
}

export interface MonthlyDebits {
  month: number;
  numberOfDebits: number;
  /** Negative. */
  totalDebitsAmount: number;
  /** The debit of the largest size (the most negative). */
  largestDebit: number;
  numberOfDebitsLessTransfers: number;
  totalDebitsAmountLessTransfers: number;
  averageDebitAmount: number;
  /** Debits (less transfers) by category group; those of no group under `other`. */
  byGroup: Partial<Record<CategoryGroup | 'other', number>>;
}

export interface MonthlyNet {
  month: number;
  totalCreditsLessTotalDebits: number;
  totalCreditsLessTotalDebitsLessTransfers: number;
  /** The month's net over its number of transactions. */
  averageTransactionAmount: number;
}

/** Sums over the last N complete months, for N in 12, 6, 2. */
export interface PeriodTotals {
  twelve: number;
  six: number;
  two: number;
}

export interface CashFlow {
  months: number[];
  credits: MonthlyCredits[];
  debits: MonthlyDebits[];
  net: MonthlyNet[];
  creditTotals: PeriodTotals;
  creditTotalsLessTransfers: PeriodTotals;
  debitTotals: PeriodTotals;
  debitTotalsLessTransfers: PeriodTotals;
  /** Mean of the monthly nets over every complete month. */
  averageMonthlyNet: number;
  averageMonthlyNetLessTransfers: number;
  twelveMonthTotalNet: number;
  twelveMonthTotalNetLessTransfers: number;
  /** Means of the monthly nets over the last six and two months. */
  sixMonthAverageNet: number;
  sixMonthAverageNetLessTransfers: number;
  twoMonthAverageNet: number;
  twoMonthAverageNetLessTransfers: number;
  /** Credits that look like borrowed money, oldest first. */
  loanDeposits: AnalysisTransaction[];
}

function totals(values: readonly number[]): PeriodTotals {
  const last = (n: number) => cents(values.slice(-n).reduce((a, b) => a + b, 0));
  return { twelve: last(12), six: last(6), two: last(2) };
}

const lastMean = (values: readonly number[], n: number) => cents(mean(values.slice(-n)));

/**
 * The cash flow of the given transactions (one account's, or all accounts' for the summary) over the window's complete
 * months. `isLoan` tells loan deposits (the cash flow analysis passes the possible loan deposits it found).
 */
export function cashFlow(
  transactions: readonly AnalysisTransaction[],
  window: DayWindow,
  isLoan: (t: AnalysisTransaction) => boolean = isLoanDeposit,
): CashFlow {
  const months = completeMonths(window);
  const byMonth = new Map<number, AnalysisTransaction[]>(months.map((m) => [m, []]));
  for (const t of transactions) byMonth.get(monthOfDay(dayOf(t.postedDate)))?.push(t);
  const credits: MonthlyCredits[] = [];
  const debits: MonthlyDebits[] = [];
  const net: MonthlyNet[] = [];
  const loanDeposits: AnalysisTransaction[] = [];
  for (const month of months) {
    const list = byMonth.get(month)!;
    const ins = list.filter((t) => t.amount > 0);
    const outs = list.filter((t) => t.amount < 0);
    const insOwn = ins.filter((t) => !isTransfer(t));
    const outsOwn = outs.filter((t) => !isTransfer(t));
    const loans = ins.filter(isLoan);
    loanDeposits.push(...loans);
    const add = (xs: readonly AnalysisTransaction[]) => cents(xs.reduce((a, t) => a + t.amount, 0));
    const totalIn = add(ins);
    const totalOut = add(outs);
    credits.push({
      month,
      numberOfCredits: ins.length,
      totalCreditsAmount: totalIn,
      largestCredit: ins.reduce((a, t) => Math.max(a, t.amount), 0),
      numberOfCreditsLessTransfers: insOwn.length,
      totalCreditsAmountLessTransfers: add(insOwn),
      averageCreditAmount: ins.length ? cents(totalIn / ins.length) : 0,
      estimatedNumberOfLoanDeposits: loans.length,
      estimatedLoanDepositAmount: add(loans),
    });
    const byGroup: Partial<Record<CategoryGroup | 'other', number>> = {};
    for (const t of outsOwn) {
      const group = categoryGroupOf(t.category) ?? 'other';
      byGroup[group] = cents((byGroup[group] ?? 0) + t.amount);
    }
    debits.push({
      month,
      numberOfDebits: outs.length,
      totalDebitsAmount: totalOut,
      largestDebit: outs.reduce((a, t) => Math.min(a, t.amount), 0),
      numberOfDebitsLessTransfers: outsOwn.length,
      totalDebitsAmountLessTransfers: add(outsOwn),
      averageDebitAmount: outs.length ? cents(totalOut / outs.length) : 0,
      byGroup,
    });
    const monthNet = cents(totalIn + totalOut);
    net.push({
      month,
      totalCreditsLessTotalDebits: monthNet,
      totalCreditsLessTotalDebitsLessTransfers: cents(add(insOwn) + add(outsOwn)),
      averageTransactionAmount: list.length ? cents(monthNet / list.length) : 0,
    });
  }
  const nets = net.map((n) => n.totalCreditsLessTotalDebits);
  const netsOwn = net.map((n) => n.totalCreditsLessTotalDebitsLessTransfers);
  return {
    months,
    credits,
    debits,
    net,
    creditTotals: totals(credits.map((c) => c.totalCreditsAmount)),
    creditTotalsLessTransfers: totals(credits.map((c) => c.totalCreditsAmountLessTransfers)),
    debitTotals: totals(debits.map((d) => d.totalDebitsAmount)),
    debitTotalsLessTransfers: totals(debits.map((d) => d.totalDebitsAmountLessTransfers)),
    averageMonthlyNet: cents(mean(nets)),
    averageMonthlyNetLessTransfers: cents(mean(netsOwn)),
    twelveMonthTotalNet: totals(nets).twelve,
    twelveMonthTotalNetLessTransfers: totals(netsOwn).twelve,
    sixMonthAverageNet: lastMean(nets, 6),
    sixMonthAverageNetLessTransfers: lastMean(netsOwn, 6),
    twoMonthAverageNet: lastMean(nets, 2),
    twoMonthAverageNetLessTransfers: lastMean(netsOwn, 2),
    loanDeposits: loanDeposits.sort((a, b) => a.postedDate - b.postedDate || a.id - b.id),
  };
}
