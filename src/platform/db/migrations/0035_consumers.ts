import type { Kysely } from 'kysely';

/**
 * Consumers (docs/consumers.md): the person behind a customer, at most one per customer (the unique customer_id),
 * removed with the customer. Ids are 32 hexadecimal digits, as the real service's. The personal data (names, address,
 * SSN, birthday, phone, e-mail, the reports' end user) is one AES-256-GCM sealed JSON document (`data_encrypted`, key
 * derived from the master key); only ids and dates stay in clear.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('consumers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().unique().references('customers.id').onDelete('cascade'))
    .addColumn('data_encrypted', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('consumers').execute();
}
