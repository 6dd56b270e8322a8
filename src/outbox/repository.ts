import type { Executor } from '../platform/db/database.js';
import { sql, type Insertable, type RawBuilder } from 'kysely';
import { stateCondition } from './states.js';
import type { DeliveryAttemptRow, DeliveryKind, DeliveryRow, DeliveryState, DeliveryStatus, MailboxRow, MailboxTable } from './table.js';

export async function insertMail(db: Executor, row: Insertable<MailboxTable>): Promise<void> {
  await db.insertInto('mailbox').values(row).execute();
}

export async function findDelivery(db: Executor, id: number, partnerId?: string): Promise<DeliveryRow | undefined> {
  let q = db.selectFrom('deliveries').selectAll().where('id', '=', id);
  if (partnerId !== undefined) q = q.where('partner_id', '=', partnerId);
  return q.executeTakeFirst();
}

/** Which deliveries a list shows; every condition given must hold. */
export interface DeliveryFilter {
  /** Only this partner's (the dashboard, the CLI's --partner). */
  partnerId?: string;
  /** pending, retrying, failed, delivered or cancelled (see states.ts). */
  state?: DeliveryState;
  /** The stored status (pending, delivering, delivered, cancelled), for tools that know the table. */
  status?: DeliveryStatus;
  kind?: DeliveryKind;
  /** e.g. `transaction.created`, `connect.added`. */
  eventType?: string;
  /** The exact URL or e-mail address. */
  target?: string;
  eventId?: string;
  /** Newest first; at most this many. */
  limit: number;
}

/** The filter's conditions on the deliveries row named `alias` (the partner apart), as SQL. */
function memberConditions(alias: string, filter: DeliveryFilter): RawBuilder<boolean>[] {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const conditions: RawBuilder<boolean>[] = [];
  if (filter.state !== undefined) conditions.push(stateCondition(alias, filter.state));
  if (filter.status !== undefined) conditions.push(sql<boolean>`${col('status')} = ${filter.status}`);
  if (filter.kind !== undefined) conditions.push(sql<boolean>`${col('kind')} = ${filter.kind}`);
  if (filter.eventType !== undefined) conditions.push(sql<boolean>`${col('event_type')} = ${filter.eventType}`);
  if (filter.target !== undefined) conditions.push(sql<boolean>`${col('target')} = ${filter.target}`);
  if (filter.eventId !== undefined) conditions.push(sql<boolean>`${col('event_id')} = ${filter.eventId}`);
  return conditions;
}

const all = (conditions: RawBuilder<boolean>[]) => sql<boolean>`(${sql.join(conditions, sql` and `)})`;

/** Deliveries, newest first, each one its own entry (`listen` copies included). */
export async function listDeliveryRows(db: Executor, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  let q = db.selectFrom('deliveries').selectAll().orderBy('id', 'desc').limit(filter.limit);
  if (filter.partnerId !== undefined) q = q.where('partner_id', '=', filter.partnerId);
  const conditions = memberConditions('deliveries', filter);
  if (conditions.length > 0) q = q.where(all(conditions));
  return q.execute();
}

/**
 * Deliveries that are not `listen` copies (or whose original is gone), newest first, kept when they or one of their
 * copies meet the filter; the copies are read with copiesOf.
 */
export async function listDeliveryGroupRows(db: Executor, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  let q = db
    .selectFrom('deliveries')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('copy_of', 'is', null),
        eb.not(eb.exists(eb.selectFrom('deliveries as original').select('id').whereRef('original.id', '=', 'deliveries.copy_of'))),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(filter.limit);
  if (filter.partnerId !== undefined) q = q.where('partner_id', '=', filter.partnerId);
  const own = memberConditions('deliveries', filter);
  if (own.length > 0) {
    const copies = memberConditions('listen_copy', filter);
    q = q.where(sql<boolean>`(${all(own)} or exists (select 1 from deliveries listen_copy where listen_copy.copy_of = deliveries.id and ${all(copies)}))`);
  }
  return q.execute();
}

/** The `listen` copies of these deliveries, oldest first. */
export async function copiesOf(db: Executor, deliveryIds: number[]): Promise<DeliveryRow[]> {
  if (deliveryIds.length === 0) return [];
  return db.selectFrom('deliveries').selectAll().where('copy_of', 'in', deliveryIds).orderBy('id').execute();
}

/** How many of a partner's latest deliveries the filter lists are drawn from: bounded work on every refresh. */
export const FACETS_FROM_LATEST = 1000;

/** What a partner's latest deliveries can be filtered by: their event types and targets, most recently used first. */
export async function deliveryFacets(db: Executor, partnerId: string, limit: number): Promise<{ eventTypes: string[]; targets: string[] }> {
  const recent = () =>
    db
      .selectFrom('deliveries')
      .select(['id', 'event_type', 'target'])
      .where('partner_id', '=', partnerId)
      .orderBy('id', 'desc')
      .limit(FACETS_FROM_LATEST)
      .as('recent');
  const eventTypes = await db
    .selectFrom(recent())
    .select((eb) => ['recent.event_type', eb.fn.max('recent.id').as('latest')])
    .where('recent.event_type', 'is not', null)
    .groupBy('recent.event_type')
    .orderBy('latest', 'desc')
    .limit(limit)
    .execute();
  const targets = await db
    .selectFrom(recent())
    .select((eb) => ['recent.target', eb.fn.max('recent.id').as('latest')])
    .groupBy('recent.target')
    .orderBy('latest', 'desc')
    .limit(limit)
    .execute();
  return { eventTypes: eventTypes.map((r) => r.event_type!), targets: targets.map((r) => r.target) };
}

/** The attempts of these deliveries, oldest first. */
export async function attemptsOf(db: Executor, deliveryIds: number[]): Promise<DeliveryAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db.selectFrom('delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('id').execute();
}

/**
 * Puts a delivery that is not in flight (or whose worker died) back to pending, due at `now`, with a fresh retry
 * window, marked redelivered (outside the webhook order, see order.ts).
 */
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
      gave_up: 0,
      redelivered_at: now,
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
