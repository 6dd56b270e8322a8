import type { Kysely } from 'kysely';
import { startIdentityAt, withIdentity } from './helpers.js';

/** Subscription ids look like the real service's (eight digits). */
export const SUBSCRIPTION_ID_START = 17500000;

/**
 * TxPUSH subscriptions: one row per (listener, class) of an account. They go with their customer (ON DELETE
 * CASCADE). account_id has no foreign key on purpose: an account's `deleted` event is recorded after the account
 * row is gone and must still reach its subscriptions, which are removed right after (src/modules/txpush/notify.service.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdentity(db, db.schema.createTable('txpush_subscriptions'), SUBSCRIPTION_ID_START)
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('class', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('signing_key_encrypted', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await startIdentityAt(db, 'txpush_subscriptions', SUBSCRIPTION_ID_START);
  await db.schema.createIndex('txpush_subscriptions_account').on('txpush_subscriptions').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('txpush_subscriptions_customer').on('txpush_subscriptions').columns(['customer_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('txpush_subscriptions').execute();
}
