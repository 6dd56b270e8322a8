import type { Kysely } from 'kysely';
import { startIdentityAt, withIdentity } from './helpers.js';

/** Receiving accounts named only by micro entries get ids of their own kind, apart from aggregated accounts' ids. */
export const MICRO_ENTRY_ACCOUNT_ID_START = 5090000000;

/**
 * Micro entries (docs/micro-entries.md): two small deposits to an account named by routing and account number, which
 * the customer verifies by their amounts. One row per receiving account of a customer: the unique (customer,
 * routing number, account number hash) lets only one of many simultaneous initiations in. The account number and the
 * amounts are sealed (AES-256-GCM, key derived from the master key); a keyed hash of the number finds the row, and its
 * last four digits stay in clear for the answers.
 *
 * Connect links gain the receiving account a micro entry verification link asks about.
 *
 * Transaction refreshes (docs/aggregation.md): each request and its accounts, for its status by id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdentity(db, db.schema.createTable('micro_entries'), MICRO_ENTRY_ACCOUNT_ID_START)
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('routing_number', 'text', (c) => c.notNull())
    .addColumn('account_number_hash', 'text', (c) => c.notNull())
    .addColumn('account_number_last4', 'text', (c) => c.notNull())
    .addColumn('receiver_encrypted', 'text', (c) => c.notNull())
    .addColumn('amounts_encrypted', 'text', (c) => c.notNull())
    .addColumn('institution_login_id', 'bigint')
    .addColumn('callback_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('initiated_at', 'bigint', (c) => c.notNull())
    .addColumn('arrives_at', 'bigint', (c) => c.notNull())
    .addColumn('auto_verified_account_id', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await startIdentityAt(db, 'micro_entries', MICRO_ENTRY_ACCOUNT_ID_START);
  await db.schema
    .createIndex('micro_entries_receiver')
    .on('micro_entries')
    .columns(['customer_id', 'routing_number', 'account_number_hash'])
    .unique()
    .execute();
  await db.schema.createIndex('micro_entries_account').on('micro_entries').columns(['customer_id', 'account_id']).execute();
  // A Connect link of the micro entry verification names the receiving account it asks the amounts of.
  await db.schema.alterTable('connect_links').addColumn('micro_entry_account_id', 'bigint').execute();

  await db.schema
    .createTable('transaction_refreshes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('institution_login_id', 'bigint')
    .addColumn('account_ids', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('from_date', 'bigint')
    .addColumn('to_date', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('results', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transaction_refreshes_customer').on('transaction_refreshes').columns(['customer_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transaction_refreshes').execute();
  await db.schema.alterTable('connect_links').dropColumn('micro_entry_account_id').execute();
  await db.schema.dropTable('micro_entries').execute();
}
