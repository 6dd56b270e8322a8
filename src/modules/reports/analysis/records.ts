/**
 * The analyses' results as the reference shapes them in a report (contract/schemas/report-analysis.ts): months as the
 * epoch second they start, the cash flow report's counts as strings. A report kind places these in its body.
 */
import type { Static } from 'typebox';
import type {
  Analytics,
  CashFlowBalance,
  CashFlowBalanceSummary,
  CashFlowCharacteristic,
  CashFlowCharacteristicsSummary,
  CashFlowCredit,
  CashFlowCreditSummary,
  CashFlowDebit,
  CashFlowDebitSummary,
  IncomeStreamFields as IncomeStreamFieldsSchema,
  IncomeSummary as IncomeSummarySchema,
} from '../../../contract/schemas/report-analysis.js';
import type { Analytics as AnalyticsResult } from './analytics.js';
import type { CashFlow } from './cash-flow.js';
import { monthStartEpoch } from './dates.js';
import type { IncomeStream, IncomeSummary, MonthAmount } from './income.js';
import type { BalanceFigures } from './lending.js';
import type { AnalysisTransaction } from './types.js';

type IncomeStreamFields = Static<typeof IncomeStreamFieldsSchema>;

const netMonthly = (months: readonly MonthAmount[]) => months.map((m) => ({ month: monthStartEpoch(m.month), net: m.net, gross: m.gross }));

/** An income stream with its deposits as the report's transaction records. */
export function incomeStreamRecord<T>(stream: IncomeStream, transactionOf: (t: AnalysisTransaction) => T): IncomeStreamFields & { transactions: T[] } {
  return {
    id: stream.id,
    name: stream.name,
    status: stream.status,
    estimateInclusion: stream.estimateInclusion,
    confidence: stream.confidence,
    cadence: {
      startDate: stream.cadence.startDate,
      ...(stream.cadence.stopDate !== undefined ? { stopDate: stream.cadence.stopDate } : {}),
      days: stream.cadence.days,
    },
    netMonthly: netMonthly(stream.netMonthly),
    netAnnual: stream.netAnnual,
    projectedNetAnnual: stream.projectedNetAnnual,
    estimatedGrossAnnual: stream.estimatedGrossAnnual,
    projectedGrossAnnual: stream.projectedGrossAnnual,
    averageMonthlyIncomeNet: stream.averageMonthlyIncomeNet,
    averageMonthlyIncomeGross: stream.averageMonthlyIncomeGross,
    incomeStreamMonths: stream.incomeStreamMonths,
    transactions: stream.transactions.map(transactionOf),
  };
}

export function incomeSummaryRecord(summary: IncomeSummary): Static<typeof IncomeSummarySchema> {
  return {
    confidenceType: summary.confidenceType,
    netMonthly: netMonthly(summary.netMonthly),
    averageMonthlyIncomeNet: summary.averageMonthlyIncomeNet,
    averageMonthlyIncomeGross: summary.averageMonthlyIncomeGross,
    incomeEstimate: { ...summary.incomeEstimate },
  };
}

const text = (n: number) => String(n);

function balanceParts(figures: BalanceFigures) {
  const months = figures.monthly.map((m) => ({
    month: monthStartEpoch(m.month),
    minDailyBalance: m.min,
    maxDailyBalance: m.max,
    averageDailyBalance: m.average,
    standardDeviationOfDailyBalance: text(m.standardDeviation),
    numberOfDaysNegativeBalance: text(m.daysNegative),
    numberOfDaysPositiveBalance: text(m.daysPositive),
  }));
  const s = figures.summary;
  const totals = {
    minDailyBalance: s?.min ?? 0,
    maxDailyBalance: s?.max ?? 0,
    twelveMonthAverageDailyBalance: figures.lastTwelveMonths?.average ?? 0,
    sixMonthAverageDailyBalance: figures.lastSixMonths?.average ?? 0,
    twoMonthAverageDailyBalance: figures.lastTwoMonths?.average ?? 0,
    twelveMonthStandardDeviationOfDailyBalance: text(figures.lastTwelveMonths?.standardDeviation ?? 0),
    sixMonthStandardDeviationOfDailyBalance: text(figures.lastSixMonths?.standardDeviation ?? 0),
    twoMonthStandardDeviationOfDailyBalance: text(figures.lastTwoMonths?.standardDeviation ?? 0),
    numberOfDaysPositiveBalance: text(s?.daysPositive ?? 0),
  };
  return { months, totals, negative: text(s?.daysNegative ?? 0) };
}

function flowParts(flow: CashFlow) {
  const credits = flow.credits.map((c) => ({
    month: monthStartEpoch(c.month),
    numberOfCredits: text(c.numberOfCredits),
    totalCreditsAmount: c.totalCreditsAmount,
    largestCredit: c.largestCredit,
    numberOfCreditsLessTransfers: text(c.numberOfCreditsLessTransfers),
    totalCreditsAmountLessTransfers: c.totalCreditsAmountLessTransfers,
    averageCreditAmount: c.averageCreditAmount,
    estimatedNumberOfLoanDeposits: text(c.estimatedNumberOfLoanDeposits),
    estimatedLoanDepositAmount: c.estimatedLoanDepositAmount,
  }));
  const creditTotals = {
    twelveMonthCreditTotal: flow.creditTotals.twelve,
    twelveMonthCreditTotalLessTransfers: flow.creditTotalsLessTransfers.twelve,
    sixMonthCreditTotal: flow.creditTotals.six,
    sixMonthCreditTotalLessTransfers: flow.creditTotalsLessTransfers.six,
    twoMonthCreditTotal: flow.creditTotals.two,
    twoMonthCreditTotalLessTransfers: flow.creditTotalsLessTransfers.two,
  };
  const debits = flow.debits.map((d) => ({
    month: monthStartEpoch(d.month),
    numberOfDebits: text(d.numberOfDebits),
    totalDebitsAmount: d.totalDebitsAmount,
    largestDebit: d.largestDebit,
    numberOfDebitsLessTransfers: text(d.numberOfDebitsLessTransfers),
    totalDebitsAmountLessTransfers: d.totalDebitsAmountLessTransfers,
    averageDebitAmount: d.averageDebitAmount,
  }));
  const debitTotals = {
    twelveMonthDebitTotal: flow.debitTotals.twelve,
    twelveMonthDebitTotalLessTransfers: flow.debitTotalsLessTransfers.twelve,
    sixMonthDebitTotal: flow.debitTotals.six,
    sixMonthDebitTotalLessTransfers: flow.debitTotalsLessTransfers.six,
    twoMonthDebitTotal: flow.debitTotals.two,
    twoMonthDebitTotalLessTransfers: flow.debitTotalsLessTransfers.two,
  };
  const nets = flow.net.map((n) => ({ ...n, month: monthStartEpoch(n.month) }));
  const netTotals = {
    averageMonthlyNet: flow.averageMonthlyNet,
    averageMonthlyNetLessTransfers: flow.averageMonthlyNetLessTransfers,
    twelveMonthTotalNet: flow.twelveMonthTotalNet,
    twelveMonthTotalNetLessTransfers: flow.twelveMonthTotalNetLessTransfers,
    sixMonthAverageTotalCreditsLessTotalDebits: flow.sixMonthAverageNet,
    sixMonthAverageTotalCreditsLessTotalDebitsLessTransfers: flow.sixMonthAverageNetLessTransfers,
    twoMonthAverageTotalCreditsLessTotalDebits: flow.twoMonthAverageNet,
    twoMonthAverageTotalCreditsLessTotalDebitsLessTransfers: flow.twoMonthAverageNetLessTransfers,
  };
  return { credits, creditTotals, debits, debitTotals, nets, netTotals };
}

/** The cash flow report's figures of one account. */
export function cashFlowAccountRecord(balances: BalanceFigures, flow: CashFlow) {
  const b = balanceParts(balances);
  const f = flowParts(flow);
  return {
    cashFlowBalance: { monthlyCashFlowBalances: b.months, ...b.totals, numberDaysNegativeBalance: b.negative } satisfies Static<typeof CashFlowBalance>,
    cashFlowCredit: { monthlyCashFlowCredits: f.credits, ...f.creditTotals } satisfies Static<typeof CashFlowCredit>,
    cashFlowDebit: { monthlyCashFlowDebits: f.debits, ...f.debitTotals } satisfies Static<typeof CashFlowDebit>,
    cashFlowCharacteristic: { monthlyCashFlowCharacteristics: f.nets, ...f.netTotals } satisfies Static<typeof CashFlowCharacteristic>,
  };
}

/** The cash flow report's figures for the customer (its `...Summary` fields). */
export function cashFlowSummaryRecord(balances: BalanceFigures, flow: CashFlow) {
  const b = balanceParts(balances);
  const f = flowParts(flow);
  return {
    cashFlowBalanceSummary: { monthlyCashFlowBalanceSummaries: b.months, ...b.totals, numberOfDaysNegativeBalance: b.negative } satisfies Static<
      typeof CashFlowBalanceSummary
    >,
    cashFlowCreditSummary: { monthlyCashFlowCreditSummaries: f.credits, ...f.creditTotals } satisfies Static<typeof CashFlowCreditSummary>,
    cashFlowDebitSummary: { monthlyCashFlowDebitSummaries: f.debits, ...f.debitTotals } satisfies Static<typeof CashFlowDebitSummary>,
    cashFlowCharacteristicsSummary: { monthlyCashFlowCharacteristicsSummaries: f.nets, ...f.netTotals } satisfies Static<typeof CashFlowCharacteristicsSummary>,
  };
}

/** The analytics of an account or the customer, as the analytics reports answer them. */
export function analyticsRecord(analytics: AnalyticsResult): Static<typeof Analytics> {
  return analytics;
}
