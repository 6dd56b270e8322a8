import type { Kysely } from 'kysely';

/** Partners and their access tokens. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('partners')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('testdrive'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('app_key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('app_key_encrypted', 'text', (c) => c.notNull())
    .addColumn('failed_auth_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('partner_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('partner_tokens_expires_at').on('partner_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('partner_tokens').execute();
  await db.schema.dropTable('partners').execute();
}
