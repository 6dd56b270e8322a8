import type { Kysely } from 'kysely';
import { withIdentity } from './helpers.js';

/** The API request log behind the dashboard's live log and `ledgerlink logs tail`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdentity(db, db.schema.createTable('request_log'), 1)
    .addColumn('partner_id', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('route', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('latency_ms', 'double precision', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('request_log_partner').on('request_log').columns(['partner_id', 'id']).execute();
  await db.schema.createIndex('request_log_created').on('request_log').column('created_at_ms').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_log').execute();
}
