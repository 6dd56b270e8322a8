import type { Executor } from '../platform/db/database.js';

/**
 * Cancels the open deliveries of these subscriptions (their subscriptions were deleted): pending ones and ones a
 * worker is sending right now, whose outcome then no longer changes them. Returns how many were cancelled.
 */
export async function cancelSubscriptionDeliveries(db: Executor, subscriptionIds: readonly number[], input: { now: number; reason: string }): Promise<number> {
  if (subscriptionIds.length === 0) return 0;
  const result = await db
    .updateTable('deliveries')
    .set({ status: 'cancelled', cancelled_at: input.now, locked_by: null, locked_until: null, last_error: input.reason })
    .where('subscription_id', 'in', [...subscriptionIds])
    .where('status', 'in', ['pending', 'delivering'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
