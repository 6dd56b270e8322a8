import type { Kysely } from 'kysely';
import { withIdentity } from './helpers.js';

/**
 * Listeners `ledgerlink listen --partner` registers: while one is registered (and its lease runs), every TxPUSH
 * notification and Connect webhook of the partner is also queued to it (docs/sandbox.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdentity(db, db.schema.createTable('sandbox_listeners'), 1)
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_listeners_partner').on('sandbox_listeners').columns(['partner_id', 'expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_listeners').execute();
}
