/**
 * Connect webhooks: every step of a Connect session is reported to the link's `webhook` URL through the outbox,
 * in the same transaction as the change it reports. Body `{customerId, eventType, eventId, payload, webhookData?}`
 * in JSON or XML (root `webhook`) per the link's webhookContentType, with the link's webhookHeaders, signed with
 * the partner's Connect webhook signing key (Standard Webhooks; `webhook-id` equals the body's eventId).
 */
import Type from 'typebox';
import type { Executor } from '../../platform/db/database.js';
import { enqueueDelivery } from '../../outbox/enqueue.js';
import { newEventId, partnerWebhookSecret } from '../../outbox/sign.js';
import type { XmlSchema } from '../../contract/xml/schema-walk.js';
import { xmlWriter } from '../../contract/xml/serialize.js';
import type { Runtime } from '../../platform/dependencies.js';
import { emitWebhookEvent } from '../webhooks/deliver.service.js';

import { webhookHeadersOf } from './links.service.js';
import type { ConnectLinkRow } from './table.js';

/** Every event type Connect sends, in the order a session usually produces them. */
export { CONNECT_EVENT_TYPES, type ConnectEventType } from '../../contract/schemas/connect.js';
import type { ConnectEventType } from '../../contract/schemas/connect.js';

/** The XML shape of a webhook body: free-form payload and webhookData rendered element by element. */
export const ConnectWebhookBody = Type.Object(
  {
    customerId: Type.String(),
    eventType: Type.String(),
    eventId: Type.String(),
    payload: Type.Unknown(),
    webhookData: Type.Optional(Type.Unknown()),
  },
  { xml: { name: 'webhook' } },
);

/** The partner's Connect webhook signing key (`whsec_...`); report and micro entry callbacks are signed with it too (outbox/sign.ts). */
export function connectWebhookSecret(runtime: Pick<Runtime, 'keys'>, partnerId: string): string {
  return partnerWebhookSecret(runtime.keys, partnerId);
}

/** Where a Connect webhook goes and how it looks: a link's webhook settings (or a sandbox trigger's). */
export interface ConnectWebhookTarget {
  partnerId: string;
  customerId: number;
  url: string;
  contentType: string;
  headers: Record<string, string>;
  /** Copied into the body as webhookData. */
  webhookData: unknown;
  /** The Connect link (session) it reports on, when there is one. */
  connectSession: string | null;
}

/** The webhook settings of a link, or undefined when it has no webhook URL. */
export function connectWebhookTarget(runtime: Runtime, link: ConnectLinkRow): ConnectWebhookTarget | undefined {
  if (!link.webhook) return undefined;
  return {
    partnerId: link.partner_id,
    customerId: Number(link.customer_id),
    url: link.webhook,
    contentType: link.webhook_content_type,
    headers: webhookHeadersOf(runtime, link),
    webhookData: link.webhook_data ? JSON.parse(link.webhook_data) : undefined,
    connectSession: link.id,
  };
}

/** Queues one Connect webhook to a target, signed with the partner's Connect webhook signing key. Returns the event id. */
export async function enqueueConnectWebhook(
  db: Executor,
  runtime: Runtime,
  target: ConnectWebhookTarget,
  eventType: ConnectEventType,
  payload: Record<string, unknown>,
): Promise<string> {
  const eventId = newEventId();
  const body: Record<string, unknown> = { customerId: String(target.customerId), eventType, eventId, payload };
  if (target.webhookData !== undefined) body.webhookData = target.webhookData;
  const xml = target.contentType === 'application/xml';
  await enqueueDelivery(db, runtime, {
    kind: 'webhook',
    partnerId: target.partnerId,
    url: target.url,
    body: xml ? xmlWriter(ConnectWebhookBody as unknown as XmlSchema)(body) : JSON.stringify(body),
    contentType: target.contentType,
    headers: target.headers,
    signingSecret: connectWebhookSecret(runtime, target.partnerId),
    eventId,
    customerId: target.customerId,
    connectSession: target.connectSession,
    eventType: `connect.${eventType}`,
  });
  return eventId;
}

/**
 * Queues one Connect webhook for the link (nothing when the link has no webhook URL), and the notifications of the
 * partner's webhook subscriptions to the event. Returns the Connect webhook's event id.
 */
export async function emitConnectEvent(
  db: Executor,
  runtime: Runtime,
  link: ConnectLinkRow,
  eventType: ConnectEventType,
  stepPayload: Record<string, unknown> = {},
): Promise<string | undefined> {
  // A Connect Components session's events say which session's stream they belong to.
  const payload = link.event_stream_id ? { ...stepPayload, eventStreamId: link.event_stream_id } : stepPayload;
  // The partner's webhook subscriptions hear of every Connect step, whether or not the link has a webhook URL.
  await emitWebhookEvent(db, runtime, {
    partnerId: link.partner_id,
    name: `connect.${eventType}`,
    customerId: Number(link.customer_id),
    fields: { customerId: String(link.customer_id) },
    payload,
  });
  const target = connectWebhookTarget(runtime, link);
  return target ? enqueueConnectWebhook(db, runtime, target, eventType, payload) : undefined;
}
