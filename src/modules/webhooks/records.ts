import type { Static } from 'typebox';
import type { WebhookSubscription, WebhookSubscriptionEvent } from '../../contract/schemas/webhook-subscriptions.js';
import type { WebhookSubscriptionEventRow, WebhookSubscriptionRow } from './table.js';

export type WebhookSubscriptionRecord = Static<typeof WebhookSubscription>;
export type WebhookSubscriptionEventRecord = Static<typeof WebhookSubscriptionEvent>;

/** Epoch seconds as the reference's dates: ISO 8601 in UTC, to the second. */
export function isoDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function toEventRecord(row: WebhookSubscriptionEventRow): WebhookSubscriptionEventRecord {
  return {
    webhookEventId: row.id,
    name: row.name,
    ...(row.url !== null ? { url: row.url } : {}),
    status: row.status,
    ...(row.condition_field !== null
      ? {
          condition: {
            subscribeFor: row.condition_field,
            ...(row.condition_includes !== null ? { includes: JSON.parse(row.condition_includes) as string[] } : {}),
            ...(row.condition_excludes !== null ? { excludes: JSON.parse(row.condition_excludes) as string[] } : {}),
          },
        }
      : {}),
  };
}

export function toSubscriptionRecord(row: WebhookSubscriptionRow, events: readonly WebhookSubscriptionEventRow[]): WebhookSubscriptionRecord {
  return {
    subscriptionId: row.id,
    ...(row.url !== null ? { url: row.url } : {}),
    events: events.map(toEventRecord),
    status: row.status,
    createdDate: isoDate(Number(row.created_at)),
    lastUpdatedDate: isoDate(Number(row.updated_at)),
  };
}
