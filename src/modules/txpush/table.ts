import type { Generated, Selectable } from 'kysely';
import type { EventClass } from '../aggregation/table.js';

/** The format of a subscription's notifications: the Accept of the call that enabled it. */
export type NotificationFormat = 'json' | 'xml';

/** A TxPUSH subscription: one listener for one class (account or transaction) of events of one account. */
export interface TxPushSubscriptionTable {
  /** Service-assigned, from 17500000 up. */
  id: Generated<number>;
  partner_id: string;
  customer_id: number;
  account_id: number;
  class: EventClass;
  callback_url: string;
  format: NotificationFormat;
  /** The `whsec_` signing key, encrypted (AES-256-GCM, key derived from the master key for delivery signing secrets). */
  signing_key_encrypted: string;
  created_at: number;
}

export type TxPushSubscriptionRow = Selectable<TxPushSubscriptionTable>;
