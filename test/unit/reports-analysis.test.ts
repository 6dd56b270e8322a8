import { describe, expect, it } from 'vitest';
import type { AccountRecord, TransactionRecord } from '../../src/modules/aggregation/records.js';
import { analyticsReport } from '../../src/modules/reports/analysis/analytics.js';
import { dailySeries } from '../../src/modules/reports/analysis/balances.js';
import { cashFlow } from '../../src/modules/reports/analysis/cash-flow.js';
import { dayOfText, monthOfDay, windowOf } from '../../src/modules/reports/analysis/dates.js';
import { analysisInputOf } from '../../src/modules/reports/analysis/from-records.js';
import { balanceFigures, incomeAnalysis, insufficientFundsAnalysis } from '../../src/modules/reports/analysis/lending.js';
import { paymentHistory } from '../../src/modules/reports/analysis/payment-history.js';
import { cadenceOf, paymentGaps } from '../../src/modules/reports/analysis/streams.js';
import type { AnalysisAccount, AnalysisInput, AnalysisTransaction } from '../../src/modules/reports/analysis/types.js';

/** Noon UTC of a day, as institutions post. */
const at = (day: string) => dayOfText(day) * 86_400 + 12 * 3600;
const month = (text: string) => monthOfDay(dayOfText(`${text}-01`));

let nextId = 1;
function tx(accountId: number, day: string, amount: number, description: string, more: Partial<AnalysisTransaction> = {}): AnalysisTransaction {
  return { id: nextId++, accountId, amount, postedDate: at(day), description, ...more };
}

const checking = (id: number): AnalysisAccount => ({ id, name: 'Checking', type: 'checking', currency: 'USD' });

function input(
  accounts: AnalysisAccount[],
  transactions: AnalysisTransaction[],
  from: string,
  now: string,
  dailyBalances: AnalysisInput['dailyBalances'] = [],
): AnalysisInput {
  return { accounts, transactions, dailyBalances, fromDate: at(from) - 12 * 3600, now: at(now), holderName: 'Pat Doe' };
}

describe('income streams', () => {
  const salary = ['2025-01-03', '2025-01-17', '2025-01-31', '2025-02-14', '2025-02-28', '2025-03-14', '2025-03-28'].map((d) =>
    tx(1, d, 1500, 'ACME CORP PAYROLL DIR DEP', { category: 'Paycheck', payee: 'Acme Corp', type: 'directDeposit' }),
  );
  const pension = ['2025-01-02', '2025-02-03', '2025-03-03'].map((d) => tx(1, d, 800, 'STATE PENSION DIR DEP', { category: 'Income', payee: 'State Pension' }));
  const gig = ['2025-01-06', '2025-01-13', '2025-01-20', '2025-01-27'].map((d) => tx(1, d, 200, 'GIGWORK ESCROW', { category: 'Deposit' }));
  const oneOff = tx(1, '2025-02-20', 50, 'VENMO CASHOUT', { category: 'Deposit' });
  const transfer = tx(1, '2025-03-05', 300, 'ONLINE TRANSFER FROM SAVINGS', { category: 'Transfer', transfer: true });
  const data = input([checking(1)], [...salary, ...pension, ...gig, oneOff, transfer], '2025-01-01', '2025-04-10');
  const analysis = incomeAnalysis(data, { idPrefix: 'r1-voi' });
  const streams = analysis.accounts[0]!.incomeStreams;

  it('finds a biweekly salary, a monthly pension and a weekly side income that stopped', () => {
    expect(streams.map((s) => [s.id, s.name, s.cadence.name, s.cadence.days, s.status, s.confidence, s.estimateInclusion])).toEqual([
      ['r1-voi1', 'State Pension', 'monthly', 30, 'ACTIVE', 91, 'HIGH'],
      ['r1-voi2', 'Acme Corp', 'biweekly', 14, 'ACTIVE', 100, 'HIGH'],
      ['r1-voi3', 'Gigwork Escrow', 'weekly', 7, 'INACTIVE', 69, 'MODERATE'],
    ]);
    expect(streams[2]!.cadence.stopDate).toBe(at('2025-01-27'));
    expect(streams[1]!.cadence.stopDate).toBeUndefined();
  });

  it('adds up the salary per complete month and projects it over a year of paydays', () => {
    const s = streams[1]!;
    expect(s.netMonthly).toEqual([
      { month: month('2025-01'), net: 4500, gross: 5625 },
      { month: month('2025-02'), net: 3000, gross: 3750 },
      { month: month('2025-03'), net: 3000, gross: 3750 },
    ]);
    expect([s.netAnnual, s.averageMonthlyIncomeNet, s.averageMonthlyIncomeGross, s.estimatedGrossAnnual]).toEqual([10500, 3500, 4375, 13125]);
    expect([s.projectedNetAnnual, s.projectedGrossAnnual, s.incomeStreamMonths]).toEqual([39000, 48750, 3]);
    expect(streams[2]!.projectedNetAnnual).toBe(0);
  });

  it('leaves the one-off deposit miscellaneous and the transfer out', () => {
    expect(analysis.accounts[0]!.miscDeposits.map((t) => t.id)).toEqual([oneOff.id]);
    expect(streams.flatMap((s) => s.transactions).some((t) => t.id === transfer.id)).toBe(false);
  });

  it('summarises income by confidence, each level with the levels above it', () => {
    expect(analysis.income.map((i) => [i.confidenceType, i.netMonthly.map((m) => m.net), i.averageMonthlyIncomeNet, i.incomeEstimate])).toEqual([
      ['HIGH', [5300, 3800, 3800], 4300, { netAnnual: 12900, projectedNetAnnual: 48600, estimatedGrossAnnual: 16125, projectedGrossAnnual: 60750 }],
      ['MODERATE', [6100, 3800, 3800], 4566.67, { netAnnual: 13700, projectedNetAnnual: 48600, estimatedGrossAnnual: 17125, projectedGrossAnnual: 60750 }],
    ]);
  });

  it('drops streams under the confidence minimum', () => {
    const strict = incomeAnalysis(data, { confidenceMinimum: 70 }).accounts[0]!;
    expect(strict.incomeStreams.map((s) => s.name)).toEqual(['State Pension', 'Acme Corp']);
    expect(strict.miscDeposits).toHaveLength(5);
  });

  it('tells semimonthly pay from biweekly pay by its weekdays', () => {
    const days = ['2025-01-15', '2025-01-31', '2025-02-14', '2025-02-28', '2025-03-14', '2025-03-31', '2025-04-15', '2025-04-30'];
    expect(cadenceOf(paymentGaps(days.map((d) => tx(1, d, 1, 'X'))))?.name).toBe('semimonthly');
    expect(cadenceOf([14, 14, 14, 14])?.name).toBe('biweekly');
    expect(cadenceOf([3, 40, 9])).toBeUndefined();
  });
});

describe('NSF and overdrafts', () => {
  const transactions = [
    tx(2, '2025-02-10', -35, 'OVERDRAFT FEE', { type: 'fee', category: 'Bank Fee' }),
    tx(2, '2025-02-12', -35, 'NSF RETURNED ITEM FEE', { type: 'fee' }),
    tx(2, '2025-02-12', 60, 'RETURNED ITEM ACME GYM', { type: 'credit' }),
    tx(2, '2025-02-20', 35, 'OVERDRAFT FEE REFUND', { type: 'credit' }),
    tx(2, '2025-02-21', -35, 'MONTHLY MAINTENANCE FEE', { type: 'serviceCharge', category: 'Service Fee' }),
  ];
  const balances = [
    ['2025-01-01', 500],
    ['2025-02-09', 100],
    ['2025-02-10', -20],
    ['2025-02-12', -55],
    ['2025-02-13', 40],
    ['2025-03-05', -5],
    ['2025-03-06', 10],
  ].map(([day, balance]) => ({ accountId: 2, day: day as string, balance: balance as number }));
  const [summary] = insufficientFundsAnalysis(input([checking(2)], transactions, '2025-01-01', '2025-04-10', balances));

  it('counts the fees by kind, their reversal and the returned item, and not other fees', () => {
    expect(summary).toMatchObject({
      nsfFeeCount: 1,
      overdraftFeeCount: 1,
      feeCount: 2,
      feeTotal: -70,
      reversalCount: 1,
      reversalTotal: 35,
      returnedItemCount: 1,
    });
    expect([summary!.lastFeeDate, summary!.daysSinceLastFee]).toEqual([at('2025-02-12'), 57]);
  });

  it('finds the runs of days below zero, a day without a balance keeping the one before', () => {
    expect(summary!.negativeBalanceDays).toBe(4);
    expect(summary!.negativeSpells.map((s) => [s.days, s.lowest])).toEqual([
      [3, -55],
      [1, -5],
    ]);
  });
});

describe('cash flow', () => {
  const list = [
    tx(3, '2025-01-05', 1000, 'ACME PAYROLL', { category: 'Paycheck' }),
    tx(3, '2025-01-10', -200, 'KROGER', { category: 'Groceries' }),
    tx(3, '2025-01-15', -300, 'ONLINE TRANSFER TO SAVINGS', { category: 'Transfer', transfer: true }),
    tx(3, '2025-01-20', 500, 'LOAN PROCEEDS QUICKCASH', { category: 'Loans' }),
    tx(3, '2025-02-05', 1000, 'ACME PAYROLL', { category: 'Paycheck' }),
    tx(3, '2025-02-06', -50, 'OLIVE GARDEN', { category: 'Restaurants' }),
  ];
  const flow = cashFlow(list, windowOf(at('2025-01-01'), at('2025-04-10')));

  it('counts credits and debits of each complete month, with and without transfers', () => {
    expect(flow.credits[0]).toEqual({
      month: month('2025-01'),
      numberOfCredits: 2,
      totalCreditsAmount: 1500,
      largestCredit: 1000,
      numberOfCreditsLessTransfers: 2,
      totalCreditsAmountLessTransfers: 1500,
      averageCreditAmount: 750,
      estimatedNumberOfLoanDeposits: 1,
      estimatedLoanDepositAmount: 500,
    });
    expect(flow.debits[0]).toEqual({
      month: month('2025-01'),
      numberOfDebits: 2,
      totalDebitsAmount: -500,
      largestDebit: -300,
      numberOfDebitsLessTransfers: 1,
      totalDebitsAmountLessTransfers: -200,
      averageDebitAmount: -250,
      byGroup: { essentials: -200 },
    });
    expect(flow.net.map((n) => [n.totalCreditsLessTotalDebits, n.totalCreditsLessTotalDebitsLessTransfers, n.averageTransactionAmount])).toEqual([
      [1000, 1300, 250],
      [950, 950, 475],
      [0, 0, 0],
    ]);
  });

  it('totals the last twelve, six and two months and averages the nets', () => {
    expect(flow.creditTotals).toEqual({ twelve: 2500, six: 2500, two: 1000 });
    expect(flow.debitTotals).toEqual({ twelve: -550, six: -550, two: -50 });
    expect(flow.debitTotalsLessTransfers.twelve).toBe(-250);
    expect([flow.averageMonthlyNet, flow.averageMonthlyNetLessTransfers, flow.twelveMonthTotalNet, flow.twoMonthAverageNet]).toEqual([650, 750, 1950, 475]);
    expect(flow.loanDeposits.map((t) => t.amount)).toEqual([500]);
  });
});

describe('balance analytics', () => {
  const balances = [
    { accountId: 4, day: '2025-01-01', balance: 100 },
    { accountId: 4, day: '2025-01-16', balance: -50 },
    { accountId: 4, day: '2025-02-01', balance: 200 },
  ];
  const window = windowOf(at('2025-01-01'), at('2025-02-28'));
  const figures = balanceFigures(dailySeries(balances, 4, window), window);

  it('summarises each month and the whole window', () => {
    expect(figures.monthly.map((m) => [m.min, m.max, m.average, m.daysNegative, m.daysPositive])).toEqual([
      [-50, 100, 22.58, 16, 15],
      [200, 200, 200, 0, 28],
    ]);
    expect(figures.summary).toMatchObject({ days: 59, min: -50, max: 200, average: 106.78, beginning: 100, ending: 200 });
    expect(figures.summary!.trend).toMatchObject({ change: 100, direction: 'increasing' });
  });

  it('reports the daily balance over calendar months as a state attribute', () => {
    const data = input([{ id: 4, name: 'Checking', type: 'checking', currency: 'USD' }], [], '2025-01-01', '2025-02-28', balances);
    const result = analyticsReport(data, 'balance', { intervals: ['MONTHLY_CALENDAR', 'HISTORICALLY'] });
    const [monthly, whole] = result.customer.stateAttributes[0]!.reportedByTimePeriods;
    expect(monthly!.periods[0]).toMatchObject({
      startDate: '2025-01-01',
      endDate: '2025-01-31',
      count: 31,
      sum: 700,
      min: -50,
      max: 100,
      beginningValue: 100,
      endingValue: -50,
    });
    expect(whole!.periods).toHaveLength(1);
    expect(whole!.periods[0]).toMatchObject({ count: 59, sum: 6300, mean: 106.78 });
  });
});

describe('cash flow analytics', () => {
  const list = [
    tx(5, '2025-01-05', 1000, 'ACME PAYROLL', { category: 'Paycheck' }),
    tx(5, '2025-01-10', -200, 'KROGER', { category: 'Groceries' }),
    tx(5, '2025-01-15', -300, 'ONLINE TRANSFER TO SAVINGS', { category: 'Transfer', transfer: true }),
    tx(5, '2025-01-20', 500, 'LOAN PROCEEDS QUICKCASH', { category: 'Loans' }),
  ];
  const result = analyticsReport(input([checking(5)], list, '2025-01-01', '2025-02-10'), 'cashflow', { intervals: ['MONTHLY_CALENDAR'], business: true });
  const attribute = (name: string) => result.customer.transactionalAttributes.find((a) => a.attributeName === name)!;

  it('leaves transfers out and gives each period the statistics of its amounts', () => {
    expect(attribute('CASH_INFLOW').aggregatedByTimePeriods[0]!.periods).toEqual([
      { startDate: '2025-01-01', endDate: '2025-01-31', count: 2, sum: 1500, mean: 750, median: 750, min: 500, max: 1000, standardDeviation: 250 },
      { startDate: '2025-02-01', endDate: '2025-02-10', count: 0 },
    ]);
    expect(attribute('ALL_CASH_FLOWS').aggregatedByTimePeriods[0]!.periods[0]).toMatchObject({ count: 3, sum: 1300 });
    expect(attribute('REVENUE').transactionIds).toEqual([String(list[0]!.id)]);
  });

  it('reports the daily net flow of every day', () => {
    const net = result.customer.stateAttributes.find((a) => a.attributeName === 'NET_CASH_FLOW')!.reportedByTimePeriods[0]!.periods[0]!;
    expect(net).toMatchObject({ count: 31, sum: 1300, beginningValue: 0, endingValue: 0, max: 1000, min: -200 });
  });
});

describe('payment history', () => {
  const loan = ['2025-01-15', '2025-02-15', '2025-04-15', '2025-05-15'].map((d) => tx(6, d, -400, 'AUTO LOAN PAYMENT FINCO', { type: 'payment' }));
  const history = paymentHistory(loan, dayOfText('2025-05-31'));

  it('finds the monthly loan payments and the one month they skipped', () => {
    expect(history.streams).toHaveLength(1);
    const [s] = history.streams;
    expect([s!.kind, s!.cadence, s!.count, s!.total, s!.averagePayment, s!.status, s!.onTimeRate]).toEqual(['loan', 'monthly', 4, -1600, -400, 'active', 0.8]);
    expect(s!.missedDays).toEqual([dayOfText('2025-03-17')]);
  });

  it('does not count the months after the payments stopped as missed', () => {
    const stopped = paymentHistory(loan, dayOfText('2025-12-31'));
    expect(stopped.streams[0]!.status).toBe('inactive');
    expect(stopped.streams[0]!.missedDays).toEqual([dayOfText('2025-03-17')]);
  });
});

describe('the analysis input from stored records', () => {
  it('keeps posted transactions, marks paired transfers and carries the payee, category and daily balances', () => {
    const account = {
      id: '7',
      institutionId: '101732',
      name: 'Checking',
      type: 'checking',
      currency: 'USD',
      balance: 10,
      marketSegment: 'business',
    } as AccountRecord;
    const base = { accountId: 7, customerId: 1, createdDate: 0, description: 'X' };
    const transactions = [
      {
        ...base,
        id: 1,
        amount: 5,
        status: 'active',
        postedDate: 100,
        categorization: { normalizedPayeeName: 'Acme', category: 'Paycheck', bestRepresentation: '', country: 'USA' },
      },
      { ...base, id: 2, amount: -5, status: 'active', postedDate: 200, transferTransactionId: 9 },
      { ...base, id: 3, amount: -1, status: 'pending', postedDate: 300 },
    ] as TransactionRecord[];
    const result = analysisInputOf([{ account, transactions, balances: [{ day: '2025-01-01', balance: 10 }] }], { from: 0, asOf: 400 });
    expect(result.accounts).toEqual([{ id: 7, institutionId: 101732, name: 'Checking', type: 'checking', currency: 'USD', balance: 10, segment: 'business' }]);
    expect(result.transactions.map((t) => [t.id, t.payee, t.category, t.transfer])).toEqual([
      [1, 'Acme', 'Paycheck', undefined],
      [2, undefined, undefined, true],
    ]);
    expect(result.dailyBalances).toEqual([{ accountId: 7, day: '2025-01-01', balance: 10 }]);
  });
});
