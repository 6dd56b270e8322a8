/**
 * Webhook subscriptions' notifications: an event Ledgerlink emits (an account or transaction change, a consent about
 * to end, a Connect step) goes to every active event of that name of the partner's active subscriptions whose
 * condition it meets, one outbox delivery each, written in the transaction of the change itself. JSON bodies
 * (WebhookNotification), signed with the partner's webhook signing key.
 */
import type { Executor } from '../../platform/db/database.js';
import { enqueueDelivery } from '../../outbox/enqueue.js';
import { newEventId } from '../../outbox/sign.js';
import type { ConditionField } from '../../contract/schemas/webhook-subscriptions.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { AggregationEvent } from '../aggregation/records.js';
import { activeEventsNamed, type DeliverableEventRow } from './repository.js';
import { partnerWebhookSecret } from '../../outbox/sign.js';
import { isoDate } from './records.js';

/** Transactions per notification: a refresh that stores hundreds sends them in a few notifications. */
export const MAX_TRANSACTIONS_PER_NOTIFICATION = 100;

/** An event Ledgerlink emits, before it is matched with subscriptions. */
export interface EmittedEvent {
  partnerId: string;
  /** The event type (WEBHOOK_EVENT_TYPES). */
  name: string;
  customerId?: number;
  /** The values conditions filter on. */
  fields: Partial<Record<ConditionField, string>>;
  payload: Record<string, unknown>;
}

/** Whether an event meets the condition of a subscription's event (no condition: every event does). */
export function meetsCondition(row: Pick<DeliverableEventRow, 'condition_field' | 'condition_includes' | 'condition_excludes'>, event: EmittedEvent): boolean {
  if (row.condition_field === null) return true;
  const value = event.fields[row.condition_field];
  const includes = row.condition_includes === null ? undefined : (JSON.parse(row.condition_includes) as string[]);
  const excludes = row.condition_excludes === null ? undefined : (JSON.parse(row.condition_excludes) as string[]);
  if (includes && (value === undefined || !includes.includes(value))) return false;
  if (excludes && value !== undefined && excludes.includes(value)) return false;
  return true;
}

/** Where a subscription's event goes: its own URL, else its subscription's. */
export const targetOf = (row: Pick<DeliverableEventRow, 'url' | 'subscription_url'>): string | null => row.url ?? row.subscription_url;

/** Queues one notification of one event to one subscription's event. */
export async function enqueueNotification(
  db: Executor,
  runtime: Pick<Runtime, 'clock' | 'keys'>,
  row: DeliverableEventRow,
  event: Omit<EmittedEvent, 'fields'>,
  options: { test?: boolean; secret?: string } = {},
): Promise<string | undefined> {
  const url = targetOf(row);
  if (url === null) return undefined;
  const eventId = newEventId();
  const body = {
    eventId,
    eventType: event.name,
    subscriptionId: row.subscription_id,
    webhookEventId: row.id,
    createdDate: isoDate(epochSeconds(runtime.clock)),
    ...(options.test ? { test: true } : {}),
    ...(event.customerId !== undefined ? { customerId: String(event.customerId) } : {}),
    payload: event.payload,
  };
  await enqueueDelivery(db, runtime, {
    kind: 'webhook',
    partnerId: row.partner_id,
    url,
    body: JSON.stringify(body),
    contentType: 'application/json',
    signingSecret: options.secret ?? partnerWebhookSecret(runtime.keys, row.partner_id),
    eventId,
    customerId: event.customerId ?? null,
    webhookSubscriptionId: row.subscription_id,
    eventType: event.name,
  });
  return eventId;
}

/**
 * Queues the notifications these events call for; call it with the transaction of the change they report. Returns
 * how many were queued.
 */
export async function emitWebhookEvents(db: Executor, runtime: Pick<Runtime, 'clock' | 'keys'>, events: readonly EmittedEvent[]): Promise<number> {
  const byPartner = new Map<string, EmittedEvent[]>();
  for (const e of events) byPartner.set(e.partnerId, [...(byPartner.get(e.partnerId) ?? []), e]);
  let queued = 0;
  for (const [partnerId, list] of byPartner) {
    const rows = await activeEventsNamed(db, partnerId, [...new Set(list.map((e) => e.name))]);
    if (rows.length === 0) continue;
    const secret = partnerWebhookSecret(runtime.keys, partnerId);
    for (const event of list) {
      for (const row of rows) {
        if (row.name !== event.name || !meetsCondition(row, event)) continue;
        if (await enqueueNotification(db, runtime, row, event, { secret })) queued++;
      }
    }
  }
  return queued;
}

/** Queues the notifications of one event. */
export function emitWebhookEvent(db: Executor, runtime: Pick<Runtime, 'clock' | 'keys'>, event: EmittedEvent): Promise<number> {
  return emitWebhookEvents(db, runtime, [event]);
}

/**
 * The webhook events of recorded aggregation events: each account change, the transaction changes of an account by
 * kind (at most MAX_TRANSACTIONS_PER_NOTIFICATION a notification), and a consent that began to end soon.
 */
export function aggregationWebhookEvents(events: readonly AggregationEvent[]): EmittedEvent[] {
  const out: EmittedEvent[] = [];
  const transactions = new Map<string, AggregationEvent[]>();
  for (const e of events) {
    const scope = { partnerId: e.partnerId, customerId: e.customerId };
    if (e.class === 'account') {
      const fields = { accountId: String(e.accountId), customerId: String(e.customerId), institutionId: String(e.record.institutionId) };
      out.push({ ...scope, name: `manage.txpush.account.${e.type}`, fields, payload: { accountId: String(e.accountId), account: e.record } });
      if (e.consentExpiring) {
        out.push({
          ...scope,
          name: 'authorization.accesstoken.expiry',
          fields,
          payload: {
            accountId: String(e.accountId),
            institutionId: String(e.record.institutionId),
            institutionLoginId: String(e.record.institutionLoginId),
            authorizationEndDate: e.record.authorizationEndDate,
          },
        });
      }
      continue;
    }
    const key = `${e.accountId}:${e.type}`;
    transactions.set(key, [...(transactions.get(key) ?? []), e]);
  }
  for (const group of transactions.values()) {
    const first = group[0]!;
    for (let i = 0; i < group.length; i += MAX_TRANSACTIONS_PER_NOTIFICATION) {
      out.push({
        partnerId: first.partnerId,
        customerId: first.customerId,
        name: `manage.txpush.transaction.${first.type}`,
        fields: { accountId: String(first.accountId), customerId: String(first.customerId) },
        payload: { accountId: String(first.accountId), transactions: group.slice(i, i + MAX_TRANSACTIONS_PER_NOTIFICATION).map((e) => e.record) },
      });
    }
  }
  return out;
}

/** Queues the webhook subscriptions' notifications of recorded aggregation events, in their transaction. */
export async function emitAggregationWebhookEvents(
  db: Executor,
  runtime: Pick<Runtime, 'clock' | 'keys'>,
  events: readonly AggregationEvent[],
): Promise<number> {
  return events.length === 0 ? 0 : emitWebhookEvents(db, runtime, aggregationWebhookEvents(events));
}
