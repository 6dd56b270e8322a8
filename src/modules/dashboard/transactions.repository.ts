/** The dashboard's page of a customer's transactions: ordered by posted date, which the API's lists (by transaction date) are not. */
import type { Executor } from '../../platform/db/database.js';
import type { TransactionRow } from '../aggregation/table.js';

/** A customer's transactions, or one account's of that customer. */
export interface DashboardTransactionScope {
  customerId: number;
  accountId?: number;
}

function scoped(db: Executor, scope: DashboardTransactionScope) {
  const s = db.selectFrom('transactions').where('customer_id', '=', scope.customerId);
  return scope.accountId === undefined ? s : s.where('account_id', '=', scope.accountId);
}

/** How many transactions the scope has, pending ones included. */
export async function countScopedTransactions(db: Executor, scope: DashboardTransactionScope): Promise<number> {
  const row = await scoped(db, scope)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * `limit` transactions of the scope after skipping `offset`, newest first by posted date (the transaction date while
 * pending, as the record's postedDate says), then by id, so equal dates keep one order from page to page. The
 * (customer, effective_date) index cannot give this order: the customer's rows are sorted, which a dashboard page can afford.
 */
export async function selectScopedTransactions(db: Executor, scope: DashboardTransactionScope, limit: number, offset: number): Promise<TransactionRow[]> {
  return scoped(db, scope)
    .selectAll()
    .orderBy((eb) => eb.fn.coalesce('posted_date', 'effective_date'), 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}
