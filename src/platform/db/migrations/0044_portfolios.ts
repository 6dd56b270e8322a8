import type { Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * Portfolios and pay statements (docs/reports.md, docs/statements.md). A portfolio is read by its id across a
 * partner's reports, so reports gain an index on it. Pay statements are documents a partner stores for a customer
 * (Store Customer Pay Statement), offered again as assets: the document is sealed (AES-256-GCM, key derived from
 * the master key) as personal data is, its label, type and size stay in clear; they go with their customer. The
 * sealed document is kept in pieces (`pay_statement_chunks`), each written and read in a turn of its own, as
 * statement files are (migration 0045).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('reports_portfolio').on('reports').columns(['partner_id', 'portfolio_id', 'created_at']).execute();
  await db.schema
    .createTable('pay_statements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('pay_statement_chunks')
    .addColumn('pay_statement_id', 'text', (c) => c.notNull().references('pay_statements.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('content', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('pay_statement_chunks_pk', ['pay_statement_id', 'seq'])
    .execute();
  await db.schema.createIndex('pay_statements_customer').on('pay_statements').columns(['customer_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pay_statement_chunks').execute();
  await db.schema.dropTable('pay_statements').execute();
  await db.schema.dropIndex('reports_portfolio').execute();
}
