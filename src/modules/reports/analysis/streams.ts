/**
 * Recurring streams: transactions of one account with one counterpart, in one direction, and the rhythm they come
 * at. Income streams, recurring expenses, loan payments and the analytics reports' streams all start here.
 */
import { dayOf } from './dates.js';
import { median } from './stats.js';
import { payeeKey, payeeName } from './payee.js';
import type { AnalysisTransaction } from './types.js';

export type CadenceName = 'weekly' | 'biweekly' | 'semimonthly' | 'monthly' | 'quarterly' | 'annually';

export interface Cadence {
  name: CadenceName;
  /** Days between two payments. */
  days: number;
  /** How far (days) a payment may land from its expected day and still be on time. */
  tolerance: number;
  perYear: number;
}

/** The rhythms recognised, shortest first. Monthly tolerates the shifts of paydays to business days and short months. */
export const CADENCES: readonly Cadence[] = [
  { name: 'weekly', days: 7, tolerance: 1, perYear: 52 },
  { name: 'biweekly', days: 14, tolerance: 1, perYear: 26 },
  { name: 'semimonthly', days: 15, tolerance: 4, perYear: 24 },
  { name: 'monthly', days: 30, tolerance: 5, perYear: 12 },
  { name: 'quarterly', days: 91, tolerance: 10, perYear: 4 },
  { name: 'annually', days: 365, tolerance: 15, perYear: 1 },
];

export function cadenceNamed(name: CadenceName): Cadence {
  return CADENCES.find((c) => c.name === name)!;
}

/** Oldest first; the id breaks ties so that the order of the input never matters. */
export function chronological(a: AnalysisTransaction, b: AnalysisTransaction): number {
  return a.postedDate - b.postedDate || a.id - b.id;
}

/** The gaps in days between successive payment days (same-day payments count as one payment). */
export function paymentGaps(transactions: readonly AnalysisTransaction[]): number[] {
  const days = [...new Set(transactions.map((t) => dayOf(t.postedDate)))].sort((a, b) => a - b);
  return days.slice(1).map((d, i) => d - days[i]!);
}

/**
 * The cadence of a list of gaps: the first whose days lie within its tolerance of the median gap. Biweekly pay comes
 * on one weekday, so it asks that (nearly) every gap be exactly 14 days; pay on the 15th and the month's end also
 * comes 13 to 16 days apart, but on any weekday, and is semimonthly. Undefined when the gaps follow no cadence.
 */
export function cadenceOf(gaps: readonly number[]): Cadence | undefined {
  if (!gaps.length) return undefined;
  const typical = median(gaps);
  for (const c of CADENCES) {
    if (Math.abs(typical - c.days) > c.tolerance) continue;
    if (c.name === 'biweekly' && gaps.filter((g) => g === 14).length / gaps.length < 0.8) continue;
    return c;
  }
  return undefined;
}

/** The share (0..1) of gaps that land within the cadence's tolerance. */
export function regularityOf(gaps: readonly number[], cadence: Cadence): number {
  if (!gaps.length) return 0;
  return gaps.filter((g) => Math.abs(g - cadence.days) <= cadence.tolerance).length / gaps.length;
}

/** Sub-monthly rhythms need three payments to show; a monthly or longer one shows with two. */
export function minimumPayments(cadence: Cadence): number {
  return cadence.days < 28 ? 3 : 2;
}

export interface TransactionGroup {
  accountId: number;
  direction: 'in' | 'out';
  key: string;
  name: string;
  /** Oldest first. */
  transactions: AnalysisTransaction[];
}

/**
 * Groups transactions by account, direction and counterpart (`keyOf`, the payee key by default); groups are ordered
 * by account, then first date, then key.
 */
export function groupByCounterpart(transactions: readonly AnalysisTransaction[], keyOf: (t: AnalysisTransaction) => string = payeeKey): TransactionGroup[] {
  const groups = new Map<string, TransactionGroup>();
  for (const t of [...transactions].sort(chronological)) {
    if (t.amount === 0) continue;
    const direction = t.amount > 0 ? 'in' : 'out';
    const key = keyOf(t);
    const id = `${t.accountId}\u0000${direction}\u0000${key}`;
    let group = groups.get(id);
    if (!group) {
      group = { accountId: t.accountId, direction, key, name: payeeName(t), transactions: [] };
      groups.set(id, group);
    }
    group.transactions.push(t);
  }
  return [...groups.values()].sort(
    (a, b) =>
      a.accountId - b.accountId ||
      a.transactions[0]!.postedDate - b.transactions[0]!.postedDate ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      (a.direction < b.direction ? -1 : a.direction > b.direction ? 1 : 0),
  );
}

export interface RecurringStream extends TransactionGroup {
  cadence: Cadence;
  /** Share of gaps on rhythm, 0..1. */
  regularity: number;
}

/** The groups that recur: a cadence, enough payments for it, and at least half their gaps on rhythm. */
export function recurringStreams(transactions: readonly AnalysisTransaction[], keyOf?: (t: AnalysisTransaction) => string): RecurringStream[] {
  const streams: RecurringStream[] = [];
  for (const group of groupByCounterpart(transactions, keyOf)) {
    const gaps = paymentGaps(group.transactions);
    const cadence = cadenceOf(gaps);
    if (!cadence || gaps.length + 1 < minimumPayments(cadence)) continue;
    const regularity = regularityOf(gaps, cadence);
    if (regularity < 0.5) continue;
    streams.push({ ...group, cadence, regularity });
  }
  return streams;
}

/**
 * The payments a stream expected but did not get, as expected days: walking from the first payment, each next one is
 * due a cadence later (counted from the payment that came); one found within the tolerance is on time, an earlier one
 * moves the rhythm. Payments that stopped for three cadences or more ended the stream: those days are not missed.
 */
export function missedPaymentDays(stream: RecurringStream, lastDay: number): number[] {
  const days = [...new Set(stream.transactions.map((t) => dayOf(t.postedDate)))].sort((a, b) => a - b);
  const { days: step, tolerance } = stream.cadence;
  const missed: number[] = [];
  let expected = days[0]! + step;
  let i = 1;
  let trailing = 0;
  while (expected + tolerance <= lastDay) {
    const paid = days[i];
    if (paid !== undefined && paid <= expected + tolerance) {
      expected = paid + step;
      i++;
      trailing = 0;
      continue;
    }
    missed.push(expected);
    if (i >= days.length) trailing++;
    expected += step;
  }
  return trailing >= 3 ? missed.slice(0, missed.length - trailing) : missed;
}
