import type { Executor } from '../platform/db/database.js';
import type { DeliveryAttemptRow, DeliveryAttemptTable, DeliveryKind, DeliveryRow, DeliveryStatus, MailboxRow, MailboxTable } from './table.js';
import type { Insertable } from 'kysely';

export async function insertAttempt(db: Executor, row: Insertable<DeliveryAttemptTable>): Promise<void> {
  await db.insertInto('delivery_attempts').values(row).execute();
}

export async function insertMail(db: Executor, row: Insertable<MailboxTable>): Promise<void> {
  await db.insertInto('mailbox').values(row).execute();
}

export async function findDelivery(db: Executor, id: number, partnerId?: string): Promise<DeliveryRow | undefined> {
  let q = db.selectFrom('deliveries').selectAll().where('id', '=', id);
  if (partnerId !== undefined) q = q.where('partner_id', '=', partnerId);
  return q.executeTakeFirst();
}

export interface DeliveryFilter {
  partnerId?: string;
  status?: DeliveryStatus;
  kind?: DeliveryKind;
  eventId?: string;
  /** Newest first; at most this many. */
  limit: number;
}

/** Deliveries, newest first. */
export async function listDeliveryRows(db: Executor, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  let q = db.selectFrom('deliveries').selectAll().orderBy('id', 'desc').limit(filter.limit);
  if (filter.partnerId !== undefined) q = q.where('partner_id', '=', filter.partnerId);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.kind !== undefined) q = q.where('kind', '=', filter.kind);
  if (filter.eventId !== undefined) q = q.where('event_id', '=', filter.eventId);
  return q.execute();
}

/** The attempts of these deliveries, oldest first. */
export async function attemptsOf(db: Executor, deliveryIds: number[]): Promise<DeliveryAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db.selectFrom('delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('id').execute();
}

/** Puts a delivery that is not in flight (or whose worker died) back to pending, due at `now`, with a fresh retry window. */
export async function resetForRedelivery(db: Executor, id: number, now: number, partnerId?: string): Promise<boolean> {
  let q = db
    .updateTable('deliveries')
    .set({
      status: 'pending',
      next_attempt_at: now,
      attempts: 0,
      first_attempt_at: null,
      delivered_at: null,
      cancelled_at: null,
      locked_by: null,
      locked_until: null,
    })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('status', '!=', 'delivering'), eb('locked_until', '<=', now)]));
  if (partnerId !== undefined) q = q.where('partner_id', '=', partnerId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Mailbox messages, newest first. */
export async function listMailRows(db: Executor, filter: { partnerId?: string; limit: number }): Promise<MailboxRow[]> {
  let q = db.selectFrom('mailbox').selectAll().orderBy('id', 'desc').limit(filter.limit);
  if (filter.partnerId !== undefined) q = q.where('partner_id', '=', filter.partnerId);
  return q.execute();
}
