import { sql, type Kysely } from 'kysely';

/**
 * Transfer candidates by customer, amount and date (docs/aggregation.md, "Transfers"): pairing looks, for each slice
 * of new transactions, for unpaired ones of the opposite amount in the customer's other accounts within a window of
 * dates; by customer and date alone that read every transaction of the window, for every slice of a file of many
 * accounts. The date is in the index so that SQLite's planner, which has no statistics on a new database, prefers it
 * to the customer-and-date index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A partial index: the same statement both dialects accept.
  await sql`create index transactions_transfer_candidates on transactions (customer_id, amount, effective_date) where transfer_transaction_id is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_transfer_candidates').execute();
}
