/**
 * Queries of pending transactions: those a posted transaction may replace, the refs of replaced ones, and those that
 * never posted in time (pending.service.ts).
 */
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { TransactionRow } from './table.js';

/** The account's pending transactions. */
export async function selectPendingOfAccount(db: Executor, accountId: number): Promise<TransactionRow[]> {
  // A literal, so that both dialects read the partial index of pending transactions.
  return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where(sql<boolean>`status = 'pending'`).execute();
}

/** Which of these refs name pending transactions of the account that a posted one replaced. */
export async function selectReplacedPendingRefs(db: Executor, accountId: number, refs: string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await db
    .selectFrom('transactions')
    .select('replaced_pending_ref')
    .where('account_id', '=', accountId)
    .where('replaced_pending_ref', 'in', refs)
    .execute();
  return new Set(rows.map((r) => r.replaced_pending_ref!));
}

/** Records on a posted transaction which pending one it replaced. */
export async function markReplacement(db: Executor, postedId: number, pending: Pick<TransactionRow, 'id' | 'ref'>): Promise<TransactionRow> {
  return db
    .updateTable('transactions')
    .set({ pending_transaction_id: pending.id, replaced_pending_ref: pending.ref })
    .where('id', '=', postedId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Pending transactions dated more than `maxAgeSeconds` before their customer's now (the service's `now` plus the
 * customer's clock offset), oldest first, except those of logins a refresh holds (it decides about them itself).
 */
export async function selectExpiredPending(db: Executor, now: number, maxAgeSeconds: number, limit: number): Promise<TransactionRow[]> {
  return (
    db
      .selectFrom('transactions as t')
      .innerJoin('customers as c', 'c.id', 't.customer_id')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .innerJoin('institution_logins as l', 'l.id', 'a.institution_login_id')
      .selectAll('t')
      // A literal, so that both dialects read the partial index of pending transactions.
      .where(sql<boolean>`t.status = 'pending'`)
      .where(sql<boolean>`t.effective_date + ${maxAgeSeconds} < ${now} + c.clock_offset_seconds`)
      .where((eb) => eb.or([eb('l.refresh_lease_until', 'is', null), eb('l.refresh_lease_until', '<', now)]))
      .orderBy('t.effective_date')
      .orderBy('t.id')
      .limit(limit)
      .execute()
  );
}

/** Deletes those of these transactions that are still pending; the rows deleted. */
export async function deletePending(db: Executor, ids: number[]): Promise<TransactionRow[]> {
  if (ids.length === 0) return [];
  return db.deleteFrom('transactions').where('id', 'in', ids).where('status', '=', 'pending').returningAll().execute();
}
