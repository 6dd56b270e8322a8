import type { Kysely } from 'kysely';

/**
 * A partner's tokens found by partner: revoking them all deletes them by partner id, and authentication drops the
 * partner's expired ones on every call; without this both scan every partner's tokens.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('partner_tokens_partner_id').on('partner_tokens').columns(['partner_id', 'expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('partner_tokens_partner_id').execute();
}
