import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { TransactionRefreshRow, TransactionRefreshTable } from './refreshes.table.js';

export async function insertTransactionRefresh(db: Executor, row: Insertable<TransactionRefreshTable>): Promise<void> {
  await db.insertInto('transaction_refreshes').values(row).execute();
}

/** The customer's refresh with this id. */
export async function findTransactionRefresh(db: Executor, customerId: number, id: string): Promise<TransactionRefreshRow | undefined> {
  return db.selectFrom('transaction_refreshes').selectAll().where('id', '=', id).where('customer_id', '=', customerId).executeTakeFirst();
}

export async function updateTransactionRefresh(db: Executor, id: string, changes: Updateable<TransactionRefreshTable>): Promise<void> {
  await db.updateTable('transaction_refreshes').set(changes).where('id', '=', id).execute();
}
