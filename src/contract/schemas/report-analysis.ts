import Type from 'typebox';

/**
 * The computed parts of the lending reports, as the reference shapes them (docs/reports-analysis.md): income streams
 * and their summaries (VOI, VOA with income), the cash flow report's balance, credit, debit and net figures per
 * account and for the customer, and the analytics reports' attributes and streams. A report's schema composes them
 * with its own header, institutions and transaction records; a stream's `transactions` are the report's transaction
 * records, so its fields are given here without them.
 */

const money = (description: string) => Type.Number({ description });
const epoch = (description: string) => Type.Integer({ description: `${description} (epoch seconds)` });
/** The reference gives counts in the cash flow report as strings. */
const countText = (description: string) => Type.String({ description, examples: ['3'] });

export const NetMonthly = Type.Object({
  month: epoch('The first second of the month (UTC)'),
  net: money('Income deposited in the month'),
  gross: Type.Optional(money('The same before withholding, estimated as net ÷ 0.8')),
});

/** VOIReportIncomeStream without its transactions. */
export const incomeStreamFields = {
  id: Type.String({ examples: ['dens28i3vsch-voi1'] }),
  name: Type.String({ description: 'The payer, from the normalised payee of its deposits' }),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
  estimateInclusion: Type.Union([Type.Literal('HIGH'), Type.Literal('MODERATE'), Type.Literal('LOW'), Type.Literal('NO')]),
  confidence: Type.Integer({ minimum: 0, maximum: 100, description: 'Confidence (0 to 100) that the deposits are income' }),
  cadence: Type.Object({
    startDate: Type.Optional(epoch('postedDate of the first deposit')),
    stopDate: Type.Optional(epoch('postedDate of the last deposit, when the stream is inactive')),
    days: Type.Optional(Type.Integer({ description: 'Days between deposits: 7, 14, 15, 30, 91 or 365' })),
  }),
  netMonthly: Type.Optional(Type.Array(NetMonthly, { description: 'One per complete calendar month of the report' })),
  netAnnual: Type.Optional(money('The last twelve complete months')),
  projectedNetAnnual: Type.Optional(money('Next twelve months at the last payments (0 when inactive)')),
  estimatedGrossAnnual: Type.Optional(money('netAnnual ÷ 0.8')),
  projectedGrossAnnual: Type.Optional(money('projectedNetAnnual ÷ 0.8')),
  averageMonthlyIncomeNet: Type.Optional(money('Mean of the last twelve complete months')),
  averageMonthlyIncomeGross: Type.Optional(money('averageMonthlyIncomeNet ÷ 0.8')),
  incomeStreamMonths: Type.Optional(Type.Integer({ description: 'Calendar months from the first deposit to the last' })),
};

/** An income stream's own fields (a report adds its `transactions`). */
export const IncomeStreamFields = Type.Object(incomeStreamFields);

/** ReportIncomeStreamSummary: the income of the streams of one confidence level and those above it. */
export const IncomeSummary = Type.Object({
  confidenceType: incomeStreamFields.estimateInclusion,
  netMonthly: Type.Array(NetMonthly),
  averageMonthlyIncomeNet: Type.Optional(money('Mean of the last twelve complete months')),
  averageMonthlyIncomeGross: Type.Optional(money('averageMonthlyIncomeNet ÷ 0.8')),
  incomeEstimate: Type.Object({
    netAnnual: money('The last twelve complete months'),
    projectedNetAnnual: money('Next twelve months of the active streams'),
    estimatedGrossAnnual: money('netAnnual ÷ 0.8'),
    projectedGrossAnnual: money('projectedNetAnnual ÷ 0.8'),
  }),
});

const balanceMonthFields = {
  month: epoch('The first second of the month (UTC)'),
  minDailyBalance: money('Lowest end-of-day balance'),
  maxDailyBalance: money('Highest end-of-day balance'),
  averageDailyBalance: money('Mean end-of-day balance'),
  standardDeviationOfDailyBalance: Type.Optional(countText('Standard deviation of the end-of-day balances')),
  numberOfDaysNegativeBalance: countText('Days ending below zero'),
  numberOfDaysPositiveBalance: countText('Days ending above zero'),
};

const balanceTotalsFields = {
  minDailyBalance: money('Lowest end-of-day balance of the report'),
  maxDailyBalance: money('Highest end-of-day balance of the report'),
  twelveMonthAverageDailyBalance: money('Mean over the last twelve complete months'),
  sixMonthAverageDailyBalance: money('Mean over the last six complete months'),
  twoMonthAverageDailyBalance: money('Mean over the last two complete months'),
  twelveMonthStandardDeviationOfDailyBalance: countText('Standard deviation over the last twelve complete months'),
  sixMonthStandardDeviationOfDailyBalance: Type.Optional(countText('Standard deviation over the last six complete months')),
  twoMonthStandardDeviationOfDailyBalance: countText('Standard deviation over the last two complete months'),
  numberOfDaysPositiveBalance: countText('Days ending above zero'),
};

/** CashFlowCashFlowBalance (one account). */
export const CashFlowBalance = Type.Object({
  monthlyCashFlowBalances: Type.Array(Type.Object(balanceMonthFields)),
  ...balanceTotalsFields,
  numberDaysNegativeBalance: Type.Optional(countText('Days ending below zero')),
});

/** CashFlowCashFlowBalanceSummary (the customer's asset accounts together). */
export const CashFlowBalanceSummary = Type.Object({
  monthlyCashFlowBalanceSummaries: Type.Array(Type.Object(balanceMonthFields)),
  ...balanceTotalsFields,
  numberOfDaysNegativeBalance: countText('Days ending below zero'),
});

const creditMonthFields = {
  month: epoch('The first second of the month (UTC)'),
  numberOfCredits: countText('Credits'),
  totalCreditsAmount: money('Their total'),
  largestCredit: money('The largest'),
  numberOfCreditsLessTransfers: countText('Credits that are not transfers between own accounts'),
  totalCreditsAmountLessTransfers: money('Their total'),
  averageCreditAmount: money('totalCreditsAmount ÷ numberOfCredits'),
  estimatedNumberOfLoanDeposits: countText('Credits of borrowed money'),
  estimatedLoanDepositAmount: money('Their total'),
};

const creditTotalsFields = {
  twelveMonthCreditTotal: money('Last twelve complete months'),
  twelveMonthCreditTotalLessTransfers: money('Last twelve complete months, without transfers'),
  sixMonthCreditTotal: money('Last six complete months'),
  sixMonthCreditTotalLessTransfers: money('Last six complete months, without transfers'),
  twoMonthCreditTotal: money('Last two complete months'),
  twoMonthCreditTotalLessTransfers: money('Last two complete months, without transfers'),
};

export const CashFlowCredit = Type.Object({ monthlyCashFlowCredits: Type.Array(Type.Object(creditMonthFields)), ...creditTotalsFields });
export const CashFlowCreditSummary = Type.Object({ monthlyCashFlowCreditSummaries: Type.Array(Type.Object(creditMonthFields)), ...creditTotalsFields });

const debitMonthFields = {
  month: epoch('The first second of the month (UTC)'),
  numberOfDebits: countText('Debits'),
  totalDebitsAmount: money('Their total (negative)'),
  largestDebit: money('The largest (most negative)'),
  numberOfDebitsLessTransfers: countText('Debits that are not transfers between own accounts'),
  totalDebitsAmountLessTransfers: money('Their total'),
  averageDebitAmount: money('totalDebitsAmount ÷ numberOfDebits'),
};

const debitTotalsFields = {
  twelveMonthDebitTotal: money('Last twelve complete months'),
  twelveMonthDebitTotalLessTransfers: money('Last twelve complete months, without transfers'),
  sixMonthDebitTotal: money('Last six complete months'),
  sixMonthDebitTotalLessTransfers: money('Last six complete months, without transfers'),
  twoMonthDebitTotal: money('Last two complete months'),
  twoMonthDebitTotalLessTransfers: money('Last two complete months, without transfers'),
};

export const CashFlowDebit = Type.Object({ monthlyCashFlowDebits: Type.Array(Type.Object(debitMonthFields)), ...debitTotalsFields });
export const CashFlowDebitSummary = Type.Object({ monthlyCashFlowDebitSummaries: Type.Array(Type.Object(debitMonthFields)), ...debitTotalsFields });

const netMonthFields = {
  month: epoch('The first second of the month (UTC)'),
  totalCreditsLessTotalDebits: money('Credits plus debits'),
  totalCreditsLessTotalDebitsLessTransfers: money('The same without transfers'),
  averageTransactionAmount: money("The month's net over its number of transactions"),
};

const netTotalsFields = {
  averageMonthlyNet: money('Mean of every complete month'),
  averageMonthlyNetLessTransfers: money('The same without transfers'),
  twelveMonthTotalNet: money('Last twelve complete months'),
  twelveMonthTotalNetLessTransfers: money('The same without transfers'),
  sixMonthAverageTotalCreditsLessTotalDebits: money('Mean of the last six complete months'),
  sixMonthAverageTotalCreditsLessTotalDebitsLessTransfers: money('The same without transfers'),
  twoMonthAverageTotalCreditsLessTotalDebits: money('Mean of the last two complete months'),
  twoMonthAverageTotalCreditsLessTotalDebitsLessTransfers: money('The same without transfers'),
};

export const CashFlowCharacteristic = Type.Object({ monthlyCashFlowCharacteristics: Type.Array(Type.Object(netMonthFields)), ...netTotalsFields });
export const CashFlowCharacteristicsSummary = Type.Object({
  monthlyCashFlowCharacteristicsSummaries: Type.Array(Type.Object(netMonthFields)),
  ...netTotalsFields,
});

export const TIME_INTERVAL_TYPES = ['MONTHLY_CALENDAR', 'MONTHLY_ROLLING_30', 'HISTORICALLY'] as const;
export const TimeIntervalType = Type.Union([Type.Literal('MONTHLY_CALENDAR'), Type.Literal('MONTHLY_ROLLING_30'), Type.Literal('HISTORICALLY')]);

const periodFields = {
  startDate: Type.String({ format: 'date', examples: ['2022-12-01'] }),
  endDate: Type.String({ format: 'date', examples: ['2023-01-01'] }),
  count: Type.Integer({ description: 'Transactions (transactional attributes) or days (state attributes) in the period' }),
  sum: Type.Optional(Type.Number()),
  mean: Type.Optional(Type.Number()),
  median: Type.Optional(Type.Number()),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
  standardDeviation: Type.Optional(Type.Number()),
};

export const TransactionalAttribute = Type.Object({
  attributeName: Type.String({ examples: ['CASH_INFLOW'] }),
  streamIds: Type.Array(Type.String()),
  transactionIds: Type.Array(Type.String()),
  aggregatedByTimePeriods: Type.Array(Type.Object({ timeIntervalType: TimeIntervalType, periods: Type.Array(Type.Object(periodFields)) })),
});

export const StateAttribute = Type.Object({
  attributeName: Type.String({ examples: ['NET_CASH_FLOW'] }),
  reportedByTimePeriods: Type.Array(
    Type.Object({
      timeIntervalType: TimeIntervalType,
      periods: Type.Array(Type.Object({ ...periodFields, beginningValue: Type.Number(), endingValue: Type.Number() })),
    }),
  ),
});

export const StreamModel = Type.Object({
  id: Type.String(),
  payee: Type.String({ description: 'Who receives the money' }),
  payor: Type.String({ description: 'Who sends it' }),
  cadence: Type.Integer({ description: 'Days between its transactions; 0 when they follow no cadence' }),
  recency: Type.Integer({ description: 'Days since its last transaction' }),
  transactionIds: Type.Array(Type.String()),
});

/** AccountAnalytics and CustomerAnalytics. */
export const Analytics = Type.Object({
  transactionalAttributes: Type.Array(TransactionalAttribute),
  stateAttributes: Type.Array(StateAttribute),
  streams: Type.Array(StreamModel),
});
