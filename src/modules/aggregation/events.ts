/**
 * Aggregation events: every change to an account or a transaction is recorded here, in the same database
 * transaction as the change itself, so an event exists exactly when its change was committed. The push
 * notifications of subscribed accounts are enqueued here too, in the same transaction (src/modules/txpush/notify.ts).
 */
import type { Executor } from '../../platform/db/database.js';
import { enqueuePushNotifications } from '../txpush/notify.js';
import { serviceNow, type Engine } from './engine.js';
import type { EventClass } from './table.js';
import type { AggregationEvent } from './records.js';

export type { AggregationEvent } from './records.js';

/** Rows per INSERT statement (keeps SQLite under its bound-parameter limit). */
const BATCH = 500;

/**
 * Writes events, dated by the service clock, and enqueues their push notifications; call it with the transaction
 * that makes the changes. The one place events are written.
 */
export async function recordEvents(db: Executor, engine: Engine, events: readonly AggregationEvent[]): Promise<void> {
  const createdAt = serviceNow(engine);
  for (let i = 0; i < events.length; i += BATCH) {
    await db
      .insertInto('aggregation_events')
      .values(
        events.slice(i, i + BATCH).map((e) => ({
          partner_id: e.partnerId,
          customer_id: e.customerId,
          account_id: e.accountId,
          class: e.class satisfies EventClass,
          type: e.type,
          record: JSON.stringify(e.record),
          created_at: createdAt,
        })),
      )
      .execute();
  }
  await enqueuePushNotifications(db, engine.runtime, events);
}
