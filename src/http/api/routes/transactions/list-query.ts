import type { Static } from 'typebox';
import type { TransactionPage, TransactionQuery as Query } from '../../../../modules/aggregation/transactions.service.js';
import type { TransactionList } from '../../../../contract/schemas/transactions.js';
import type { TransactionQuery } from '../../../../contract/schemas/transactions.js';

type QueryString = { [K in keyof typeof TransactionQuery]: Static<(typeof TransactionQuery)[K]> };

/** The list query with the documented defaults. */
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

/** A page as the API renders it: moreAvailable, fromDate and toDate as strings, like the real service. */
export function toTransactionList(page: TransactionPage): Static<typeof TransactionList> {
  return { ...page, moreAvailable: String(page.moreAvailable), fromDate: String(page.fromDate), toDate: String(page.toDate) };
}
