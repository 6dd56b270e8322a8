import type { Executor } from '../platform/db/database.js';
import type { ClaimedDelivery } from './claim.js';

/** Marks a claimed delivery delivered. False when the claim was lost meanwhile (another worker owns the row now). */
export async function completeDelivery(db: Executor, delivery: ClaimedDelivery, input: { now: number; statusCode: number | null }): Promise<boolean> {
  const result = await db
    .updateTable('deliveries')
    .set({ status: 'delivered', delivered_at: input.now, locked_by: null, locked_until: null, last_error: null, last_status_code: input.statusCode })
    .where('id', '=', delivery.id)
    .where('locked_by', '=', delivery.locked_by)
    .where('status', '=', 'delivering')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
