import type { Generated, Insertable, Selectable } from 'kysely';

/** What a delivery carries: a TxPUSH notification, a Connect webhook, or an e-mail. */
export type DeliveryKind = 'txpush' | 'webhook' | 'email';

export const DELIVERY_KINDS: readonly DeliveryKind[] = ['txpush', 'webhook', 'email'];

/**
 * pending: waiting for its next attempt (next_attempt_at); delivering: claimed by a worker until locked_until;
 * delivered: acknowledged; cancelled: given up (retry window over, or a permanent refusal).
 */
export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'cancelled';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivering', 'delivered', 'cancelled'];

/** What lists show and filter by, derived from the stored status (see states.ts). */
export { DELIVERY_STATES, type DeliveryState } from '../contract/schemas/deliveries.js';

/** The outbox: one row per message to deliver, written in the same transaction as the change it reports. */
export interface DeliveryTable {
  id: Generated<number>;
  partner_id: string;
  kind: DeliveryKind;
  /** Stable across retries and redeliveries; sent as `webhook-id` so receivers can deduplicate. */
  event_id: string;
  /** URL (txpush, webhook) or e-mail address (email). */
  target: string;
  method: string;
  /** Extra request headers as a JSON object, in clear: only rows written before migration 0015 have any ('{}' since). */
  headers: string;
  /** Extra request headers as a JSON object, encrypted with a key derived from the master key; null when none. */
  headers_encrypted: string | null;
  content_type: string | null;
  /** The request body; for e-mail a JSON object {from, subject, text, html}. */
  body: string;
  /** The Standard Webhooks signing secret, encrypted with a key derived from the master key. */
  signing_secret_encrypted: string | null;
  status: DeliveryStatus;
  /** Attempts started since the delivery was enqueued or last redelivered. */
  attempts: number;
  /** Start of the retry window (epoch seconds), set by the first claim. */
  first_attempt_at: number | null;
  /** When the row is next due. While delivering, this is the end of the lease, so a crashed worker's rows come back. */
  next_attempt_at: number;
  locked_until: number | null;
  /** Worker id plus a per-claim token: only the holder of the claim can complete or fail it. */
  locked_by: string | null;
  last_error: string | null;
  last_status_code: number | null;
  created_at: number;
  delivered_at: number | null;
  cancelled_at: number | null;
  customer_id: number | null;
  subscription_id: number | null;
  connect_session: string | null;
  /** The webhook subscription a notification was queued for (its UUID): deleting or disabling it cancels the open ones. */
  webhook_subscription_id: string | null;
  /** What it carries: `transaction.created`, `connect.added`, `connect.email`, ...; null when the producer did not say. */
  event_type: string | null;
  /** For a copy to a `ledgerlink listen --partner` listener: the delivery it copies. */
  copy_of: number | null;
  /** 1 when a failed attempt ended it (retry window over, or a permanent refusal); a cancelled row with 0 was stopped. */
  gave_up: Generated<number>;
  /** When it was last redelivered: it then goes at once, outside the order of its Connect session's webhooks. */
  redelivered_at: number | null;
}

/** Every attempt, kept when a delivery is retried or redelivered. */
export interface DeliveryAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  /** Epoch seconds. */
  attempted_at: number;
  worker_id: string;
  /** HTTP status, or the SMTP reply code; null when no answer came (refused, timed out, policy). */
  status_code: number | null;
  latency_ms: number;
  /** null on success. */
  error: string | null;
  /** The first bytes of the answer's body (or the SMTP reply), cut at RESPONSE_EXCERPT_BYTES; null when none came. */
  response_excerpt: string | null;
}

/** The local mailbox: e-mail kept here instead of sent when no SMTP server is configured. */
export interface MailboxTable {
  id: Generated<number>;
  partner_id: string;
  delivery_id: number | null;
  event_id: string;
  to_address: string;
  from_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: number;
}

export type DeliveryRow = Selectable<DeliveryTable>;
export type NewDeliveryRow = Insertable<DeliveryTable>;
export type DeliveryAttemptRow = Selectable<DeliveryAttemptTable>;
export type MailboxRow = Selectable<MailboxTable>;

/** A listener `ledgerlink listen --partner` registered: it receives a copy of the partner's push and webhook deliveries. */
export interface SandboxListenerTable {
  id: Generated<number>;
  partner_id: string;
  /** Where the copies go (the listen process's own URL). */
  url: string;
  created_at: number;
  /** The registration lapses here unless the listener renews it (epoch seconds, service clock). */
  expires_at: number;
  /** A polled listener's open poll: the one that wrote it; any other one waiting ends (migration 0023). */
  poll_token: string | null;
}

export type SandboxListenerRow = Selectable<SandboxListenerTable>;
