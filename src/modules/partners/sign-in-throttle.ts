/**
 * Throttles dashboard sign-in, which needs no app key: partner ids travel in every Connect link, so its failures
 * must never lock a partner's API. Each attempt is reserved under two keys before the secret is checked, the
 * partner id as typed (known or not, so the answers tell nobody which ids exist) and the client address; a key
 * that collects too many failures is refused for a cool-down that doubles each time it is served again.
 */
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import { slotFreed, waitForSlot } from '../../platform/wait-for-slot.js';
import { attemptCounter } from './attempt-counter.js';

export interface ThrottleContext {
  database: { kysely: Executor };
  clock: Clock;
}

interface Rule {
  /** Failures allowed before a cool-down. */
  failures: number;
  /** Whether a successful sign-in forgives the failures (not for an address, which may try many partner ids). */
  forgivenBySuccess: boolean;
}

const PARTNER: Rule = { failures: 5, forgivenBySuccess: true };
const ADDRESS: Rule = { failures: 20, forgivenBySuccess: false };
export const FIRST_COOL_DOWN_SECONDS = 60;
export const LONGEST_COOL_DOWN_SECONDS = 3600;
/** Cool-downs stop doubling after a day without one. */
const ROUNDS_FORGOTTEN_AFTER_SECONDS = 86_400;
const STALE_RESERVATION_SECONDS = 120;

export interface SignInAttempt {
  keys: Array<{ key: string; rule: Rule }>;
}

/** The throttle keys of a sign-in: the partner id as typed and the client's address. */
export function signInKeys(partnerId: string, clientAddress: string): SignInAttempt {
  return {
    keys: [
      { key: `partner:${partnerId.slice(0, 64)}`, rule: PARTNER },
      { key: `address:${clientAddress}`, rule: ADDRESS },
    ],
  };
}

const pending = attemptCounter('pending', 'pending_at');
const released = pending.released;

async function reserveKey(db: Executor, key: string, rule: Rule, now: number): Promise<'reserved' | 'busy' | { blockedUntil: number }> {
  await db
    .insertInto('sign_in_throttle')
    .values({ key, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const staleBefore = now - STALE_RESERVATION_SECONDS;
  const reserved = await db
    .updateTable('sign_in_throttle')
    .set({
      pending: pending.reserved(staleBefore, now).count,
      pending_at: pending.reserved(staleBefore, now).since,
      updated_at: now,
    })
    .where('key', '=', key)
    .where('blocked_until', '<=', now)
    .where(sql<boolean>`failures + ${pending.inProgress(staleBefore)} < ${rule.failures}`)
    .returning('key')
    .executeTakeFirst();
  if (reserved) return 'reserved';
  const row = await db.selectFrom('sign_in_throttle').select('blocked_until').where('key', '=', key).executeTakeFirst();
  const blockedUntil = Number(row?.blocked_until ?? 0);
  return blockedUntil > now ? { blockedUntil } : 'busy';
}

async function releaseKey(db: Executor, key: string): Promise<void> {
  await db.updateTable('sign_in_throttle').set({ pending: released }).where('key', '=', key).execute();
}

/**
 * Reserves an attempt under every key of the sign-in, waiting a moment while other attempts are being checked;
 * 429 DashboardSignInThrottled (with the seconds to wait) while a key is cooling down, whatever the secret.
 */
export async function reserveSignIn(ctx: ThrottleContext, attempt: SignInAttempt): Promise<void> {
  const held: string[] = [];
  for (const { key, rule } of attempt.keys) {
    const outcome = await waitForSlot(key, () => reserveKey(ctx.database.kysely, key, rule, epochSeconds(ctx.clock)));
    if (outcome === 'reserved') {
      held.push(key);
      continue;
    }
    for (const k of held) {
      await releaseKey(ctx.database.kysely, k);
      slotFreed(k);
    }
    if (outcome === 'busy') throw new ServiceError('AuthenticationBusy', undefined, { 'retry-after': '1' });
    throw new ServiceError('DashboardSignInThrottled', undefined, { 'retry-after': String(Math.max(1, outcome.blockedUntil - epochSeconds(ctx.clock))) });
  }
}

/** Decides a reserved sign-in: a failure counts under every key (and may start a cool-down), a success forgives the partner id's. */
export async function completeSignIn(ctx: ThrottleContext, attempt: SignInAttempt, succeeded: boolean): Promise<void> {
  const db = ctx.database.kysely;
  const now = epochSeconds(ctx.clock);
  for (const { key, rule } of attempt.keys) {
    if (succeeded) {
      await db
        .updateTable('sign_in_throttle')
        .set(rule.forgivenBySuccess ? { pending: released, failures: 0, rounds: 0, updated_at: now } : { pending: released, updated_at: now })
        .where('key', '=', key)
        .execute();
      continue;
    }
    const row = await db
      .updateTable('sign_in_throttle')
      .set((eb) => ({ pending: released, failures: eb('failures', '+', 1), updated_at: now }))
      .where('key', '=', key)
      .returning(['failures', 'rounds', 'blocked_until'])
      .executeTakeFirst();
    if (row && row.failures >= rule.failures) await startCoolDown(db, key, rule, Number(row.rounds), Number(row.blocked_until), now);
  }
  for (const { key } of attempt.keys) slotFreed(key);
}

async function startCoolDown(db: Executor, key: string, rule: Rule, rounds: number, lastBlockedUntil: number, now: number): Promise<void> {
  const served = lastBlockedUntil < now - ROUNDS_FORGOTTEN_AFTER_SECONDS ? 0 : rounds;
  const seconds = Math.min(FIRST_COOL_DOWN_SECONDS * 2 ** served, LONGEST_COOL_DOWN_SECONDS);
  // Only the failure that reached the limit starts it: reservations stop there, so no other can be counted.
  await db
    .updateTable('sign_in_throttle')
    .set({ failures: 0, rounds: served + 1, blocked_until: now + seconds, updated_at: now })
    .where('key', '=', key)
    .where('failures', '>=', rule.failures)
    .execute();
  // Rows of keys quiet for two days are forgotten, so ids typed at random do not pile up.
  await db
    .deleteFrom('sign_in_throttle')
    .where('updated_at', '<', now - 2 * ROUNDS_FORGOTTEN_AFTER_SECONDS)
    .where('blocked_until', '<', now)
    .where('pending', '=', 0)
    .execute();
}
