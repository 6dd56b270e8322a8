import type { Kysely } from 'kysely';
import { startIdentityAt, withIdentity } from './helpers.js';

/** Where customer ids begin: ten digits, like the real service's. */
export const CUSTOMER_ID_START = 1005000000;

/**
 * Customers of partners. Everything a customer owns (institution logins, accounts, transactions,
 * subscriptions) references customers(id) with ON DELETE CASCADE, so deleting the row removes it all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdentity(db, db.schema.createTable('customers'), CUSTOMER_ID_START)
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('application_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('customers_partner_username', ['partner_id', 'username'])
    .execute();
  await startIdentityAt(db, 'customers', CUSTOMER_ID_START);
  await db.schema.createIndex('customers_partner_id').on('customers').columns(['partner_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('customers').execute();
}
