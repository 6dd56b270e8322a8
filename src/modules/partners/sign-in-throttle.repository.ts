import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { attemptCounter } from './repository.js';

const pending = attemptCounter('pending', 'pending_at');
const released = pending.released;

/** A reserved attempt, or until when the key is blocked (0 when it never was). */
export type ThrottleReservation = 'reserved' | { blockedUntil: number };

/**
 * Reserves one attempt under a key (its row is made the first time) in one statement, when the key is not cooling
 * down and its failures plus the attempts in progress stay below `limit`.
 */
export async function reserveThrottleKey(db: Executor, key: string, limit: number, now: number, staleBefore: number): Promise<ThrottleReservation> {
  await db
    .insertInto('sign_in_throttle')
    .values({ key, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const reserved = await db
    .updateTable('sign_in_throttle')
    .set({
      pending: pending.reserved(staleBefore, now).count,
      pending_at: pending.reserved(staleBefore, now).since,
      updated_at: now,
    })
    .where('key', '=', key)
    .where('blocked_until', '<=', now)
    .where(sql<boolean>`failures + ${pending.inProgress(staleBefore)} < ${limit}`)
    .returning('key')
    .executeTakeFirst();
  if (reserved) return 'reserved';
  const row = await db.selectFrom('sign_in_throttle').select('blocked_until').where('key', '=', key).executeTakeFirst();
  return { blockedUntil: Number(row?.blocked_until ?? 0) };
}

/** Gives back a reserved attempt that was never decided. */
export async function releaseThrottleKey(db: Executor, key: string): Promise<void> {
  await db.updateTable('sign_in_throttle').set({ pending: released }).where('key', '=', key).execute();
}

/** Decides a reserved attempt as a success; `forgive` also clears the key's failures and cool-down rounds. */
export async function recordThrottleSuccess(db: Executor, key: string, forgive: boolean, now: number): Promise<void> {
  await db
    .updateTable('sign_in_throttle')
    .set(forgive ? { pending: released, failures: 0, rounds: 0, updated_at: now } : { pending: released, updated_at: now })
    .where('key', '=', key)
    .execute();
}

/** Decides a reserved attempt as a failure; answers the key's failures, cool-down rounds and last cool-down end. */
export async function recordThrottleFailure(
  db: Executor,
  key: string,
  now: number,
): Promise<{ failures: number; rounds: number; blocked_until: number } | undefined> {
  return db
    .updateTable('sign_in_throttle')
    .set((eb) => ({ pending: released, failures: eb('failures', '+', 1), updated_at: now }))
    .where('key', '=', key)
    .returning(['failures', 'rounds', 'blocked_until'])
    .executeTakeFirst();
}

/** Blocks a key until `until` as its cool-down round `rounds`, if its failures still reach `limit`. */
export async function blockThrottleKey(db: Executor, key: string, limit: number, rounds: number, until: number, now: number): Promise<void> {
  await db
    .updateTable('sign_in_throttle')
    .set({ failures: 0, rounds, blocked_until: until, updated_at: now })
    .where('key', '=', key)
    .where('failures', '>=', limit)
    .execute();
}

/** Deletes the rows of keys unchanged since `before`, neither blocked nor being checked. */
export async function deleteQuietThrottleKeys(db: Executor, before: number, now: number): Promise<void> {
  await db.deleteFrom('sign_in_throttle').where('updated_at', '<', before).where('blocked_until', '<', now).where('pending', '=', 0).execute();
}
