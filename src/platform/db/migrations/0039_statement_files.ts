import type { Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * Statement files as uploaded (docs/statements.md): the original file of each upload, kept so that Get Asset by
 * Customer and ID can offer it again, once per customer and content (`sha256`: the same file uploaded twice is one
 * asset), and the statement period it gave each of its accounts (from its first to its last transaction day), which
 * the account's statements list beside calendar months. Both go with their customer, the periods with their account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('statement_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('statement_files_customer_sha256', ['customer_id', 'sha256'])
    .execute();
  await db.schema
    .createTable('statement_periods')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('period_end', 'bigint', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull().references('statement_files.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('statement_periods_pk', ['account_id', 'period_start', 'period_end'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('statement_periods').execute();
  await db.schema.dropTable('statement_files').execute();
}
