/**
 * The queries a statement reads: its transactions, their totals, and the balances around its period. A statement
 * lists what posted in its period, by the day it posted (its date where the source gives no posting date), as the
 * daily balance history counts it; a transaction is found by its date (the indexed column), at most POSTING_LAG_DAYS
 * before its posting.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';

const DAY = 86_400;
const POSTING_LAG_DAYS = 31;

/** The posted transactions of an account that posted in [from, to]. */
function postedIn(db: Executor, accountId: number, from: number, to: number) {
  return db
    .selectFrom('transactions')
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .where('effective_date', '>=', from - POSTING_LAG_DAYS * DAY)
    .where('effective_date', '<=', to)
    .where(postedDate, '>=', from)
    .where(postedDate, '<=', to);
}

function postedDate(eb: ExpressionBuilder<DB, 'transactions'>) {
  return eb.fn.coalesce('posted_date', 'effective_date');
}

/** The transactions that posted in [from, to], in the order they posted (then by date, then as stored), at most `limit`. */
export async function selectStatementTransactions(db: Executor, accountId: number, from: number, to: number, limit: number) {
  return postedIn(db, accountId, from, to)
    .select((eb) => ['id', 'amount', 'description', 'memo', postedDate(eb).as('posted')])
    .orderBy('posted', 'asc')
    .orderBy('effective_date', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}

/** How many transactions posted in [from, to], credits and debits apart, with their sums. */
export async function statementTotals(db: Executor, accountId: number, from: number, to: number) {
  const rows = await postedIn(db, accountId, from, to)
    .select((eb) => [
      eb.case().when('amount', '>=', 0).then(1).else(0).end().as('credit'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string>('amount').as('total'),
    ])
    .groupBy('credit')
    .execute();
  const of = (credit: number) => {
    const row = rows.find((r) => Number(r.credit) === credit);
    return { count: Number(row?.count ?? 0), total: Number(row?.total ?? 0) };
  };
  return { credits: of(1), debits: of(0) };
}

/** The account's latest daily balance on a day from `fromDay` to `toDay` (YYYY-MM-DD, inclusive). */
export async function latestBalanceBetween(db: Executor, accountId: number, fromDay: string, toDay: string) {
  return db
    .selectFrom('account_balances')
    .select(['day', 'balance'])
    .where('account_id', '=', accountId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
}
