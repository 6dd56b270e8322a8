import type { Kysely } from 'kysely';
import { startIdentityAt, withIdentity } from './helpers.js';

/** Access ids look like the service's other numeric ids: ten digits, their own range. */
const ACCESS_ID_START = 9300000000;

/**
 * Ledgerlink as a SimpleFIN server (docs/simplefin-server.md): setup tokens a partner minted for one customer, and the
 * accesses their claims made. Both keep only SHA-256 hashes of their secrets (the token, the access's user name and
 * password); `account_ids` is null for all of the customer's accounts, else a JSON array of account ids. An access
 * counts its `/accounts` requests of one day (`budget_day`, UTC days since the epoch) against the daily budget.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('simplefin_setup_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('account_ids', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('simplefin_setup_tokens_customer').on('simplefin_setup_tokens').column('customer_id').execute();

  await withIdentity(db, db.schema.createTable('simplefin_accesses'), ACCESS_ID_START)
    .addColumn('username_hash', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('account_ids', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('budget_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('budget_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await startIdentityAt(db, 'simplefin_accesses', ACCESS_ID_START);
  await db.schema.createIndex('simplefin_accesses_customer').on('simplefin_accesses').columns(['customer_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('simplefin_accesses').execute();
  await db.schema.dropTable('simplefin_setup_tokens').execute();
}
