import { sql } from 'kysely';
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

/**
 * Cancels the open deliveries queued for a webhook subscription (deleted or disabled), or for those of its events
 * (by their names, unique within it), as cancelSubscriptionDeliveries does. Returns how many were cancelled.
 */
export async function cancelWebhookSubscriptionDeliveries(
  db: Executor,
  subscriptionId: string,
  input: { now: number; reason: string; eventTypes?: readonly string[] },
): Promise<number> {
  if (input.eventTypes?.length === 0) return 0;
  let query = db
    .updateTable('deliveries')
    .set({ status: 'cancelled', cancelled_at: input.now, locked_by: null, locked_until: null, last_error: input.reason })
    .where('webhook_subscription_id', '=', subscriptionId)
    // A literal, as in the partial index deliveries_open_webhook_subscription, so both databases use it.
    .where(sql<boolean>`status in ('pending', 'delivering')`);
  if (input.eventTypes) query = query.where('event_type', 'in', [...input.eventTypes]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
