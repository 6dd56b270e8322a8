import type { Kysely } from 'kysely';
import type { Executor } from '../../db/database.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import type { PartnerPlan, PartnerRow } from './table.js';

export async function insertPartner(db: Executor, row: Omit<PartnerRow, 'failed_auth_count' | 'locked_at'>): Promise<void> {
  await db.insertInto('partners').values(row).execute();
}

export async function findPartnerById(db: Executor, id: string): Promise<PartnerRow | undefined> {
  return db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPartnerByAppKeyHash(db: Executor, appKeyHash: string): Promise<PartnerRow | undefined> {
  return db.selectFrom('partners').selectAll().where('app_key_hash', '=', appKeyHash).executeTakeFirst();
}

export async function countPartners(db: Executor): Promise<number> {
  const row = await db.selectFrom('partners').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface CallerRow {
  id: string;
  plan: PartnerPlan;
  token_partner_id: string | null;
  token_expires_at: number | null;
}

const callerQuery = preparedQuery<[appKeyHash: string, tokenHash: string], CallerRow>(2, (db, appKeyHash, tokenHash) => db
  .selectFrom('partners as p')
  .leftJoin('partner_tokens as t', (join) => join.on('t.token_hash', '=', tokenHash))
  .select(['p.id', 'p.plan', 't.partner_id as token_partner_id', 't.expires_at as token_expires_at'])
  .where('p.app_key_hash', '=', appKeyHash));

/** One round trip for the per-request check: the app key's partner and, if it exists, the token. */
export async function findCaller(db: Kysely<DB>, appKeyHash: string, tokenHash: string): Promise<CallerRow | undefined> {
  return (await callerQuery(db, appKeyHash, tokenHash))[0];
}

/** Counts a failed authentication and locks the partner when it reaches `lockAfter`; returns the new state. */
export async function recordFailedAuthentication(db: Executor, partnerId: string, lockAfter: number, now: number): Promise<{ failed_auth_count: number; locked_at: number | null } | undefined> {
  return db
    .updateTable('partners')
    .set((eb) => ({
      failed_auth_count: eb('failed_auth_count', '+', 1),
      locked_at: eb.case().when('failed_auth_count', '>=', lockAfter - 1).then(eb.fn.coalesce('locked_at', eb.val(now))).else(eb.ref('locked_at')).end(),
      updated_at: now,
    }))
    .where('id', '=', partnerId)
    .returning(['failed_auth_count', 'locked_at'])
    .executeTakeFirst();
}

/** Resets the failure count after a success; false when the partner got locked in the meantime. */
export async function recordSuccessfulAuthentication(db: Executor, partnerId: string): Promise<boolean> {
  const result = await db.updateTable('partners').set({ failed_auth_count: 0 }).where('id', '=', partnerId).where('locked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updatePartner(db: Executor, partnerId: string, changes: Partial<Pick<PartnerRow, 'secret_hash' | 'app_key_hash' | 'app_key_encrypted' | 'failed_auth_count' | 'locked_at' | 'name' | 'plan'>>, now: number): Promise<boolean> {
  const result = await db.updateTable('partners').set({ ...changes, updated_at: now }).where('id', '=', partnerId).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertToken(db: Executor, row: { token_hash: string; partner_id: string; created_at: number; expires_at: number }): Promise<void> {
  await db.insertInto('partner_tokens').values(row).execute();
}

/** Drops a partner's tokens that expired before `before`, so the table does not grow without bound. */
export async function deleteExpiredTokens(db: Executor, partnerId: string, before: number): Promise<void> {
  await db.deleteFrom('partner_tokens').where('partner_id', '=', partnerId).where('expires_at', '<', before).execute();
}
