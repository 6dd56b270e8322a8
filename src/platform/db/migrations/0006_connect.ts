import { sql, type Kysely } from 'kysely';

/** Connect: the links handed out (with their webhook settings) and the partners' experiences (branding). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connect_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('institution_id', 'integer')
    .addColumn('institution_login_id', 'bigint')
    .addColumn('experience', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('redirect_uri', 'text')
    .addColumn('webhook', 'text')
    .addColumn('webhook_content_type', 'text', (c) => c.notNull())
    .addColumn('webhook_data', 'text')
    .addColumn('webhook_headers_encrypted', 'text')
    .addColumn('single_use', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('connect_links_customer').on('connect_links').columns(['customer_id', 'created_at_ms']).execute();

  await db.schema
    .createTable('connect_experiences')
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('app_name', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text')
    .addColumn('primary_color', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('connect_experiences_pk', ['partner_id', 'name'])
    .execute();

  // Connect webhooks are delivered in order per session: the claim looks for an earlier open one of the session.
  await db.schema
    .createIndex('deliveries_connect_session')
    .on('deliveries')
    .columns(['connect_session', 'id'])
    .where(sql.ref('connect_session'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deliveries_connect_session').execute();
  await db.schema.dropTable('connect_experiences').execute();
  await db.schema.dropTable('connect_links').execute();
}
