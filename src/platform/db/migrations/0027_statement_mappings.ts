import type { Kysely } from 'kysely';

/**
 * A partner's saved CSV column mappings, one per layout (`fingerprint`, connectors/statements/fingerprint.ts): an
 * upload with a mapping saves it, a later upload of a file of the same layout without one is read with it. `mapping`
 * is the mapping as JSON. A partner keeps a bounded number (the least recently used go first), found by
 * `last_used_at` through the partner's index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('statement_mappings')
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('statement_mappings_pk', ['partner_id', 'fingerprint'])
    .execute();
  await db.schema.createIndex('statement_mappings_last_used').on('statement_mappings').columns(['partner_id', 'last_used_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('statement_mappings').execute();
}
