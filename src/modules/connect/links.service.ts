/**
 * Connect links: what POST /connect/v2/generate (and /lite, /fix, /send/email) hand out. A link is a row in
 * connect_links (its webhook settings, kept server-side so secrets never travel in a URL) and a URL whose query
 * carries customerId, origin, partnerId, linkId, the variant, signature, timestamp and ttl (epoch ms). The URL is
 * signed, so nothing in it can be changed; it expires at ttl; a single-use link stops working once Connect finished.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../platform/db/database.js';
import { sendableHeaders } from '../../outbox/enqueue.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { encryptValue, decryptValue, randomString } from '../../platform/secrets.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Runtime } from '../../platform/dependencies.js';
import { findLinkRow, insertLinkRow, setLinkUsed } from './repository.js';
import { linkSignatureValid, signLinkParams } from './signing.js';
import type { ConnectLinkRow, ConnectLinkType } from './table.js';

/** A link is valid for two hours after it was generated. */
export const LINK_TTL_MS = 2 * 60 * 60 * 1000;

const HEADERS_PURPOSE = 'connect-webhook-headers';

/** Where the hosted Connect app is served: `{connect_url}`. */
export function connectUrl(runtime: Pick<Runtime, 'config'>): string {
  return `${runtime.config.publicUrl}/connect`;
}

export interface NewLink {
  partnerId: string;
  customerId: number;
  type: ConnectLinkType;
  institutionId?: number;
  institutionLoginId?: number;
  microEntryAccountId?: number;
  experience: string;
  language?: string;
  redirectUri?: string;
  webhook?: string;
  webhookContentType: 'application/json' | 'application/xml';
  webhookData?: Record<string, unknown>;
  webhookHeaders?: Record<string, string>;
  singleUseUrl: boolean;
  /** Connect Components: the link's id is a UUID, the session's reference. */
  uuid?: boolean;
  configurationId?: string;
  eventStreamId?: string;
  /** Joint borrower links: the joint borrower's customer. */
  jointCustomerId?: number;
}

/** The query parameters of a link row, unsigned. */
function linkParams(row: ConnectLinkRow): Record<string, string> {
  const params: Record<string, string> = {
    customerId: String(row.customer_id),
    experience: row.experience,
    linkId: row.id,
    origin: 'url',
    partnerId: row.partner_id,
    timestamp: String(row.created_at_ms),
    ttl: String(row.expires_at_ms),
    type: row.type === 'email' ? 'full' : row.type,
  };
  if (row.institution_id !== null) params.institutionId = String(row.institution_id);
  if (row.institution_login_id !== null) params.institutionLoginId = String(row.institution_login_id);
  if (row.micro_entry_account_id !== null) params.accountId = String(row.micro_entry_account_id);
  if (row.language) params.language = row.language;
  if (row.redirect_uri) params.redirectUri = row.redirect_uri;
  if (row.webhook) params.webhookContentType = row.webhook_content_type;
  if (row.joint_customer_id !== null) params.jointBorrowerCustomerId = String(row.joint_customer_id);
  return params;
}

/** The signed URL of a link. */
export function linkUrl(runtime: Runtime, row: ConnectLinkRow): string {
  const params = linkParams(row);
  const url = new URL(connectUrl(runtime));
  for (const [k, v] of Object.entries({ ...params, signature: signLinkParams(runtime.keys, params) })) url.searchParams.set(k, v);
  return url.toString();
}

/** Stores a new link; returns its row. */
export async function insertLink(db: Executor, runtime: Runtime, link: NewLink): Promise<ConnectLinkRow> {
  const now = runtime.clock.now();
  const row: ConnectLinkRow = {
    id: link.uuid ? randomUUID() : randomString(24),
    partner_id: link.partnerId,
    customer_id: link.customerId,
    type: link.type,
    institution_id: link.institutionId ?? null,
    institution_login_id: link.institutionLoginId ?? null,
    micro_entry_account_id: link.microEntryAccountId ?? null,
    experience: link.experience,
    language: link.language ?? null,
    redirect_uri: link.redirectUri ?? null,
    webhook: link.webhook ?? null,
    webhook_content_type: link.webhookContentType,
    webhook_data: link.webhookData !== undefined ? JSON.stringify(link.webhookData) : null,
    webhook_headers_encrypted:
      link.webhookHeaders !== undefined && Object.keys(link.webhookHeaders).length > 0
        ? encryptValue(runtime.keys.derive(HEADERS_PURPOSE), JSON.stringify(link.webhookHeaders))
        : null,
    single_use: link.singleUseUrl ? 1 : 0,
    created_at_ms: now,
    expires_at_ms: now + LINK_TTL_MS,
    used_at: null,
    configuration_id: link.configurationId ?? null,
    event_stream_id: link.eventStreamId ?? null,
    joint_customer_id: link.jointCustomerId ?? null,
  };
  await insertLinkRow(db, row);
  return row;
}

/**
 * The extra webhook headers of a link. They were checked when the link was made; any that today's stricter rules
 * refuse (a link made before them) are left out, rather than failing every webhook of the link.
 */
export function webhookHeadersOf(runtime: Runtime, row: ConnectLinkRow): Record<string, string> {
  return row.webhook_headers_encrypted
    ? sendableHeaders(JSON.parse(decryptValue(runtime.keys.derive(HEADERS_PURPOSE), row.webhook_headers_encrypted)) as Record<string, unknown>)
    : {};
}

/** Why a link cannot be used. */
export type LinkRefusal = 'ConnectLinkInvalid' | 'ConnectLinkExpired' | 'ConnectLinkUsed';

/**
 * Checks a link's query: signature first (a tampered link is refused before anything is looked up), then that
 * the link exists with exactly these ids, has not expired (by the service clock) and, when single use, was not
 * used. Returns the row, or throws the refusal as a ServiceError.
 */
export async function openLink(db: Executor, runtime: Runtime, query: Record<string, unknown>): Promise<ConnectLinkRow> {
  // No prototype: on a plain object `params.__proto__ = 'x'` is silently dropped, so `&__proto__=x` would pass unsigned.
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(query)) {
    if (typeof v !== 'string') throw new ServiceError('ConnectLinkInvalid', 'This Connect link is not valid: a parameter appears more than once.');
    params[k] = v;
  }
  if (!linkSignatureValid(runtime.keys, params)) throw new ServiceError('ConnectLinkInvalid');
  const row = typeof params.linkId === 'string' ? await findLinkRow(db, params.linkId, params.partnerId ?? '') : undefined;
  // The signature is ours, so a missing row means the link was deleted (its customer was): not valid any more.
  if (!row || String(row.customer_id) !== params.customerId) throw new ServiceError('ConnectLinkInvalid');
  if (runtime.clock.now() >= Number(row.expires_at_ms)) throw new ServiceError('ConnectLinkExpired');
  if (row.single_use === 1 && row.used_at !== null) throw new ServiceError('ConnectLinkUsed');
  return linkRow(row);
}

/** A link row with its bigint columns as numbers (PostgreSQL answers them as strings). */
export function linkRow(row: ConnectLinkRow): ConnectLinkRow {
  return {
    ...row,
    customer_id: Number(row.customer_id),
    created_at_ms: Number(row.created_at_ms),
    expires_at_ms: Number(row.expires_at_ms),
    institution_login_id: row.institution_login_id === null ? null : Number(row.institution_login_id),
    micro_entry_account_id: row.micro_entry_account_id === null ? null : Number(row.micro_entry_account_id),
    joint_customer_id: row.joint_customer_id === null ? null : Number(row.joint_customer_id),
  };
}

/** The borrowers of a joint borrower link, as the Connect app names them. */
export type Borrower = 'primary' | 'jointBorrower';

/**
 * The link as it acts for one of its borrowers: a joint borrower link's calls for the joint borrower act for that
 * customer (sign-in, accounts, account management, the webhooks' customerId), the others for the link's own. Only a
 * joint borrower link has a joint borrower.
 */
export function asBorrower(row: ConnectLinkRow, borrower: Borrower): ConnectLinkRow {
  if (borrower === 'primary') return row;
  if (row.joint_customer_id === null) throw new ServiceError('ConnectActionNotAllowed', 'This Connect link has no joint borrower.');
  return { ...row, customer_id: row.joint_customer_id };
}

/** Whether a customer is one this link acts for: its own, or its joint borrower. */
export function linkServesCustomer(row: ConnectLinkRow, customerId: string): boolean {
  return String(row.customer_id) === customerId || (row.joint_customer_id !== null && String(row.joint_customer_id) === customerId);
}

/** Marks a single-use link used (Connect completed). Answers false when it already was (a concurrent finish). */
export async function markLinkUsed(db: Executor, runtime: Runtime, row: ConnectLinkRow): Promise<boolean> {
  if (row.single_use !== 1) return true;
  return setLinkUsed(db, row.id, epochSeconds(runtime.clock));
}
