/**
 * Ledger entries: the test bank's internal form of a transaction, in integer cents on absolute days.
 * Records for the engine are made from them in records.ts.
 */
import type { TransactionCategory } from '../categories.js';
import type { InvestmentTransactionType, TransactionType } from '../connector.js';

export interface LedgerEntry {
  /** Day number of the transaction date. */
  day: number;
  /** Seconds into that day (UTC). */
  time: number;
  /** Days from the transaction date to the posting date; 0 posts at once. */
  lag: number;
  /** The posted amount in cents; debits negative. */
  cents: number;
  /** The amount shown while pending, when it differs (a restaurant bill before the tip). */
  pendingCents?: number;
  type: TransactionType;
  description: string;
  memo?: string;
  payee: string;
  category: TransactionCategory;
  country: string;
  checkNum?: string;
  bonusCents?: number;
  escrowCents?: number;
  feeCents?: number;
  interestCents?: number;
  principalCents?: number;
  /** Shares, to three decimals. */
  units?: number;
  /** Price per share in dollars. */
  unitPrice?: number;
  invType?: InvestmentTransactionType;
  ticker?: string;
  securityId?: string;
}

/** Hour of the day (UTC) at which delayed items post. */
export const POSTING_HOUR = 9;
/** Seconds into the day at which ACH items (payroll, bills, transfers) happen. */
export const ACH_TIME = 11 * 3600;

export function sumCents(entries: readonly LedgerEntry[]): number {
  let total = 0;
  for (const e of entries) total += e.cents;
  return total;
}

/** Cents to dollars (never -0). */
export function dollars(cents: number): number {
  return Math.round(cents) / 100 || 0;
}

/** A masked account number for statement text, e.g. `XXXXXX1234`. */
export function masked(last4: string): string {
  return `XXXXXX${last4}`;
}
