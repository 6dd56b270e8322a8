/**
 * The daily balance history of accounts: one balance per account and UTC day, recorded on every refresh and upload.
 * Observed balances (the one a refresh reads, a statement file's closing balance) are stored at their day; where
 * only the latest is known, the days before it back to the start of what was fetched are derived from it and the
 * account's posted transactions, in one pass over those days. An observed balance wins over a derived one, a later
 * observation of the same day over an earlier one (balances.repository.ts).
 */
import { shownDecimals } from '../../platform/currency.js';
import type { StatementAccount } from '../../connectors/statements/types.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { longWork } from '../../platform/turns.js';
import { getCustomerForPartner } from '../customers/service.js';
import { getAccountRow } from './accounts.service.js';
import { selectBalances, selectPostedMovements, upsertDerivedBalances, upsertObservedBalances } from './balances.repository.js';
import type { AccountBalanceRow, AccountBalanceTable, BalanceSource } from './balances.table.js';
import type { Engine } from './engine.js';
import type { AccountRow } from './table.js';

const DAY = 86_400;

/**
 * Account types whose balance moves by exactly their transactions' amounts. A loan's payment also pays interest and
 * escrow, and an investment account's value moves with prices: their history holds observed balances only.
 */
const DERIVABLE_TYPES: ReadonlySet<string> = new Set(['checking', 'savings', 'creditCard', 'lineOfCredit']);

/** Derived days reach at most this far back from the balance they come from (ten years and a leap day or three). */
export const MAX_DERIVED_DAYS = 3653;

/**
 * How long before its posting a transaction may be dated and still be found: a posted transaction is read by its
 * date (the indexed column), and the day it posted decides which balances it moved.
 */
const POSTING_LAG_DAYS = 31;

/** One day's balance as the API answers it. */
export interface DailyBalanceRecord {
  date: string;
  balance: number;
  availableBalance?: number;
  currency: string;
  source: BalanceSource;
}

/** The UTC day (YYYY-MM-DD) holding an epoch second. */
export function dayText(epochSeconds: number): string {
  return new Date(Math.floor(epochSeconds / DAY) * DAY * 1000).toISOString().slice(0, 10);
}

/** A balance some source stated, and from when. */
export interface ObservedBalance {
  source: Exclude<BalanceSource, 'derived'>;
  balance: number;
  availableBalance?: number | undefined;
  /** When it was valid (customer clock, epoch seconds). */
  asOf: number;
}

/** The rows a balance history records: observed days, then derived ones. */
export interface HistoryRows {
  observed: AccountBalanceTable[];
  derived: AccountBalanceTable[];
}

/**
 * The rows of an observed balance of the account at its day (and of `earlier` ones the same source stated, such as a
 * file's other statements' closing balances) and, for an account whose transactions make its balance, of each day
 * from the one holding `deriveFrom` to the day before the observed one, derived from the account's posted
 * transactions. Each day's balance is its closing one: the observed balance counts everything posted on its day, and
 * a derived day is it less what posted after that day.
 */
async function historyRows(
  tx: Executor,
  account: Pick<AccountRow, 'id' | 'type' | 'currency'>,
  observed: ObservedBalance,
  deriveFrom: number | undefined,
  now: number,
  earlier: readonly { date: number; balance: number }[],
): Promise<HistoryRows> {
  const anchorDay = Math.floor(observed.asOf / DAY);
  const base = { account_id: account.id, currency: account.currency, as_of: observed.asOf, updated_at: now };
  // One row per day in a statement (an upsert may not touch a row twice): the observed balance's own day is its.
  const days = new Map<string, AccountBalanceTable>();
  for (const e of earlier) {
    if (Math.floor(e.date / DAY) >= anchorDay) continue;
    const day = dayText(e.date);
    days.set(day, { ...base, as_of: e.date, day, balance: e.balance, available_balance: null, source: observed.source });
  }
  const day = dayText(observed.asOf);
  days.set(day, { ...base, day, balance: observed.balance, available_balance: observed.availableBalance ?? null, source: observed.source });
  const rows: HistoryRows = { observed: [...days.values()], derived: [] };
  if (deriveFrom === undefined || !DERIVABLE_TYPES.has(account.type)) return rows;
  const firstDay = Math.max(Math.floor(deriveFrom / DAY), anchorDay - MAX_DERIVED_DAYS);
  if (firstDay >= anchorDay) return rows;

  // What posted on each day after firstDay up to the anchor's, in the currency's minor units (cents; a KWD
  // account's fils): sums of floating amounts drift.
  const unit = 10 ** shownDecimals(account.currency);
  const moved = new Array<number>(anchorDay - firstDay + 1).fill(0);
  const movements = await selectPostedMovements(tx, account.id, (firstDay + 1 - POSTING_LAG_DAYS) * DAY, (anchorDay + 1) * DAY - 1);
  for (const m of movements) {
    const postedDay = Math.floor(Number(m.posted_date ?? m.effective_date) / DAY);
    if (postedDay > firstDay && postedDay <= anchorDay) moved[postedDay - firstDay]! += Math.round(Number(m.amount) * unit);
  }
  let balance = Math.round(observed.balance * unit);
  for (let day = anchorDay - 1; day >= firstDay; day--) {
    balance -= moved[day + 1 - firstDay]!;
    rows.derived.push({ ...base, day: dayText(day * DAY), balance: balance / unit, available_balance: null, source: 'derived' });
  }
  return rows;
}

/**
 * Records an observed balance and the days derived from it (historyRows) in the caller's transaction: a refresh's
 * window, a few days to the institution's history.
 */
export async function recordBalanceHistory(
  tx: Executor,
  account: Pick<AccountRow, 'id' | 'type' | 'currency'>,
  observed: ObservedBalance,
  deriveFrom: number | undefined,
  now: number,
  earlier: readonly { date: number; balance: number }[] = [],
): Promise<void> {
  const rows = await historyRows(tx, account, observed, deriveFrom, now, earlier);
  await upsertObservedBalances(tx, rows.observed);
  await upsertDerivedBalances(tx, rows.derived);
}

/** Rows written per transaction of an upload: a file of ten years is thousands of days, and other writers wait. */
export const UPLOAD_SLICE = 500;

/** The available balance a refresh read with the balance: a deposit account's (its detail's). */
function availableOf(account: Pick<AccountRow, 'type' | 'detail'>): number | undefined {
  if ((account.type !== 'checking' && account.type !== 'savings') || account.detail === null) return undefined;
  const amount = (JSON.parse(account.detail) as { availableBalanceAmount?: unknown }).availableBalanceAmount;
  return typeof amount === 'number' ? amount : undefined;
}

/**
 * Records the balance a refresh (or a sign-in) stored on the account, and derives the days back to the start of the
 * refresh's window (`from`, when transactions were fetched), in the caller's transaction.
 */
export async function recordRefreshedBalance(tx: Executor, account: AccountRow, from: number | undefined, now: number): Promise<void> {
  const observed: ObservedBalance = {
    source: 'refresh',
    balance: Number(account.balance),
    availableBalance: availableOf(account),
    asOf: Number(account.balance_date),
  };
  await recordBalanceHistory(tx, account, observed, from, now);
}

/**
 * Records the closing balance a statement file states for one of its accounts (none for a file that states none: QIF,
 * CSV without a balance column) at its date, with the file's earlier closing balances at theirs, and derives the days
 * back to the one before the file's first transaction from the transactions stored, after the file's transactions;
 * written a slice at a time.
 */
export async function recordStatementBalance(
  engine: Pick<Engine, 'database'>,
  account: AccountRow,
  file: StatementBalances,
  dates: { count: number; first: number; latest: number },
  now: number,
): Promise<void> {
  await longWork.turn();
  const rows = await statementBalanceRows(engine.database.yielding, account, file, dates, now);
  if (rows) await writeBalanceSlices(engine, rows);
}

/** What a statement file says of an account's balances. */
export type StatementBalances = Pick<StatementAccount, 'balance' | 'balanceDate' | 'availableBalance' | 'closingBalances'>;

/**
 * The rows recordStatementBalance writes for the account, read in `db` (the caller's transaction, after it stored the
 * file's transactions), or undefined when the file states no balance.
 */
export async function statementBalanceRows(
  db: Executor,
  account: AccountRow,
  file: StatementBalances,
  dates: { count: number; first: number; latest: number },
  now: number,
): Promise<HistoryRows | undefined> {
  if (file.balance === undefined) return undefined;
  const observed: ObservedBalance = {
    source: 'statement',
    balance: file.balance,
    availableBalance: file.availableBalance,
    asOf: Math.min(file.balanceDate ?? (dates.latest || now), now),
  };
  return historyRows(db, account, observed, dates.count > 0 ? dates.first - DAY : undefined, now, file.closingBalances ?? []);
}

/** How many rows `rows` writes. */
export const balanceRowCount = (rows: HistoryRows) => rows.observed.length + rows.derived.length;

/** Writes balance rows in the caller's transaction. */
export async function writeBalanceRows(tx: Executor, rows: HistoryRows): Promise<void> {
  await upsertObservedBalances(tx, rows.observed);
  await upsertDerivedBalances(tx, rows.derived);
}

/**
 * Writes an account's balance rows UPLOAD_SLICE at a time, each slice in a short transaction of its own, one per turn
 * like an upload's transactions; the upserts' rules keep the outcome whatever another writer does between them.
 */
export async function writeBalanceSlices(engine: Pick<Engine, 'database'>, rows: HistoryRows): Promise<void> {
  const db = engine.database.yielding;
  for (const [write, list] of [
    [upsertObservedBalances, rows.observed],
    [upsertDerivedBalances, rows.derived],
  ] as const) {
    for (let i = 0; i < list.length; i += UPLOAD_SLICE) {
      await longWork.turn();
      await db.transaction().execute((tx) => write(tx, list.slice(i, i + UPLOAD_SLICE)));
    }
  }
}

function toRecord(row: AccountBalanceRow): DailyBalanceRecord {
  return {
    date: row.day,
    balance: Number(row.balance),
    ...(row.available_balance === null ? {} : { availableBalance: Number(row.available_balance) }),
    currency: row.currency,
    source: row.source,
  };
}

export interface BalanceHistoryQuery {
  fromDate?: number | undefined;
  toDate?: number | undefined;
}

/**
 * The daily balances of the partner's customer's account on the days holding fromDate to toDate (UTC, inclusive),
 * oldest first; 404 for another partner's customer or account, 400 when fromDate is after toDate.
 */
export async function accountBalanceHistory(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  q: BalanceHistoryQuery,
): Promise<{ balances: DailyBalanceRecord[] }> {
  const db = runtime.database.kysely;
  const account = await getAccountRow(db, await getCustomerForPartner(db, partnerId, customerId), accountId);
  if (q.fromDate !== undefined && q.toDate !== undefined && q.fromDate > q.toDate)
    throw new ServiceError('InvalidParameter', `Invalid parameter (fromDate): fromDate (${q.fromDate}) must not be after toDate (${q.toDate}).`);
  const rows = await selectBalances(
    db,
    account.id,
    q.fromDate === undefined ? '0000-00-00' : dayText(q.fromDate),
    q.toDate === undefined ? '9999-99-99' : dayText(q.toDate),
  );
  return { balances: rows.map(toRecord) };
}
