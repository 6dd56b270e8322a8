import type { Executor } from '../platform/db/database.js';
import { ServiceError } from '../contract/errors/service-error.js';
import { epochSeconds, type Clock } from '../platform/clock.js';
import * as repo from './repository.js';
import type { DeliveryAttemptRow, DeliveryKind, DeliveryRow, DeliveryStatus, MailboxRow } from './table.js';
import { signalDeliveriesDue } from './wake.js';

/** One recorded attempt. Times are epoch seconds. */
export interface AttemptView {
  attemptedAt: number;
  workerId: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** A delivery as listings show it (no body, no secret). Times are epoch seconds. */
export interface DeliveryView {
  id: number;
  partnerId: string;
  kind: DeliveryKind;
  eventId: string;
  target: string;
  status: DeliveryStatus;
  createdAt: number;
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  cancelledAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  customerId: number | null;
  subscriptionId: number | null;
  connectSession: string | null;
  /** Every attempt, oldest first, across retries and redeliveries. */
  attempts: AttemptView[];
}

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

/** A message in the local mailbox. Times are epoch seconds. */
export interface MailView {
  id: number;
  partnerId: string;
  deliveryId: number | null;
  eventId: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: number;
}

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
