import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { TransactionRow } from '../aggregation/table.js';
import type { SimplefinAccessRow, SimplefinSetupTokenRow } from './table.js';

export async function insertSetupToken(db: Executor, row: SimplefinSetupTokenRow): Promise<void> {
  await db.insertInto('simplefin_setup_tokens').values(row).execute();
}

export async function findSetupToken(db: Executor, tokenHash: string): Promise<SimplefinSetupTokenRow | undefined> {
  return db.selectFrom('simplefin_setup_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks an unused token used; false when another claim took it first. */
export async function markSetupTokenUsed(db: Executor, tokenHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('simplefin_setup_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Forgets tokens that can no longer be claimed: expired a day ago, or used. */
export async function deleteSpentSetupTokens(db: Executor, now: number): Promise<void> {
  await db
    .deleteFrom('simplefin_setup_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', now - 86_400), eb('used_at', 'is not', null)]))
    .execute();
}

export async function insertAccess(
  db: Executor,
  row: Pick<SimplefinAccessRow, 'username_hash' | 'password_hash' | 'partner_id' | 'customer_id' | 'account_ids' | 'created_at'>,
): Promise<SimplefinAccessRow> {
  return db.insertInto('simplefin_accesses').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findAccessByUsername(db: Executor, usernameHash: string): Promise<SimplefinAccessRow | undefined> {
  return db.selectFrom('simplefin_accesses').selectAll().where('username_hash', '=', usernameHash).executeTakeFirst();
}

/**
 * Counts one `/accounts` request against the access's budget of the UTC day `day`, in one statement so that requests
 * at once cannot both take the last one. Returns the requests of the day so far, or undefined when the budget is spent
 * (nothing counted then but the request itself).
 */
export async function countBudgetedRequest(db: Executor, id: number, day: number, budget: number, now: number): Promise<number | undefined> {
  const row = await db
    .updateTable('simplefin_accesses')
    .set({
      budget_used: sql<number>`case when budget_day = ${day} then budget_used + 1 else 1 end`,
      budget_day: day,
      requests: sql<number>`requests + 1`,
      last_used_at: now,
    })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('budget_day', '<>', day), eb('budget_used', '<', budget)]))
    .returning('budget_used')
    .executeTakeFirst();
  if (row) return Number(row.budget_used);
  await touchAccess(db, id, now);
  return undefined;
}

/** Counts a request outside the budget (`/info`, a refused `/accounts`). */
export async function touchAccess(db: Executor, id: number, now: number): Promise<void> {
  await db.updateTable('simplefin_accesses').set({ requests: sql<number>`requests + 1`, last_used_at: now }).where('id', '=', id).execute();
}

export async function selectAccesses(db: Executor, partnerId: string, customerId: number): Promise<SimplefinAccessRow[]> {
  return db.selectFrom('simplefin_accesses').selectAll().where('partner_id', '=', partnerId).where('customer_id', '=', customerId).orderBy('id').execute();
}

export async function findAccess(db: Executor, partnerId: string, customerId: number, id: number): Promise<SimplefinAccessRow | undefined> {
  return db
    .selectFrom('simplefin_accesses')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function markAccessRevoked(db: Executor, id: number, now: number): Promise<void> {
  await db.updateTable('simplefin_accesses').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/**
 * The transactions of these accounts posted in [from, to) as the protocol's `posted` gives it (the posted date, else
 * the transaction date): a purchase posted days after it was made is in the window it posted in, which is what a
 * client asking from its last sync needs. Oldest first; pending ones only when asked. `to` undefined: no end.
 */
export async function selectWindowTransactions(
  db: Executor,
  accountIds: readonly number[],
  from: number,
  to: number | undefined,
  pending: boolean,
): Promise<TransactionRow[]> {
  if (accountIds.length === 0) return [];
  const posted = sql<number>`coalesce(posted_date, effective_date)`;
  let q = db.selectFrom('transactions').selectAll().where('account_id', 'in', accountIds).where(posted, '>=', from);
  if (to !== undefined) q = q.where(posted, '<', to);
  if (!pending) q = q.where('status', '=', 'active');
  return q.orderBy('account_id').orderBy('effective_date').orderBy('id').execute();
}
