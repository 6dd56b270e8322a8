/**
 * Connect Components (docs/connect-components.md): the partner's configurations, and sessions started from the API
 * instead of a Connect link request. A session is a Connect link like the others, so its URL opens the hosted app:
 * an OAuth URL or a login form opens it at the institution's sign-in (Lite), a reconnection at the Fix flow of the
 * login. The link's id, a UUID here, is the session's `id`; its event stream id goes with every Connect event of the
 * session; its configuration narrows the accounts the app offers (session.service.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { LoginField } from '../../connectors/connector.js';
import { connectorContext, connectorFor, type Engine } from '../aggregation/engine.js';
import { getLoginRow } from '../aggregation/accounts.service.js';
import { assertCanLinkAt, getCustomerForPartner } from '../customers/service.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { ACCOUNT_CLASSIFICATIONS, LOGIN_FORM_LANGUAGES } from '../../contract/schemas/connect-components.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { epochSeconds } from '../../platform/clock.js';
import { deleteConfigurationRow, findConfigurationRow, insertConfigurationRow, listConfigurationRows } from './components.repository.js';
import { generateLink, httpUrl } from './service.js';
import type { ConnectComponentConfigurationRow, ConnectLinkRow } from './table.js';

export interface ConfigurationInput {
  filterAccounts?: string[] | undefined;
  accountClassificationType?: string[] | undefined;
  aoRequired?: boolean | undefined;
}

export interface ConfigurationRecord extends ConfigurationInput {
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toRecord(row: ConnectComponentConfigurationRow): ConfigurationRecord {
  return {
    id: row.id,
    ...(row.filter_accounts !== null ? { filterAccounts: JSON.parse(row.filter_accounts) as string[] } : {}),
    ...(row.account_classification_types !== null ? { accountClassificationType: JSON.parse(row.account_classification_types) as string[] } : {}),
    aoRequired: row.ao_required === 1,
  };
}

/** Create Components Configuration: the filters as given (blank entries refused, duplicates dropped); at least one field. */
export async function createConfiguration(
  deps: Pick<Runtime, 'database' | 'clock'>,
  partnerId: string,
  input: ConfigurationInput,
): Promise<ConfigurationRecord> {
  // A configuration that sets nothing would change no session: most likely a body that did not say what was meant.
  if (input.filterAccounts === undefined && input.accountClassificationType === undefined && input.aoRequired === undefined)
    throw new ServiceError(
      'MissingParameter',
      'Missing parameter (filterAccounts, accountClassificationType or aoRequired): a configuration sets at least one.',
    );
  const filterAccounts = input.filterAccounts?.map((t, i) => {
    if (t.trim() === '') throw new ServiceError('InvalidParameter', `Invalid parameter (filterAccounts[${i}]): an account type such as checking.`);
    return t.trim();
  });
  const classifications = input.accountClassificationType?.map((c, i) => {
    const value = c.trim().toLowerCase();
    if (!(ACCOUNT_CLASSIFICATIONS as readonly string[]).includes(value))
      throw new ServiceError('InvalidParameter', `Invalid parameter (accountClassificationType[${i}]): one of ${ACCOUNT_CLASSIFICATIONS.join(', ')}.`);
    return value;
  });
  const row: ConnectComponentConfigurationRow = {
    id: randomUUID(),
    partner_id: partnerId,
    filter_accounts: filterAccounts ? JSON.stringify([...new Set(filterAccounts)]) : null,
    account_classification_types: classifications ? JSON.stringify([...new Set(classifications)]) : null,
    ao_required: input.aoRequired === true ? 1 : 0,
    created_at: epochSeconds(deps.clock),
  };
  await insertConfigurationRow(deps.database.kysely, row);
  return toRecord(row);
}

/** The partner's configuration: not found for an unknown id or another partner's. */
async function configurationRow(db: Executor, partnerId: string, id: string): Promise<ConnectComponentConfigurationRow> {
  const row = UUID.test(id) ? await findConfigurationRow(db, partnerId, id.toLowerCase()) : undefined;
  if (!row) throw new ServiceError('ComponentsConfigurationNotFound', `The requested entity was not found: configuration ${id}.`);
  return row;
}

export async function getConfiguration(db: Executor, partnerId: string, id: string): Promise<ConfigurationRecord> {
  return toRecord(await configurationRow(db, partnerId, id));
}

export async function listConfigurations(db: Executor, partnerId: string): Promise<ConfigurationRecord[]> {
  return (await listConfigurationRows(db, partnerId)).map(toRecord);
}

/** Delete Configuration: sessions that named it offer every account from then on. */
export async function deleteConfiguration(db: Executor, partnerId: string, id: string): Promise<void> {
  if (!UUID.test(id) || !(await deleteConfigurationRow(db, partnerId, id.toLowerCase())))
    throw new ServiceError('ComponentsConfigurationNotFound', `The requested entity was not found: configuration ${id}.`);
}

/** What a session's accounts step offers: the accounts its configuration keeps (all when it has none, or it was deleted). */
export async function configurationFilter(
  db: Executor,
  link: Pick<ConnectLinkRow, 'partner_id' | 'configuration_id'>,
): Promise<((account: { type: string; marketSegment: string }) => boolean) | undefined> {
  if (link.configuration_id === null) return undefined;
  const row = await findConfigurationRow(db, link.partner_id, link.configuration_id);
  if (!row) return undefined;
  const types = row.filter_accounts !== null ? new Set((JSON.parse(row.filter_accounts) as string[]).map((t) => t.toLowerCase())) : undefined;
  const classes = row.account_classification_types !== null ? new Set(JSON.parse(row.account_classification_types) as string[]) : undefined;
  return (account) => (!types || types.has(account.type.toLowerCase())) && (!classes || classes.has(account.marketSegment));
}

export interface ServiceAgreement {
  language: string;
  acceptedDate: string;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The terms the customer accepted: an ISO 8601 date and time with its offset, not in the future. */
function checkServiceAgreement(runtime: Pick<Runtime, 'clock'>, agreement: ServiceAgreement): void {
  const accepted = agreement.acceptedDate.trim();
  const at = ISO_DATE_TIME.test(accepted) ? Date.parse(accepted) : Number.NaN;
  if (Number.isNaN(at))
    throw new ServiceError(
      'InvalidParameter',
      'Invalid parameter (serviceAgreement.acceptedDate): an ISO 8601 date and time such as 2024-11-28T18:25:32+00:00.',
    );
  if (at > runtime.clock.now()) throw new ServiceError('InvalidParameter', 'Invalid parameter (serviceAgreement.acceptedDate): in the future.');
}

/** A session's element id: a UUID derived from the session and the institution's field id, the same on every read. */
function elementId(sessionId: string, fieldId: string): string {
  const b = createHash('sha256').update(`connect-component-element\u0000${sessionId}\u0000${fieldId}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface SessionInput {
  customerId: string;
  configurationId?: string | undefined;
  serviceAgreement: ServiceAgreement;
}

/** The checks every session shares, before anything is stored: the terms and the configuration. */
async function sessionExtras(engine: Engine, partnerId: string, input: SessionInput) {
  checkServiceAgreement(engine.runtime, input.serviceAgreement);
  const configuration = input.configurationId?.trim()
    ? await configurationRow(engine.runtime.database.kysely, partnerId, input.configurationId.trim())
    : undefined;
  return { uuid: true, eventStreamId: randomUUID(), ...(configuration ? { configurationId: configuration.id } : {}) };
}

/** The institution's way of signing in, once the institution exists, the customer may link there and a connector serves it. */
async function signInMode(engine: Engine, partnerId: string, customerId: string, institutionId: number) {
  const customer = await getCustomerForPartner(engine.runtime.database.kysely, partnerId, customerId);
  await assertCanLinkAt(engine.runtime.database, customer, institutionId);
  const connector = await connectorFor(engine, institutionId);
  return { customer, connector, oauth: connector.capabilities.authMode === 'oauth' };
}

/** Create OAuth URL: a session at an OAuth institution; `url` opens its sign-in in the hosted app, `redirectURI` follows. */
export async function createOAuthUrl(
  engine: Engine,
  partnerId: string,
  institutionId: number,
  input: SessionInput & { redirectURI: string },
): Promise<{ id: string; url: string; eventStreamId: string }> {
  const redirectUri = httpUrl('redirectURI', input.redirectURI);
  const extras = await sessionExtras(engine, partnerId, input);
  const { oauth } = await signInMode(engine, partnerId, input.customerId, institutionId);
  if (!oauth) throw new ServiceError('ComponentsInstitutionSignsInWithForm', `Institution ${institutionId} signs in with a login form: use Create Login Form.`);
  const { link, row } = await generateLink(
    engine,
    'lite',
    { partnerId, customerId: input.customerId, institutionId, redirectUri, language: input.serviceAgreement.language },
    extras,
  );
  return { id: row.id, url: link, eventStreamId: row.event_stream_id! };
}

/** The login form of a session: the institution's fields with session ids, in their order. */
function loginForm(row: ConnectLinkRow, fields: readonly LoginField[]) {
  return [...fields]
    .sort((a, b) => a.displayOrder - b.displayOrder)
    .slice(0, 11)
    .map((field, index) => ({ id: elementId(row.id, field.id), label: field.label, sortOrder: index }));
}

/** Create Login Form: a session at an institution that signs in with a form; `url` opens that form in the hosted app. */
export async function createLoginForm(engine: Engine, partnerId: string, institutionId: number, input: SessionInput & { language: string }) {
  const language = input.language.trim().toLowerCase();
  if (!(LOGIN_FORM_LANGUAGES as readonly string[]).includes(language))
    throw new ServiceError('InvalidParameter', `Invalid parameter (language): one of ${LOGIN_FORM_LANGUAGES.join(', ')}.`);
  const extras = await sessionExtras(engine, partnerId, input);
  const { customer, connector, oauth } = await signInMode(engine, partnerId, input.customerId, institutionId);
  if (oauth) throw new ServiceError('ComponentsInstitutionSignsInWithOAuth', `Institution ${institutionId} signs in through OAuth: use Create OAuth URL.`);
  const { link, row } = await generateLink(engine, 'lite', { partnerId, customerId: input.customerId, institutionId, language }, extras);
  const fields = connector.loginForm(connectorContext(engine.runtime, customer, institutionId));
  return { id: row.id, eventStreamId: row.event_stream_id!, elements: loginForm(row, fields), url: link };
}

/**
 * Initiate Reconnection: a session that signs in again for the customer's login (the Fix flow, which replaces the
 * login's saved sign-in and clears its error). Its form is the institution's (none at an OAuth institution). A login
 * made from statement files has no sign-in to repeat, and is refused.
 */
export async function createReconnection(engine: Engine, partnerId: string, customerId: string, institutionLoginId: number) {
  const db = engine.runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const login = await getLoginRow(db, customer, institutionLoginId);
  if (login.source === 'statement-file')
    throw new ServiceError(
      'ComponentsLoginNotReconnectable',
      `Institution login ${institutionLoginId} was made from statement files: upload a new file instead.`,
    );
  const lookup = await engine.registry.resolve(login.institution_id);
  if (!lookup.available)
    throw new ServiceError('ComponentsLoginNotReconnectable', `Institution login ${institutionLoginId} cannot be reconnected now: ${lookup.reason}`);
  const { link, row } = await generateLink(engine, 'fix', { partnerId, customerId, institutionLoginId }, { uuid: true, eventStreamId: randomUUID() });
  const oauth = lookup.connector.capabilities.authMode === 'oauth';
  const fields = oauth ? [] : lookup.connector.loginForm(connectorContext(engine.runtime, customer, login.institution_id));
  return { id: row.id, eventStreamId: row.event_stream_id!, elements: loginForm(row, fields), url: link };
}
