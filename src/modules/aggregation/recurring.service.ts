/** Get Recurring Transactions: the customer's stored transactions through the detector (recurring.rules.ts). */
import type { Static } from 'typebox';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { RecurringTransactions } from '../../contract/schemas/recurring.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getCustomerForPartner } from '../customers/service.js';
import { getAccountRow, listAccountRows } from './accounts.service.js';
import { customerNow } from './engine.js';
import { detectRecurring, type RecurringStream } from './recurring.rules.js';
import { selectPostedForAnalysis } from './transactions.repository.js';

type RecurringRecord = Static<typeof RecurringTransactions>;

const isoDay = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);

function toRecord(s: RecurringStream) {
  return {
    normalizedPayeeName: s.normalizedPayeeName,
    transactionCategories: s.transactionCategories,
    transactionIds: s.transactionIds.map(String),
    cadence: s.cadence,
    status: s.status,
    expectedNextTransactionDate: isoDay(s.expectedNextTransactionDate),
    expectedNextTransactionAmount: s.expectedNextTransactionAmount,
    minimumHistoricalAmount: s.minimumHistoricalAmount,
    maximumHistoricalAmount: s.maximumHistoricalAmount,
    meanHistoricalAmount: s.meanHistoricalAmount,
    medianHistoricalAmount: s.medianHistoricalAmount,
    countOfTransactions: s.countOfTransactions,
  };
}

/**
 * The recurring streams of the given accounts (all of the customer's when none are given), from their posted
 * transactions up to the customer's now. 404 for an unknown customer or account, and (16412) for a customer without
 * accounts.
 */
export async function getRecurringTransactions(
  runtime: Pick<Runtime, 'database' | 'clock'>,
  partnerId: string,
  customerId: string,
  accountIds: readonly string[] = [],
): Promise<RecurringRecord> {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const wanted = [...new Set(accountIds.map((a) => a.trim()).filter((a) => a !== ''))];
  const accounts = wanted.length > 0 ? await Promise.all(wanted.map((id) => getAccountRow(db, customer, id))) : await listAccountRows(db, customer);
  if (accounts.length === 0) throw new ServiceError('NoAccountsForCustomer');
  const now = customerNow(runtime, customer);
  const rows = await selectPostedForAnalysis(
    db,
    accounts.map((a) => Number(a.id)),
    now,
  );
  const { outflows, inflows } = detectRecurring(
    rows.map((r) => ({
      id: Number(r.id),
      accountId: Number(r.account_id),
      amount: Number(r.amount),
      date: Number(r.posted_date ?? r.transaction_date),
      description: r.description,
      normalizedPayeeName: r.normalized_payee_name,
      category: r.category,
    })),
    now,
  );
  return { customerRecurringTransactions: { recurringOutflows: outflows.map(toRecord), recurringInflows: inflows.map(toRecord) } };
}
