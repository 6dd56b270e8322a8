import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { preparedQuery } from '../../platform/db/prepared.js';
import type { NewTransactionRow, TransactionRow, TransactionUpdate } from './table.js';
import { TRANSACTION_RECORD_COLUMNS, type TransactionRecordRow } from './records.js';

/** The stored transactions of an account dated (effective_date) in [from, to]. */
export async function selectTransactionsInWindow(db: Executor, accountId: number, from: number, to: number): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('effective_date', '>=', from)
    .where('effective_date', '<=', to)
    .execute();
}

/** The stored transactions of an account with these refs. */
export async function selectTransactionsWithRefs(db: Executor, accountId: number, refs: string[]): Promise<TransactionRow[]> {
  return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('ref', 'in', refs).execute();
}

/** Inserts transactions; those whose (account, ref) is stored already are skipped. Returns the inserted rows. */
export async function insertNewTransactions(db: Executor, rows: NewTransactionRow[]): Promise<TransactionRow[]> {
  return db
    .insertInto('transactions')
    .values(rows)
    .onConflict((oc) => oc.columns(['account_id', 'ref']).doNothing())
    .returningAll()
    .execute();
}

export async function insertTransactionRow(db: Executor, row: NewTransactionRow): Promise<TransactionRow> {
  return db.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateTransactionRow(db: Executor, id: number, changes: TransactionUpdate): Promise<TransactionRow> {
  return db.updateTable('transactions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteTransactions(db: Executor, ids: number[]): Promise<void> {
  await db.deleteFrom('transactions').where('id', 'in', ids).execute();
}

/** The oldest and newest transaction dates of an account (read from the account-date index). */
export async function transactionDateRange(db: Executor, accountId: number): Promise<{ oldest: number | null; last: number | null }> {
  const first = (direction: 'asc' | 'desc') =>
    db.selectFrom('transactions').select('effective_date').where('account_id', '=', accountId).orderBy('effective_date', direction).limit(1).executeTakeFirst();
  const oldest = await first('asc');
  const last = await first('desc');
  return { oldest: oldest ? Number(oldest.effective_date) : null, last: last ? Number(last.effective_date) : null };
}

/** The query of earliestPendingDate. */
export function earliestPendingQuery(db: Executor, accountId: number) {
  return (
    db
      .selectFrom('transactions')
      .select((eb) => eb.fn.min<number>('effective_date').as('d'))
      .where('account_id', '=', accountId)
      // A literal, so that both dialects read the partial index of pending transactions; with a bound value SQLite
      // prepared the statement again on every call (every refresh of every account asks).
      .where(sql<boolean>`status = 'pending'`)
  );
}

/** The date of the account's earliest pending transaction, if it has one. */
export async function earliestPendingDate(db: Executor, accountId: number): Promise<number | null | undefined> {
  return (await earliestPendingQuery(db, accountId).executeTakeFirst())?.d;
}

/** One of the customer's transactions. */
export async function findCustomerTransaction(db: Executor, customer: { id: number; partner_id: string }, id: number): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('id', '=', id)
    .where('customer_id', '=', customer.id)
    .where('partner_id', '=', customer.partner_id)
    .executeTakeFirst();
}

/** The transactions of a customer (customer_id) or of an account (account_id). */
export interface TransactionScope {
  column: 'customer_id' | 'account_id';
  id: number;
}

/** Which of a scope's transactions a page counts and shows, in what order, and how many. */
export interface PageWindow {
  fromDate: number;
  toDate: number;
  includePending: boolean;
  sort: 'asc' | 'desc';
  limit: number;
}

function inWindow(db: Executor, scope: TransactionScope, q: Pick<PageWindow, 'fromDate' | 'toDate' | 'includePending'>) {
  let s = db.selectFrom('transactions').where(scope.column, '=', scope.id).where('effective_date', '>=', q.fromDate).where('effective_date', '<=', q.toDate);
  if (!q.includePending) s = s.where('status', '=', 'active');
  return s;
}

/** How many transactions of the scope are dated in [fromDate, toDate] (active ones only unless includePending). */
export function countTransactionsQuery(db: Executor, scope: TransactionScope, q: CountWindow) {
  return inWindow(db, scope, q).select((eb) => eb.fn.countAll<number>().as('n'));
}

export async function countTransactions(db: Executor, scope: TransactionScope, q: Pick<PageWindow, 'fromDate' | 'toDate' | 'includePending'>): Promise<number> {
  const [row] = await preparedCount(scope.column, q.includePending)(db, scope.id, q.fromDate, q.toDate);
  return Number(row!.n);
}

/**
 * One page of those transactions, ordered by date then id in the asked direction, after skipping `offset`: a walk of
 * the (scope, effective_date, id, status) index in its own order, so neither dialect sorts, with only the columns
 * the records need.
 */
export function transactionPageQuery(db: Executor, scope: TransactionScope, q: PageWindow, offset: number) {
  return inWindow(db, scope, q).select(TRANSACTION_RECORD_COLUMNS).orderBy('effective_date', q.sort).orderBy('id', q.sort).limit(q.limit).offset(offset);
}

type CountWindow = Pick<PageWindow, 'fromDate' | 'toDate' | 'includePending'>;

/**
 * The page query with the count as one more column (`found`), so that both come back in one statement. The count's
 * scope and window are the page's; they are arguments of their own only so that a prepared statement can take each
 * value once (preparedQuery).
 */
export function countedPageQuery(db: Executor, scope: TransactionScope, q: PageWindow, offset: number, countScope = scope, countWindow: CountWindow = q) {
  return transactionPageQuery(db, scope, q, offset).select(() => countTransactionsQuery(db, countScope, countWindow).as('found'));
}

/**
 * How many transactions of the scope are in the window, and the page at `offset`: one statement (one round trip on
 * PostgreSQL) while the page has rows; past the end, where no row can carry the count, a second one counts.
 */
export async function selectCountedTransactionPage(
  db: Executor,
  scope: TransactionScope,
  q: PageWindow,
  offset: number,
): Promise<{ found: number; rows: TransactionRecordRow[] }> {
  const rows = await preparedCountedPage(scope.column, q.includePending, q.sort)(
    db,
    scope.id,
    q.fromDate,
    q.toDate,
    q.limit,
    offset,
    scope.id,
    q.fromDate,
    q.toDate,
  );
  if (rows.length === 0) return { found: await countTransactions(db, scope, q), rows };
  return { found: Number(rows[0]!.found), rows };
}

// Every transaction list runs a counted page (and a count past the end): each shape (scope column, pending or not,
// direction) is built and compiled once, from the query functions above, and only its values change per request.
type PageArgs = [id: number, fromDate: number, toDate: number, limit: number, offset: number];
const countShapes = new Map<string, (db: Executor, ...args: [id: number, fromDate: number, toDate: number]) => Promise<{ n: number }[]>>();

function preparedCount(column: TransactionScope['column'], includePending: boolean) {
  const key = `${column} ${includePending}`;
  let query = countShapes.get(key);
  if (!query) {
    query = preparedQuery<[id: number, fromDate: number, toDate: number], { n: number }>(3, (db, id, fromDate, toDate) =>
      countTransactionsQuery(db, { column, id }, { fromDate, toDate, includePending }),
    );
    countShapes.set(key, query);
  }
  return query;
}

type CountedPageArgs = [...PageArgs, countId: number, countFromDate: number, countToDate: number];
const countedPageShapes = new Map<string, (db: Executor, ...args: CountedPageArgs) => Promise<(TransactionRecordRow & { found: number })[]>>();

function preparedCountedPage(column: TransactionScope['column'], includePending: boolean, sort: PageWindow['sort']) {
  const key = `${column} ${includePending} ${sort}`;
  let query = countedPageShapes.get(key);
  if (!query) {
    // Each placeholder is used once, so the count's scope and window are passed again (the same values).
    query = preparedQuery<CountedPageArgs, TransactionRecordRow & { found: number }>(
      8,
      (db, id, fromDate, toDate, limit, offset, countId, countFrom, countTo) =>
        countedPageQuery(
          db,
          { column, id },
          { fromDate, toDate, includePending, sort, limit },
          offset,
          { column, id: countId },
          { fromDate: countFrom, toDate: countTo, includePending },
        ),
    );
    countedPageShapes.set(key, query);
  }
  return query;
}

/** The posted transactions of these accounts dated up to `until`, with what recurring detection reads. */
export async function selectPostedForAnalysis(db: Executor, accountIds: readonly number[], until: number) {
  if (accountIds.length === 0) return [];
  return db
    .selectFrom('transactions')
    .select(['id', 'account_id', 'amount', 'posted_date', 'transaction_date', 'description', 'normalized_payee_name', 'category'])
    .where('account_id', 'in', accountIds)
    .where('status', '=', 'active')
    .where('transaction_date', '<=', until)
    .execute();
}
