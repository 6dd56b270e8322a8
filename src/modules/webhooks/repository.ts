import type { Executor } from '../../platform/db/database.js';
import type { WebhookStatus } from '../../contract/schemas/webhook-subscriptions.js';
import type { WebhookSubscriptionEventRow, WebhookSubscriptionEventTable, WebhookSubscriptionRow, WebhookSubscriptionTable } from './table.js';

export async function insertSubscription(db: Executor, row: WebhookSubscriptionTable): Promise<void> {
  await db.insertInto('webhook_subscriptions').values(row).execute();
}

export async function insertEvents(db: Executor, rows: readonly WebhookSubscriptionEventTable[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('webhook_subscription_events')
      .values([...rows])
      .execute();
}

/** The partner's subscription with this id. */
export async function findSubscription(db: Executor, partnerId: string, id: string): Promise<WebhookSubscriptionRow | undefined> {
  return db.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).where('partner_id', '=', partnerId).executeTakeFirst();
}

/**
 * Marks the partner's subscription changed now, first thing in a transaction that changes it or its events: on
 * PostgreSQL the row stays locked until the transaction ends, so concurrent changes to one subscription take turns.
 * False when the partner has no such subscription.
 */
export async function touchSubscription(db: Executor, partnerId: string, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_subscriptions')
    .set({ updated_at: now })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countSubscriptions(db: Executor, partnerId: string): Promise<number> {
  const { n } = await db
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** One page of the partner's subscriptions, oldest first. */
export async function pageOfSubscriptions(db: Executor, partnerId: string, offset: number, limit: number): Promise<WebhookSubscriptionRow[]> {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .orderBy('created_at')
    .orderBy('id')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** The events of these subscriptions, each subscription's in its order. */
export async function eventsOfSubscriptions(db: Executor, subscriptionIds: readonly string[]): Promise<WebhookSubscriptionEventRow[]> {
  if (subscriptionIds.length === 0) return [];
  return db
    .selectFrom('webhook_subscription_events')
    .selectAll()
    .where('subscription_id', 'in', [...subscriptionIds])
    .orderBy('subscription_id')
    .orderBy('position')
    .execute();
}

export async function updateSubscription(
  db: Executor,
  id: string,
  changes: Partial<Pick<WebhookSubscriptionTable, 'url' | 'status' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('webhook_subscriptions').set(changes).where('id', '=', id).execute();
}

export async function updateEvent(
  db: Executor,
  id: string,
  changes: Partial<Omit<WebhookSubscriptionEventTable, 'id' | 'subscription_id' | 'partner_id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('webhook_subscription_events').set(changes).where('id', '=', id).execute();
}

export async function setEventStatuses(db: Executor, subscriptionId: string, status: WebhookStatus): Promise<void> {
  await db.updateTable('webhook_subscription_events').set({ status }).where('subscription_id', '=', subscriptionId).execute();
}

export async function deleteEvents(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length > 0)
    await db
      .deleteFrom('webhook_subscription_events')
      .where('id', 'in', [...ids])
      .execute();
}

/** Deletes a subscription with its events; false when the partner has no such subscription. */
export async function deleteSubscription(db: Executor, partnerId: string, id: string): Promise<boolean> {
  await db.deleteFrom('webhook_subscription_events').where('subscription_id', '=', id).where('partner_id', '=', partnerId).execute();
  const result = await db.deleteFrom('webhook_subscriptions').where('id', '=', id).where('partner_id', '=', partnerId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** An event of a subscription to deliver to: the event's row with its subscription's URL. */
export type DeliverableEventRow = WebhookSubscriptionEventRow & { subscription_url: string | null };

/** The partner's active events of these names whose subscription is active too: where an emitted event goes. */
export async function activeEventsNamed(db: Executor, partnerId: string, names: readonly string[]): Promise<DeliverableEventRow[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom('webhook_subscription_events as e')
    .innerJoin('webhook_subscriptions as s', 's.id', 'e.subscription_id')
    .selectAll('e')
    .select('s.url as subscription_url')
    .where('e.partner_id', '=', partnerId)
    .where('e.name', 'in', [...names])
    .where('e.status', '=', 'active')
    .where('s.status', '=', 'active')
    .orderBy('s.created_at')
    .orderBy('e.subscription_id')
    .orderBy('e.position')
    .execute();
}
