/**
 * The bridge's limits. A SimpleFIN Bridge serves about 24 requests a day per access URL (more get the token
 * flagged and then disabled), and each request may cover only a bounded date range. Every request to `/accounts`
 * counts, whatever asked for it (a manual refresh, a scheduled one, a history load), so the times of the requests of
 * the last 24 hours travel in the connector session, and a request that would exceed the quota is not sent.
 *
 * Times are the connector context's `now`, never the system clock.
 */
import { createHash } from 'node:crypto';
import type { ConnectorFailure } from '../connector.js';
import { formatEpoch, SimplefinFailures } from './errors.js';

export const DAY = 86_400;

/** Times further than a day ahead of now come from a clock that was moved back; they no longer say anything. */
export function recentRequests(requests: readonly number[], now: number): number[] {
  return requests.filter((t) => Number.isFinite(t) && t > now - DAY && t <= now + DAY).sort((a, b) => a - b);
}

/** How many more requests the quota allows now. */
export function requestsLeft(requests: readonly number[], now: number, quota: number): number {
  return Math.max(0, quota - recentRequests(requests, now).length);
}

/** When the next request is allowed: now if the quota has room, else when enough of the last day's requests age out. */
export function nextAllowedAt(requests: readonly number[], now: number, quota: number): number {
  const recent = recentRequests(requests, now);
  if (recent.length < quota) return now;
  return Math.max(now, (recent[recent.length - quota] as number) + DAY);
}

/**
 * Two records of the same history (the stored session's and this process's): each time counts as often as the
 * record that has it most often, so neither loses a request the other saw.
 */
export function mergeRequestLogs(a: readonly number[], b: readonly number[]): number[] {
  const count = (list: readonly number[]) => list.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<number, number>());
  const [ca, cb] = [count(a), count(b)];
  const out: number[] = [];
  for (const t of new Set([...ca.keys(), ...cb.keys()])) {
    const n = Math.max(ca.get(t) ?? 0, cb.get(t) ?? 0);
    for (let i = 0; i < n; i++) out.push(t);
  }
  return out.sort((x, y) => x - y);
}

export interface DateWindow {
  /** Epoch seconds, inclusive. */
  start: number;
  /** Epoch seconds, exclusive (the bridge's end-date). */
  end: number;
}

/** [start, end) cut into consecutive windows of at most maxSeconds, oldest first. */
export function splitWindows(start: number, end: number, maxSeconds: number): DateWindow[] {
  if (!(maxSeconds > 0)) throw new RangeError('maxSeconds must be positive');
  const windows: DateWindow[] = [];
  for (let from = start; from < end; from += maxSeconds) windows.push({ start: from, end: Math.min(end, from + maxSeconds) });
  return windows;
}

/** Entries this process keeps; beyond that the oldest are forgotten (the sessions still hold theirs). */
const MAX_TRACKED_ACCESS_URLS = 10_000;

/**
 * The requests of each access URL this process sent. A failed request cannot replace the stored session (a failure
 * carries none), yet it reached the bridge and counts: this record keeps it, and is merged with the session's on
 * every call. Reserving before sending also makes concurrent calls with the same session count each other.
 */
export class RequestLedger {
  private readonly byKey = new Map<string, number[]>();

  /** The recent requests of an access URL, from the session's record and this process's. */
  recent(accessUrl: string, stored: readonly number[], now: number): number[] {
    return recentRequests(mergeRequestLogs(stored, this.byKey.get(keyOf(accessUrl)) ?? []), now);
  }

  /** Records a request about to be sent, if the quota allows one; the new record, or when the next is allowed. */
  reserve(accessUrl: string, stored: readonly number[], now: number, quota: number): { ok: true; requests: number[] } | { ok: false; nextAt: number } {
    const recent = this.recent(accessUrl, stored, now);
    if (recent.length >= quota) return { ok: false, nextAt: nextAllowedAt(recent, now, quota) };
    recent.push(now);
    recent.sort((a, b) => a - b);
    const key = keyOf(accessUrl);
    this.byKey.delete(key);
    this.byKey.set(key, recent);
    if (this.byKey.size > MAX_TRACKED_ACCESS_URLS) this.byKey.delete(this.byKey.keys().next().value as string);
    return { ok: true, requests: [...recent] };
  }
}

/** The access URL is a secret: the ledger keys on its hash. */
function keyOf(accessUrl: string): string {
  return createHash('sha256').update(accessUrl).digest('base64url');
}

/** The failure of a call that would exceed the quota: 102, naming when the next request is allowed. */
export function quotaFailure(quota: number, nextAt: number): ConnectorFailure {
  return SimplefinFailures.quotaUsedUp(quota, formatEpoch(nextAt));
}
