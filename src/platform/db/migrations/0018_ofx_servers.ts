import type { Kysely } from 'kysely';

/**
 * The OFX Direct Connect server of an institution: where its OFX connector signs in and what it sends in the
 * sign-on (FI/ORG, FI/FID, BROKERID, APPID/APPVER, the OFX version). `source` tells the rows loaded from the
 * institution directory that ships with Ledgerlink from those an operator added or overrode.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ofx_servers')
    .addColumn('institution_id', 'integer', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('fid', 'text', (c) => c.notNull())
    .addColumn('org', 'text', (c) => c.notNull())
    .addColumn('broker_id', 'text')
    .addColumn('app_id', 'text')
    .addColumn('app_ver', 'text')
    .addColumn('ofx_version', 'integer')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ofx_servers').execute();
}
