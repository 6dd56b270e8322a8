/** A customer's transactions on the dashboard: newest first by posted date, a page at a time, for every account or one. */
import type { Runtime } from '../../platform/dependencies.js';
import { aggregationProgress } from '../aggregation/accounts.repository.js';
import { getAccountRow } from '../aggregation/accounts.service.js';
import { toTransactionRecord } from '../aggregation/records.js';
import { getCustomerForPartner } from '../customers/service.js';
import { countScopedTransactions, selectScopedTransactions, type DashboardTransactionScope } from './transactions.repository.js';

export interface DashboardTransactionQuery {
  /** One account of the customer; every account when absent. */
  accountId?: string | undefined;
  /** 1-based. */
  page: number;
  limit: number;
}

/**
 * One page of the partner's customer's transactions (404 for another partner's customer, or an account that is not
 * the customer's, exactly like unknown ids). `aggregated` is false while no account in scope has had its first
 * aggregation, which is when the API would answer InitialAggregationRequired; the page is empty then.
 */
export async function customerTransactionsPage(runtime: Pick<Runtime, 'database'>, partnerId: string, customerId: string, q: DashboardTransactionQuery) {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const scope: DashboardTransactionScope = { customerId: customer.id };
  let aggregated: boolean;
  if (q.accountId !== undefined) {
    const account = await getAccountRow(db, customer, q.accountId);
    scope.accountId = account.id;
    aggregated = account.first_aggregated_at !== null;
  } else {
    const progress = await aggregationProgress(db, customer.id);
    aggregated = Number(progress.accounts) === 0 || Number(progress.aggregated) > 0;
  }
  const found = aggregated ? await countScopedTransactions(db, scope) : 0;
  const offset = (q.page - 1) * q.limit;
  const rows = offset < found ? await selectScopedTransactions(db, scope, q.limit, offset) : [];
  return {
    aggregated,
    accountId: scope.accountId === undefined ? null : String(scope.accountId),
    page: q.page,
    limit: q.limit,
    found,
    moreAvailable: offset + rows.length < found,
    transactions: rows.map(toTransactionRecord),
  };
}
