import type { Static } from 'typebox';
import type { Delivery, DeliveryAttempt, MailboxMessage } from '../contract/schemas/dashboard.js';
import type { Executor } from '../platform/db/database.js';
import { ServiceError } from '../contract/errors/service-error.js';
import { epochSeconds, type Clock } from '../platform/clock.js';
import * as repo from './repository.js';
import type { DeliveryAttemptRow, DeliveryRow, MailboxRow } from './table.js';
import { signalDeliveriesDue } from './wake.js';

/** One recorded attempt, as the contract declares it. Times are epoch seconds. */
export type AttemptView = Static<typeof DeliveryAttempt>;

/** A delivery as listings show it (no body, no secret), with every attempt oldest first. Times are epoch seconds. */
export type DeliveryView = Static<typeof Delivery>;

function attemptView(a: DeliveryAttemptRow): AttemptView {
  return { attemptedAt: a.attempted_at, workerId: a.worker_id, statusCode: a.status_code, latencyMs: a.latency_ms, error: a.error };
}

function deliveryView(d: DeliveryRow, attempts: DeliveryAttemptRow[]): DeliveryView {
  return {
    id: d.id,
    partnerId: d.partner_id,
    kind: d.kind,
    eventId: d.event_id,
    target: d.target,
    status: d.status,
    createdAt: d.created_at,
    nextAttemptAt: d.status === 'pending' ? d.next_attempt_at : null,
    deliveredAt: d.delivered_at,
    cancelledAt: d.cancelled_at,
    lastStatusCode: d.last_status_code,
    lastError: d.last_error,
    customerId: d.customer_id,
    subscriptionId: d.subscription_id,
    connectSession: d.connect_session,
    attempts: attempts.map(attemptView),
  };
}

export const MAX_LIST_LIMIT = 1000;

/** Deliveries with their attempts, newest first; scoped to a partner when partnerId is given. */
export async function listDeliveries(db: Executor, filter: Partial<repo.DeliveryFilter> = {}): Promise<DeliveryView[]> {
  const limit = filter.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT)
    throw new ServiceError('InvalidParameter', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  const rows = await repo.listDeliveryRows(db, { ...filter, limit });
  const attempts = await repo.attemptsOf(
    db,
    rows.map((r) => r.id),
  );
  const byDelivery = new Map<number, DeliveryAttemptRow[]>();
  for (const a of attempts) {
    let list = byDelivery.get(a.delivery_id);
    if (!list) byDelivery.set(a.delivery_id, (list = []));
    list.push(a);
  }
  return rows.map((r) => deliveryView(r, byDelivery.get(r.id) ?? []));
}

/** One delivery with its attempts; a delivery of another partner looks exactly like an unknown one. */
export async function getDelivery(db: Executor, id: number, partnerId?: string): Promise<DeliveryView> {
  const row = await repo.findDelivery(db, id, partnerId);
  if (!row) throw new ServiceError('ResourceNotFound', `Delivery ${id} not found`);
  return deliveryView(row, await repo.attemptsOf(db, [row.id]));
}

/**
 * Sends a delivery again with the same event id: back to pending, due now, with a fresh six-hour window.
 * Earlier attempts stay in its history. Refused while a worker is delivering it.
 */
export async function redeliverDelivery(db: Executor, clock: Clock, id: number, partnerId?: string): Promise<DeliveryView> {
  const now = epochSeconds(clock);
  if (!(await repo.resetForRedelivery(db, id, now, partnerId))) {
    await getDelivery(db, id, partnerId);
    throw new ServiceError('BadRequest', `Delivery ${id} is being delivered right now; try again when this attempt ends`);
  }
  await signalDeliveriesDue(db);
  return getDelivery(db, id, partnerId);
}

/** A message in the local mailbox: the dashboard's record of it, and whose it is. Times are epoch seconds. */
export type MailView = Static<typeof MailboxMessage> & { partnerId: string };

function mailView(m: MailboxRow): MailView {
  return {
    id: m.id,
    partnerId: m.partner_id,
    deliveryId: m.delivery_id,
    eventId: m.event_id,
    to: m.to_address,
    from: m.from_address,
    subject: m.subject,
    text: m.text_body,
    html: m.html_body,
    createdAt: m.created_at,
  };
}

/** The local mailbox (e-mail kept when no SMTP server is configured), newest first. */
export async function listMail(db: Executor, filter: { partnerId?: string; limit?: number } = {}): Promise<MailView[]> {
  const limit = filter.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT)
    throw new ServiceError('InvalidParameter', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  return (await repo.listMailRows(db, { ...filter, limit })).map(mailView);
}
