import { sql, type Kysely } from 'kysely';

/**
 * Polled listeners (`ledgerlink listen` in client mode, docs/cli.md):
 * - `deliveries_open_target`: the open deliveries of one target, by due time. A waiting poll looks for its listener's
 *   due copies several times a second, and retiring a listener cancels its open copies; both find them here instead
 *   of scanning the table. Partial on the same literal condition as deliveries_due, so history does not weigh on it.
 * - `sandbox_listeners.poll_token`: the poll that currently waits for the listener. A new poll writes its own, and
 *   the one it replaced sees that and ends, so a listener has one open poll whatever process serves it.
 * - `sandbox_listeners_expires`: housekeeping finds the lapsed registrations of every partner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('deliveries_open_target')
    .on('deliveries')
    .columns(['target', 'next_attempt_at', 'id'])
    .where(sql.ref('status'), 'in', sql`('pending', 'delivering')`)
    .execute();
  await db.schema.alterTable('sandbox_listeners').addColumn('poll_token', 'text').execute();
  await db.schema.createIndex('sandbox_listeners_expires').on('sandbox_listeners').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sandbox_listeners_expires').execute();
  await db.schema.alterTable('sandbox_listeners').dropColumn('poll_token').execute();
  await db.schema.dropIndex('deliveries_open_target').execute();
}
