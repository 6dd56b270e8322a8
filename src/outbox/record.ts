import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { ClaimedDelivery } from './claim.js';
import { type FailureResult, retryAfterFailure } from './fail.js';
import type { DeliveryOutcome } from './transports/transport.js';

/** One attempt, made by a worker or by a polled listener (polled.ts), with what it came to, waiting to be recorded. */
export interface FinishedAttempt {
  delivery: ClaimedDelivery;
  outcome: DeliveryOutcome;
  /** Epoch seconds when the attempt started. */
  attemptedAt: number;
  latencyMs: number;
  /** Epoch seconds when it ended. */
  now: number;
}

export type RecordResult = 'delivered' | FailureResult;

/** Rows per statement: bounded statements (bound parameters, parse time) whatever the batch. */
const ROWS_PER_STATEMENT = 200;

/** What recording an attempt changes on its delivery: delivered, back to pending with its next retry time, or cancelled. */
interface Change {
  status: 'delivered' | 'pending' | 'cancelled';
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  cancelledAt: number | null;
  gaveUp: number | null;
  error: string | null;
  statusCode: number | null;
}

function changeFor(f: FinishedAttempt, random?: () => number): Change {
  const { outcome, delivery, now } = f;
  const base = { statusCode: outcome.statusCode, deliveredAt: null, cancelledAt: null, gaveUp: null, nextAttemptAt: null };
  if (outcome.ok) return { ...base, status: 'delivered', deliveredAt: now, error: null };
  const error = outcome.error ?? 'failed';
  const next = retryAfterFailure(delivery, { now, permanent: outcome.permanent }, random);
  if (next === null) return { ...base, status: 'cancelled', cancelledAt: now, gaveUp: 1, error };
  return { ...base, status: 'pending', nextAttemptAt: next, error };
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/**
 * Records the attempts of many deliveries at once, however they were made (sent by a worker `workerId`, or by a
 * polled listener, whose target is its worker id): their attempt rows in one multi-row insert, and their new state
 * (delivered, pending with the next retry time, or cancelled once the retry window is over) in one update, each row
 * only while the claim it was attempted under still holds. Call it inside a transaction, so that either all of them are
 * recorded or none is and their claims stay, to come back when their lease ends (at least once, never lost).
 * Returns per attempt what became of its delivery: `claim-lost` when another worker owns it by now, or it was
 * cancelled meanwhile (its attempt is recorded all the same).
 */
export async function recordAttempts(tx: Executor, workerId: string, finished: readonly FinishedAttempt[], random?: () => number): Promise<RecordResult[]> {
  if (finished.length === 0) return [];
  for (const part of chunks(finished)) {
    await tx
      .insertInto('delivery_attempts')
      .values(
        part.map((f) => ({
          delivery_id: f.delivery.id,
          attempted_at: f.attemptedAt,
          worker_id: workerId,
          status_code: f.outcome.statusCode,
          latency_ms: f.latencyMs,
          error: f.outcome.error,
          response_excerpt: f.outcome.response ?? null,
        })),
      )
      .execute();
  }
  const changes = finished.map((f) => changeFor(f, random));
  const updated = new Set<number>();
  for (const part of chunks(finished.map((f, i) => ({ f, c: changes[i]! })))) {
    // Typed on every row: PostgreSQL would take untyped parameters in VALUES for text. The status is tested as "none
    // of the others" rather than "delivering", so that PostgreSQL's planner, misled by statistics from before a
    // backlog, cannot take the partial index of open deliveries as the way in: the primary key is the only one.
    const rows = part.map(
      ({ f, c }) =>
        sql`(cast(${f.delivery.id} as bigint), cast(${f.delivery.locked_by} as text), cast(${c.status} as text), cast(${c.nextAttemptAt} as bigint), cast(${c.deliveredAt} as bigint), cast(${c.cancelledAt} as bigint), cast(${c.gaveUp} as integer), cast(${c.error} as text), cast(${c.statusCode} as integer))`,
    );
    const result = await sql<{
      id: number;
    }>`with outcome (delivery_id, claim, new_status, due_at, finished_at, cancelled_at, gave_up, error, status_code) as (values ${sql.join(rows)})
      update deliveries set
        status = outcome.new_status,
        next_attempt_at = coalesce(outcome.due_at, deliveries.next_attempt_at),
        delivered_at = coalesce(outcome.finished_at, deliveries.delivered_at),
        cancelled_at = coalesce(outcome.cancelled_at, deliveries.cancelled_at),
        gave_up = coalesce(outcome.gave_up, deliveries.gave_up),
        last_error = outcome.error,
        last_status_code = outcome.status_code,
        locked_by = null,
        locked_until = null
      from outcome
      where deliveries.id = outcome.delivery_id and deliveries.locked_by = outcome.claim and deliveries.status not in ('pending', 'delivered', 'cancelled')
      returning deliveries.id`.execute(tx);
    for (const r of result.rows) updated.add(Number(r.id));
  }
  return finished.map((f, i) =>
    updated.has(f.delivery.id) ? (changes[i]!.status === 'delivered' ? 'delivered' : changes[i]!.status === 'pending' ? 'retry' : 'cancelled') : 'claim-lost',
  );
}
