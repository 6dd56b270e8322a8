import type { Kysely } from 'kysely';
import { startIdentityAt, withIdentity } from './helpers.js';

/** Pre-app ids (the registration's tracking number) start here. */
export const PRE_APP_ID_START = 2000;

/**
 * App registration (docs/app-registration.md): a partner's applications for OAuth institutions, each pending until
 * approved (after a delay in sandbox mode, by the operator's CLI in production), then known by an application id.
 * Customers name one of them (their existing `application_id`), and an institution login moved under it keeps it.
 *
 * Third-party access keys: what a partner grants another partner on one customer's accounts, by product and time
 * frame. The key itself is stored only as its SHA-256 hash; the caller's provenance (an address, a cookie) sealed like
 * other secrets; calls counted per granted product.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdentity(db, db.schema.createTable('app_registrations'), PRE_APP_ID_START)
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('application_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('app_name', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('approve_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await startIdentityAt(db, 'app_registrations', PRE_APP_ID_START);
  await db.schema.createIndex('app_registrations_partner').on('app_registrations').columns(['partner_id', 'id']).execute();
  await db.schema.createIndex('app_registrations_application').on('app_registrations').column('application_id').unique().execute();
  await db.schema.alterTable('institution_logins').addColumn('application_id', 'text').execute();

  await db.schema
    .createTable('third_party_access_keys')
    .addColumn('receipt_id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('third_party_partner_id', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('provenance_encrypted', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('third_party_access_keys_hash').on('third_party_access_keys').column('key_hash').unique().execute();
  await db.schema.createIndex('third_party_access_keys_partner').on('third_party_access_keys').columns(['partner_id', 'created_at']).execute();
  await db.schema
    .createTable('third_party_access_products')
    .addColumn('receipt_id', 'text', (c) => c.notNull().references('third_party_access_keys.receipt_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('payor_id', 'text')
    .addColumn('max_calls', 'integer')
    .addColumn('calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('third_party_access_products_pk', ['receipt_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('third_party_access_products').execute();
  await db.schema.dropTable('third_party_access_keys').execute();
  await db.schema.alterTable('institution_logins').dropColumn('application_id').execute();
  await db.schema.dropTable('app_registrations').execute();
}
