/** Queries of transfers between a customer's own accounts (transfers.service.ts). */
import type { Executor } from '../../platform/db/database.js';
import type { TransactionRow } from './table.js';

/** The customer's accounts of these types, with what pairing needs to know of them. */
export async function selectAccountsOfTypes(
  db: Executor,
  customerId: number,
  types: readonly string[],
): Promise<{ id: number; type: string; currency: string }[]> {
  return db.selectFrom('accounts').select(['id', 'type', 'currency']).where('customer_id', '=', customerId).where('type', 'in', types).execute();
}

/** Amounts per query at most (keeps SQLite under its bound-parameter limit). */
const AMOUNTS_PER_QUERY = 400;

/**
 * The customer's posted transactions not yet in a pair, dated (effective_date) in [from, to], whose amount is one of
 * `amounts` (at most AMOUNTS_PER_QUERY). The caller keeps those of the accounts it pairs: with the accounts in the
 * statement, SQLite's planner (no statistics on a new database) took the customer-and-date index for some lists.
 */
export function unpairedWithAmountsQuery(db: Executor, customerId: number, from: number, to: number, amounts: number[]) {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('effective_date', '>=', from)
    .where('effective_date', '<=', to)
    .where('status', '=', 'active')
    .where('transfer_transaction_id', 'is', null)
    .where('amount', 'in', amounts);
}

/** unpairedWithAmountsQuery for any number of amounts. */
export async function selectUnpairedWithAmounts(db: Executor, customerId: number, from: number, to: number, amounts: number[]): Promise<TransactionRow[]> {
  const rows: TransactionRow[] = [];
  for (let i = 0; i < amounts.length; i += AMOUNTS_PER_QUERY) {
    rows.push(...(await unpairedWithAmountsQuery(db, customerId, from, to, amounts.slice(i, i + AMOUNTS_PER_QUERY)).execute()));
  }
  return rows;
}

/** Marks a transaction as one side of a transfer. */
export async function markTransferSide(db: Executor, id: number, otherId: number, category: string, now: number): Promise<TransactionRow> {
  return db
    .updateTable('transactions')
    .set({ transfer_transaction_id: otherId, category, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
