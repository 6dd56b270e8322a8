import { sql, type Kysely } from 'kysely';

/**
 * The scheduled refresh keeps the refreshes in flight at one institution under a cap
 * (LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY, docs/connectors.md "Refresh on a schedule"). Every claim counts, per
 * institution, the logins whose refresh lease is held: a lease is released when its refresh ends, so an index of the
 * leased logins alone stays small and the count reads it instead of every login. The claim then reads due logins in
 * due order, passing over those of institutions at their cap: the due index now carries the institution and the lease,
 * so passing over a backlog of a capped institution reads the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('institution_logins_refresh_lease')
    .on('institution_logins')
    .columns(['institution_id', 'refresh_lease_until'])
    .where(sql.ref('refresh_lease_until'), 'is not', null)
    .execute();
  await db.schema.dropIndex('institution_logins_refresh_due').execute();
  await db.schema
    .createIndex('institution_logins_refresh_due')
    .on('institution_logins')
    .columns(['refresh_due_at', 'id', 'institution_id', 'refresh_lease_until'])
    .where(sql.ref('refresh_due_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('institution_logins_refresh_due').execute();
  await db.schema
    .createIndex('institution_logins_refresh_due')
    .on('institution_logins')
    .columns(['refresh_due_at', 'id'])
    .where(sql.ref('refresh_due_at'), 'is not', null)
    .execute();
  await db.schema.dropIndex('institution_logins_refresh_lease').execute();
}
