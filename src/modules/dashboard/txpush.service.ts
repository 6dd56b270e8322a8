/**
 * TxPUSH subscriptions of one account as the dashboard manages them: listed, added through the API's own subscribe
 * (the same URL rules and listener verification), and deleted one at a time. Always through the partner's customer.
 */
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getAccountRow, parseId } from '../aggregation/accounts.service.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { Caller } from '../partners/service.js';
import { findCustomerSubscription, subscriptionsOfAccounts } from '../txpush/repository.js';
import { deleteSubscription, subscribe } from '../txpush/service.js';
import type { NotificationFormat, TxPushSubscriptionRow } from '../txpush/table.js';

function subscriptionView(row: TxPushSubscriptionRow) {
  return {
    id: Number(row.id),
    accountId: String(row.account_id),
    type: row.class,
    callbackUrl: row.callback_url,
    format: row.format,
    createdDate: Number(row.created_at),
  };
}

async function accountOf(runtime: Pick<Runtime, 'database'>, partnerId: string, customerId: string, accountId: string) {
  const db = runtime.database.kysely;
  return getAccountRow(db, await getCustomerForPartner(db, partnerId, customerId), accountId);
}

/** The account's subscriptions, oldest first (404 when the account is not the partner's customer's). */
export async function listAccountSubscriptions(runtime: Pick<Runtime, 'database'>, partnerId: string, customerId: string, accountId: string) {
  const account = await accountOf(runtime, partnerId, customerId, accountId);
  return { subscriptions: (await subscriptionsOfAccounts(runtime.database.kysely, [account.id])).map(subscriptionView) };
}

/** Subscribes a listener to the account's notifications, as Subscribe to TxPUSH Notifications does; answers both subscriptions with their keys. */
export async function subscribeAccount(
  runtime: Runtime,
  caller: Caller,
  customerId: string,
  accountId: string,
  callbackUrl: string,
  format: NotificationFormat,
) {
  const made = await subscribe(runtime, caller, customerId, accountId, { callbackUrl, format });
  // The stored rows say what the records of subscribe leave out (format, creation time); the keys exist only here.
  const rows = new Map((await subscriptionsOfAccounts(runtime.database.kysely, [made[0]!.accountId])).map((r) => [Number(r.id), r]));
  return {
    subscriptions: made.flatMap((s) => {
      const row = rows.get(s.id);
      return row ? [{ ...subscriptionView(row), signingKey: s.signingKey }] : [];
    }),
  };
}

/** Deletes one subscription of the account and cancels its open notifications; 404 for one of another account. */
export async function deleteAccountSubscription(runtime: Runtime, partnerId: string, customerId: string, accountId: string, subscriptionId: string) {
  const account = await accountOf(runtime, partnerId, customerId, accountId);
  const id = parseId(subscriptionId);
  const row = id === undefined ? undefined : await findCustomerSubscription(runtime.database.kysely, partnerId, Number(account.customer_id), id);
  if (!row || Number(row.account_id) !== account.id) throw new ServiceError('ResourceNotFound', 'Subscription not found.');
  await deleteSubscription(runtime, partnerId, customerId, String(row.id));
}
