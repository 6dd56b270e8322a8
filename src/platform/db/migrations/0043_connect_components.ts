import type { Kysely } from 'kysely';

/**
 * Connect Components (docs/connect-components.md): the partners' configurations, which a login form or OAuth URL may
 * name to narrow the accounts offered (filters stored as JSON arrays).
 *
 * Connect links gain what those sessions and joint borrower links carry: the configuration applied, the event stream
 * id the session's Connect events carry, and the joint borrower's customer (the link's own customer is the primary
 * borrower). A link goes with either of its customers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connect_component_configurations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('filter_accounts', 'text')
    .addColumn('account_classification_types', 'text')
    .addColumn('ao_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('connect_component_configurations_partner')
    .on('connect_component_configurations')
    .columns(['partner_id', 'created_at'])
    .execute();

  await db.schema.alterTable('connect_links').addColumn('configuration_id', 'text').execute();
  await db.schema.alterTable('connect_links').addColumn('event_stream_id', 'text').execute();
  await db.schema
    .alterTable('connect_links')
    .addColumn('joint_customer_id', 'bigint', (c) => c.references('customers.id').onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connect_links').dropColumn('joint_customer_id').execute();
  await db.schema.alterTable('connect_links').dropColumn('event_stream_id').execute();
  await db.schema.alterTable('connect_links').dropColumn('configuration_id').execute();
  await db.schema.dropTable('connect_component_configurations').execute();
}
