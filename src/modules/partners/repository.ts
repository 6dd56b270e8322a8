import { sql, type Kysely } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { preparedQuery } from '../../platform/db/prepared.js';
import type { DB } from '../../platform/db/schema.js';
import type { PartnerPlan, PartnerRow } from './table.js';

/**
 * A count of authentication attempts in progress, kept in two columns of a row: the count, and when it last rose
 * from zero. A count that has not been back to zero since `staleBefore` holds a reservation nobody decided (a
 * process that died mid-check), so it is taken as zero. The partner's API lock-out and the dashboard sign-in
 * throttle both reserve this way.
 */
export function attemptCounter(countColumn: string, sinceColumn: string) {
  const count = sql.ref(countColumn);
  const since = sql.ref(sinceColumn);
  const inProgress = (staleBefore: number) => sql<number>`(case when ${since} < ${staleBefore} then 0 else ${count} end)`;
  return {
    inProgress,
    /** The two columns' values once one more attempt is reserved. */
    reserved: (staleBefore: number, now: number) => ({
      count: sql<number>`${inProgress(staleBefore)} + 1`,
      since: sql<number>`case when ${inProgress(staleBefore)} = 0 then ${now} else ${since} end`,
    }),
    /** The count once one attempt is decided or given back. */
    released: sql<number>`(case when ${count} > 0 then ${count} - 1 else 0 end)`,
  };
}

export async function insertPartner(
  db: Executor,
  row: Omit<PartnerRow, 'failed_auth_count' | 'locked_at' | 'auth_pending' | 'auth_pending_at'>,
): Promise<void> {
  await db.insertInto('partners').values(row).execute();
}

export async function findPartnerById(db: Executor, id: string): Promise<PartnerRow | undefined> {
  return db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPartnerByAppKeyHash(db: Executor, appKeyHash: string): Promise<PartnerRow | undefined> {
  return db.selectFrom('partners').selectAll().where('app_key_hash', '=', appKeyHash).executeTakeFirst();
}

/** Every partner, oldest first: what an operator may see (no secret, no key). */
export async function listPartners(db: Executor): Promise<Pick<PartnerRow, 'id' | 'name' | 'plan' | 'created_at' | 'locked_at'>[]> {
  return db.selectFrom('partners').select(['id', 'name', 'plan', 'created_at', 'locked_at']).orderBy('created_at').orderBy('id').execute();
}

export async function countPartners(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('partners')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface CallerRow {
  id: string;
  plan: PartnerPlan;
  token_partner_id: string | null;
  token_expires_at: number | null;
}

const callerQuery = preparedQuery<[appKeyHash: string, tokenHash: string], CallerRow>(2, (db, appKeyHash, tokenHash) =>
  db
    .selectFrom('partners as p')
    .leftJoin('partner_tokens as t', (join) => join.on('t.token_hash', '=', tokenHash))
    .select(['p.id', 'p.plan', 't.partner_id as token_partner_id', 't.expires_at as token_expires_at'])
    .where('p.app_key_hash', '=', appKeyHash),
);

/** One round trip for the per-request check: the app key's partner and, if it exists, the token. */
export async function findCaller(db: Kysely<DB>, appKeyHash: string, tokenHash: string): Promise<CallerRow | undefined> {
  return (await callerQuery(db, appKeyHash, tokenHash))[0];
}

const pending = attemptCounter('auth_pending', 'auth_pending_at');
const released = pending.released;

/**
 * Reserves one authentication attempt before the secret is checked, in one statement, so that however requests
 * interleave (in one process or several) the failures counted plus the attempts in progress stay below `limit`.
 * 'locked' when the partner is locked, 'busy' when that many attempts are already being checked.
 */
export async function reserveAuthentication(
  db: Executor,
  partnerId: string,
  limit: number,
  now: number,
  staleBefore: number,
): Promise<'reserved' | 'locked' | 'busy'> {
  const reserved = await db
    .updateTable('partners')
    .set({
      auth_pending: pending.reserved(staleBefore, now).count,
      auth_pending_at: pending.reserved(staleBefore, now).since,
    })
    .where('id', '=', partnerId)
    .where('locked_at', 'is', null)
    .where(sql<boolean>`failed_auth_count + ${pending.inProgress(staleBefore)} < ${limit}`)
    .returning('id')
    .executeTakeFirst();
  if (reserved) return 'reserved';
  const row = await db.selectFrom('partners').select(['locked_at', 'failed_auth_count']).where('id', '=', partnerId).executeTakeFirst();
  // A count already at the limit (the limit was lowered since) is a lock too, or nothing could ever reset it.
  return !row || row.locked_at !== null || row.failed_auth_count >= limit ? 'locked' : 'busy';
}

/** Decides a reserved attempt as a failure, locking the partner when the count reaches `lockAfter`; returns the new count. */
export async function recordFailedAuthentication(db: Executor, partnerId: string, lockAfter: number, now: number): Promise<number> {
  const row = await db
    .updateTable('partners')
    .set((eb) => ({
      auth_pending: released,
      failed_auth_count: eb('failed_auth_count', '+', 1),
      locked_at: eb
        .case()
        .when('failed_auth_count', '>=', lockAfter - 1)
        .then(eb.fn.coalesce('locked_at', eb.val(now)))
        .else(eb.ref('locked_at'))
        .end(),
      updated_at: now,
    }))
    .where('id', '=', partnerId)
    .returning('failed_auth_count')
    .executeTakeFirst();
  return row?.failed_auth_count ?? lockAfter;
}

/** Decides a reserved attempt as a success: the failure count starts again. False when the partner is locked. */
export async function recordSuccessfulAuthentication(db: Executor, partnerId: string): Promise<boolean> {
  const row = await db
    .updateTable('partners')
    .set({ auth_pending: released, failed_auth_count: sql<number>`case when locked_at is null then 0 else failed_auth_count end` })
    .where('id', '=', partnerId)
    .returning('locked_at')
    .executeTakeFirst();
  return row !== undefined && row.locked_at === null;
}

/** Gives back a reserved attempt that was never decided (the check itself failed). */
export async function releaseAuthentication(db: Executor, partnerId: string): Promise<void> {
  await db.updateTable('partners').set({ auth_pending: released }).where('id', '=', partnerId).execute();
}

export async function updatePartner(
  db: Executor,
  partnerId: string,
  changes: Partial<Pick<PartnerRow, 'secret_hash' | 'app_key_hash' | 'app_key_encrypted' | 'failed_auth_count' | 'locked_at' | 'name' | 'plan'>>,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('partners')
    .set({ ...changes, updated_at: now })
    .where('id', '=', partnerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertToken(db: Executor, row: { token_hash: string; partner_id: string; created_at: number; expires_at: number }): Promise<void> {
  await db.insertInto('partner_tokens').values(row).execute();
}

/** Drops a partner's tokens that expired before `before`, so the table does not grow without bound. */
export async function deleteExpiredTokens(db: Executor, partnerId: string, before: number): Promise<void> {
  await db.deleteFrom('partner_tokens').where('partner_id', '=', partnerId).where('expires_at', '<', before).execute();
}

/** Deletes every token of a partner; answers the expiry (epoch seconds) of each token deleted. */
export async function deleteTokensOf(db: Executor, partnerId: string): Promise<number[]> {
  const rows = await db.deleteFrom('partner_tokens').where('partner_id', '=', partnerId).returning('expires_at').execute();
  return rows.map((r) => Number(r.expires_at));
}

/**
 * Deletes every dashboard session of a partner (a secret reset ends them with the tokens); answers the expiry (epoch
 * seconds) of each session deleted. Here rather than in the dashboard module, which builds on partners.
 */
export async function deleteDashboardSessionsOf(db: Executor, partnerId: string): Promise<number[]> {
  const rows = await db.deleteFrom('dashboard_sessions').where('partner_id', '=', partnerId).returning('expires_at').execute();
  return rows.map((r) => Number(r.expires_at));
}
