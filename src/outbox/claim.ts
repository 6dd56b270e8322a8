import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
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
}

// Literal, so both databases can use the partial index deliveries_due.
const OPEN = sql<boolean>`status in ('pending', 'delivering')`;
// The webhooks of one Connect session go out in the order they happened: one waits while an earlier one of the
// same session is still open (index deliveries_connect_session).
const IN_SESSION_ORDER = sql<boolean>`(kind <> 'webhook' or connect_session is null or not exists (select 1 from deliveries earlier where earlier.connect_session = deliveries.connect_session and earlier.kind = 'webhook' and earlier.id < deliveries.id and earlier.status in ('pending', 'delivering')))`;

/**
 * Claims due deliveries: pending ones whose time has come, and delivering ones whose claim ran out (their worker
 * died). One statement marks them delivering under a fresh claim token, counts the attempt, starts the retry
 * window on the first one, and moves next_attempt_at to the end of the lease.
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
    .where(IN_SESSION_ORDER)
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
