import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { POLLED_LISTENER_PREFIX } from './listeners.js';
import { IN_TARGET_ORDER } from './order.js';
import type { DeliveryRow } from './table.js';
import { isPostgresExecutor } from './wake.js';

/** A delivery claimed by one worker: `locked_by` is that claim's token, which complete and fail check. */
export type ClaimedDelivery = DeliveryRow & { locked_by: string; first_attempt_at: number };

/**
 * How long a claim lasts: longer than an attempt may take (its timeout) plus a margin for the database writes,
 * so a live worker never loses a claim it is still working on, and a crashed worker's claims come back soon.
 */
export function leaseSecondsFor(timeoutMs: number): number {
  const timeout = Math.ceil(timeoutMs / 1000);
  return timeout + Math.max(5, timeout);
}

export interface ClaimOptions {
  workerId: string;
  /** At most this many rows. */
  limit: number;
  /** Epoch seconds. */
  now: number;
  leaseSeconds: number;
  /**
   * Only deliveries to this target: a polled listener's (`listen://ID`, taken by its `ledgerlink listen` through the
   * service). Without it, every target but those: workers never send to a polled listener.
   */
  target?: string;
}

// Literal, so both databases can use the partial index deliveries_due.
const OPEN = sql<boolean>`status in ('pending', 'delivering')`;

/**
 * Claims due deliveries: pending ones whose time has come, and delivering ones whose claim ran out (their worker
 * died), except webhooks the ordering rule holds back (order.ts). One statement marks them delivering under a fresh
 * claim token, counts the attempt, starts the retry window on the first one, and moves next_attempt_at to the end of
 * the lease.
 * PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent workers claim disjoint rows without waiting on each other.
 * SQLite: the statement runs under the database write lock, so a second process cannot claim the same rows either.
 */
export async function claimDueDeliveries(db: Executor, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { now, limit } = options;
  const token = `${options.workerId}#${randomBytes(4).toString('hex')}`;
  const until = now + options.leaseSeconds;
  let due = db
    .selectFrom('deliveries')
    .select('id')
    .where(OPEN)
    .where('next_attempt_at', '<=', now)
    .where(IN_TARGET_ORDER)
    .where('target', options.target === undefined ? 'not like' : '=', options.target ?? `${POLLED_LISTENER_PREFIX}%`)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit);
  if (isPostgresExecutor(db)) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('deliveries')
    .set((eb) => ({
      status: 'delivering',
      locked_by: token,
      locked_until: until,
      next_attempt_at: until,
      attempts: eb('attempts', '+', 1),
      first_attempt_at: eb.fn.coalesce('first_attempt_at', eb.val(now)),
    }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
  return (rows as ClaimedDelivery[]).sort((a, b) => a.id - b.id);
}

/**
 * PostgreSQL: analyzes the deliveries table unless its statistics are younger than `maxAgeSeconds`; true when it
 * did. Statistics taken before a backlog built up say that hardly any delivery is open; the planner then reads and
 * sorts every due row on each claim instead of walking deliveries_due in order, which costs in proportion to the
 * backlog. Autovacuum analyzes too late for a burst (never, for a burst small beside the table's history), so
 * workers call this when their claims come back full. A no-op on SQLite, whose planner walks the index either way.
 */
export async function refreshClaimStatistics(db: Executor, maxAgeSeconds: number): Promise<boolean> {
  if (!isPostgresExecutor(db)) return false;
  const { rows } = await sql<{
    fresh: boolean;
  }>`select coalesce(greatest(last_analyze, last_autoanalyze) > now() - make_interval(secs => ${maxAgeSeconds}), false) as fresh
    from pg_stat_user_tables where relid = 'deliveries'::regclass`.execute(db);
  if (rows[0]?.fresh) return false;
  await sql`analyze deliveries`.execute(db);
  return true;
}
