/**
 * Payment history: the loan and credit payments found in a customer's transactions, grouped by lender into
 * recurring streams, with what each paid, how regularly, and the payments it missed.
 */
import { isCardPayment, isLoanPayment } from './category-groups.js';
import { dayOf } from './dates.js';
import { maskedAccountTail, payeeKey } from './payee.js';
import { cents, mean } from './stats.js';
import { type CadenceName, chronological, missedPaymentDays, type RecurringStream, recurringStreams } from './streams.js';
import type { AnalysisTransaction } from './types.js';

export type PaymentKind = 'loan' | 'creditCard';

export interface PaymentStream {
  id: string;
  accountId: number;
  kind: PaymentKind;
  payee: string;
  cadence: CadenceName;
  cadenceDays: number;
  count: number;
  /** Negative: money paid out. */
  total: number;
  averagePayment: number;
  firstDate: number;
  lastDate: number;
  /** Days from the last payment to the window's last day. */
  recency: number;
  status: 'active' | 'inactive';
  /** Days (epoch days) a payment was due and none came. */
  missedDays: number[];
  /** Share of due payments that came, 0..1. */
  onTimeRate: number;
  transactions: AnalysisTransaction[];
}

export interface PaymentHistory {
  streams: PaymentStream[];
  /** Loan and card payments that follow no rhythm (one-off or extra payments). */
  otherPayments: AnalysisTransaction[];
  totalPaid: number;
  missedCount: number;
}

function kindOf(t: AnalysisTransaction): PaymentKind | undefined {
  if (isLoanPayment(t)) return 'loan';
  if (isCardPayment(t)) return 'creditCard';
  return undefined;
}

/**
 * One lender can hold several of the customer's debts (two cards, a loan and a credit line at one bank): payments are
 * grouped by kind, payee and the masked account number their text names.
 */
function paymentKey(t: AnalysisTransaction): string {
  return [kindOf(t), payeeKey(t), maskedAccountTail(`${t.description} ${t.memo ?? ''}`) ?? ''].join(' ');
}

/** The loan and credit payments of the given transactions and the streams they form, ids `<idPrefix><n>` from 1. */
export function paymentHistory(transactions: readonly AnalysisTransaction[], lastDay: number, idPrefix = 'payment-'): PaymentHistory {
  const payments = transactions.filter((t) => kindOf(t) !== undefined);
  const streams: PaymentStream[] = [];
  const inStreams = new Set<number>();
  for (const s of recurringStreams(payments, paymentKey) as RecurringStream[]) {
    const ordered = [...s.transactions].sort(chronological);
    const missedDays = missedPaymentDays(s, lastDay);
    const last = ordered[ordered.length - 1]!;
    const recency = lastDay - dayOf(last.postedDate);
    const paid = new Set(ordered.map((t) => dayOf(t.postedDate))).size;
    for (const t of ordered) inStreams.add(t.id);
    streams.push({
      id: `${idPrefix}${streams.length + 1}`,
      accountId: s.accountId,
      kind: kindOf(ordered[0]!)!,
      payee: s.name,
      cadence: s.cadence.name,
      cadenceDays: s.cadence.days,
      count: ordered.length,
      total: cents(ordered.reduce((a, t) => a + t.amount, 0)),
      averagePayment: cents(mean(ordered.map((t) => t.amount))),
      firstDate: ordered[0]!.postedDate,
      lastDate: last.postedDate,
      recency,
      status: recency <= s.cadence.days + s.cadence.tolerance ? 'active' : 'inactive',
      missedDays,
      onTimeRate: Math.round((paid / (paid + missedDays.length)) * 100) / 100,
      transactions: ordered,
    });
  }
  return {
    streams,
    otherPayments: payments.filter((t) => !inStreams.has(t.id)).sort(chronological),
    totalPaid: cents(payments.reduce((a, t) => a + t.amount, 0)),
    missedCount: streams.reduce((a, s) => a + s.missedDays.length, 0),
  };
}
