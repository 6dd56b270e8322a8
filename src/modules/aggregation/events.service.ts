/**
 * Aggregation events: every change to an account or a transaction is recorded here, in the same database
 * transaction as the change itself, so an event exists exactly when its change was committed. The push
 * notifications of subscribed accounts are enqueued here too, in the same transaction (src/modules/txpush/notify.service.ts).
 */
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { enqueuePushNotifications } from '../txpush/notify.service.js';
import { serviceNow } from './engine.js';
import { insertEvents } from './events.repository.js';
import type { AggregationEvent } from './records.js';
import type { EventClass } from './table.js';

/**
 * Writes events, dated by the service clock, and enqueues their push notifications; call it with the transaction
 * that makes the changes. The one place events are written.
 */
export async function recordEvents(runtime: Pick<Runtime, 'clock' | 'keys'>, tx: Executor, events: readonly AggregationEvent[]): Promise<void> {
  const createdAt = serviceNow(runtime);
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
  await enqueuePushNotifications(tx, runtime, events);
}
