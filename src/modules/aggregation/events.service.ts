/**
 * Aggregation events: every change to an account or a transaction is recorded here, in the same database
 * transaction as the change itself, so an event exists exactly when its change was committed. The engine's listener
 * hears them in the same transaction: TxPUSH enqueues the push notifications of subscribed accounts there.
 */
import type { Executor } from '../../platform/db/database.js';
import { serviceNow, type Engine } from './engine.js';
import { insertEvents } from './events.repository.js';
import type { AggregationEvent } from './records.js';
import type { EventClass } from './table.js';

/**
 * Writes events, dated by the service clock, and hands them to the engine's listener (their push notifications);
 * call it with the transaction that makes the changes. The one place events are written.
 */
export async function recordEvents(
  engine: Pick<Engine, 'clock' | 'keys' | 'onEventsRecorded'>,
  tx: Executor,
  events: readonly AggregationEvent[],
): Promise<void> {
  const createdAt = serviceNow(engine);
  if (events.length > 0) {
    await insertEvents(
      tx,
      events.map((e) => ({
        partner_id: e.partnerId,
        customer_id: e.customerId,
        account_id: e.accountId,
        class: e.class satisfies EventClass,
        type: e.type,
        record: JSON.stringify(e.record),
        created_at: createdAt,
      })),
    );
  }
  await engine.onEventsRecorded(tx, engine, events);
}
