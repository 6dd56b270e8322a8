import type { Executor } from '../../platform/db/database.js';

/** Where a page of an export starts: after this transaction of the account's order (date, then id). */
export interface ExportCursor {
  effectiveDate: number;
  id: number;
}

/**
 * One page of an account's posted transactions dated in [fromDate, toDate], in date then id order, after the
 * cursor: a keyset walk of the (account, effective_date, id, status) index, so a page far into a large account costs
 * what the first does.
 */
export async function selectExportPage(db: Executor, accountId: number, fromDate: number, toDate: number, after: ExportCursor | undefined, limit: number) {
  let query = db
    .selectFrom('transactions')
    .select(['id', 'amount', 'description', 'memo', 'check_num', 'type', 'transaction_date', 'posted_date', 'effective_date'])
    .where('account_id', '=', accountId)
    .where('effective_date', '>=', fromDate)
    .where('effective_date', '<=', toDate)
    .where('status', '=', 'active');
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('effective_date', '>', after.effectiveDate), eb.and([eb('effective_date', '=', after.effectiveDate), eb('id', '>', after.id)])]),
    );
  }
  return query.orderBy('effective_date', 'asc').orderBy('id', 'asc').limit(limit).execute();
}
