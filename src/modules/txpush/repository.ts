import type { Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { TxPushSubscriptionRow, TxPushSubscriptionTable } from './table.js';

/** Ids per IN list (keeps SQLite under its bound-parameter limit). */
const BATCH = 500;

/** The subscriptions of these accounts, oldest first. */
export async function subscriptionsOfAccounts(db: Executor, accountIds: readonly number[]): Promise<TxPushSubscriptionRow[]> {
  const out: TxPushSubscriptionRow[] = [];
  for (let i = 0; i < accountIds.length; i += BATCH) {
    out.push(
      ...(await db
        .selectFrom('txpush_subscriptions')
        .selectAll()
        .where('account_id', 'in', accountIds.slice(i, i + BATCH))
        .orderBy('id')
        .execute()),
    );
  }
  return out;
}

/** One subscription of a customer, or undefined. */
export async function findCustomerSubscription(db: Executor, partnerId: string, customerId: number, id: number): Promise<TxPushSubscriptionRow | undefined> {
  return db
    .selectFrom('txpush_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('customer_id', '=', customerId)
    .where('partner_id', '=', partnerId)
    .executeTakeFirst();
}

export async function insertSubscriptions(db: Executor, rows: Insertable<TxPushSubscriptionTable>[]): Promise<TxPushSubscriptionRow[]> {
  return db.insertInto('txpush_subscriptions').values(rows).returningAll().execute();
}

/** Deletes subscriptions by id; returns how many went. */
export async function deleteSubscriptions(db: Executor, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('txpush_subscriptions')
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteSubscriptionsOfAccounts(db: Executor, accountIds: readonly number[]): Promise<void> {
  for (let i = 0; i < accountIds.length; i += BATCH) {
    await db
      .deleteFrom('txpush_subscriptions')
      .where('account_id', 'in', accountIds.slice(i, i + BATCH))
      .execute();
  }
}
