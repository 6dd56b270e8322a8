import type { Executor } from '../../platform/db/database.js';
import { TRANSACTION_RECORD_COLUMNS, type TransactionRecordRow } from '../aggregation/records.js';
import type { ReportListRow, ReportRow, ReportTable } from './table.js';

export async function insertReport(db: Executor, row: ReportTable): Promise<ReportRow> {
  return db.insertInto('reports').values(row).returningAll().executeTakeFirstOrThrow();
}

/** One of the partner's reports. */
export async function findReport(db: Executor, partnerId: string, id: string): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).where('partner_id', '=', partnerId).executeTakeFirst();
}

/** A report's columns but its body: what lists of reports answer with (a body can be megabytes). */
const LIST_COLUMNS = [
  'id',
  'partner_id',
  'customer_id',
  'consumer_id',
  'portfolio_id',
  'request_id',
  'type',
  'status',
  'options',
  'callback_url',
  'header_encrypted',
  'error_code',
  'error_message',
  'created_at',
  'finished_at',
  'attempts',
  'locked_until',
  'locked_by',
] as const satisfies readonly (keyof ReportListRow)[];

/** The partner's reports of a customer or of a consumer, newest first, without their bodies. */
export async function selectReports(db: Executor, partnerId: string, of: { customerId: number } | { consumerId: string }): Promise<ReportListRow[]> {
  let q = db.selectFrom('reports').select(LIST_COLUMNS).where('partner_id', '=', partnerId);
  q = 'customerId' in of ? q.where('customer_id', '=', of.customerId) : q.where('consumer_id', '=', of.consumerId);
  return q.orderBy('created_at', 'desc').orderBy('id', 'asc').execute();
}

/** Reports waiting for a worker (in progress, unclaimed or with a lapsed lease), oldest first. */
export async function selectClaimableReports(db: Executor, now: number, limit: number): Promise<Pick<ReportRow, 'id' | 'attempts'>[]> {
  return db
    .selectFrom('reports')
    .select(['id', 'attempts'])
    .where('status', '=', 'inProgress')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Claims one report for a worker until `until`, if it is still claimable: the conditional update lets only one of
 * several workers win it, on both dialects.
 */
export async function claimReport(db: Executor, id: string, attempts: number, now: number, until: number, token: string): Promise<ReportRow | undefined> {
  return db
    .updateTable('reports')
    .set({ locked_until: until, locked_by: token, attempts: attempts + 1 })
    .where('id', '=', id)
    .where('status', '=', 'inProgress')
    .where('attempts', '=', attempts)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Finishes a claimed report; false when the claim was lost (another worker took it after the lease ended). */
export async function finishReport(
  db: Executor,
  id: string,
  token: string,
  changes: Pick<ReportTable, 'status' | 'body_encrypted' | 'error_code' | 'error_message' | 'finished_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({ ...changes, locked_until: null, locked_by: null })
    .where('id', '=', id)
    .where('locked_by', '=', token)
    .where('status', '=', 'inProgress')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An account's transactions dated in [from, to], oldest first; pending ones only when asked. */
export async function selectReportTransactions(
  db: Executor,
  accountId: number,
  from: number,
  to: number,
  includePending: boolean,
): Promise<TransactionRecordRow[]> {
  let q = db
    .selectFrom('transactions')
    .select(TRANSACTION_RECORD_COLUMNS)
    .where('account_id', '=', accountId)
    .where('effective_date', '>=', from)
    .where('effective_date', '<=', to);
  if (!includePending) q = q.where('status', '!=', 'pending');
  return q.orderBy('effective_date').orderBy('id').execute();
}

/** The names and home pages of these institutions. */
export async function selectInstitutionsNamed(db: Executor, ids: readonly number[]): Promise<Map<number, { name: string; url: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('institutions')
    .select(['id', 'name', 'url_home_app'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [Number(r.id), { name: r.name, url: r.url_home_app }]));
}

/** The partner's reports of a portfolio, newest first. */
export async function selectPortfolioReports(db: Executor, partnerId: string, portfolioId: string): Promise<ReportListRow[]> {
  return db
    .selectFrom('reports')
    .select(LIST_COLUMNS)
    .where('partner_id', '=', partnerId)
    .where('portfolio_id', '=', portfolioId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'asc')
    .execute();
}
