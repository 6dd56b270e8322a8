/**
 * The analyses' input from the records a report reads (the accounts with their transactions and daily balances, as
 * the aggregation answers them), so a report kind hands its input over in one call.
 */
import type { AccountRecord, TransactionRecord } from '../../aggregation/records.js';
import type { AnalysisInput, AnalysisTransaction } from './types.js';

/** One account as a report reads it: the record, its transactions and its stored daily balances. */
export interface AccountWithActivity {
  account: AccountRecord;
  transactions: readonly TransactionRecord[];
  balances: readonly { day: string; balance: number }[];
}

const TRANSFER_CATEGORIES = new Set(['Transfer', 'Credit Card Payment']);

export function analysisTransaction(t: TransactionRecord): AnalysisTransaction {
  const category = t.categorization?.category;
  return {
    id: t.id,
    accountId: t.accountId,
    amount: t.amount,
    postedDate: t.postedDate,
    ...(t.transactionDate !== undefined ? { transactionDate: t.transactionDate } : {}),
    description: t.description,
    ...(t.memo ? { memo: t.memo } : {}),
    ...(t.type ? { type: t.type } : {}),
    ...(category ? { category } : {}),
    ...(t.categorization?.normalizedPayeeName ? { payee: t.categorization.normalizedPayeeName } : {}),
    ...(t.transferTransactionId !== undefined || (category && TRANSFER_CATEGORIES.has(category)) ? { transfer: true } : {}),
  };
}

/**
 * The analysis input over the given accounts: posted transactions only (a pending one may still change or vanish),
 * the window from `from` to `asOf`.
 */
export function analysisInputOf(accounts: readonly AccountWithActivity[], window: { from: number; asOf: number; holderName?: string }): AnalysisInput {
  return {
    accounts: accounts.map(({ account }) => ({
      id: Number(account.id),
      institutionId: Number(account.institutionId),
      name: account.name,
      type: account.type,
      currency: account.currency,
      balance: account.balance,
      segment: account.marketSegment === 'business' ? 'business' : 'personal',
    })),
    transactions: accounts.flatMap((a) => a.transactions.filter((t) => t.status !== 'pending').map(analysisTransaction)),
    dailyBalances: accounts.flatMap((a) => a.balances.map((b) => ({ accountId: Number(a.account.id), day: b.day, balance: b.balance }))),
    fromDate: window.from,
    now: window.asOf,
    ...(window.holderName ? { holderName: window.holderName } : {}),
  };
}
