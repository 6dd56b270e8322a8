/**
 * Turns recorded aggregation events into push notifications: for every subscription of the account and the event's
 * class, one outbox delivery per (class, type) of a change, written in the transaction of the change itself. The
 * partner's webhook subscriptions hear of the same events here (webhooks/deliver.service.ts).
 */
import type { Executor } from '../../platform/db/database.js';
import { enqueueDelivery } from '../../outbox/enqueue.js';
import type { XmlSchema } from '../../contract/xml/schema-walk.js';
import { xmlWriter } from '../../contract/xml/serialize.js';
import { AccountEvent, TransactionEvent } from '../../contract/schemas/txpush.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { AggregationEvent } from '../aggregation/records.js';
import type { EventClass, EventType } from '../aggregation/table.js';
import { emitAggregationWebhookEvents } from '../webhooks/deliver.service.js';
import { openSigningKey } from './keys.js';
import { subscriptionsOfAccounts, deleteSubscriptionsOfAccounts } from './repository.js';
import type { NotificationFormat, TxPushSubscriptionRow } from './table.js';

/** Records per notification: a refresh that stores hundreds of transactions sends them in a few notifications. */
export const MAX_RECORDS_PER_NOTIFICATION = 100;

export interface NotificationEvent {
  class: EventClass;
  type: EventType;
  records: unknown[];
}

const CONTENT_TYPES: Record<NotificationFormat, string> = { json: 'application/json', xml: 'application/xml' };

/** A notification body in a subscription's format: JSON `{"event": {...}}` or XML `<event>...</event>`. */
export function renderNotification(event: NotificationEvent, format: NotificationFormat): { body: string; contentType: string } {
  const body =
    format === 'json' ? JSON.stringify({ event }) : xmlWriter((event.class === 'account' ? AccountEvent : TransactionEvent) as unknown as XmlSchema)(event);
  return { body, contentType: CONTENT_TYPES[format] };
}

/** Events of one account with the same class and type, in the order they were recorded. */
function groupEvents(events: readonly AggregationEvent[]): Map<string, AggregationEvent[]> {
  const groups = new Map<string, AggregationEvent[]>();
  for (const e of events) {
    const key = `${e.accountId}:${e.class}:${e.type}`;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(e);
  }
  return groups;
}

/**
 * Enqueues the notifications these events call for. Call it with the transaction that records them, so a
 * notification exists exactly when its change does. An account's `deleted` event is the last its subscriptions
 * receive: they are removed with it.
 */
export async function enqueuePushNotifications(
  db: Executor,
  runtime: Pick<Runtime, 'clock' | 'keys'>,
  events: readonly AggregationEvent[],
  options: { keepSubscriptions?: boolean } = {},
): Promise<void> {
  if (events.length === 0) return;
  await emitAggregationWebhookEvents(db, runtime, events);
  const accountIds = [...new Set(events.map((e) => e.accountId))];
  const subscriptions = await subscriptionsOfAccounts(db, accountIds);
  if (subscriptions.length === 0) return;
  const byAccountClass = new Map<string, TxPushSubscriptionRow[]>();
  for (const s of subscriptions) {
    const key = `${s.account_id}:${s.class}`;
    byAccountClass.set(key, [...(byAccountClass.get(key) ?? []), s]);
  }
  const keys = new Map<number, string>();
  const signingKey = (s: TxPushSubscriptionRow) => {
    let key = keys.get(s.id);
    if (key === undefined) keys.set(s.id, (key = openSigningKey(runtime.keys, s.signing_key_encrypted)));
    return key;
  };
  for (const group of groupEvents(events).values()) {
    const first = group[0]!;
    const targets = byAccountClass.get(`${first.accountId}:${first.class}`) ?? [];
    for (let i = 0; i < group.length; i += MAX_RECORDS_PER_NOTIFICATION) {
      const event: NotificationEvent = { class: first.class, type: first.type, records: group.slice(i, i + MAX_RECORDS_PER_NOTIFICATION).map((e) => e.record) };
      for (const s of targets) {
        const { body, contentType } = renderNotification(event, s.format);
        await enqueueDelivery(db, runtime, {
          kind: 'txpush',
          partnerId: s.partner_id,
          url: s.callback_url,
          body,
          contentType,
          signingSecret: signingKey(s),
          customerId: Number(s.customer_id),
          subscriptionId: s.id,
          eventType: `${event.class}.${event.type}`,
        });
      }
    }
  }
  const deleted = [...new Set(events.filter((e) => e.class === 'account' && e.type === 'deleted').map((e) => e.accountId))];
  // A sandbox-fired `deleted` event (keepSubscriptions) did not delete the account: its subscriptions stay.
  if (deleted.length > 0 && !options.keepSubscriptions) await deleteSubscriptionsOfAccounts(db, deleted);
}
