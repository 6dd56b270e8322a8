/** The queries a statement reads: its transactions, their totals, and the balances around its period. */
import type { Executor } from '../../platform/db/database.js';

/** The posted transactions of an account dated in [from, to], in date order (then as stored), at most `limit`. */
export async function selectStatementTransactions(db: Executor, accountId: number, from: number, to: number, limit: number) {
  return db
    .selectFrom('transactions')
    .select(['id', 'effective_date', 'amount', 'description', 'memo'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .where('effective_date', '>=', from)
    .where('effective_date', '<=', to)
    .orderBy('effective_date', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}

/** How many posted transactions of the account are dated in [from, to], credits and debits apart, with their sums. */
export async function statementTotals(db: Executor, accountId: number, from: number, to: number) {
  const rows = await db
    .selectFrom('transactions')
    .select((eb) => [
      eb.case().when('amount', '>=', 0).then(1).else(0).end().as('credit'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string>('amount').as('total'),
    ])
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .where('effective_date', '>=', from)
    .where('effective_date', '<=', to)
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
