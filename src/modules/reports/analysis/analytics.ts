/**
 * The analytics reports (balance analytics, cash flow analytics, payment history): attributes computed per account
 * and for the customer, each reported over the periods the request asks for. A transactional attribute is a set of
 * transactions with the statistics of their amounts per period; a state attribute is a daily value (a balance, a
 * day's net flow, a count, a score) with the statistics of its days per period.
 *
 * Money moving between the customer's own accounts is no cash flow: transfers are left out of the transactional
 * attributes, at the account level as for the customer, so the customer's figures are the sums of the accounts'.
 */
import { type BalanceDay, combinedSeries, dailySeries } from './balances.js';
import { isDiscretionary, isLoanDeposit, isNondiscretionary, isTransfer, categoryGroupOf } from './category-groups.js';
import { calendarPeriods, type DayWindow, dayOf, dayText, rollingPeriods } from './dates.js';
import { insufficientFundsRole } from './nsf.js';
import { paymentHistory } from './payment-history.js';
import { type AmountStats, cents, statsOf } from './stats.js';
import { chronological, groupByCounterpart, missedPaymentDays, recurringStreams, type RecurringStream } from './streams.js';
import { ASSET_ACCOUNT_TYPES, type AnalysisInput, type AnalysisTransaction, DEBT_ACCOUNT_TYPES } from './types.js';

export type TimeIntervalType = 'MONTHLY_CALENDAR' | 'MONTHLY_ROLLING_30' | 'HISTORICALLY';
export type AnalyticsKind = 'balance' | 'cashflow' | 'paymentHistory';

export interface Period extends AmountStats {
  startDate: string;
  endDate: string;
}

export interface StatePeriod extends Period {
  beginningValue: number;
  endingValue: number;
}

export interface TransactionalAttribute {
  attributeName: string;
  streamIds: string[];
  transactionIds: string[];
  aggregatedByTimePeriods: { timeIntervalType: TimeIntervalType; periods: Period[] }[];
}

export interface StateAttribute {
  attributeName: string;
  reportedByTimePeriods: { timeIntervalType: TimeIntervalType; periods: StatePeriod[] }[];
}

export interface StreamModel {
  id: string;
  payee: string;
  payor: string;
  /** Days between its transactions; 0 when they follow no cadence. */
  cadence: number;
  /** Days since its last transaction. */
  recency: number;
  transactionIds: string[];
}

export interface Analytics {
  transactionalAttributes: TransactionalAttribute[];
  stateAttributes: StateAttribute[];
  streams: StreamModel[];
}

export interface AnalyticsResult {
  accounts: { accountId: number; analytics: Analytics }[];
  customer: Analytics;
}

export function periodsOf(window: DayWindow, type: TimeIntervalType): DayWindow[] {
  if (type === 'MONTHLY_CALENDAR') return calendarPeriods(window);
  if (type === 'MONTHLY_ROLLING_30') return rollingPeriods(window);
  return [window];
}

/** A risk weight per event in the trailing 90 days; a negative balance that day adds its own. */
const RISK = { missedLoanPayment: 15, missedExpense: 5, nsfFee: 10, negativeBalance: 20, days: 90 } as const;

interface Streams {
  models: StreamModel[];
  /** The stream id of each transaction in one. */
  ofTransaction: Map<number, string>;
}

function streamsOf(accountId: number, transactions: readonly AnalysisTransaction[], holder: string, lastDay: number): Streams {
  const recurring = new Map<string, RecurringStream>(recurringStreams(transactions).map((s) => [`${s.direction}\u0000${s.key}`, s]));
  const models: StreamModel[] = [];
  const ofTransaction = new Map<number, string>();
  for (const group of groupByCounterpart(transactions)) {
    if (group.transactions.length < 2) continue;
    const id = `${accountId}-${models.length + 1}`;
    const last = group.transactions[group.transactions.length - 1]!;
    const cadence = recurring.get(`${group.direction}\u0000${group.key}`)?.cadence.days ?? 0;
    models.push({
      id,
      payee: group.direction === 'in' ? holder : group.name,
      payor: group.direction === 'in' ? group.name : holder,
      cadence,
      recency: lastDay - dayOf(last.postedDate),
      transactionIds: group.transactions.map((t) => String(t.id)),
    });
    for (const t of group.transactions) ofTransaction.set(t.id, id);
  }
  return { models, ofTransaction };
}

function transactional(
  name: string,
  selected: readonly AnalysisTransaction[],
  streams: Streams,
  window: DayWindow,
  intervals: readonly TimeIntervalType[],
): TransactionalAttribute {
  const ordered = [...selected].sort(chronological);
  return {
    attributeName: name,
    streamIds: [...new Set(ordered.map((t) => streams.ofTransaction.get(t.id)).filter((id): id is string => id !== undefined))],
    transactionIds: ordered.map((t) => String(t.id)),
    aggregatedByTimePeriods: intervals.map((type) => ({
      timeIntervalType: type,
      periods: periodsOf(window, type).map((p) => ({
        startDate: dayText(p.first),
        endDate: dayText(p.last),
        ...statsOf(ordered.filter((t) => dayOf(t.postedDate) >= p.first && dayOf(t.postedDate) <= p.last).map((t) => t.amount)),
      })),
    })),
  };
}

/** A state attribute from daily values; periods without a value are left out. */
function state(name: string, series: readonly BalanceDay[], window: DayWindow, intervals: readonly TimeIntervalType[]): StateAttribute {
  return {
    attributeName: name,
    reportedByTimePeriods: intervals.map((type) => ({
      timeIntervalType: type,
      periods: periodsOf(window, type).flatMap((p) => {
        const days = series.filter((d) => d.day >= p.first && d.day <= p.last);
        if (!days.length) return [];
        return [
          {
            startDate: dayText(p.first),
            endDate: dayText(p.last),
            ...statsOf(days.map((d) => d.balance)),
            beginningValue: days[0]!.balance,
            endingValue: days[days.length - 1]!.balance,
          },
        ];
      }),
    })),
  };
}

/** Each day of the window with the sum of the amounts dated that day (zero on quiet days). */
function dailyNet(transactions: readonly AnalysisTransaction[], window: DayWindow): BalanceDay[] {
  const byDay = new Map<number, number>();
  for (const t of transactions) byDay.set(dayOf(t.postedDate), (byDay.get(dayOf(t.postedDate)) ?? 0) + t.amount);
  const out: BalanceDay[] = [];
  for (let day = window.first; day <= window.last; day++) out.push({ day, balance: cents(byDay.get(day) ?? 0) });
  return out;
}

/** Each day of the window with how many of the given days fall on it. */
function dailyCounts(days: readonly number[], window: DayWindow): BalanceDay[] {
  const byDay = new Map<number, number>();
  for (const d of days) byDay.set(d, (byDay.get(d) ?? 0) + 1);
  const out: BalanceDay[] = [];
  for (let day = window.first; day <= window.last; day++) out.push({ day, balance: byDay.get(day) ?? 0 });
  return out;
}

/** Recurring expenses whose misses are told: monthly or longer, and regular (a missed coffee is no missed bill). */
function billLike(s: RecurringStream): boolean {
  return s.direction === 'out' && s.cadence.days >= 28 && s.regularity >= 0.8;
}

/**
 * The payment risk score of each day, 0 (no sign of risk) to 100: weighted counts of missed loan payments, missed
 * bills and NSF or overdraft fees in the 90 days up to it, and a weight of its own when the balance is below zero.
 */
function riskSeries(
  missedLoans: readonly number[],
  missedBills: readonly number[],
  fees: readonly number[],
  balance: readonly BalanceDay[],
  window: DayWindow,
): BalanceDay[] {
  const negative = new Set(balance.filter((d) => d.balance < 0).map((d) => d.day));
  const inTrail = (days: readonly number[], day: number) => days.filter((d) => d <= day && d > day - RISK.days).length;
  const out: BalanceDay[] = [];
  for (let day = window.first; day <= window.last; day++) {
    const score =
      RISK.missedLoanPayment * inTrail(missedLoans, day) +
      RISK.missedExpense * inTrail(missedBills, day) +
      RISK.nsfFee * inTrail(fees, day) +
      (negative.has(day) ? RISK.negativeBalance : 0);
    out.push({ day, balance: Math.min(100, score) });
  }
  return out;
}

interface Scope {
  transactions: AnalysisTransaction[];
  /** Debits of the accounts that pay (not the debts' own interest and charges), transfers included. */
  payments: AnalysisTransaction[];
  balance: BalanceDay[];
  streams: Streams;
}

function analyticsOf(kind: AnalyticsKind, scope: Scope, window: DayWindow, intervals: readonly TimeIntervalType[], business: boolean): Analytics {
  const flows = scope.transactions.filter((t) => !isTransfer(t));
  const t = (name: string, selected: readonly AnalysisTransaction[]) => transactional(name, selected, scope.streams, window, intervals);
  const inflow = flows.filter((x) => x.amount > 0);
  const outflow = flows.filter((x) => x.amount < 0);
  const fees = flows.filter((x) => insufficientFundsRole(x)?.role === 'fee');
  const transactionalAttributes: TransactionalAttribute[] = [];
  const stateAttributes: StateAttribute[] = [];
  if (kind === 'balance') {
    stateAttributes.push(state('ASSET_BALANCE', scope.balance, window, intervals));
  } else if (kind === 'cashflow') {
    transactionalAttributes.push(
      t('NSF_FEE_CHARGES', fees),
      t(
        'NSF_FEE_REVERSALS',
        flows.filter((x) => insufficientFundsRole(x)?.role === 'reversal'),
      ),
    );
    transactionalAttributes.push(t('CASH_OUTFLOW', outflow), t('CASH_INFLOW', inflow), t('ALL_CASH_FLOWS', flows));
    if (business)
      transactionalAttributes.push(
        t(
          'REVENUE',
          inflow.filter((x) => !isLoanDeposit(x) && !insufficientFundsRole(x) && categoryGroupOf(x.category) !== 'transfers'),
        ),
      );
    stateAttributes.push(state('NET_CASH_FLOW', dailyNet(flows, window), window, intervals));
  } else {
    // A card's payment is a transfer between the customer's own accounts, yet it is a credit payment all the same.
    const history = paymentHistory(scope.payments, window.last);
    const loanIds = new Set(history.streams.flatMap((s) => s.transactions.map((x) => x.id)));
    const bills = recurringStreams(outflow.filter((x) => !loanIds.has(x.id)));
    const billIds = new Set(bills.flatMap((s) => s.transactions.map((x) => x.id)));
    const missedLoans = history.streams.flatMap((s) => s.missedDays);
    const missedBills = bills.filter(billLike).flatMap((s) => missedPaymentDays(s, window.last));
    transactionalAttributes.push(
      t('CASH_OUTFLOW', outflow),
      t('CASH_INFLOW', inflow),
      t(
        'INSURANCE_SPENDING',
        outflow.filter((x) => categoryGroupOf(x.category) === 'insurance'),
      ),
      t(
        'TAX_PAYMENTS',
        outflow.filter((x) => categoryGroupOf(x.category) === 'taxes'),
      ),
      t('DISCRETIONARY_SPENDING', outflow.filter(isDiscretionary)),
      t('NONDISCRETIONARY_SPENDING', outflow.filter(isNondiscretionary)),
      t(
        'RECURRING_EXPENSES',
        outflow.filter((x) => billIds.has(x.id)),
      ),
      t(
        'RECURRING_LOAN_PAYMENTS',
        outflow.filter((x) => loanIds.has(x.id)),
      ),
      t('NSF_FEE_CHARGES', fees),
    );
    stateAttributes.push(
      state('MISSED_RECURRING_EXPENSES', dailyCounts(missedBills, window), window, intervals),
      state('MISSED_RECURRING_LOAN_PAYMENTS', dailyCounts(missedLoans, window), window, intervals),
      state(
        'PAYMENT_RISK_SCORE',
        riskSeries(
          missedLoans,
          missedBills,
          fees.map((x) => dayOf(x.postedDate)),
          scope.balance,
          window,
        ),
        window,
        intervals,
      ),
      state('ASSET_BALANCE', scope.balance, window, intervals),
    );
  }
  return { transactionalAttributes, stateAttributes, streams: scope.streams.models };
}

/** Transactions of the window: posted from its first day to its last. */
export function inWindow<T extends { postedDate: number }>(transactions: readonly T[], window: DayWindow): T[] {
  return transactions.filter((t) => dayOf(t.postedDate) >= window.first && dayOf(t.postedDate) <= window.last);
}

/**
 * The analytics of one report kind for each account and for the customer. Accounts come in the input's order; the
 * customer's balance is the sum of its asset accounts' balances.
 */
export function analyticsReport(
  input: AnalysisInput,
  kind: AnalyticsKind,
  options: { intervals: readonly TimeIntervalType[]; business?: boolean },
): AnalyticsResult {
  const window = { first: dayOf(input.fromDate), last: dayOf(input.now) };
  const holder = input.holderName ?? 'Account holder';
  const transactions = inWindow(input.transactions, window);
  const accounts = input.accounts.map((account) => {
    const own = transactions.filter((t) => t.accountId === account.id);
    const balance = dailySeries(input.dailyBalances, account.id, window);
    const streams = streamsOf(
      account.id,
      own.filter((x) => !isTransfer(x)),
      holder,
      window.last,
    );
    const payments = DEBT_ACCOUNT_TYPES.has(account.type) ? [] : own.filter((x) => x.amount < 0);
    return { account, scope: { transactions: own, payments, balance, streams } };
  });
  const customerStreams: Streams = {
    models: accounts.flatMap((a) => a.scope.streams.models),
    ofTransaction: new Map(accounts.flatMap((a) => [...a.scope.streams.ofTransaction])),
  };
  const customerBalance = combinedSeries(accounts.filter((a) => ASSET_ACCOUNT_TYPES.has(a.account.type)).map((a) => a.scope.balance));
  const included = new Set(input.accounts.map((a) => a.id));
  return {
    accounts: accounts.map((a) => ({ accountId: a.account.id, analytics: analyticsOf(kind, a.scope, window, options.intervals, options.business ?? false) })),
    customer: analyticsOf(
      kind,
      {
        transactions: transactions.filter((x) => included.has(x.accountId)),
        payments: accounts.flatMap((a) => a.scope.payments),
        balance: customerBalance,
        streams: customerStreams,
      },
      window,
      options.intervals,
      options.business ?? false,
    ),
  };
}
