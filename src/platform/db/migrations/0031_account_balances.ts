import type { Kysely } from 'kysely';

/**
 * A daily balance per account (modules/aggregation/balances.service.ts): one row per account and UTC day
 * (`day`, YYYY-MM-DD), the balance a refresh read, a statement's closing balance, or one derived backwards from the
 * account's transactions. `as_of` is when the value it comes from was valid, so a later observation of the same
 * day replaces an earlier one. Rows go with their account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_balances')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('balance', 'double precision', (c) => c.notNull())
    .addColumn('available_balance', 'double precision')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('as_of', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_balances_pk', ['account_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_balances').execute();
}
