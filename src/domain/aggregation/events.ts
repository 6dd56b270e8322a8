/**
 * Aggregation events: every change to an account or a transaction is recorded here, in the same database
 * transaction as the change itself, so an event exists exactly when its change was committed. TxPUSH reads
 * them (and may enqueue its deliveries here, in the same transaction).
 */
import type { Executor } from '../../db/database.js';
import type { AccountRecord } from './accounts.js';
import type { EventClass, EventType } from './table.js';
import type { TransactionEventRecord } from './transactions.js';

export type AggregationEvent =
  | { class: 'account'; type: EventType; partnerId: string; customerId: number; accountId: number; record: AccountRecord }
  | { class: 'transaction'; type: EventType; partnerId: string; customerId: number; accountId: number; record: TransactionEventRecord };

/** Rows per INSERT statement (keeps SQLite under its bound-parameter limit). */
const BATCH = 500;

/** Writes events; call it with the transaction that makes the changes. The one place events are written. */
export async function recordEvents(db: Executor, events: readonly AggregationEvent[], createdAt: number): Promise<void> {
  for (let i = 0; i < events.length; i += BATCH) {
    await db.insertInto('aggregation_events').values(events.slice(i, i + BATCH).map((e) => ({
      partner_id: e.partnerId,
      customer_id: e.customerId,
      account_id: e.accountId,
      class: e.class satisfies EventClass,
      type: e.type,
      record: JSON.stringify(e.record),
      created_at: createdAt,
    }))).execute();
  }
}
