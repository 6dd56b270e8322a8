import type { Executor } from '../../platform/db/database.js';
import { clearLoginAccountsStatus } from '../aggregation/accounts.repository.js';
import type { ScheduleChanges } from '../aggregation/schedule.rules.js';
import type { TransactionRow } from '../aggregation/table.js';
import type { ConnectLinkRow } from '../connect/table.js';

/**
 * Puts a login into an error state: it fails with `code` until cleared, and it and its accounts show the code as
 * after a failed aggregation at `now`; `schedule` is its refresh schedule after that outcome.
 */
export async function setLoginFailure(db: Executor, loginId: number, code: number, message: string, now: number, schedule: ScheduleChanges): Promise<void> {
  await db
    .updateTable('institution_logins')
    .set({
      sandbox_failure_code: code,
      sandbox_failure_message: message,
      aggregation_status_code: code,
      aggregation_status_message: message,
      aggregation_attempt_at: now,
      updated_at: now,
      ...schedule,
    })
    .where('id', '=', loginId)
    .execute();
  await db.updateTable('accounts').set({ aggregation_status_code: code, aggregation_attempt_at: now }).where('institution_login_id', '=', loginId).execute();
}

/** Clears a login's error state: it and its accounts show no failure; `schedule` is its refresh schedule after that. */
export async function clearLoginFailure(db: Executor, loginId: number, now: number, schedule: ScheduleChanges): Promise<void> {
  await db
    .updateTable('institution_logins')
    .set({
      sandbox_failure_code: null,
      sandbox_failure_message: null,
      aggregation_status_code: 0,
      aggregation_status_message: null,
      updated_at: now,
      ...schedule,
    })
    .where('id', '=', loginId)
    .execute();
  await clearLoginAccountsStatus(db, loginId);
}

/** The customer's first account (by id), with where it is linked. */
export async function firstCustomerAccount(
  db: Executor,
  customerId: number,
): Promise<{ id: number; institution_login_id: number; institution_id: number } | undefined> {
  return db
    .selectFrom('accounts')
    .select(['id', 'institution_login_id', 'institution_id'])
    .where('customer_id', '=', customerId)
    .orderBy('id')
    .executeTakeFirst();
}

/** The customer's latest Connect link that had a webhook. */
export async function latestLinkWithWebhook(db: Executor, partnerId: string, customerId: number): Promise<ConnectLinkRow | undefined> {
  const links = db.selectFrom('connect_links').selectAll().where('partner_id', '=', partnerId).where('customer_id', '=', customerId);
  return links.where('webhook', 'is not', null).orderBy('created_at_ms', 'desc').executeTakeFirst();
}

/** The account's transaction with this id, or, without one, its latest (by date, then id). */
export async function findAccountTransaction(db: Executor, customerId: number, accountId: number, id: number | undefined): Promise<TransactionRow | undefined> {
  const q = db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('customer_id', '=', customerId);
  return id !== undefined ? q.where('id', '=', id).executeTakeFirst() : q.orderBy('effective_date', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/** The ids of the customer's institution logins. */
export async function customerLoginIds(db: Executor, customerId: number): Promise<number[]> {
  return (await db.selectFrom('institution_logins').select('id').where('customer_id', '=', customerId).execute()).map((r) => r.id);
}

/** The ids of the customer's TxPUSH subscriptions. */
export async function customerSubscriptionIds(db: Executor, customerId: number): Promise<number[]> {
  return (await db.selectFrom('txpush_subscriptions').select('id').where('customer_id', '=', customerId).execute()).map((s) => Number(s.id));
}

export async function deleteCustomerSubscriptions(db: Executor, customerId: number): Promise<void> {
  await db.deleteFrom('txpush_subscriptions').where('customer_id', '=', customerId).execute();
}

/** Deletes the customer's sign-in sessions, institution logins and recorded events. */
export async function deleteCustomerLoginsAndEvents(db: Executor, customerId: number): Promise<void> {
  await db.deleteFrom('link_sessions').where('customer_id', '=', customerId).execute();
  await db.deleteFrom('institution_logins').where('customer_id', '=', customerId).execute();
  await db.deleteFrom('aggregation_events').where('customer_id', '=', customerId).execute();
}

/** Sets the customer's clock back to the service clock. */
export async function resetCustomerClock(db: Executor, customerId: number, now: number): Promise<void> {
  await db.updateTable('customers').set({ clock_offset_seconds: 0, updated_at: now }).where('id', '=', customerId).execute();
}
