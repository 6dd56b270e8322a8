/**
 * Connect webhooks: every step of a Connect session is reported to the link's `webhook` URL through the outbox,
 * in the same transaction as the change it reports. Body `{customerId, eventType, eventId, payload, webhookData?}`
 * in JSON or XML (root `webhook`) per the link's webhookContentType, with the link's webhookHeaders, signed with
 * the partner's Connect webhook signing key (Standard Webhooks; `webhook-id` equals the body's eventId).
 */
import { createHmac } from 'node:crypto';
import Type from 'typebox';
import type { Executor } from '../../db/database.js';
import { enqueueDelivery } from '../../delivery/enqueue.js';
import { newEventId } from '../../delivery/sign.js';
import type { XmlSchema } from '../../http/xml/schema-walk.js';
import { toXml } from '../../http/xml/serialize.js';
import type { Runtime } from '../../runtime.js';
import { webhookHeadersOf } from './links.js';
import type { ConnectLinkRow } from './table.js';

/** Every event type Connect sends, in the order a session usually produces them. */
export const CONNECT_EVENT_TYPES = [
  'started', 'institutionSelected', 'credentialsSubmitted', 'oauthStarted', 'mfa', 'mfaAnswered', 'discovered',
  'added', 'invalidCredentials', 'error', 'done', 'cancelled', 'accountsDeleted', 'institutionLoginDeleted',
] as const;
export type ConnectEventType = typeof CONNECT_EVENT_TYPES[number];

/** The XML shape of a webhook body: free-form payload and webhookData rendered element by element. */
export const ConnectWebhookBody = Type.Object({
  customerId: Type.String(),
  eventType: Type.String(),
  eventId: Type.String(),
  payload: Type.Unknown(),
  webhookData: Type.Optional(Type.Unknown()),
}, { xml: { name: 'webhook' } });

/**
 * The partner's Connect webhook signing key (`whsec_...`), derived from the master key and the partner id, so it
 * needs no storage and every process sharing the master key signs alike.
 */
export function connectWebhookSecret(runtime: Pick<Runtime, 'keys'>, partnerId: string): string {
  return 'whsec_' + createHmac('sha256', runtime.keys.derive('connect-webhook-signing')).update(partnerId).digest('base64');
}

/** Queues one Connect webhook for the link (nothing when the link has no webhook URL). Returns the event id. */
export async function emitConnectEvent(db: Executor, runtime: Runtime, link: ConnectLinkRow, eventType: ConnectEventType, payload: Record<string, unknown> = {}): Promise<string | undefined> {
  if (!link.webhook) return undefined;
  const eventId = newEventId();
  const body: Record<string, unknown> = { customerId: String(link.customer_id), eventType, eventId, payload };
  if (link.webhook_data) body.webhookData = JSON.parse(link.webhook_data);
  const xml = link.webhook_content_type === 'application/xml';
  await enqueueDelivery(db, runtime, {
    kind: 'webhook',
    partnerId: link.partner_id,
    url: link.webhook,
    body: xml ? toXml(body, ConnectWebhookBody as unknown as XmlSchema) : JSON.stringify(body),
    contentType: link.webhook_content_type,
    headers: webhookHeadersOf(runtime, link),
    signingSecret: connectWebhookSecret(runtime, link.partner_id),
    eventId,
    customerId: link.customer_id,
    connectSession: link.id,
  });
  return eventId;
}
