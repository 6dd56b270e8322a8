/**
 * App registration (docs/app-registration.md): a partner registers the apps its customers reach OAuth institutions
 * with. A registration is pending until approved: in sandbox mode by itself once SANDBOX_APPROVAL_SECONDS of the
 * service clock have passed since it was submitted (made when the partner's registrations are next read, so nothing
 * runs in the background), in production mode only by the operator (`ledgerlink apps approve`). The first approval
 * gives it an application id; a modification makes it pending again and keeps the id. An approved app covers the
 * institutions that sign in through OAuth; customers are assigned to one, and their logins moved under it.
 */
import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { SOURCES } from '../../connectors/registry.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type {
  AppDetails,
  AppDetailsList,
  AppInstitutionList,
  AppRegistrationInput,
  AppStatus,
  AppStatuses,
  CustomerWithAppData,
  RegisteredApplication,
} from '../../contract/schemas/apps.js';
import { APP_STATUS_FILTERS } from '../../contract/schemas/apps.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { accountRecords, getLoginRow, listAccountRows } from '../aggregation/accounts.service.js';
import type { AccountRecord } from '../aggregation/records.js';
import { getCustomerForPartner } from '../customers/service.js';
import { catalogOf } from '../institutions/catalog.service.js';
import type { CustomerRow } from '../customers/table.js';
import * as repo from './repository.js';
import type { AppRegistrationRow, AppStatusLetter } from './table.js';

export type AppRegistrationInputRecord = Static<typeof AppRegistrationInput>;
type Registered = Static<typeof RegisteredApplication>;
type StatusRecord = Static<typeof AppStatus>;
type DetailsRecord = Static<typeof AppDetails>;

/** How long a sandbox registration stays pending, in seconds of the service clock. */
export const SANDBOX_APPROVAL_SECONDS = 600;
/** What an approved app reaches at its institutions. */
export const APP_SCOPES = 'Account Info';
const NAME_MAX = 255;
const TEXT_MAX = 1000;
/** The reference's limit for the logo, once decoded. */
const IMAGE_MAX_BYTES = 50 * 1024;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

type Deps = Pick<Runtime, 'database' | 'clock' | 'config'>;

function db(deps: Pick<Runtime, 'database'>): Executor {
  return deps.database.kysely;
}

/** Row ids and times as numbers (PostgreSQL answers bigint columns as strings). */
function normalised(row: AppRegistrationRow): AppRegistrationRow {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    ...row,
    id: Number(row.id),
    approve_at: n(row.approve_at),
    created_at: Number(row.created_at),
    submitted_at: Number(row.submitted_at),
    modified_at: Number(row.modified_at),
  };
}

/** A date as the reference writes these: UTC, a space between date and time, an explicit zero offset. */
export function appDate(epoch: number): string {
  return `${new Date(epoch * 1000).toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
}

function invalid(field: string, rule: string): ServiceError {
  return new ServiceError('InvalidParameter', `Invalid parameter (${field}): ${rule}`);
}

function text(field: string, value: string, max: number): string {
  const v = value.trim();
  if (CONTROL.test(v)) throw invalid(field, 'control characters are not allowed.');
  if (v.length > max) throw invalid(field, `at most ${max} characters.`);
  return v;
}

/** The logo: Base64 of an SVG document under the size limit. */
function checkImage(image: string): string {
  const compact = image.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) throw new ServiceError('AppImageInvalid', 'Invalid parameter (image): not Base64.');
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length >= IMAGE_MAX_BYTES) throw new ServiceError('AppImageInvalid', 'Invalid parameter (image): the SVG must be less than 50 KB.');
  if (!/<svg[\s>]/i.test(bytes.toString('utf8'))) throw new ServiceError('AppImageInvalid', 'Invalid parameter (image): not an SVG document.');
  return compact;
}

/** The registration as stored: every field trimmed and checked. */
function cleanRegistration(input: AppRegistrationInputRecord): AppRegistrationInputRecord {
  const appUrl = text('appUrl', input.appUrl, TEXT_MAX);
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    throw invalid('appUrl', 'not an absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('appUrl', 'use an http or https URL.');
  return {
    appDescription: text('appDescription', input.appDescription, TEXT_MAX),
    appName: text('appName', input.appName, NAME_MAX),
    appUrl,
    ownerAddressLine1: text('ownerAddressLine1', input.ownerAddressLine1, NAME_MAX),
    ownerAddressLine2: text('ownerAddressLine2', input.ownerAddressLine2, NAME_MAX),
    ownerCity: text('ownerCity', input.ownerCity, NAME_MAX),
    ownerCountry: text('ownerCountry', input.ownerCountry, NAME_MAX),
    ownerName: text('ownerName', input.ownerName, NAME_MAX),
    ownerPostalCode: text('ownerPostalCode', input.ownerPostalCode, NAME_MAX),
    ownerState: text('ownerState', input.ownerState, NAME_MAX),
    image: checkImage(input.image),
  };
}

/** When a registration submitted now is approved by itself: in sandbox mode only. */
function approveAtFrom(deps: Deps, now: number): number | null {
  return deps.config.mode === 'sandbox' ? now + SANDBOX_APPROVAL_SECONDS : null;
}

export async function registerApp(deps: Deps, partnerId: string, input: AppRegistrationInputRecord): Promise<Registered> {
  const clean = cleanRegistration(input);
  const now = epochSeconds(deps.clock);
  const row = await repo.insertApp(db(deps), {
    partner_id: partnerId,
    application_id: null,
    status: 'P',
    note: null,
    app_name: clean.appName,
    details: JSON.stringify(clean),
    approve_at: approveAtFrom(deps, now),
    created_at: now,
    submitted_at: now,
    modified_at: now,
  });
  return { preAppId: Number(row.id), status: row.status };
}

/** A pre-app id as given in a path or query; undefined when it cannot be one. */
function parsePreAppId(value: string): number | undefined {
  const t = value.trim();
  if (!/^\d{1,15}$/.test(t)) return undefined;
  return Number(t);
}

async function partnerApp(deps: Deps, partnerId: string, preAppId: string): Promise<AppRegistrationRow> {
  const id = parsePreAppId(preAppId);
  const row = id === undefined ? undefined : await repo.findPartnerApp(db(deps), partnerId, id);
  if (!row) throw new ServiceError('AppRegistrationNotFound', `App registration ${preAppId.trim()} not found.`);
  return normalised(row);
}

/** Changes a registration: submitted again, so pending again until approved; an application id it had stays. */
export async function modifyApp(deps: Deps, partnerId: string, preAppId: string, input: AppRegistrationInputRecord): Promise<Registered> {
  await settleApps(deps, partnerId);
  const row = await partnerApp(deps, partnerId, preAppId);
  const clean = cleanRegistration(input);
  const now = epochSeconds(deps.clock);
  const updated = await repo.updateApp(db(deps), row.id, {
    status: 'P',
    note: null,
    app_name: clean.appName,
    details: JSON.stringify(clean),
    approve_at: approveAtFrom(deps, now),
    submitted_at: now,
    modified_at: now,
  });
  return { preAppId: row.id, status: updated?.status ?? 'P' };
}

/** Approves the partner's sandbox registrations whose time has come, each once however many requests ask at once. */
export async function settleApps(deps: Deps, partnerId: string): Promise<void> {
  const now = epochSeconds(deps.clock);
  for (const due of await repo.listDueApps(db(deps), partnerId, now)) {
    const at = Number(due.approve_at);
    await repo.approveDueApp(db(deps), due, {
      status: 'A',
      note: 'Approved automatically (sandbox)',
      application_id: due.application_id ?? randomUUID(),
      approve_at: null,
      modified_at: at,
    });
  }
}

export interface OperatorDecision {
  preAppId: number;
  partnerId: string;
  appName: string;
  status: 'A' | 'R';
  applicationId: string | null;
  note: string;
}

/** The operator's decision on any partner's registration (`ledgerlink apps approve|reject`). */
export async function decideApp(deps: Deps, preAppId: string, decision: 'A' | 'R', note?: string): Promise<OperatorDecision> {
  const id = parsePreAppId(preAppId);
  const found = id === undefined ? undefined : await repo.findAppById(db(deps), id);
  if (!found) throw new ServiceError('AppRegistrationNotFound', `App registration ${preAppId.trim()} not found.`);
  const row = normalised(found);
  const words = note?.trim() || (decision === 'A' ? 'Approved' : 'Rejected');
  if (CONTROL.test(words) || words.length > TEXT_MAX) throw invalid('note', `at most ${TEXT_MAX} characters, no control characters.`);
  const updated = await repo.updateApp(db(deps), row.id, {
    status: decision,
    note: words,
    // A rejection keeps an id given before, so customers assigned to it still name it.
    application_id: decision === 'A' ? (row.application_id ?? randomUUID()) : row.application_id,
    approve_at: null,
    modified_at: epochSeconds(deps.clock),
  });
  const after = normalised(updated!);
  return { preAppId: after.id, partnerId: after.partner_id, appName: after.app_name, status: decision, applicationId: after.application_id, note: words };
}

export interface OperatorListedApp extends Omit<OperatorDecision, 'status'> {
  status: AppStatusLetter;
  submittedAt: number;
}

/** Every partner's registrations for the operator, pending first then by id; `status` keeps those of one status. */
export async function listAllApps(deps: Deps, status?: string): Promise<OperatorListedApp[]> {
  const { rows } = await repo.listApps(db(deps), undefined, status ? { status } : {}, Number.MAX_SAFE_INTEGER, 0);
  return rows
    .map(normalised)
    .sort((a, b) => Number(b.status === 'P') - Number(a.status === 'P') || a.id - b.id)
    .map((r) => ({
      preAppId: r.id,
      partnerId: r.partner_id,
      appName: r.app_name,
      status: r.status,
      applicationId: r.application_id,
      note: r.note ?? '',
      submittedAt: r.submitted_at,
    }));
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

function statusRecord(row: AppRegistrationRow): StatusRecord {
  return {
    partnerId: row.partner_id,
    preAppId: String(row.id),
    ...(row.note !== null ? { note: row.note } : {}),
    ...(row.application_id !== null ? { applicationId: row.application_id } : {}),
    appName: row.app_name,
    submittedDate: row.submitted_at,
    modifiedDate: row.modified_at,
    status: row.status,
    scopes: APP_SCOPES,
  };
}

export function detailsRecord(row: AppRegistrationRow): DetailsRecord {
  return {
    preAppId: row.id,
    ...(row.application_id !== null ? { applicationId: row.application_id } : {}),
    status: row.status,
    name: row.app_name,
    scopes: APP_SCOPES,
    ...(row.note !== null ? { note: row.note } : {}),
    createdDate: appDate(row.created_at),
    modifiedDate: appDate(row.modified_at),
    submittedDate: appDate(row.submitted_at),
  };
}

function whole(value: string | undefined, fallback: number, error: 'AppListStartInvalid' | 'AppListLimitInvalid' | 'AppQueryParameterInvalid'): number {
  if (value === undefined) return fallback;
  const t = value.trim();
  if (!/^\d{1,9}$/.test(t) || Number(t) < 1) throw new ServiceError(error);
  return Number(t);
}

function epochFilter(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = value.trim();
  if (!/^\d{1,12}$/.test(t)) throw invalid(name, 'epoch seconds.');
  return Number(t);
}

function statusFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const t = value.trim().toUpperCase();
  if (!(APP_STATUS_FILTERS as readonly string[]).includes(t)) throw new ServiceError('AppQueryParameterInvalid');
  return t;
}

export interface AppStatusQueryInput {
  preAppId?: string;
  applicationId?: string;
  status?: string;
  appName?: string;
  submittedDate?: string;
  modifiedDate?: string;
  page?: string;
  pageSize?: string;
}

/** Get App Registration Status: the partner's registrations by filters, a page at a time (a single one by default). */
export async function appStatuses(deps: Deps, partnerId: string, query: AppStatusQueryInput): Promise<Static<typeof AppStatuses>> {
  await settleApps(deps, partnerId);
  const page = whole(query.page, 1, 'AppListStartInvalid');
  const pageSize = whole(query.pageSize, 1, 'AppListLimitInvalid');
  if (pageSize > 100) throw new ServiceError('AppListLimitExceeded');
  const filter: repo.AppFilter = {};
  if (query.preAppId !== undefined) {
    const id = parsePreAppId(query.preAppId);
    if (id === undefined) throw new ServiceError('AppQueryParameterInvalid');
    filter.id = (await partnerApp(deps, partnerId, query.preAppId)).id;
  }
  if (query.applicationId !== undefined) {
    const app = await repo.findPartnerAppByApplicationId(db(deps), partnerId, query.applicationId.trim());
    if (!app) throw new ServiceError('ApplicationIdNotFound');
    filter.applicationId = query.applicationId.trim();
  }
  const status = statusFilter(query.status);
  if (status !== undefined) filter.status = status;
  if (query.appName !== undefined && query.appName.trim() !== '') filter.name = query.appName.trim();
  const submitted = epochFilter('submittedDate', query.submittedDate);
  if (submitted !== undefined) filter.submittedFrom = submitted;
  const modified = epochFilter('modifiedDate', query.modifiedDate);
  if (modified !== undefined) filter.modifiedFrom = modified;
  const { found, rows } = await repo.listApps(db(deps), partnerId, filter, pageSize, (page - 1) * pageSize);
  return {
    totalRecords: found,
    totalPages: Math.ceil(found / pageSize),
    pageNumber: page,
    numberOfRecordsPerPage: pageSize,
    applications: rows.map(normalised).map(statusRecord),
  };
}

const DETAILS_PARAMETERS = new Set(['start', 'limit', 'pre_app_id', 'application_id', 'name', 'status']);

export interface AppDetailsQueryInput {
  start?: string;
  limit?: string;
  pre_app_id?: string;
  application_id?: string;
  name?: string;
  status?: string;
}

/** Get App Registration Details: the partner's registrations by filters, `limit` a page. */
export async function appDetails(deps: Deps, partnerId: string, query: AppDetailsQueryInput & Record<string, unknown>): Promise<Static<typeof AppDetailsList>> {
  const unknown = Object.keys(query).filter((k) => !DETAILS_PARAMETERS.has(k));
  if (unknown.length > 0)
    throw new ServiceError(
      'AppQueryParameterUnknown',
      `Known query parameters: [${[...DETAILS_PARAMETERS].join(', ')}] are allowed only; not ${unknown.join(', ')}.`,
    );
  await settleApps(deps, partnerId);
  const start = whole(query.start, 1, 'AppListStartInvalid');
  const limit = whole(query.limit, 50, 'AppListLimitInvalid');
  if (limit > 100) throw new ServiceError('AppListLimitExceeded');
  const filter: repo.AppFilter = {};
  if (query.pre_app_id !== undefined) {
    const id = parsePreAppId(query.pre_app_id);
    if (id === undefined) throw new ServiceError('AppQueryParameterInvalid');
    filter.id = id;
  }
  if (query.application_id !== undefined) filter.applicationId = query.application_id.trim();
  if (query.name !== undefined && query.name.trim() !== '') filter.name = query.name.trim();
  const status = statusFilter(query.status);
  if (status !== undefined) filter.status = status;
  const { found, rows } = await repo.listApps(db(deps), partnerId, filter, limit, (start - 1) * limit);
  return { found, displaying: rows.length, moreAvailable: start * limit < found, applications: rows.map(normalised).map(detailsRecord) };
}

/** The partner's registration with this application id (given at its first approval); 404 otherwise. */
async function appOfApplicationId(deps: Deps, partnerId: string, applicationId: string): Promise<AppRegistrationRow> {
  await settleApps(deps, partnerId);
  const found = await repo.findPartnerAppByApplicationId(db(deps), partnerId, applicationId.trim());
  if (!found) throw new ServiceError('ApplicationIdNotFound', `Requested Application Id is not found: ${applicationId.trim()}`);
  return normalised(found);
}

/** The catalogue's sources whose institutions sign in at the bank's own site and are listed by the source. */
const REDIRECT_SOURCES = SOURCES.filter((s) => s.redirect !== undefined).map((s) => s.name);

/** A page of the institutions apps cover, from the catalogue (loaded into a new database on first use). */
async function oauthInstitutions(deps: Deps, filter: { institutionId?: number }, limit: number, offset: number) {
  await catalogOf(deps.database);
  return repo.listOAuthInstitutions(db(deps), REDIRECT_SOURCES, filter, limit, offset);
}

/** Get App Registration Status by Institution: the OAuth institutions the app covers, a page at a time. */
export async function registeredInstitutions(
  deps: Deps,
  partnerId: string,
  applicationId: string,
  query: { start?: string; limit?: string; institution_id?: string },
): Promise<Static<typeof AppInstitutionList>> {
  const start = whole(query.start, 1, 'AppListStartInvalid');
  const limit = whole(query.limit, 25, 'AppListLimitInvalid');
  if (limit > 1000) throw new ServiceError('AppListLimitExceeded');
  let institutionId: number | undefined;
  if (query.institution_id !== undefined) {
    const t = query.institution_id.trim();
    if (!/^\d{1,9}$/.test(t)) throw invalid('institution_id', 'an institution id.');
    institutionId = Number(t);
  }
  const app = await appOfApplicationId(deps, partnerId, applicationId);
  const { found, rows } = await oauthInstitutions(deps, institutionId === undefined ? {} : { institutionId }, limit, (start - 1) * limit);
  if (institutionId !== undefined && found === 0) throw new ServiceError('AppInstitutionNotRegistered');
  // Registered at every covered institution once approved; pending again after a modification.
  const approved = app.status === 'A';
  const since = appDate(app.modified_at);
  return {
    found,
    displaying: rows.length,
    moreAvailable: start * limit < found,
    institutions: rows.map((r) => ({ institutionId: r.id, institutionName: r.name, status: approved, createdDate: since, modifiedDate: since })),
  };
}

/** Whether the app covers an institution (an OAuth institution of the catalogue, or listed by a redirect source). */
async function coversInstitution(deps: Deps, institutionId: number): Promise<boolean> {
  return (await oauthInstitutions(deps, { institutionId }, 1, 0)).found > 0;
}

/** Set Customer App ID: assigns the customer to an approved app; once set, only the same app is accepted again. */
export async function setCustomerApp(deps: Deps, partnerId: string, customerId: string, applicationId: string): Promise<void> {
  const customer = await getCustomerForPartner(db(deps), partnerId, customerId);
  const app = await appOfApplicationId(deps, partnerId, applicationId);
  if (app.status !== 'A') throw new ServiceError('AppNotApproved', `The application ${app.application_id} is not approved (status ${app.status}).`);
  if (customer.application_id !== null && customer.application_id !== app.application_id) {
    const current = await repo.findPartnerAppByApplicationId(db(deps), partnerId, customer.application_id);
    if (current)
      throw new ServiceError('CustomerApplicationAlreadySet', `Customer ${customer.id} is already assigned to application ${customer.application_id}.`);
  }
  await repo.setCustomerApplication(db(deps), partnerId, customer.id, app.application_id!, epochSeconds(deps.clock));
}

/** The registered app the customer is assigned to; 404 when the partner has none, or the customer none of them. */
async function customerApp(deps: Deps, partnerId: string, customer: CustomerRow): Promise<AppRegistrationRow> {
  await settleApps(deps, partnerId);
  const assigned = customer.application_id === null ? undefined : await repo.findPartnerAppByApplicationId(db(deps), partnerId, customer.application_id);
  if (assigned) return normalised(assigned);
  const { found } = await repo.listApps(db(deps), partnerId, { status: 'A' }, 1, 0);
  if (found === 0) throw new ServiceError('NoRegisteredApplication');
  throw new ServiceError('NoAssignedApplication');
}

/** Get Customer With App Data: the customer with the name and id of its app. */
export async function customerWithAppData(deps: Deps, partnerId: string, customerId: string): Promise<Static<typeof CustomerWithAppData>> {
  const customer = await getCustomerForPartner(db(deps), partnerId, customerId);
  const app = await customerApp(deps, partnerId, customer);
  return {
    id: String(customer.id),
    username: customer.username,
    firstName: customer.first_name ?? '',
    lastName: customer.last_name ?? '',
    ...(customer.phone !== null ? { phone: customer.phone } : {}),
    ...(customer.email !== null ? { email: customer.email } : {}),
    type: customer.type,
    createdDate: String(customer.created_at),
    lastModifiedDate: String(customer.updated_at),
    applicationId: app.application_id!,
    applicationName: app.app_name,
  };
}

/**
 * Migrate Institution Login Accounts: moves the login under the customer's app. Ledgerlink keeps one connection per
 * institution, so nothing is re-linked: the login records the app (its `application_id`) and its accounts, ids
 * unchanged, are the answer. The app must be approved and cover the login's institution.
 */
export async function migrateLogin(deps: Deps, partnerId: string, customerId: string, institutionLoginId: string): Promise<{ accounts: AccountRecord[] }> {
  const customer = await getCustomerForPartner(db(deps), partnerId, customerId);
  const login = await getLoginRow(db(deps), customer, institutionLoginId);
  const app = await customerApp(deps, partnerId, customer);
  if (app.status !== 'A') throw new ServiceError('AppNotApproved', `The customer's application ${app.application_id} is not approved (status ${app.status}).`);
  if (!(await coversInstitution(deps, Number(login.institution_id))))
    throw new ServiceError(
      'InstitutionNotCoveredByApp',
      `Institution ${login.institution_id} is not an OAuth institution of application ${app.application_id}.`,
    );
  const rows = await listAccountRows(db(deps), customer, { institutionLoginId: Number(login.id) });
  await repo.setLoginApplication(db(deps), Number(login.id), app.application_id!, epochSeconds(deps.clock));
  return { accounts: await accountRecords(db(deps), rows) };
}

export interface DashboardApp {
  preAppId: number;
  applicationId: string | null;
  name: string;
  status: string;
  note: string | null;
  submittedAt: number;
  modifiedAt: number;
  /** Sandbox mode: when a pending registration is approved by itself. */
  approvesAt: number | null;
  customers: number;
  institutionLogins: number;
}

/** The partner's registrations for the dashboard, with how many customers and logins each app holds. */
export async function dashboardApps(deps: Deps, partnerId: string): Promise<DashboardApp[]> {
  await settleApps(deps, partnerId);
  const { rows } = await repo.listApps(db(deps), partnerId, {}, 500, 0);
  const customers = await repo.countCustomersByApp(db(deps), partnerId);
  const logins = await repo.countLoginsByApp(db(deps), partnerId);
  return rows.map(normalised).map((r) => ({
    preAppId: r.id,
    applicationId: r.application_id,
    name: r.app_name,
    status: r.status,
    note: r.note,
    submittedAt: r.submitted_at,
    modifiedAt: r.modified_at,
    approvesAt: r.status === 'P' ? r.approve_at : null,
    customers: r.application_id === null ? 0 : (customers.get(r.application_id) ?? 0),
    institutionLogins: r.application_id === null ? 0 : (logins.get(r.application_id) ?? 0),
  }));
}
