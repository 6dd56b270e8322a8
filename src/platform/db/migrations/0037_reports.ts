import type { Kysely } from 'kysely';

/**
 * Reports (docs/reports.md): one row per generated report, asked for by a partner about a customer and its
 * consumer, removed with the customer. The row is also the report's job: `inProgress` rows are claimed by a worker
 * with a lease (`locked_until`, `locked_by`, `attempts`), computed, and finished as `success` (the body) or
 * `failure` (the error). What names the consumer (the header snapshot, the body) is sealed with a key derived from
 * the master key, as consumers' personal data is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('consumer_id', 'text', (c) => c.notNull())
    .addColumn('portfolio_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('header_encrypted', 'text', (c) => c.notNull())
    .addColumn('body_encrypted', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('locked_by', 'text')
    .execute();
  await db.schema.createIndex('reports_customer').on('reports').columns(['partner_id', 'customer_id', 'created_at']).execute();
  await db.schema.createIndex('reports_consumer').on('reports').columns(['partner_id', 'consumer_id', 'created_at']).execute();
  await db.schema.createIndex('reports_status').on('reports').columns(['status', 'locked_until']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reports').execute();
}
