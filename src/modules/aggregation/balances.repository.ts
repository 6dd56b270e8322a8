/** The queries of the daily balance history (balances.service.ts): upserts by account and day, reads by range. */
import type { Executor } from '../../platform/db/database.js';
import type { AccountBalanceRow, AccountBalanceTable } from './balances.table.js';

/** Rows per INSERT: seven values each, well below either dialect's limit of bound parameters. */
const BATCH = 500;

/**
 * Writes balances by the rule of their kind. An observed one replaces the day's derived one, or an observed one valid
 * no later than itself (a later observation of the same day wins). A derived one fills a day that has none, or
 * replaces a derived one made from an observation no later than its own; never an observed one.
 */
async function upsertBalances(db: Executor, rows: readonly AccountBalanceTable[], kind: 'observed' | 'derived'): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto('account_balances')
      .values(rows.slice(i, i + BATCH))
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'day'])
          .doUpdateSet((eb) => ({
            balance: eb.ref('excluded.balance'),
            available_balance: eb.ref('excluded.available_balance'),
            currency: eb.ref('excluded.currency'),
            source: eb.ref('excluded.source'),
            as_of: eb.ref('excluded.as_of'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where((eb) => {
            const derived = eb('account_balances.source', '=', 'derived');
            const notLater = eb('account_balances.as_of', '<=', eb.ref('excluded.as_of'));
            return kind === 'observed' ? eb.or([derived, notLater]) : eb.and([derived, notLater]);
          }),
      )
      .execute();
  }
}

/** Writes observed balances (a refresh's, a statement's): see upsertBalances. */
export async function upsertObservedBalances(db: Executor, rows: readonly AccountBalanceTable[]): Promise<void> {
  await upsertBalances(db, rows, 'observed');
}

/** Writes derived balances: see upsertBalances. */
export async function upsertDerivedBalances(db: Executor, rows: readonly AccountBalanceTable[]): Promise<void> {
  await upsertBalances(db, rows, 'derived');
}

/** An account's daily balances from one day to another (YYYY-MM-DD, inclusive), oldest first. */
export async function selectBalances(db: Executor, accountId: number, fromDay: string, toDay: string): Promise<AccountBalanceRow[]> {
  return db
    .selectFrom('account_balances')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day', 'asc')
    .execute();
}

/**
 * The amounts and dates of an account's posted transactions dated (effective_date) in [from, to], read from the
 * account-date index's range: what moves its balance.
 */
export async function selectPostedMovements(
  db: Executor,
  accountId: number,
  from: number,
  to: number,
): Promise<{ amount: number; effective_date: number; posted_date: number | null }[]> {
  return db
    .selectFrom('transactions')
    .select(['amount', 'effective_date', 'posted_date'])
    .where('account_id', '=', accountId)
    .where('effective_date', '>=', from)
    .where('effective_date', '<=', to)
    .where('status', '=', 'active')
    .execute();
}
