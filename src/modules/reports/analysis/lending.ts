/**
 * The lending analyses a report reads, each over one customer's data and window: income (VOI), cash flow with
 * balances and NSF events (the cash flow reports), balance analytics, and the period a report covers.
 */
import { inWindow } from './analytics.js';
import {
  type BalanceDay,
  type BalanceSummary,
  combinedSeries,
  dailySeries,
  lastMonthsSummary,
  type MonthlyBalance,
  monthlyBalances,
  type NegativeSpell,
  negativeSpells,
  summarise,
} from './balances.js';
import { type CashFlow, cashFlow } from './cash-flow.js';
import { type DayWindow, dayOf } from './dates.js';
import { type IncomeStream, type IncomeSummary, incomeStreams, incomeSummaries, miscellaneousDeposits } from './income.js';
import { type PossibleLoanDeposits, possibleLoanDeposits } from './loan-deposits.js';
import { type InsufficientFundsSummary, insufficientFunds } from './nsf.js';
import { type PaymentHistory, paymentHistory } from './payment-history.js';
import { cents, mean } from './stats.js';
import { chronological } from './streams.js';
import { ASSET_ACCOUNT_TYPES, type AnalysisInput, type AnalysisTransaction, DEBT_ACCOUNT_TYPES, DEPOSIT_ACCOUNT_TYPES } from './types.js';

/** A report is seasoned when its history covers more than this many days. */
export const SEASONED_DAYS = 180;

export function windowOfInput(input: AnalysisInput): DayWindow {
  return { first: dayOf(input.fromDate), last: dayOf(input.now) };
}

export interface ReportPeriod {
  /** The postedDate of the earliest and latest transactions analysed (the window's ends when there is none). */
  startDate: number;
  endDate: number;
  days: number;
  seasoned: boolean;
}

export function reportPeriod(transactions: readonly AnalysisTransaction[], window: DayWindow): ReportPeriod {
  const ordered = [...transactions].sort(chronological);
  const startDate = ordered[0]?.postedDate ?? window.first * 86_400;
  const endDate = ordered[ordered.length - 1]?.postedDate ?? window.last * 86_400;
  const days = dayOf(endDate) - dayOf(startDate) + 1;
  return { startDate, endDate, days, seasoned: days > SEASONED_DAYS };
}

export interface BalanceFigures {
  summary?: BalanceSummary;
  monthly: MonthlyBalance[];
  lastTwelveMonths?: BalanceSummary;
  lastSixMonths?: BalanceSummary;
  lastTwoMonths?: BalanceSummary;
  negativeSpells: NegativeSpell[];
}

export function balanceFigures(series: readonly BalanceDay[], window: DayWindow): BalanceFigures {
  const figures: BalanceFigures = { monthly: monthlyBalances(series, window), negativeSpells: negativeSpells(series) };
  const summary = summarise(series);
  const twelve = lastMonthsSummary(series, window, 12);
  const six = lastMonthsSummary(series, window, 6);
  const two = lastMonthsSummary(series, window, 2);
  if (summary) figures.summary = summary;
  if (twelve) figures.lastTwelveMonths = twelve;
  if (six) figures.lastSixMonths = six;
  if (two) figures.lastTwoMonths = two;
  return figures;
}

export interface IncomeAccount {
  accountId: number;
  incomeStreams: IncomeStream[];
  miscDeposits: AnalysisTransaction[];
  /** Balance on the window's first day with one. */
  beginningBalance?: number;
  /** Mean of the complete months' average daily balances. */
  averageMonthlyBalance?: number;
}

export interface IncomeAnalysis {
  period: ReportPeriod;
  accounts: IncomeAccount[];
  income: IncomeSummary[];
}

/** Verification of income: the income streams of each deposit account, its other deposits, and the summaries by confidence. */
export function incomeAnalysis(input: AnalysisInput, options: { idPrefix?: string; confidenceMinimum?: number } = {}): IncomeAnalysis {
  const window = windowOfInput(input);
  const deposit = input.accounts.filter((a) => DEPOSIT_ACCOUNT_TYPES.has(a.type));
  const ids = new Set(deposit.map((a) => a.id));
  const transactions = inWindow(input.transactions, window).filter((t) => ids.has(t.accountId));
  const streams = incomeStreams(deposit, transactions, window, options);
  return {
    period: reportPeriod(transactions, window),
    accounts: deposit.map((a) => {
      const series = dailySeries(input.dailyBalances, a.id, window);
      const monthly = monthlyBalances(series, window);
      return {
        accountId: a.id,
        incomeStreams: streams.filter((s) => s.accountId === a.id),
        miscDeposits: miscellaneousDeposits(a.id, deposit, transactions, streams),
        ...(series[0] ? { beginningBalance: series[0].balance } : {}),
        ...(monthly.length ? { averageMonthlyBalance: cents(mean(monthly.map((m) => m.average))) } : {}),
      };
    }),
    income: incomeSummaries(streams, window),
  };
}

export interface CashFlowAccount {
  accountId: number;
  balances: BalanceFigures;
  cashFlow: CashFlow;
  insufficientFunds: InsufficientFundsSummary;
}

export interface CashFlowAnalysis {
  period: ReportPeriod;
  accounts: CashFlowAccount[];
  /** Balances summed over the asset accounts; cash flow over every account. */
  summary: { balances: BalanceFigures; cashFlow: CashFlow };
  /** Accounts with credits that look like borrowed money over the whole window, and those credits (loan-deposits.ts). */
  possibleLoanDeposits: PossibleLoanDeposits[];
}

/** The cash flow reports: per account and for the customer, over the window's complete months. */
export function cashFlowAnalysis(input: AnalysisInput): CashFlowAnalysis {
  const window = windowOfInput(input);
  const ids = new Set(input.accounts.map((a) => a.id));
  const transactions = inWindow(input.transactions, window).filter((t) => ids.has(t.accountId));
  const loans = possibleLoanDeposits(input.accounts, transactions);
  const loanIds = new Set(loans.flatMap((l) => l.transactions.map((t) => t.id)));
  const isLoan = (t: AnalysisTransaction) => loanIds.has(t.id);
  const accounts = input.accounts.map((a) => {
    const own = transactions.filter((t) => t.accountId === a.id);
    const series = dailySeries(input.dailyBalances, a.id, window);
    return {
      type: a.type,
      series,
      result: {
        accountId: a.id,
        balances: balanceFigures(series, window),
        cashFlow: cashFlow(own, window, isLoan),
        insufficientFunds: insufficientFunds(a.id, own, series, window.last),
      },
    };
  });
  const assets = combinedSeries(accounts.filter((a) => ASSET_ACCOUNT_TYPES.has(a.type)).map((a) => a.series));
  return {
    period: reportPeriod(transactions, window),
    accounts: accounts.map((a) => a.result),
    summary: { balances: balanceFigures(assets, window), cashFlow: cashFlow(transactions, window, isLoan) },
    possibleLoanDeposits: loans,
  };
}

/** NSF and overdraft events of each deposit account over the window. */
export function insufficientFundsAnalysis(input: AnalysisInput): InsufficientFundsSummary[] {
  const window = windowOfInput(input);
  const transactions = inWindow(input.transactions, window);
  return input.accounts
    .filter((a) => DEPOSIT_ACCOUNT_TYPES.has(a.type))
    .map((a) => insufficientFunds(a.id, transactions, dailySeries(input.dailyBalances, a.id, window), window.last));
}

/** Loan and credit payments made from the customer's accounts (the debts' own interest and charges are not payments). */
export function paymentHistoryAnalysis(input: AnalysisInput, idPrefix?: string): PaymentHistory {
  const window = windowOfInput(input);
  const paying = new Set(input.accounts.filter((a) => !DEBT_ACCOUNT_TYPES.has(a.type)).map((a) => a.id));
  return paymentHistory(
    inWindow(input.transactions, window).filter((t) => paying.has(t.accountId) && t.amount < 0),
    window.last,
    idPrefix,
  );
}
