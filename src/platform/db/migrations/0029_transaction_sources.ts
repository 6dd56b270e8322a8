import { sql, type Kysely } from 'kysely';

/**
 * Where a stored transaction came from, so one account fed by several sources (a live connection and statement files)
 * holds each transaction once (docs/aggregation.md, "One account, several sources"):
 *
 * - `transactions.source`: the source that stored it (`testbank`, `simplefin`, `ofx`, `statement`); null for rows
 *   stored before this migration by a connector, which are taken as the account's live source. Rows of statement-file
 *   logins are marked `statement` here.
 * - `transactions.institution_transaction_id`: the institution's own id of the transaction when the source gives one
 *   that another source of the same institution gives too (an OFX FITID, live or in a file).
 * - `transaction_aliases`: a transaction another source sent again under its own ref, recognised as a duplicate of
 *   the stored one: that ref is never stored as a second transaction, and the stored one matches at most one
 *   transaction of each other source.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('source', 'text').execute();
  await db.schema.alterTable('transactions').addColumn('institution_transaction_id', 'text').execute();
  await sql`update transactions set source = 'statement' where account_id in (select a.id from accounts a join institution_logins l on l.id = a.institution_login_id where l.source = 'statement-file')`.execute(
    db,
  );

  await db.schema
    .createTable('transaction_aliases')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'bigint', (c) => c.notNull().references('transactions.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('transaction_aliases_pk', ['account_id', 'ref'])
    .execute();
  await db.schema.createIndex('transaction_aliases_transaction').on('transaction_aliases').columns(['transaction_id', 'source']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transaction_aliases').execute();
  await db.schema.alterTable('transactions').dropColumn('institution_transaction_id').execute();
  await db.schema.alterTable('transactions').dropColumn('source').execute();
}
