import type { Static } from 'typebox';
import type { Delivery, DeliveryAttempt, DeliveryCopy, DeliveryFilters, MailboxMessage } from '../contract/schemas/dashboard.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { ServiceError } from '../contract/errors/service-error.js';
import { epochSeconds, systemClock, type Clock } from '../platform/clock.js';
import { heldBackBy } from './order.js';
import * as repo from './repository.js';
import { deliveryState } from './states.js';
import type { DeliveryAttemptRow, DeliveryRow, MailboxRow } from './table.js';
import { signalDeliveriesDue } from './wake.js';

export { DELIVERY_STATES, type DeliveryState } from './table.js';

/** One recorded attempt, as the contract declares it. Times are epoch seconds. */
export type AttemptView = Static<typeof DeliveryAttempt>;

/** A delivery as listings show it (its body, never its secret or extra headers), with every attempt oldest first. */
export type DeliveryView = Static<typeof Delivery>;

/** A `listen` copy of a delivery, as grouped lists show it under the delivery. */
export type DeliveryCopyView = Static<typeof DeliveryCopy>;

/** What a list of deliveries may be narrowed to (every condition given must hold), and how it is laid out. */
export type DeliveryListFilter = Omit<repo.DeliveryFilter, 'limit'> & {
  /** At most this many entries (1 to MAX_LIST_LIMIT; 50 when absent). */
  limit?: number;
  /**
   * Show each `listen` copy under the delivery it copies (in `copies`) rather than as an entry of its own; a filter
   * then keeps a delivery when it or one of its copies meets it.
   */
  groupCopies?: boolean;
};

/** Payloads are shown up to this many characters: enough for any notification, bounded for a list. */
export const PAYLOAD_SHOWN_CHARS = 16 * 1024;

function attemptView(a: DeliveryAttemptRow): AttemptView {
  return { attemptedAt: a.attempted_at, workerId: a.worker_id, statusCode: a.status_code, latencyMs: a.latency_ms, error: a.error };
}

type HeldBack = Awaited<ReturnType<typeof heldBackBy>>;

/**
 * When an open delivery is next attempted, as shown: never before now, since an overdue one (a worker is about to
 * claim it, or the one that claimed it died) goes as soon as a worker looks. One the webhook order holds back goes
 * no sooner than the delivery it waits for. Null when it is not open, or an attempt is under way.
 */
function shownNextAttempt(d: DeliveryRow, now: number, inFlight: boolean, head: HeldBack extends Map<number, infer H> ? H | undefined : never): number | null {
  if ((d.status !== 'pending' && d.status !== 'delivering') || inFlight) return null;
  const headDue =
    head === undefined ? now : head.status === 'delivering' && head.lockedUntil !== null && head.lockedUntil > now ? head.lockedUntil : head.nextAttemptAt;
  return Math.max(d.next_attempt_at, headDue, now);
}

function targetView(d: DeliveryRow, attempts: DeliveryAttemptRow[], now: number, held: HeldBack): DeliveryCopyView {
  const inFlight = d.status === 'delivering' && d.locked_until !== null && d.locked_until > now;
  const head = held.get(d.id);
  const last = attempts.at(-1);
  return {
    id: d.id,
    target: d.target,
    state: deliveryState(d),
    status: d.status,
    inFlight,
    createdAt: d.created_at,
    nextAttemptAt: shownNextAttempt(d, now, inFlight, head),
    waitingFor: head?.id ?? null,
    deliveredAt: d.delivered_at,
    cancelledAt: d.cancelled_at,
    redeliveredAt: d.redelivered_at,
    lastStatusCode: d.last_status_code,
    lastError: d.last_error,
    lastResponse: last ? { attemptedAt: last.attempted_at, statusCode: last.status_code, body: last.response_excerpt, error: last.error } : null,
    attempts: attempts.map(attemptView),
  };
}

function deliveryView(d: DeliveryRow, attempts: DeliveryAttemptRow[], now: number, held: HeldBack, copies: DeliveryCopyView[]): DeliveryView {
  return {
    ...targetView(d, attempts, now, held),
    partnerId: d.partner_id,
    kind: d.kind,
    eventId: d.event_id,
    eventType: d.event_type,
    contentType: d.content_type,
    payload: d.body.length > PAYLOAD_SHOWN_CHARS ? d.body.slice(0, PAYLOAD_SHOWN_CHARS) : d.body,
    payloadTruncated: d.body.length > PAYLOAD_SHOWN_CHARS,
    customerId: d.customer_id,
    subscriptionId: d.subscription_id,
    connectSession: d.connect_session,
    copyOf: d.copy_of,
    copies,
  };
}

/** Views of these rows (and of the copies given per row), reading their attempts and what holds them back. */
async function viewsOf(db: Executor, rows: DeliveryRow[], copies: DeliveryRow[], now: number): Promise<DeliveryView[]> {
  const all = [...rows, ...copies];
  const ids = all.map((r) => r.id);
  const attempts = new Map<number, DeliveryAttemptRow[]>();
  for (const a of await repo.attemptsOf(db, ids)) {
    let list = attempts.get(a.delivery_id);
    if (!list) attempts.set(a.delivery_id, (list = []));
    list.push(a);
  }
  const held = await heldBackBy(
    db,
    all.filter((r) => r.kind === 'webhook' && r.connect_session !== null && (r.status === 'pending' || r.status === 'delivering')).map((r) => r.id),
  );
  const copiesOf = new Map<number, DeliveryCopyView[]>();
  for (const c of copies) {
    let list = copiesOf.get(c.copy_of!);
    if (!list) copiesOf.set(c.copy_of!, (list = []));
    list.push(targetView(c, attempts.get(c.id) ?? [], now, held));
  }
  return rows.map((r) => deliveryView(r, attempts.get(r.id) ?? [], now, held, copiesOf.get(r.id) ?? []));
}

export const MAX_LIST_LIMIT = 1000;

/**
 * Deliveries with their attempts, newest first, narrowed by `filter` (scoped to a partner when partnerId is given).
 * `clock` is the service clock (runtime.clock), which the shown next attempt times are measured against.
 */
export async function listDeliveries(db: Executor, filter: DeliveryListFilter = {}, clock: Clock = systemClock): Promise<DeliveryView[]> {
  const limit = filter.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT)
    throw new ServiceError('InvalidParameter', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  const { groupCopies, ...rest } = filter;
  const now = epochSeconds(clock);
  if (!groupCopies) return viewsOf(db, await repo.listDeliveryRows(db, { ...rest, limit }), [], now);
  const rows = await repo.listDeliveryGroupRows(db, { ...rest, limit });
  return viewsOf(
    db,
    rows,
    await repo.copiesOf(
      db,
      rows.map((r) => r.id),
    ),
    now,
  );
}

/** How many event types and targets the filter lists offer at most. */
const FACETS_SHOWN = 100;

/** What the partner's latest deliveries can be filtered by: their event types and targets, most recently used first. */
export async function deliveryFilters(db: Executor, partnerId: string): Promise<Static<typeof DeliveryFilters>> {
  return repo.deliveryFacets(db, partnerId, FACETS_SHOWN);
}

/** One delivery with its attempts; a delivery of another partner looks exactly like an unknown one. */
export async function getDelivery(db: Executor, id: number, partnerId?: string, clock: Clock = systemClock): Promise<DeliveryView> {
  const row = await repo.findDelivery(db, id, partnerId);
  if (!row) throw new ServiceError('ResourceNotFound', `Delivery ${id} not found`);
  const [view] = await viewsOf(db, [row], [], epochSeconds(clock));
  return view!;
}

/**
 * Sends a delivery again with the same event id: back to pending, due now, with a fresh six-hour window, outside
 * the order of its Connect session's webhooks (order.ts), and wakes the workers so it goes at once. Earlier attempts
 * stay in its history. Refused while a worker is delivering it.
 */
export async function redeliverDelivery(db: Executor, clock: Clock, id: number, partnerId?: string): Promise<DeliveryView> {
  const now = epochSeconds(clock);
  // Read in the transaction that queues it, before waking the workers: the answer shows the delivery as queued,
  // not as a worker (of this process or another) may have claimed it since.
  const queued = await inTransaction(db, async (tx) => {
    if (!(await repo.resetForRedelivery(tx, id, now, partnerId))) {
      await getDelivery(tx, id, partnerId, clock);
      throw new ServiceError('BadRequest', `Delivery ${id} is being delivered right now; try again when this attempt ends`);
    }
    return getDelivery(tx, id, partnerId, clock);
  });
  await signalDeliveriesDue(db);
  return queued;
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
