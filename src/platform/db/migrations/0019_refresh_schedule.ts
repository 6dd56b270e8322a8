import { sql, type Kysely } from 'kysely';

/**
 * Scheduled refresh of real institutions' logins (docs/connectors.md, "Refresh on a schedule"): when each login is
 * next due (service clock, epoch seconds; null when it is not scheduled: test bank logins, and logins that need the
 * user) and how many refreshes of it in a row failed for a temporary reason (the backoff). A worker claims a due
 * login by taking its refresh lease (refresh_lease_until / refresh_lease_owner), the lease every refresh takes.
 *
 * Existing logins of real institutions are backfilled as due a day (the default interval) after their last
 * successful refresh, or their link, give or take 10% by login id so they do not all come due at once; a login
 * that needs the user (its status says so, or a sandbox error state is set) stays unscheduled until it is fixed.
 */

/** The test institutions (src/connectors/testbank/institutions.ts) as they were when this migration was written. */
const TEST_INSTITUTION_IDS = [101732, 102105, 102106, 102168, 102175, 102176, 4222];
/** The status codes only the user can clear (src/modules/aggregation/failures.ts), as they were then. */
const USER_FIXABLE_CODES = [103, 108, 109, 185, 187, 945, 946, 947, 948];
const DAY = 86_400;
const SPREAD = DAY / 10;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('institution_logins').addColumn('refresh_due_at', 'bigint').execute();
  await db.schema
    .alterTable('institution_logins')
    .addColumn('refresh_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The claim reads due logins in due order; unscheduled ones are left out of the index.
  await db.schema
    .createIndex('institution_logins_refresh_due')
    .on('institution_logins')
    .columns(['refresh_due_at', 'id'])
    .where(sql.ref('refresh_due_at'), 'is not', null)
    .execute();
  await sql`update institution_logins
    set refresh_due_at = coalesce(aggregation_success_at, created_at) + ${sql.lit(DAY - SPREAD)} + (id % ${sql.lit(2 * SPREAD + 1)})
    where institution_id not in (${sql.join(TEST_INSTITUTION_IDS.map((id) => sql.lit(id)))})
      and aggregation_status_code not in (${sql.join(USER_FIXABLE_CODES.map((code) => sql.lit(code)))})
      and sandbox_failure_code is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('institution_logins_refresh_due').execute();
  await db.schema.alterTable('institution_logins').dropColumn('refresh_failures').execute();
  await db.schema.alterTable('institution_logins').dropColumn('refresh_due_at').execute();
}
