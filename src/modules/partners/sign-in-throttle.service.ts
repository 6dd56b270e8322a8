/**
 * Throttles dashboard sign-in, which needs no app key: partner ids travel in every Connect link, so its failures
 * must never lock a partner's API. Each attempt is reserved under two keys before the secret is checked, the
 * partner id as typed (known or not, so the answers tell nobody which ids exist) and the client address; a key
 * that collects too many failures is refused for a cool-down that doubles each time it is served again.
 */
import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import { slotFreed, waitForSlot } from '../../platform/wait-for-slot.js';
import * as repo from './sign-in-throttle.repository.js';

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

async function reserveKey(db: Executor, key: string, rule: Rule, now: number): Promise<'reserved' | 'busy' | { blockedUntil: number }> {
  const outcome = await repo.reserveThrottleKey(db, key, rule.failures, now, now - STALE_RESERVATION_SECONDS);
  if (outcome === 'reserved') return outcome;
  return outcome.blockedUntil > now ? outcome : 'busy';
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
      await repo.releaseThrottleKey(ctx.database.kysely, k);
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
      await repo.recordThrottleSuccess(db, key, rule.forgivenBySuccess, now);
      continue;
    }
    const row = await repo.recordThrottleFailure(db, key, now);
    if (row && row.failures >= rule.failures) await startCoolDown(db, key, rule, Number(row.rounds), Number(row.blocked_until), now);
  }
  for (const { key } of attempt.keys) slotFreed(key);
}

async function startCoolDown(db: Executor, key: string, rule: Rule, rounds: number, lastBlockedUntil: number, now: number): Promise<void> {
  const served = lastBlockedUntil < now - ROUNDS_FORGOTTEN_AFTER_SECONDS ? 0 : rounds;
  const seconds = Math.min(FIRST_COOL_DOWN_SECONDS * 2 ** served, LONGEST_COOL_DOWN_SECONDS);
  // Only the failure that reached the limit starts it: reservations stop there, so no other can be counted.
  await repo.blockThrottleKey(db, key, rule.failures, served + 1, now + seconds, now);
  // Rows of keys quiet for two days are forgotten, so ids typed at random do not pile up.
  await repo.deleteQuietThrottleKeys(db, now - 2 * ROUNDS_FORGOTTEN_AFTER_SECONDS, now);
}
