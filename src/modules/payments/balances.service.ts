/**
 * Available balances of deposit accounts: the one the last aggregation stored (Get Available Balance, cached), or
 * one read from the institution now (Get Available Balance, live): a refresh of the account's institution login, as
 * Refresh Customer Accounts by Institution Login runs it, then the stored one.
 */
import type { Static } from 'typebox';
import type { AvailableBalance } from '../../contract/schemas/payments.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getAccountRow, getLoginRow } from '../aggregation/accounts.service.js';
import { customerNow, type Engine } from '../aggregation/engine.js';
import { aggregationError } from '../aggregation/failures.js';
import { refreshLogin } from '../aggregation/refresh.service.js';
import type { AccountRow } from '../aggregation/table.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { refusedLiveBalance, refusedUnstatedBalance, requireDepositAccount } from './products.rules.js';
import { hasStatedBalance } from './repository.js';

export type AvailableBalanceRecord = Static<typeof AvailableBalance>;

/**
 * How old (minutes) a balance read from the institution may be for the live operation to answer it without reading
 * again, when the caller gives no balance_cache_interval: the reference's default since 30 June 2026.
 */
export const DEFAULT_BALANCE_CACHE_MINUTES = 30;

function toAvailableBalanceRecord(row: AccountRow): AvailableBalanceRecord {
  const detail = row.detail === null ? {} : (JSON.parse(row.detail) as { availableBalanceAmount?: unknown });
  const balance = Number(row.balance);
  const date = Number(row.balance_date);
  return {
    id: Number(row.id),
    realAccountNumberLast4: row.real_account_number_last4 ?? row.account_number_display,
    availableBalance: typeof detail.availableBalanceAmount === 'number' ? detail.availableBalanceAmount : balance,
    availableBalanceDate: date,
    clearedBalance: balance,
    clearedBalanceDate: date,
    aggregationStatusCode: row.aggregation_status_code,
    currency: row.currency,
  };
}

async function depositAccount(db: Executor, partnerId: string, customerId: string | number, accountId: string | number) {
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const row = await getAccountRow(db, customer, accountId);
  requireDepositAccount(row);
  return { customer, row, login: await getLoginRow(db, customer, row.institution_login_id) };
}

/**
 * Get Available Balance (cached): what the last aggregation or statement file stored. 400 (14020) for accounts other
 * than checking and savings, and for statement file accounts whose files stated no balance.
 */
export async function getAvailableBalance(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<AvailableBalanceRecord> {
  const db = runtime.database.kysely;
  const { row, login } = await depositAccount(db, partnerId, customerId, accountId);
  if (login.source === 'statement-file' && !(await hasStatedBalance(db, row.id))) throw refusedUnstatedBalance();
  return toAvailableBalanceRecord(row);
}

/** Whether the account's balance was read from the institution at most `minutes` ago (customer clock), by a refresh that succeeded. */
function readWithin(engine: Engine, customer: CustomerRow, row: AccountRow, minutes: number): boolean {
  if (minutes === 0 || row.aggregation_status_code !== 0 || row.aggregation_success_at === null) return false;
  return customerNow(engine, customer) - Number(row.aggregation_success_at) <= minutes * 60;
}

/**
 * Get Available Balance (live): the stored balance when it was read within `cacheMinutes`, otherwise the balance a
 * refresh of the account's institution login reads now. A failed refresh is its aggregation status's error (103,
 * 185...); statement file accounts have no source to read again (400, 14020).
 */
export async function getLiveAvailableBalance(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  cacheMinutes = DEFAULT_BALANCE_CACHE_MINUTES,
): Promise<AvailableBalanceRecord> {
  const db = engine.database.kysely;
  const { customer, row, login } = await depositAccount(db, partnerId, customerId, accountId);
  if (login.source === 'statement-file') throw refusedLiveBalance();
  if (readWithin(engine, customer, row, cacheMinutes)) return toAvailableBalanceRecord(row);
  const outcome = await refreshLogin(engine, customer, login, { kind: 'refresh' });
  if (outcome.ran && outcome.code !== 0) throw aggregationError(outcome.code, outcome.message ?? 'The institution refused the request.');
  return toAvailableBalanceRecord(await getAccountRow(db, customer, row.id));
}
