/**
 * Webhook subscriptions (docs/webhook-subscriptions.md): the partner's subscriptions to events by name, their events,
 * statuses and test deliveries. Every call is scoped to the calling partner: another partner's ids are unknown ids.
 */
import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { cancelWebhookSubscriptionDeliveries } from '../../outbox/cancel.js';
import { listenerUrlProblem, literalHostRefusal, type ListenerRule } from '../../outbox/policy.js';
import type { ErrorName } from '../../contract/errors/catalogue.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import {
  type AvailableWebhookEvents,
  type ConditionField,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_STATUSES,
  type WebhookEventInput,
  type WebhookEventType,
  type WebhookStatus,
  type WebhookSubscriptionInput,
} from '../../contract/schemas/webhook-subscriptions.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { Caller } from '../partners/service.js';
import { enqueueNotification } from './deliver.service.js';
import { type WebhookSubscriptionEventRecord, type WebhookSubscriptionRecord, toEventRecord, toSubscriptionRecord } from './records.js';
import * as repo from './repository.js';
import type { WebhookSubscriptionEventRow, WebhookSubscriptionEventTable, WebhookSubscriptionRow } from './table.js';

/** Subscriptions one partner may have: bounds what one emitted event fans out to. */
export const MAX_SUBSCRIPTIONS_PER_PARTNER = 100;

type SubscriptionInput = Static<typeof WebhookSubscriptionInput>;
type EventInput = Static<typeof WebhookEventInput>;

const notFound = () => new ServiceError('ResourceNotFound', 'Webhook subscription not found.');
const eventNotFound = () => new ServiceError('ResourceNotFound', 'Webhook subscription event not found.');

/** List Available Webhook Subscription Events: every event Ledgerlink sends, with the fields conditions may name. */
export function availableEvents(): Static<typeof AvailableWebhookEvents> {
  return {
    events: WEBHOOK_EVENT_TYPES.map((t) => ({
      name: t.name,
      description: t.description,
      status: 'active',
      conditionalSubscription:
        t.conditionFields.length > 0 ? { applicable: true, fields: t.conditionFields.join(','), mandatory: false } : { applicable: false, mandatory: false },
    })),
  };
}

const RULE_ERRORS: Record<ListenerRule, ErrorName> = { url: 'WebhookUrlInvalid', https: 'WebhookHttpsRequired', port: 'WebhookPortNotAllowed' };

/**
 * A webhook URL, trimmed, as the listener rules allow it (https on 443; http on 80 for Test Drive partners; the
 * sandbox's extra ports; no credentials), and not an IP address the outbound policy refuses; 400 naming the field.
 */
function checkedUrl(runtime: Pick<Runtime, 'config'>, caller: Caller, value: string, field: string): string {
  const url = value.trim();
  const problem = listenerUrlProblem(url, {
    allowHttp: caller.plan === 'testdrive',
    extraPorts: runtime.config.mode === 'sandbox' ? runtime.config.pushExtraPorts : [],
  });
  if (problem) throw new ServiceError(RULE_ERRORS[problem.rule], `The ${field} is refused: ${problem.reason}.`);
  const refusal = literalHostRefusal(new URL(url), runtime.config.mode);
  if (refusal) throw new ServiceError('WebhookAddressRefused', `The ${field} is refused: ${refusal}.`);
  return url;
}

function eventTypeOf(name: string): WebhookEventType {
  const type = WEBHOOK_EVENT_TYPES.find((t) => t.name === name.trim());
  if (!type)
    throw new ServiceError(
      'WebhookEventUnknown',
      `Ledgerlink sends no event named "${name.slice(0, 100)}": GET /notification-subscriptions/webhooks/events lists them.`,
    );
  return type;
}

type EventColumns = Pick<WebhookSubscriptionEventTable, 'name' | 'url' | 'condition_field' | 'condition_includes' | 'condition_excludes'>;

/** An event of a request as columns, checked: a name Ledgerlink sends, its URL, a condition the event allows. */
function eventColumns(runtime: Pick<Runtime, 'config'>, caller: Caller, input: EventInput, at: string): EventColumns {
  const type = eventTypeOf(input.name);
  const url = input.url?.trim() ? checkedUrl(runtime, caller, input.url, `url of ${at}`) : null;
  const c = input.condition;
  if (!c) return { name: type.name, url, condition_field: null, condition_includes: null, condition_excludes: null };
  const field = type.conditionFields.find((f) => f.toLowerCase() === c.subscribeFor.trim().toLowerCase()) as ConditionField | undefined;
  if (!field) {
    const allowed = type.conditionFields.length > 0 ? `one of ${type.conditionFields.join(', ')}` : 'none: it has no conditions';
    throw new ServiceError(
      'WebhookConditionInvalid',
      `The condition of ${at} cannot subscribe for "${c.subscribeFor.slice(0, 50)}": ${type.name} allows ${allowed}.`,
    );
  }
  if (c.includes === undefined && c.excludes === undefined)
    throw new ServiceError('WebhookConditionInvalid', `The condition of ${at} needs includes or excludes: the values of ${field} to send or not to send.`);
  const values = (list: string[] | undefined) => (list === undefined ? null : JSON.stringify([...new Set(list.map((v) => v.trim()))]));
  return { name: type.name, url, condition_field: field, condition_includes: values(c.includes), condition_excludes: values(c.excludes) };
}

/** The events of a create or update request, checked, each name once, each with somewhere to go. */
function eventsOf(runtime: Pick<Runtime, 'config'>, caller: Caller, input: SubscriptionInput, subscriptionUrl: string | null): EventColumns[] {
  const seen = new Set<string>();
  return input.events.map((e, i) => {
    const columns = eventColumns(runtime, caller, e, `events[${i}]`);
    if (seen.has(columns.name))
      throw new ServiceError('WebhookEventRepeated', `The subscription names ${columns.name} twice (events[${i}]): name each event once.`);
    seen.add(columns.name);
    if (columns.url === null && subscriptionUrl === null)
      throw new ServiceError('WebhookUrlMissing', `events[${i}] (${columns.name}) has no url, and neither has the subscription: give one of the two.`);
    return columns;
  });
}

function statusOf(value: string): WebhookStatus {
  const status = value.trim().toLowerCase();
  if (!(WEBHOOK_STATUSES as readonly string[]).includes(status))
    throw new ServiceError('WebhookStatusInvalid', `The status must be active or inactive (got "${value.slice(0, 20)}").`);
  return status as WebhookStatus;
}

async function recordOf(db: Executor, row: WebhookSubscriptionRow): Promise<WebhookSubscriptionRecord> {
  return toSubscriptionRecord(row, await repo.eventsOfSubscriptions(db, [row.id]));
}

async function subscriptionRow(db: Executor, partnerId: string, id: string): Promise<WebhookSubscriptionRow> {
  const row = await repo.findSubscription(db, partnerId, id);
  if (!row) throw notFound();
  return row;
}

/** In a transaction: marks the subscription changed (and, on PostgreSQL, locks it), 404 when the partner has none. */
async function touched(tx: Executor, runtime: Pick<Runtime, 'clock'>, partnerId: string, id: string): Promise<WebhookSubscriptionRow> {
  if (!(await repo.touchSubscription(tx, partnerId, id, epochSeconds(runtime.clock)))) throw notFound();
  return subscriptionRow(tx, partnerId, id);
}

async function eventRow(db: Executor, subscription: WebhookSubscriptionRow, eventId: string): Promise<WebhookSubscriptionEventRow> {
  const row = (await repo.eventsOfSubscriptions(db, [subscription.id])).find((e) => e.id === eventId);
  if (!row) throw eventNotFound();
  return row;
}

/** Create Webhook Subscription: active at once, with its events active. */
export async function createSubscription(runtime: Runtime, caller: Caller, input: SubscriptionInput): Promise<WebhookSubscriptionRecord> {
  const url = input.url?.trim() ? checkedUrl(runtime, caller, input.url, 'url') : null;
  const events = eventsOf(runtime, caller, input, url);
  const now = epochSeconds(runtime.clock);
  return runtime.database.kysely.transaction().execute(async (tx) => {
    const count = await repo.countSubscriptions(tx, caller.partnerId);
    if (count >= MAX_SUBSCRIPTIONS_PER_PARTNER)
      throw new ServiceError('TooManyWebhookSubscriptions', `The partner already has ${count} webhook subscriptions, the most it may have: delete one first.`);
    const row: WebhookSubscriptionRow = { id: randomUUID(), partner_id: caller.partnerId, url, status: 'active', created_at: now, updated_at: now };
    await repo.insertSubscription(tx, row);
    const eventRows = events.map((e, position) => ({
      ...e,
      id: randomUUID(),
      subscription_id: row.id,
      partner_id: caller.partnerId,
      status: 'active' as const,
      position,
      created_at: now,
    }));
    await repo.insertEvents(tx, eventRows);
    return toSubscriptionRecord(row, eventRows);
  });
}

/** List Webhook Subscriptions: a page (offset from 1) of the partner's subscriptions, oldest first. */
export async function listSubscriptions(db: Executor, partnerId: string, page: { offset: number; limit: number }) {
  const total = await repo.countSubscriptions(db, partnerId);
  const rows = await repo.pageOfSubscriptions(db, partnerId, (page.offset - 1) * page.limit, page.limit);
  const events = await repo.eventsOfSubscriptions(
    db,
    rows.map((r) => r.id),
  );
  const subscriptions = rows.map((r) =>
    toSubscriptionRecord(
      r,
      events.filter((e) => e.subscription_id === r.id),
    ),
  );
  return { count: subscriptions.length, offset: page.offset, limit: page.limit, total, subscriptions };
}

export async function getSubscription(db: Executor, partnerId: string, id: string): Promise<WebhookSubscriptionRecord> {
  return recordOf(db, await subscriptionRow(db, partnerId, id));
}

/**
 * Update Webhook Subscription: the URL and the events become those given. An event named before keeps its id and
 * status; a new one is active; one no longer named is removed, and what is still queued of it cancelled.
 */
export async function updateSubscription(runtime: Runtime, caller: Caller, id: string, input: SubscriptionInput): Promise<WebhookSubscriptionRecord> {
  const now = epochSeconds(runtime.clock);
  return runtime.database.kysely.transaction().execute(async (tx) => {
    // Found first: an unknown (or another partner's) subscription is 404 whatever the body.
    const row = await touched(tx, runtime, caller.partnerId, id);
    const url = input.url?.trim() ? checkedUrl(runtime, caller, input.url, 'url') : null;
    const events = eventsOf(runtime, caller, input, url);
    const existing = await repo.eventsOfSubscriptions(tx, [row.id]);
    const byName = new Map(existing.map((e) => [e.name, e]));
    const named = new Set(events.map((e) => e.name));
    const removed = existing.filter((e) => !named.has(e.name));
    await repo.deleteEvents(
      tx,
      removed.map((e) => e.id),
    );
    await cancelWebhookSubscriptionDeliveries(tx, row.id, {
      now,
      reason: 'the event was removed from its webhook subscription',
      eventTypes: removed.map((e) => e.name),
    });
    const added: WebhookSubscriptionEventTable[] = [];
    for (const [position, e] of events.entries()) {
      const before = byName.get(e.name);
      if (before) await repo.updateEvent(tx, before.id, { ...e, position });
      else added.push({ ...e, id: randomUUID(), subscription_id: row.id, partner_id: caller.partnerId, status: 'active', position, created_at: now });
    }
    await repo.insertEvents(tx, added);
    await repo.updateSubscription(tx, row.id, { url });
    return recordOf(tx, { ...row, url });
  });
}

/** Delete Webhook Subscription: with its events; what is still queued for it is cancelled. */
export async function deleteSubscription(runtime: Pick<Runtime, 'database' | 'clock'>, partnerId: string, id: string): Promise<void> {
  await runtime.database.kysely.transaction().execute(async (tx) => {
    if (!(await repo.deleteSubscription(tx, partnerId, id))) throw notFound();
    await cancelWebhookSubscriptionDeliveries(tx, id, { now: epochSeconds(runtime.clock), reason: 'the webhook subscription was deleted' });
  });
}

/** Update Webhook Subscription Event: its name, URL and condition become those given; its id and status stay. */
export async function updateSubscriptionEvent(
  runtime: Runtime,
  caller: Caller,
  id: string,
  eventId: string,
  input: EventInput,
): Promise<WebhookSubscriptionEventRecord> {
  return runtime.database.kysely.transaction().execute(async (tx) => {
    const subscription = await touched(tx, runtime, caller.partnerId, id);
    const event = await eventRow(tx, subscription, eventId);
    const columns = eventColumns(runtime, caller, input, 'the event');
    const others = (await repo.eventsOfSubscriptions(tx, [subscription.id])).filter((e) => e.id !== event.id);
    if (others.some((e) => e.name === columns.name))
      throw new ServiceError(
        'WebhookEventRepeated',
        `The subscription already has ${columns.name} as another event (${others.find((e) => e.name === columns.name)!.id}).`,
      );
    if (columns.url === null && subscription.url === null)
      throw new ServiceError('WebhookUrlMissing', 'The event has no url, and neither has its subscription: give the event one.');
    await repo.updateEvent(tx, event.id, columns);
    return toEventRecord({ ...event, ...columns });
  });
}

export async function deleteSubscriptionEvent(runtime: Pick<Runtime, 'database' | 'clock'>, partnerId: string, id: string, eventId: string): Promise<void> {
  await runtime.database.kysely.transaction().execute(async (tx) => {
    const event = await eventRow(tx, await touched(tx, runtime, partnerId, id), eventId);
    await repo.deleteEvents(tx, [event.id]);
    await cancelWebhookSubscriptionDeliveries(tx, event.subscription_id, {
      now: epochSeconds(runtime.clock),
      reason: 'the event was removed from its webhook subscription',
      eventTypes: [event.name],
    });
  });
}

/** Enable or Disable Webhook Subscription Event: an inactive event is not sent, and what is still queued of it is cancelled. */
export async function changeEventStatus(
  runtime: Pick<Runtime, 'database' | 'clock'>,
  partnerId: string,
  id: string,
  eventId: string,
  value: string,
): Promise<{ status: WebhookStatus }> {
  return runtime.database.kysely.transaction().execute(async (tx) => {
    const event = await eventRow(tx, await touched(tx, runtime, partnerId, id), eventId);
    const status = statusOf(value);
    await repo.updateEvent(tx, event.id, { status });
    if (status === 'inactive')
      await cancelWebhookSubscriptionDeliveries(tx, event.subscription_id, {
        now: epochSeconds(runtime.clock),
        reason: 'the event of the webhook subscription was disabled',
        eventTypes: [event.name],
      });
    return { status };
  });
}

/**
 * Enable or Disable All Webhook Events Under a Given Webhook Subscription: the subscription and each of its events;
 * disabling cancels what is still queued for it.
 */
export async function changeSubscriptionStatus(
  runtime: Pick<Runtime, 'database' | 'clock'>,
  partnerId: string,
  id: string,
  value: string,
): Promise<{ status: WebhookStatus }> {
  return runtime.database.kysely.transaction().execute(async (tx) => {
    const row = await touched(tx, runtime, partnerId, id);
    const status = statusOf(value);
    await repo.updateSubscription(tx, row.id, { status });
    await repo.setEventStatuses(tx, row.id, status);
    if (status === 'inactive')
      await cancelWebhookSubscriptionDeliveries(tx, row.id, { now: epochSeconds(runtime.clock), reason: 'the webhook subscription was disabled' });
    return { status };
  });
}

/**
 * Test Webhook Subscription (and its form for one event): a test notification (`test: true`) to each event of the
 * subscription, or to the one named, whatever their status, since the partner asks for it. Returns how many.
 */
export async function testSubscription(
  runtime: Pick<Runtime, 'database' | 'clock' | 'keys'>,
  partnerId: string,
  id: string,
  eventId?: string,
): Promise<number> {
  return runtime.database.kysely.transaction().execute(async (tx) => {
    const subscription = await subscriptionRow(tx, partnerId, id);
    const events = eventId === undefined ? await repo.eventsOfSubscriptions(tx, [subscription.id]) : [await eventRow(tx, subscription, eventId)];
    let queued = 0;
    for (const e of events) {
      const type = WEBHOOK_EVENT_TYPES.find((t) => t.name === e.name);
      const payload = { description: type?.description ?? e.name };
      if (await enqueueNotification(tx, runtime, { ...e, subscription_url: subscription.url }, { partnerId, name: e.name, payload }, { test: true })) queued++;
    }
    return queued;
  });
}
