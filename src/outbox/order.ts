/**
 * The one ordering rule of the outbox: the Connect webhooks of one session (link) reach one target in the order they
 * happened. A webhook waits while an earlier webhook of the same session to the same target is still open (pending or
 * being delivered). Ordering is per target and never across targets: a `ledgerlink listen` copy is a target of its
 * own, so a partner's failing receiver never holds up the listener, nor the listener the partner.
 *
 * A redelivery is outside the order: someone asked for that event again now, so it neither waits for earlier webhooks
 * nor holds later ones back. TxPUSH notifications and e-mail are not ordered.
 *
 * The rule compares ids, so ids must follow commit order within a session. SQLite runs one write transaction at a
 * time, so they do. PostgreSQL hands out ids when rows are inserted, not when they commit: a webhook inserted first
 * may commit after a later one, and a worker could send the later one first. Enqueueing a session's webhook therefore
 * takes the session's lock first (lockConnectSession), so its inserts follow one another in commit order.
 */
import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { isPostgresExecutor } from './wake.js';

/**
 * PostgreSQL: waits until no other open transaction has enqueued a webhook of this Connect session, and keeps others
 * waiting until this transaction ends (a transaction-level advisory lock, keyed by schema and session). Call it in
 * the transaction that enqueues, before the insert. A no-op on SQLite.
 */
export async function lockConnectSession(tx: Executor, session: string): Promise<void> {
  if (!isPostgresExecutor(tx)) return;
  await sql`select pg_advisory_xact_lock(hashtext('ledgerlink connect_session ' || current_schema()), hashtext(${session}))`.execute(tx);
}

/** The ordering rule as a condition on the `deliveries` row being claimed (index deliveries_connect_session). */
export const IN_TARGET_ORDER = sql<boolean>`(kind <> 'webhook' or connect_session is null or redelivered_at is not null or not exists (select 1 from deliveries earlier where earlier.connect_session = deliveries.connect_session and earlier.target = deliveries.target and earlier.kind = 'webhook' and earlier.id < deliveries.id and earlier.status in ('pending', 'delivering') and earlier.redelivered_at is null))`;

/**
 * For open webhooks among `ids` that the rule holds back: the oldest open webhook they wait for (the head of their
 * session's queue to that target), with when it is next due. Others are absent from the map.
 */
export async function heldBackBy(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, { id: number; status: string; nextAttemptAt: number; lockedUntil: number | null }>> {
  const result = new Map<number, { id: number; status: string; nextAttemptAt: number; lockedUntil: number | null }>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('deliveries as d')
    .innerJoin('deliveries as earlier', (join) =>
      join
        .onRef('earlier.connect_session', '=', 'd.connect_session')
        .onRef('earlier.target', '=', 'd.target')
        .onRef('earlier.id', '<', 'd.id')
        .on('earlier.kind', '=', 'webhook')
        .on('earlier.status', 'in', ['pending', 'delivering'])
        .on('earlier.redelivered_at', 'is', null),
    )
    .select(['d.id as id', (eb) => eb.fn.min('earlier.id').as('head')])
    .where('d.id', 'in', [...ids])
    .where('d.kind', '=', 'webhook')
    .where('d.status', 'in', ['pending', 'delivering'])
    .where('d.redelivered_at', 'is', null)
    .groupBy('d.id')
    .execute();
  if (rows.length === 0) return result;
  const heads = await db
    .selectFrom('deliveries')
    .select(['id', 'status', 'next_attempt_at', 'locked_until'])
    .where('id', 'in', [...new Set(rows.map((r) => Number(r.head)))])
    .execute();
  const byId = new Map(heads.map((h) => [Number(h.id), h]));
  for (const r of rows) {
    const head = byId.get(Number(r.head));
    if (head)
      result.set(Number(r.id), {
        id: Number(head.id),
        status: head.status,
        nextAttemptAt: Number(head.next_attempt_at),
        lockedUntil: head.locked_until === null ? null : Number(head.locked_until),
      });
  }
  return result;
}
