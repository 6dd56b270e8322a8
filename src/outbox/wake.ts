import { EventEmitter } from 'node:events';
import { PostgresAdapter, sql } from 'kysely';
import type { Database, Executor } from '../platform/db/database.js';
import { keepListening } from '../platform/db/listen.js';

/**
 * Wake-ups for delivery workers, so a delivery enqueued in this process (or, on PostgreSQL, in any process)
 * goes out at once instead of at the next poll. They are hints: workers also poll, so a lost wake-up only costs time.
 */

/** The PostgreSQL NOTIFY channel; the payload is the schema, so databases sharing a server do not wake each other. */
export const DELIVERY_CHANNEL = 'ledgerlink_deliveries';

const local = new EventEmitter();
local.setMaxListeners(0);

/** Whether queries on this executor run on PostgreSQL. */
export function isPostgresExecutor(executor: Executor): boolean {
  return executor.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Tells workers that deliveries are due. On SQLite the in-process signal is enough: a transaction holds the only
 * connection until it commits, so a woken worker's claim waits for the commit. On PostgreSQL, NOTIFY in the same
 * transaction reaches listeners only when (and if) the transaction commits, in this process or another.
 */
export async function signalDeliveriesDue(executor: Executor): Promise<void> {
  setImmediate(() => local.emit('due'));
  if (isPostgresExecutor(executor)) await sql`select pg_notify(${DELIVERY_CHANNEL}, current_schema())`.execute(executor);
}

/**
 * Calls `onWake` whenever deliveries may have become due; returns a function that stops listening.
 * On PostgreSQL it also listens for NOTIFY (keepListening: tried again two seconds after the connection is lost).
 */
export async function subscribeToWakeups(database: Database, onWake: () => void, onListenError: (e: Error) => void): Promise<() => Promise<void>> {
  local.on('due', onWake);
  const kept = database.listen
    ? keepListening(
        database.kysely,
        database.listen,
        DELIVERY_CHANNEL,
        {
          notified: (payload, schema) => {
            if (payload === schema) onWake();
          },
          // Anything committed while not listening is found by this poll.
          up: () => onWake(),
          down: onListenError,
        },
        2000,
      )
    : undefined;
  await kept?.ready;

  return async () => {
    local.off('due', onWake);
    await kept?.stop();
  };
}
