import type { Selectable } from 'kysely';
import type { ConditionField, WebhookStatus } from '../../contract/schemas/webhook-subscriptions.js';

export interface WebhookSubscriptionTable {
  /** A random UUID. */
  id: string;
  partner_id: string;
  /** Where its events go unless an event names its own URL; null when every event does. */
  url: string | null;
  status: WebhookStatus;
  created_at: number;
  /** The last change to the subscription or one of its events. */
  updated_at: number;
}

export interface WebhookSubscriptionEventTable {
  /** A random UUID. */
  id: string;
  subscription_id: string;
  partner_id: string;
  /** The event type (WEBHOOK_EVENT_TYPES); unique within the subscription. */
  name: string;
  url: string | null;
  condition_field: ConditionField | null;
  /** JSON arrays of strings, or null when the condition has none. */
  condition_includes: string | null;
  condition_excludes: string | null;
  status: WebhookStatus;
  /** Its place in the subscription's list, as the partner gave it. */
  position: number;
  created_at: number;
}

export type WebhookSubscriptionRow = Selectable<WebhookSubscriptionTable>;
export type WebhookSubscriptionEventRow = Selectable<WebhookSubscriptionEventTable>;
