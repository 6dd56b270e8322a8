/**
 * Generating Connect links (Full, Lite, Fix) and sending the Connect e-mail. Everything is checked when the link
 * is made, so a link that was handed out can be used: the customer belongs to the partner, a Lite institution can
 * be linked by this customer, a Fix login exists, the experience exists, the webhook settings are deliverable.
 */
import { connectorFor, type Engine } from '../aggregation/engine.js';
import { getLoginRow } from '../aggregation/accounts.service.js';
import { assertCanLinkAt, getCustomerForPartner } from '../customers/service.js';
import { microEntryStatus } from '../microentries/service.js';
import { deliveryHeaders, enqueueDelivery, isEmailAddress } from '../../outbox/enqueue.js';
import { assertEmailAllowance } from '../../outbox/email-limit.js';
import { epochSeconds } from '../../platform/clock.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { connectEmail, type ConnectEmailFields } from './email.js';
import { resolveExperience } from './experiences.service.js';
import { insertLink, linkUrl, type NewLink } from './links.service.js';
import type { ConnectLinkRow, ConnectLinkType } from './table.js';

/** The fields every generate call shares. */
export interface GenerateInput {
  partnerId: string;
  customerId: string;
  experience?: string;
  language?: string;
  redirectUri?: string;
  webhook?: string;
  webhookContentType?: string;
  webhookData?: unknown;
  webhookHeaders?: unknown;
  singleUseUrl?: boolean;
  institutionId?: number;
  institutionLoginId?: string | number;
  accountId?: string;
}

const CONTENT_TYPES = ['application/json', 'application/xml'] as const;

/** An http(s) URL without credentials, normalised; 400 InvalidParameter naming the field otherwise (`hint` follows the credentials refusal). */
export function httpUrl(field: string, value: string, hint = ''): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ServiceError('InvalidParameter', `Invalid parameter (${field}): not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ServiceError('InvalidParameter', `Invalid parameter (${field}): use an http or https URL.`);
  if (url.username || url.password) throw new ServiceError('InvalidParameter', `Invalid parameter (${field}): credentials in the URL are not accepted${hint}.`);
  return url.toString();
}

/** The webhook content type asked for (application/json when none); 400 InvalidParameter for another. */
export function webhookContentTypeOf(value: string | undefined): NewLink['webhookContentType'] {
  const contentType = (value?.trim() || 'application/json').toLowerCase();
  if (!(CONTENT_TYPES as readonly string[]).includes(contentType)) {
    throw new ServiceError('InvalidParameter', 'Invalid parameter (webhookContentType): application/json or application/xml.');
  }
  return contentType as NewLink['webhookContentType'];
}

function plainObject(field: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ServiceError('InvalidParameter', `Invalid parameter (${field}): must be an object.`);
  if (JSON.stringify(value).length > 8192) throw new ServiceError('InvalidParameter', `Invalid parameter (${field}): at most 8 KiB.`);
  return value as Record<string, unknown>;
}

/** What some links carry beyond a generate request: Connect Components' sessions, joint borrowers. */
export type LinkExtras = Pick<NewLink, 'uuid' | 'configurationId' | 'eventStreamId' | 'jointCustomerId'>;

/** Validates a generate request and stores the link; answers the signed URL and the link's row. */
export async function generateLink(
  engine: Engine,
  type: ConnectLinkType,
  input: GenerateInput,
  extras: LinkExtras = {},
): Promise<{ link: string; experienceName: string; row: ConnectLinkRow }> {
  const { runtime } = engine;
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, input.partnerId, input.customerId);
  const contentType = webhookContentTypeOf(input.webhookContentType);
  const webhookHeaders = plainObject('webhookHeaders', input.webhookHeaders);
  const link: NewLink = {
    partnerId: input.partnerId,
    customerId: customer.id,
    type,
    experience: (await resolveExperience(db, input.partnerId, input.experience)).name,
    webhookContentType: contentType,
    singleUseUrl: input.singleUseUrl === true,
    ...(input.language?.trim() ? { language: input.language.trim().slice(0, 16) } : {}),
    ...(input.redirectUri?.trim() ? { redirectUri: httpUrl('redirectUri', input.redirectUri, '; use webhookHeaders') } : {}),
    ...(input.webhook?.trim() ? { webhook: httpUrl('webhook', input.webhook, '; use webhookHeaders') } : {}),
    ...(plainObject('webhookData', input.webhookData) ? { webhookData: plainObject('webhookData', input.webhookData)! } : {}),
    ...(webhookHeaders ? { webhookHeaders: deliveryHeaders(webhookHeaders, 'webhookHeaders') } : {}),
    ...extras,
  };
  if (type === 'lite') {
    const institutionId = input.institutionId!;
    await assertCanLinkAt(runtime.database, customer, institutionId);
    await connectorFor(engine, institutionId);
    link.institutionId = institutionId;
  }
  if (type === 'fix') {
    const login = await getLoginRow(db, customer, input.institutionLoginId ?? '');
    link.institutionLoginId = login.id;
    link.institutionId = login.institution_id;
  }
  if (type === 'microentry') link.microEntryAccountId = (await microEntryStatus(engine, customer, input.accountId ?? '')).accountId;
  const row = await insertLink(db, runtime, link);
  return { link: linkUrl(runtime, row), experienceName: row.experience, row };
}

/** POST /connect/v2/generate */
export async function generateFullLink(engine: Engine, input: GenerateInput): Promise<{ link: string }> {
  return { link: (await generateLink(engine, 'full', input)).link };
}

/** POST /connect/v2/generate/lite */
export async function generateLiteLink(engine: Engine, input: GenerateInput & { institutionId: number }): Promise<{ link: string }> {
  return { link: (await generateLink(engine, 'lite', input)).link };
}

/** POST /connect/v2/generate/fix: 404 when the customer has no such institution login. */
export async function generateFixLink(engine: Engine, input: GenerateInput & { institutionLoginId: string | number }): Promise<{ link: string }> {
  return { link: (await generateLink(engine, 'fix', input)).link };
}

/** POST /connect/v2/generate/microentry/verify: 404 when the customer has no micro entries to the account. */
export async function generateMicroEntryLink(engine: Engine, input: GenerateInput & { accountId: string }): Promise<{ link: string }> {
  return { link: (await generateLink(engine, 'microentry', input)).link };
}

/**
 * POST /connect/v2/send/email: a Full link (Connect 1.0: also Lite or Fix), e-mailed through the outbox (SMTP_URL, or the local mailbox; Test Drive
 * partners' always the mailbox unless the operator allows more), at most config.emailLimitPerHour an hour.
 */
export async function sendConnectEmail(
  engine: Engine,
  input: GenerateInput & { email: ConnectEmailFields },
  kind: 'email' | 'lite' | 'fix' = 'email',
  extras: LinkExtras = {},
): Promise<{ link: string; emailConfig: ConnectEmailFields }> {
  const { runtime } = engine;
  const to = typeof input.email?.to === 'string' ? input.email.to.trim() : '';
  if (!isEmailAddress(to)) throw new ServiceError('InvalidParameter', 'Invalid parameter (email.to): an e-mail address.');
  // Before the link is made, so a refused call leaves nothing behind.
  await assertEmailAllowance(runtime.database.kysely, input.partnerId, epochSeconds(runtime.clock), runtime.config.emailLimitPerHour);
  // Connect 1.0 may e-mail a Lite or Fix link too; Connect 2.0 e-mails Full links.
  const { link, experienceName } = await generateLink(engine, kind, input, extras);
  const experience = await resolveExperience(runtime.database.kysely, input.partnerId, experienceName);
  const message = connectEmail(input.email, link, experience);
  await enqueueDelivery(runtime.database.kysely, runtime, {
    kind: 'email',
    partnerId: input.partnerId,
    to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    customerId: Number(input.customerId),
    connectSession: new URL(link).searchParams.get('linkId'),
    eventType: 'connect.email',
  });
  return { link, emailConfig: input.email };
}
