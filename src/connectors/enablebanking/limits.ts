/**
 * PSD2's limit on reads nobody asked for in person: a bank serves an account's data at most 4 times a day without the
 * customer present (banks count per account and endpoint, and answer more with ASPSP_RATE_LIMIT_EXCEEDED). One
 * refresh reads each account's balances and transactions once, so the connector counts refreshes: the times of the
 * unattended ones travel in the session, at most 4 in a UTC day are made, and the schedule spreads them over the day.
 * Reads while the customer is in Connect send the PSU headers and are not counted.
 *
 * Times are the connector context's `now`, never the system clock.
 */
import { createHash } from 'node:crypto';

export const DAY = 86_400;
const HOUR = 3600;

/** Unattended refreshes a UTC day. */
export const UNATTENDED_READS_PER_DAY = 4;
/** The scheduled refresh waits this long after the previous unattended one: four a day, evenly apart. */
export const UNATTENDED_SPACING = 6 * HOUR;
/** Pages of one transaction list read at most (a year of a busy account is a few dozen). */
export const MAX_TRANSACTION_PAGES = 100;

/** Times kept: two days cover the current UTC day and the previous refresh, whatever the hour. */
const KEPT = 2 * DAY;

/** Times that still say something at `now`: recent ones, not those of a clock that was since moved back a day or more. */
export function recentReads(times: readonly number[], now: number): number[] {
  return [...new Set(times)].filter((t) => Number.isSafeInteger(t) && t > now - KEPT && t <= now + DAY).sort((a, b) => a - b);
}

function startOfDay(at: number): number {
  return Math.floor(at / DAY) * DAY;
}

/** Unattended reads in the UTC day of `at`. */
export function readsOnDay(times: readonly number[], at: number): number {
  const start = startOfDay(at);
  return times.filter((t) => t >= start && t < start + DAY).length;
}

/** The first time from `at` on when the UTC day holds fewer than its allowed reads. */
function dayWithRoom(times: readonly number[], at: number): number {
  let next = at;
  while (readsOnDay(times, next) >= UNATTENDED_READS_PER_DAY) next = startOfDay(next) + DAY;
  return next;
}

/** When an unattended read may be made (a refresh someone asked for through the API): the day's cap alone. */
export function unattendedReadAt(times: readonly number[], now: number): number {
  return dayWithRoom(recentReads(times, now), now);
}

/** When the scheduled refresh may run: the day's cap, and not before UNATTENDED_SPACING after the previous one. */
export function scheduledReadAt(times: readonly number[], now: number): number {
  const recent = recentReads(times, now);
  const last = recent.filter((t) => t <= now).pop();
  return dayWithRoom(recent, last === undefined ? now : Math.max(now, last + UNATTENDED_SPACING));
}

/** Entries this process keeps; beyond that the oldest are forgotten (the sessions still hold theirs). */
const MAX_TRACKED_SESSIONS = 10_000;

/**
 * The unattended reads this process made, by session. A refresh that fails stores no session (a failure carries
 * none), yet the bank counted its reads: this record keeps them, and is merged with the session's on every call.
 */
export class ReadLedger {
  private readonly bySession = new Map<string, number[]>();

  /** The recent reads of a session, from its stored record and this process's. */
  recent(sessionId: string, stored: readonly number[], now: number): number[] {
    return recentReads([...stored, ...(this.bySession.get(keyOf(sessionId)) ?? [])], now);
  }

  /** Records a read about to be made; the session's new record. */
  record(sessionId: string, stored: readonly number[], now: number): number[] {
    const reads = recentReads([...this.recent(sessionId, stored, now), now], now);
    const key = keyOf(sessionId);
    this.bySession.delete(key);
    this.bySession.set(key, reads);
    if (this.bySession.size > MAX_TRACKED_SESSIONS) this.bySession.delete(this.bySession.keys().next().value as string);
    return reads;
  }
}

/** Session ids give access to bank data with the application's key: the ledger keys on their hash. */
function keyOf(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}
