import { sql, type Kysely } from 'kysely';

/**
 * Pending transactions matched to the posted ones that replace them, and transfers between a customer's own accounts
 * (docs/aggregation.md, "Pending to posted" and "Transfers"):
 *
 * - `transactions.pending_transaction_id`: the id of the pending transaction a posted one replaced (that row is gone,
 *   so no foreign key), and `replaced_pending_ref` its ref: a source that still lists the pending one does not bring
 *   it back.
 * - `transactions.transfer_transaction_id`: the other side of a transfer pair; cleared when that side is deleted
 *   (with its account).
 * - A partial index of pending transactions by account and date: a sync reads an account's pending ones, and the
 *   expiry of pending transactions that never post reads only them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('pending_transaction_id', 'bigint').execute();
  await db.schema.alterTable('transactions').addColumn('replaced_pending_ref', 'text').execute();
  await db.schema
    .alterTable('transactions')
    .addColumn('transfer_transaction_id', 'bigint', (c) => c.references('transactions.id').onDelete('set null'))
    .execute();
  // Deleting a transaction looks up the rows pointing at it: without this index, a scan of the table per row.
  await db.schema.createIndex('transactions_transfer').on('transactions').column('transfer_transaction_id').execute();
  await sql`create index transactions_replaced_pending on transactions (account_id, replaced_pending_ref) where replaced_pending_ref is not null`.execute(db);
  // A partial index: the same statement both dialects accept (Kysely's builder would bind the literal as a parameter).
  await sql`create index transactions_pending on transactions (account_id, effective_date) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_pending').execute();
  await db.schema.dropIndex('transactions_replaced_pending').execute();
  await db.schema.dropIndex('transactions_transfer').execute();
  await db.schema.alterTable('transactions').dropColumn('transfer_transaction_id').execute();
  await db.schema.alterTable('transactions').dropColumn('replaced_pending_ref').execute();
  await db.schema.alterTable('transactions').dropColumn('pending_transaction_id').execute();
}
