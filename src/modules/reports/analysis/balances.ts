/**
 * Balance analytics: an account's end-of-day balance for every day of the window (a day without a recorded balance
 * keeps the one before it; days before the first known balance have none), and what those days say: lowest,
 * highest, average, spread, days below zero, and which way the balance went.
 */
import { completeMonths, type DayWindow, dayOfText, firstDayOfMonth, lastDayOfMonth } from './dates.js';
import { cents, mean, standardDeviation } from './stats.js';
import type { AnalysisDailyBalance } from './types.js';

export interface BalanceDay {
  day: number;
  balance: number;
}

/** One account's balance on each day of the window it has one for, oldest first. */
export function dailySeries(balances: readonly AnalysisDailyBalance[], accountId: number, window: DayWindow): BalanceDay[] {
  const known = balances
    .filter((b) => b.accountId === accountId)
    .map((b) => ({ day: dayOfText(b.day), balance: b.balance }))
    .sort((a, b) => a.day - b.day);
  const series: BalanceDay[] = [];
  let k = 0;
  let current: number | undefined;
  for (let day = window.first; day <= window.last; day++) {
    while (k < known.length && known[k]!.day <= day) current = known[k++]!.balance;
    if (current !== undefined) series.push({ day, balance: current });
  }
  return series;
}

/** The sum of several accounts' balances on each day any of them has one (the customer's position). */
export function combinedSeries(series: readonly (readonly BalanceDay[])[]): BalanceDay[] {
  const byDay = new Map<number, number>();
  for (const s of series) for (const d of s) byDay.set(d.day, (byDay.get(d.day) ?? 0) + d.balance);
  return [...byDay.entries()].sort((a, b) => a[0] - b[0]).map(([day, balance]) => ({ day, balance: cents(balance) }));
}

export interface BalanceTrend {
  /** Last day's balance less the first day's. */
  change: number;
  /** The least-squares slope of balance over days, per day. */
  slopePerDay: number;
  direction: 'increasing' | 'decreasing' | 'flat';
}

export interface BalanceSummary {
  days: number;
  min: number;
  max: number;
  average: number;
  standardDeviation: number;
  daysNegative: number;
  daysPositive: number;
  beginning: number;
  ending: number;
  trend: BalanceTrend;
}

/** A slope under a cent a day moves the balance by less than a few dollars a year: flat. */
const FLAT_SLOPE = 0.01;

export function trendOf(series: readonly BalanceDay[]): BalanceTrend {
  if (series.length < 2) return { change: 0, slopePerDay: 0, direction: 'flat' };
  const xs = series.map((d) => d.day);
  const ys = series.map((d) => d.balance);
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  const slope = den ? num / den : 0;
  return {
    change: cents(ys[ys.length - 1]! - ys[0]!),
    slopePerDay: cents(slope),
    direction: slope > FLAT_SLOPE ? 'increasing' : slope < -FLAT_SLOPE ? 'decreasing' : 'flat',
  };
}

/** The summary of a series, or undefined when it has no day. */
export function summarise(series: readonly BalanceDay[]): BalanceSummary | undefined {
  if (!series.length) return undefined;
  const values = series.map((d) => d.balance);
  return {
    days: values.length,
    min: values.reduce((a, b) => Math.min(a, b)),
    max: values.reduce((a, b) => Math.max(a, b)),
    average: cents(mean(values)),
    standardDeviation: cents(standardDeviation(values)),
    daysNegative: values.filter((v) => v < 0).length,
    daysPositive: values.filter((v) => v > 0).length,
    beginning: values[0]!,
    ending: values[values.length - 1]!,
    trend: trendOf(series),
  };
}

export function within(series: readonly BalanceDay[], first: number, last: number): BalanceDay[] {
  return series.filter((d) => d.day >= first && d.day <= last);
}

export interface MonthlyBalance extends BalanceSummary {
  month: number;
}

/** The summary of each complete calendar month of the window that has balances. */
export function monthlyBalances(series: readonly BalanceDay[], window: DayWindow): MonthlyBalance[] {
  const out: MonthlyBalance[] = [];
  for (const month of completeMonths(window)) {
    const summary = summarise(within(series, firstDayOfMonth(month), lastDayOfMonth(month)));
    if (summary) out.push({ month, ...summary });
  }
  return out;
}

/** The summary of the days of the last `n` complete months of the window (fewer when the window has fewer). */
export function lastMonthsSummary(series: readonly BalanceDay[], window: DayWindow, n: number): BalanceSummary | undefined {
  const months = completeMonths(window).slice(-n);
  if (!months.length) return undefined;
  return summarise(within(series, firstDayOfMonth(months[0]!), lastDayOfMonth(months[months.length - 1]!)));
}

/** A run of days below zero. */
export interface NegativeSpell {
  firstDay: number;
  lastDay: number;
  days: number;
  lowest: number;
}

export function negativeSpells(series: readonly BalanceDay[]): NegativeSpell[] {
  const spells: NegativeSpell[] = [];
  let open: NegativeSpell | undefined;
  for (const d of series) {
    if (d.balance < 0 && open && d.day === open.lastDay + 1) {
      open.lastDay = d.day;
      open.days++;
      open.lowest = Math.min(open.lowest, d.balance);
    } else if (d.balance < 0) {
      open = { firstDay: d.day, lastDay: d.day, days: 1, lowest: d.balance };
      spells.push(open);
    } else {
      open = undefined;
    }
  }
  return spells;
}
