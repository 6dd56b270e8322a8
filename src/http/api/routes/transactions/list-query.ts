import type { Static } from 'typebox';
import type { TransactionQuery as Query } from '../../../../modules/aggregation/transactions.service.js';
import type { TransactionQuery } from '../../../../contract/schemas/transactions.js';

type QueryString = { [K in keyof typeof TransactionQuery]: Static<(typeof TransactionQuery)[K]> };

/** The query string of the transaction lists as the service takes it, with the documented defaults. */
export function queryOf(q: Partial<QueryString> & Pick<QueryString, 'fromDate' | 'toDate'>): Query {
  return {
    fromDate: q.fromDate,
    toDate: q.toDate,
    start: q.start ?? 1,
    limit: q.limit ?? 25,
    sort: q.sort ?? 'desc',
    includePending: q.includePending ?? false,
  };
}
