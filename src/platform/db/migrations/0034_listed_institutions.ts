import type { Kysely } from 'kysely';

/**
 * Institutions of sources that list their own (Enable Banking's banks, docs/connectors.md): one catalogue
 * institution per source and key, kept for good so that logins and accounts keep their institution; `listed` is 0
 * once the source stops listing it. `connection` is the source's JSON about reaching it.
 *
 * Accounts reached through a consent that ends (PSD2) keep its dates: the reference's authorizationStartDate and
 * authorizationEndDate; `authorization_expiring` is 1 from the warning's time on (docs/aggregation.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('listed_institutions')
    .addColumn('institution_id', 'bigint', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('connection', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text')
    .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('synced_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('listed_institutions_source_key', ['source', 'key'])
    .execute();
  await db.schema.alterTable('accounts').addColumn('authorization_start_at', 'bigint').execute();
  await db.schema.alterTable('accounts').addColumn('authorization_end_at', 'bigint').execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('authorization_expiring', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('authorization_expiring').execute();
  await db.schema.alterTable('accounts').dropColumn('authorization_end_at').execute();
  await db.schema.alterTable('accounts').dropColumn('authorization_start_at').execute();
  await db.schema.dropTable('listed_institutions').execute();
}
