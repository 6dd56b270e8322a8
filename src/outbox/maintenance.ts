import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { epochSeconds } from '../platform/clock.js';
import type { Keys } from '../platform/keys.js';
import type { Runtime } from '../platform/dependencies.js';
import { headersOf, sealHeaders } from './enqueue.js';
import { retireLapsedListeners } from './listeners.js';

/** Rows per statement: short write transactions, so deliveries and API writes on SQLite never wait long. */
const BATCH = 500;

// Literals, so both databases can use the partial indexes deliveries_delivered_at and deliveries_cancelled_at.
const FINISHED = [
  { status: sql<boolean>`status = 'delivered'`, at: 'delivered_at' },
  { status: sql<boolean>`status = 'cancelled'`, at: 'cancelled_at' },
] as const;

/**
 * Deletes delivered and cancelled deliveries that finished before `before` (epoch seconds), their attempts with
 * them (mailbox messages stay, without their delivery id); returns how many. Bodies, targets and attempt errors
 * hold customer data, so they are kept only as long as they help someone debug a delivery.
 */
export async function purgeFinishedDeliveries(db: Executor, before: number): Promise<number> {
  let total = 0;
  for (const { status, at } of FINISHED) {
    for (;;) {
      const batch = db.selectFrom('deliveries').select('id').where(status).where(at, '<', before).limit(BATCH);
      // The conditions again on the outer statement: a row redelivered meanwhile is pending again and stays.
      const result = await db.deleteFrom('deliveries').where('id', 'in', batch).where(status).where(at, '<', before).executeTakeFirst();
      const n = Number(result.numDeletedRows);
      total += n;
      if (n < BATCH) break;
    }
  }
  return total;
}

/**
 * Encrypts the extra headers that rows written before migration 0015 hold in clear (the migration had no master
 * key to do it with); returns how many rows. Until then such rows are still sent with their headers.
 */
export async function encryptClearHeaders(db: Executor, keys: Keys): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db
      .selectFrom('deliveries')
      .select(['id', 'headers', 'headers_encrypted'])
      .where('headers', '<>', '{}')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      await db
        .updateTable('deliveries')
        .set({ headers: '{}', headers_encrypted: sealHeaders(keys, headersOf(keys, row)) })
        .where('id', '=', row.id)
        .where('headers', '=', row.headers)
        .execute();
    }
    total += rows.length;
    if (rows.length < BATCH) return total;
  }
}

/** The delivery worker's housekeeping: deliveries finished longer ago than the retention period are deleted. */
export async function purgeExpiredDeliveries(runtime: Pick<Runtime, 'config' | 'clock' | 'database'>): Promise<number> {
  return purgeFinishedDeliveries(runtime.database.kysely, epochSeconds(runtime.clock) - runtime.config.deliveryRetentionSeconds);
}

/**
 * The delivery worker's housekeeping: listeners that lapsed (their `ledgerlink listen` stopped without removing them)
 * are deleted and the copies held for them cancelled; returns how many copies. Registering a listener does the same
 * for its own partner only, so without this a partner that stops listening would keep them pending.
 */
export async function retireLapsedListenersNow(runtime: Pick<Runtime, 'clock' | 'database'>): Promise<number> {
  return retireLapsedListeners(runtime.database.kysely, epochSeconds(runtime.clock));
}
