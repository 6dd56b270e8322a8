/**
 * Transaction refreshes (docs/aggregation.md, "Transaction refreshes"): a refresh of chosen accounts (or of an
 * institution login's) that answers at once with an id and runs in the background on the refresh machinery
 * (refresh.service.ts), one login after another; its status by id tells each account's outcome.
 *
 * standard is a plain refresh; historic loads each account's whole served history (two years at the test bank);
 * custom is a plain refresh when fromDate lies within the standard window, a historic load otherwise: institutions
 * serve whole windows, so the stored transactions then cover fromDate to toDate.
 */
import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { ServiceError } from '../../contract/errors/service-error.js';
import {
  TRANSACTION_REFRESH_MODES,
  type TransactionRefreshInitiated,
  type TransactionRefreshRequest,
  type TransactionRefreshStatus,
} from '../../contract/schemas/refreshes.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { getAccountRow, getLoginRow, listAccountRows } from './accounts.service.js';
import { customerNow, type Engine } from './engine.js';
import { findLogin } from './logins.repository.js';
import { INITIAL_HISTORY_DAYS, refreshLogin, type RefreshMode } from './refresh.service.js';
import * as repo from './refreshes.repository.js';
import type { TransactionRefreshMode, TransactionRefreshResult, TransactionRefreshRow } from './refreshes.table.js';
import type { AccountRow } from './table.js';

type Request = Static<typeof TransactionRefreshRequest>;
type Initiated = Static<typeof TransactionRefreshInitiated>;
type StatusRecord = Static<typeof TransactionRefreshStatus>;

const DAY = 86_400;
/** The oldest day a custom refresh may start: two years back, what a historic load reaches. */
const CUSTOM_MAX_DAYS = 2 * 366;

const iso = (epoch: number) => new Date(epoch * 1000).toISOString();

function parseDate(field: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = Date.parse(value.trim());
  if (!Number.isFinite(ms) || !/^\d{4}-\d{2}-\d{2}/.test(value.trim()))
    throw new ServiceError('TransactionRefreshDateRangeInvalid', `Invalid date range: ${field} is not a date-time (2026-01-15T00:00:00Z).`);
  return Math.floor(ms / 1000);
}

/** The mode and, for custom, the checked range (customer clock). */
function modeOf(input: Request, now: number): { mode: TransactionRefreshMode; from: number | null; to: number | null } {
  const mode = (input.mode?.trim() || 'standard') as TransactionRefreshMode;
  if (!(TRANSACTION_REFRESH_MODES as readonly string[]).includes(mode))
    throw new ServiceError('InvalidParameter', `Invalid parameter (mode): one of ${TRANSACTION_REFRESH_MODES.join(', ')}.`);
  if (mode !== 'custom') return { mode, from: null, to: null };
  const from = parseDate('fromDate', input.fromDate);
  if (from === undefined) throw new ServiceError('TransactionRefreshDateRangeInvalid', 'Invalid date range: fromDate is required in custom mode.');
  const to = parseDate('toDate', input.toDate) ?? now;
  if (to < from) throw new ServiceError('TransactionRefreshDateRangeInvalid', 'Invalid date range: toDate is before fromDate.');
  if (to > now + DAY) throw new ServiceError('TransactionRefreshDateRangeInvalid', 'Invalid date range: toDate is in the future.');
  if (from < now - CUSTOM_MAX_DAYS * DAY)
    throw new ServiceError('TransactionRefreshDateRangeInvalid', 'Invalid date range: fromDate is more than two years back.');
  return { mode, from, to };
}

/** The accounts asked for: accountIds when given (404 for any not the customer's), else the login's (404, or 16410 without accounts). */
async function accountsOf(engine: Engine, customer: CustomerRow, input: Request): Promise<{ accounts: AccountRow[]; loginId: number | null }> {
  const db = engine.runtime.database.kysely;
  const ids = [...new Set((input.accountIds ?? []).map((a) => a.trim()).filter((a) => a !== ''))];
  if (ids.length > 0) return { accounts: await Promise.all(ids.map((id) => getAccountRow(db, customer, id))), loginId: null };
  if (input.institutionLoginId === undefined || input.institutionLoginId.trim() === '')
    throw new ServiceError('MissingParameter', 'Missing parameter (institutionLoginId or accountIds)');
  const login = await getLoginRow(db, customer, input.institutionLoginId.trim());
  const accounts = await listAccountRows(db, customer, { institutionLoginId: login.id });
  if (accounts.length === 0) throw new ServiceError('NoAccountsForInstitutionLogin');
  return { accounts, loginId: login.id };
}

/** The refresh machinery's modes for a login's accounts: one refresh, or a historic load per account. */
function machineryModes(row: TransactionRefreshRow, accounts: readonly TransactionRefreshResult[], now: number): RefreshMode[] {
  const historic = row.mode === 'historic' || (row.mode === 'custom' && Number(row.from_date) < now - INITIAL_HISTORY_DAYS * DAY);
  return historic ? accounts.map((a) => ({ kind: 'historic', accountId: a.accountId })) : [{ kind: 'refresh' }];
}

/** Runs the refresh: each login in turn, its accounts' outcomes stored as they come. */
async function run(engine: Engine, customer: CustomerRow, row: TransactionRefreshRow): Promise<void> {
  const db = engine.runtime.database.kysely;
  const results: TransactionRefreshResult[] = JSON.parse(row.results);
  await repo.updateTransactionRefresh(db, row.id, { status: 'IN_PROGRESS', updated_at: customerNow(engine, customer) });
  for (const loginId of [...new Set(results.map((r) => r.institutionLoginId))]) {
    const mine = results.filter((r) => r.institutionLoginId === loginId);
    let failure: { code: number; message: string } | undefined;
    try {
      const login = await findLogin(db, loginId);
      if (!login) throw new ServiceError('ResourceNotFound', 'The institution login was deleted.');
      for (const mode of machineryModes(row, mine, customerNow(engine, customer))) {
        const outcome = await refreshLogin(engine, customer, login, mode);
        if (outcome.ran && outcome.code !== 0) failure = { code: outcome.code, message: outcome.message ?? 'The refresh failed.' };
      }
    } catch (error) {
      const code = error instanceof ServiceError ? Number(error.code) : 500;
      failure = { code: Number.isFinite(code) ? code : 500, message: error instanceof Error ? error.message : 'The refresh failed.' };
    }
    const after = await findLogin(db, loginId);
    for (const result of mine) {
      const account = (await listAccountRows(db, customer, { institutionLoginId: loginId })).find((a) => a.id === result.accountId);
      const code = failure?.code ?? (account ? Number(account.aggregation_status_code) : 14001);
      if (code === 0 && account?.aggregation_success_at != null) {
        result.code = 0;
        result.successAt = Number(account.aggregation_success_at);
      } else {
        result.code = code === 0 ? 14001 : code;
        result.message = failure?.message ?? after?.aggregation_status_message ?? 'The account is no longer there.';
      }
    }
    await repo.updateTransactionRefresh(db, row.id, { results: JSON.stringify(results), updated_at: customerNow(engine, customer) });
  }
  const succeeded = results.some((r) => r.code === 0);
  await repo.updateTransactionRefresh(db, row.id, { status: succeeded ? 'COMPLETED' : 'FAILED', updated_at: customerNow(engine, customer) });
}

/**
 * Refresh Transactions: checks the request, stores it (NEW) and starts it in the background; `whenDone` hears when it
 * ends. 400 for a bad mode or date range, 404 for unknown customers, accounts and logins.
 */
export async function startTransactionRefresh(
  engine: Engine,
  partnerId: string,
  customerId: string,
  input: Request,
  whenDone?: () => void,
): Promise<Initiated> {
  const db = engine.runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const now = customerNow(engine, customer);
  const { mode, from, to } = modeOf(input, now);
  const { accounts, loginId } = await accountsOf(engine, customer, input);
  const results: TransactionRefreshResult[] = accounts.map((a) => ({
    accountId: Number(a.id),
    institutionLoginId: Number(a.institution_login_id),
    institutionId: Number(a.institution_id),
  }));
  const row: TransactionRefreshRow = {
    id: randomUUID(),
    partner_id: partnerId,
    customer_id: customer.id,
    institution_login_id: loginId,
    account_ids: JSON.stringify(results.map((r) => r.accountId)),
    mode,
    from_date: from,
    to_date: to,
    status: 'NEW',
    results: JSON.stringify(results),
    created_at: now,
    updated_at: now,
  };
  await repo.insertTransactionRefresh(db, row);
  engine.background(`transaction refresh ${row.id}`, () => run(engine, customer, row).finally(whenDone));
  return {
    refreshId: row.id,
    customerId: String(customer.id),
    ...(loginId !== null ? { institutionLoginId: String(loginId) } : {}),
    accountIds: results.map((r) => String(r.accountId)),
    mode,
    ...(from !== null ? { fromDate: iso(from) } : {}),
    ...(to !== null ? { toDate: iso(to) } : {}),
    status: 'NEW',
    createdAt: iso(now),
  };
}

/** Get Transaction Refresh Status: 404 for an unknown customer or refresh id (another partner's look the same). */
export async function getTransactionRefresh(engine: Engine, partnerId: string, customerId: string, refreshId: string): Promise<StatusRecord> {
  const db = engine.runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const row = await repo.findTransactionRefresh(db, customer.id, refreshId.trim().toLowerCase());
  if (!row) throw new ServiceError('ResourceNotFound', 'Transaction refresh not found.');
  const results: TransactionRefreshResult[] = JSON.parse(row.results);
  return {
    refreshId: row.id,
    customerId: String(customer.id),
    accounts: results.map((r) => ({
      accountId: String(r.accountId),
      institutionLoginId: String(r.institutionLoginId),
      institutionId: String(r.institutionId),
      ...(r.code === 0 ? { aggregationStatusCode: 0, ...(r.successAt !== undefined ? { aggregationSuccessDate: iso(r.successAt) } : {}) } : {}),
      ...(r.code !== undefined && r.code !== 0 ? { code: r.code, message: r.message ?? '' } : {}),
    })),
    mode: row.mode,
    status: row.status,
    totalCount: results.length,
    successCount: results.filter((r) => r.code === 0).length,
    failedCount: results.filter((r) => r.code !== undefined && r.code !== 0).length,
  };
}
