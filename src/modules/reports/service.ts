/**
 * Reports (docs/reports.md): the lifecycle every kind shares. Generate checks what the reference checks at once
 * (the customer, its consumer, eligible accounts, dates), stores the report `inProgress` and answers its
 * acknowledgement; a worker computes it later (worker.ts) and finishes it `success` or `failure`, with the callback
 * webhook in the same transaction. Reads answer the partner's own reports only.
 */
import { createHmac } from 'node:crypto';
import type { Static } from 'typebox';
import { ServiceError } from '../../contract/errors/service-error.js';
import type {
  AnalyticsReportRequest,
  AssetIncomeReportRequest,
  ConsumerDetails,
  ReportAck,
  ReportSummaries,
  ReportType,
  StatementReportRequest,
  TransactionsReportQuery,
  TransactionsReportRequest,
} from '../../contract/schemas/reports.js';
import type { Runtime } from '../../platform/dependencies.js';
import { decryptValue, encryptValue, randomString } from '../../platform/secrets.js';
import { customerNow } from '../aggregation/engine.js';
import type { ConsumerRecord } from '../consumers/records.js';
import { findConsumerOfCustomer, getConsumer } from '../consumers/service.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { findStatement } from '../statements/service.js';
import { findPartnerById } from '../partners/repository.js';
import { type ReportOptions, selectReportAccounts } from './input.js';
import { versionedPortfolioId } from './portfolios.service.js';
import { DAY } from './balances.js';
import { REPORT_KINDS, type ReportKind } from './kinds.js';
import type { ReportBody, ReportConstraintsRecord, ReportRecord } from './records.js';
import * as repo from './repository.js';
import type { ReportListRow, ReportRow } from './table.js';
import { TRANSACTIONS_REPORT_MAX_DAYS } from './transactions-report.js';
import { signalReportsDue } from './wake.js';

type Deps = Pick<Runtime, 'database' | 'clock' | 'keys'>;
export type ReportAckRecord = Static<typeof ReportAck>;
export type ReportSummariesRecord = Static<typeof ReportSummaries>;

/** What a Generate call sends: the body of its operation (every field optional) and its query. */
export type GenerateReportBody = Static<typeof AssetIncomeReportRequest> &
  Static<typeof TransactionsReportRequest> &
  Pick<Static<typeof AnalyticsReportRequest>, 'analyticsReportData'> &
  Partial<Pick<Static<typeof StatementReportRequest>, 'statementReportData'>>;
export type GenerateReportQuery = Static<typeof TransactionsReportQuery>;

/** The header of a report that names the partner and consumer, sealed in the row as they were when it was asked for. */
export interface ReportHeader {
  requesterName: string;
  title: string;
  consumerSsn: string;
  consumerDetails: Static<typeof ConsumerDetails>;
  endUser?: ConsumerRecord['endUser'];
}

const KEY_PURPOSE = 'report-data';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ACCOUNT_ID = /^\d{1,19}$/;
const PURPOSE = /^\d{2}$/;

export function seal(deps: Pick<Runtime, 'keys'>, value: unknown): string {
  return encryptValue(deps.keys.derive(KEY_PURPOSE), JSON.stringify(value));
}

export function unseal<T>(deps: Pick<Runtime, 'keys'>, sealed: string): T {
  return JSON.parse(decryptValue(deps.keys.derive(KEY_PURPOSE), sealed)) as T;
}

/** The customer's portfolio id: the same for all its reports, and not guessable from the customer id. */
function portfolioId(deps: Pick<Runtime, 'keys'>, partnerId: string, customerId: number): string {
  const digest = createHmac('sha256', deps.keys.derive('report-portfolio')).update(`${partnerId}:${customerId}`).digest();
  let id = '';
  for (let i = 0; i < 12; i++) id += LOWER_ALNUM[digest[i]! % LOWER_ALNUM.length];
  return versionedPortfolioId(id);
}

function dateProblem(message: string): ServiceError {
  return new ServiceError('ReportDatesInvalid', message);
}

/** The options stored with a report, from the body and query, checked against the customer's clock. */
function reportOptions(kind: ReportKind, body: GenerateReportBody, query: GenerateReportQuery, asOf: number): ReportOptions {
  const options: ReportOptions = {};
  const ids = body.accountIds?.trim();
  if (ids) {
    options.accountIds = [...new Set(ids.split(/\s+/))];
    const bad = options.accountIds.find((id) => !ACCOUNT_ID.test(id));
    if (bad !== undefined) throw new ServiceError('InvalidParameter', `Invalid parameter (accountIds): "${bad.slice(0, 40)}" is not an account id.`);
  }
  if (body.reportCustomFields !== undefined) options.reportCustomFields = body.reportCustomFields;
  if (body.showNsf !== undefined) options.showNsf = body.showNsf;
  if (body.incomeFromDate !== undefined) {
    if (body.incomeFromDate > asOf) throw dateProblem(`Invalid incomeFromDate (${body.incomeFromDate}): it is after the customer's current date (${asOf}).`);
    options.incomeFromDate = body.incomeFromDate;
  }
  if (body.incomeStreamConfidenceMinimum !== undefined) options.incomeStreamConfidenceMinimum = body.incomeStreamConfidenceMinimum;
  const intervals = body.analyticsReportData?.timeIntervalTypes;
  if (intervals !== undefined && intervals.length > 0) options.timeIntervalTypes = [...new Set(intervals)];
  // The transactions report reads its dates from the query (the reference's parameters), or else from the body.
  const fromDate = kind.type === 'transactions' ? (query.fromDate ?? body.fromDate) : body.fromDate;
  const toDate = kind.type === 'transactions' ? (query.toDate ?? body.toDate) : undefined;
  if (fromDate !== undefined) {
    if (fromDate > asOf) throw dateProblem(`Invalid fromDate (${fromDate}): it is after the customer's current date (${asOf}).`);
    options.fromDate = fromDate;
  }
  if (kind.type === 'statement') {
    const data = body.statementReportData;
    if (data === undefined) throw new ServiceError('MissingParameter', 'Missing parameter: statementReportData is required for a statement report.');
    options.statementReportData = { accountId: data.accountId, statementIndex: data.statementIndex ?? 1 };
  }
  if (kind.type === 'transactions') {
    if (fromDate === undefined)
      throw new ServiceError('MissingParameter', 'Missing parameter: fromDate (query or body) is required for a transactions report.');
    const to = toDate ?? asOf;
    if (to <= fromDate) throw dateProblem(`Invalid toDate (${to}): it must be after fromDate (${fromDate}).`);
    if (to - fromDate > TRANSACTIONS_REPORT_MAX_DAYS * DAY) throw dateProblem('Invalid dates: fromDate and toDate may be at most 24 months apart.');
    options.toDate = to;
    options.includePending = query.includePending ?? false;
    if (body.findTransaction !== undefined) options.findTransaction = body.findTransaction;
  }
  return options;
}

/** A callback URL as given: http or https, no credentials; 400 otherwise. Whether it is reachable is the outbox's concern. */
function callbackUrlOf(value: string | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ServiceError('InvalidParameter', 'Invalid parameter (callbackUrl): it is not a URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ServiceError('InvalidParameter', 'Invalid parameter (callbackUrl): it must be an http or https URL.');
  if (url.username || url.password) throw new ServiceError('InvalidParameter', 'Invalid parameter (callbackUrl): it must not contain credentials.');
  return url.toString();
}

/** What the report shows of what it was asked for. */
export function constraintsOf(row: Pick<ReportRow, 'options'>): ReportConstraintsRecord {
  return JSON.parse(row.options) as ReportOptions;
}

/** The consumer as a report shows it. */
function consumerDetails(c: ConsumerRecord): Static<typeof ConsumerDetails> {
  return {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    address: c.address,
    city: c.city,
    state: c.state,
    zip: c.zip,
    phone: c.phone,
    ssn: c.ssn,
    email: c.email,
  };
}

/**
 * Generate Report: checks the customer (404), its consumer (16000), the options (dates 16002, account ids 10010) and
 * that the customer has an account the report covers (16001), then stores the report in progress and answers its
 * acknowledgement. The worker computes it.
 */
export async function generateReport(
  deps: Deps,
  partnerId: string,
  type: ReportType,
  customerId: string,
  body: GenerateReportBody | undefined,
  query: GenerateReportQuery,
): Promise<ReportAckRecord> {
  const db = deps.database.kysely;
  const kind = REPORT_KINDS[type];
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const consumer = await findConsumerOfCustomer(deps, partnerId, String(customer.id));
  if (!consumer)
    throw new ServiceError(
      'ReportConsumerRequired',
      `Customer ${customer.id} has no consumer: create one (POST /decisioning/v1/customers/${customer.id}/consumer) first.`,
    );
  const asOf = customerNow(deps, customer);
  const options = reportOptions(kind, body ?? {}, query, asOf);
  const callbackUrl = callbackUrlOf(query.callbackUrl);
  if (options.accountIds) {
    const all = new Set((await selectReportAccounts(db, customer, { accepts: 'all', includePending: false })).map((a) => String(a.id)));
    const unknown = options.accountIds.find((id) => !all.has(id));
    if (unknown !== undefined) throw new ServiceError('InvalidParameter', `Invalid parameter (accountIds): customer ${customer.id} has no account ${unknown}.`);
  }
  const statement = options.statementReportData;
  if (statement) await checkStatement(deps, customer, statement);
  const eligible = statement
    ? [statement]
    : await selectReportAccounts(db, customer, { accountIds: options.accountIds, accepts: kind.accepts, includePending: false });
  if (eligible.length === 0)
    throw new ServiceError(
      'ReportNoEligibleAccounts',
      `Customer ${customer.id} has no ${kind.acceptsText} account${options.accountIds ? ' among the accounts asked for' : ''}.`,
    );
  const partner = await findPartnerById(db, partnerId);
  const header: ReportHeader = {
    requesterName: partner?.name ?? partnerId,
    title: kind.title,
    consumerSsn: consumer.ssn,
    consumerDetails: consumerDetails(consumer),
    ...(consumer.endUser ? { endUser: consumer.endUser } : {}),
  };
  const row = await repo.insertReport(db, {
    id: `${randomString(12, LOWER_ALNUM)}-${type.toLowerCase()}`,
    partner_id: partnerId,
    customer_id: customer.id,
    consumer_id: consumer.id,
    portfolio_id: portfolioId(deps, partnerId, customer.id),
    request_id: randomString(10, LOWER_ALNUM),
    type,
    status: 'inProgress',
    options: JSON.stringify(options),
    callback_url: callbackUrl,
    header_encrypted: seal(deps, header),
    body_encrypted: null,
    error_code: null,
    error_message: null,
    created_at: asOf,
    finished_at: null,
    attempts: 0,
    locked_until: null,
    locked_by: null,
  });
  signalReportsDue();
  return reportAck(deps, row, customer.type);
}

/** A statement report's account must be the customer's (10010) and have a statement at the index now (404, 16201). */
async function checkStatement(deps: Deps, customer: CustomerRow, data: NonNullable<ReportOptions['statementReportData']>): Promise<void> {
  const own = await selectReportAccounts(deps.database.kysely, customer, { accountIds: [String(data.accountId)], accepts: 'all', includePending: false });
  if (own.length === 0)
    throw new ServiceError('InvalidParameter', `Invalid parameter (statementReportData.accountId): customer ${customer.id} has no account ${data.accountId}.`);
  if (!(await findStatement(deps, customer, data.accountId, data.statementIndex)))
    throw new ServiceError(
      'StatementNotFound',
      `Statement not found: account ${data.accountId} has no statement with transactions at index ${data.statementIndex}.`,
    );
}

function reportHeaderFields(deps: Pick<Runtime, 'keys'>, row: ReportRow, customerType: string) {
  const header = unseal<ReportHeader>(deps, row.header_encrypted);
  return {
    id: row.id,
    portfolioId: row.portfolio_id,
    customerType,
    customerId: Number(row.customer_id),
    requestId: row.request_id,
    requesterName: header.requesterName,
    ...(header.endUser ? { endUser: header.endUser } : {}),
    createdDate: Number(row.created_at),
    title: header.title,
    consumerId: row.consumer_id,
    consumerSsn: header.consumerSsn,
    consumerDetails: header.consumerDetails,
    type: row.type,
    status: row.status,
  };
}

function reportErrors(row: ReportRow) {
  return row.status === 'failure' ? { errors: [{ code: row.error_code ?? '16004', message: row.error_message ?? 'The report could not be computed.' }] } : {};
}

function reportAck(deps: Pick<Runtime, 'keys'>, row: ReportRow, customerType: string): ReportAckRecord {
  return { ...reportHeaderFields(deps, row, customerType), constraints: constraintsOf(row), ...reportErrors(row) };
}

/** A stored report as Get Report answers it: the header, and the body once it succeeded (the errors once it failed). */
export function reportRecord(deps: Pick<Runtime, 'keys'>, row: ReportRow, customerType: string): ReportRecord {
  const body = row.body_encrypted ? unseal<ReportBody>(deps, row.body_encrypted) : {};
  return { ...reportHeaderFields(deps, row, customerType), constraints: constraintsOf(row), ...reportErrors(row), ...body };
}

function notFound(reportId: string): ServiceError {
  return new ServiceError('ResourceNotFound', `Report not found: ${reportId}.`);
}

function checkPurpose(purpose: string | undefined): void {
  if (purpose !== undefined && purpose.trim() !== '' && !PURPOSE.test(purpose.trim()))
    throw new ServiceError('ReportPurposeInvalid', `Invalid purpose "${purpose.slice(0, 20)}": the permissible purpose code is two digits.`);
}

async function customerTypeOf(deps: Deps, row: ReportRow): Promise<string> {
  return (await getCustomerForPartner(deps.database.kysely, row.partner_id, Number(row.customer_id))).type;
}

/** One of the partner's reports by id (Get Report by Id, Report Reissue); 404 for another partner's. */
export async function getReport(deps: Deps, partnerId: string, reportId: string, purpose?: string): Promise<{ record: ReportRecord; row: ReportRow }> {
  checkPurpose(purpose);
  const row = await repo.findReport(deps.database.kysely, partnerId, reportId);
  if (!row) throw notFound(reportId);
  return { record: reportRecord(deps, row, await customerTypeOf(deps, row)), row };
}

/** Get Report by Customer: the report must be of that customer (404 otherwise, as for an unknown one). */
export async function getCustomerReport(deps: Deps, partnerId: string, customerId: string, reportId: string, purpose?: string) {
  checkPurpose(purpose);
  const customer = await getCustomerForPartner(deps.database.kysely, partnerId, customerId);
  const row = await repo.findReport(deps.database.kysely, partnerId, reportId);
  if (!row || Number(row.customer_id) !== customer.id) throw notFound(reportId);
  return { record: reportRecord(deps, row, customer.type), row };
}

/** Get Report by Consumer: the report must be of that consumer (404 otherwise). */
export async function getConsumerReport(deps: Deps, partnerId: string, consumerId: string, reportId: string, purpose?: string) {
  checkPurpose(purpose);
  const consumer = await getConsumer(deps, partnerId, consumerId);
  const row = await repo.findReport(deps.database.kysely, partnerId, reportId);
  if (!row || row.consumer_id !== consumer.id) throw notFound(reportId);
  return { record: reportRecord(deps, row, await customerTypeOf(deps, row)), row };
}

function summaries(deps: Pick<Runtime, 'keys'>, rows: readonly ReportListRow[]): ReportSummariesRecord {
  return {
    reports: rows.map((row) => {
      const header = unseal<ReportHeader>(deps, row.header_encrypted);
      return {
        id: row.id,
        requestId: row.request_id,
        requesterName: header.requesterName,
        createdDate: Number(row.created_at),
        consumerId: row.consumer_id,
        consumerSsn: header.consumerSsn,
        type: row.type,
        status: row.status,
      };
    }),
  };
}

/** Get Reports by Customer: the customer's reports, newest first (404 for another partner's customer). */
export async function listCustomerReports(deps: Deps, partnerId: string, customerId: string): Promise<ReportSummariesRecord> {
  const customer = await getCustomerForPartner(deps.database.kysely, partnerId, customerId);
  return summaries(deps, await repo.selectReports(deps.database.kysely, partnerId, { customerId: customer.id }));
}

/** Get Reports by Consumer: the consumer's reports, newest first (404 for another partner's consumer). */
export async function listConsumerReports(deps: Deps, partnerId: string, consumerId: string): Promise<ReportSummariesRecord> {
  const consumer = await getConsumer(deps, partnerId, consumerId);
  return summaries(deps, await repo.selectReports(deps.database.kysely, partnerId, { consumerId: consumer.id }));
}
