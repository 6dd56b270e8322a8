/** A customer as the dashboard shows it: the record, its institution logins with their accounts, its latest transactions. */
import { ServiceError } from '../../contract/errors/service-error.js';
import { customerNow, type Engine } from '../aggregation/engine.js';
import { listInstitutionLogins } from '../aggregation/linking.service.js';
import { accountSummary, type TransactionRecord } from '../aggregation/records.js';
import { listCustomerTransactions } from '../aggregation/transactions.service.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { findInstitution } from '../institutions/service.js';

const LATEST_TRANSACTIONS = 100;

/** The fields of a customer every dashboard listing shows. */
export function customerSummary(c: CustomerRow) {
  return { id: String(c.id), username: c.username, firstName: c.first_name, lastName: c.last_name, type: c.type, createdDate: Number(c.created_at) };
}

/** One customer of the partner (404 for another partner's, exactly like an unknown id). */
export async function customerOverview(engine: Engine, partnerId: string, customerId: string) {
  const db = engine.runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const logins = await listInstitutionLogins(engine, partnerId, customerId);
  const now = customerNow(engine, customer);
  let transactions: TransactionRecord[] = [];
  let found = 0;
  let aggregated = true;
  try {
    const page = await listCustomerTransactions(engine, customer, {
      fromDate: 0,
      toDate: now + 366 * 86_400,
      start: 1,
      limit: LATEST_TRANSACTIONS,
      sort: 'desc',
      includePending: true,
    });
    transactions = page.transactions;
    found = page.found;
  } catch (e) {
    if (!(e instanceof ServiceError) || e.errorName !== 'InitialAggregationRequired') throw e;
    aggregated = false;
  }
  return {
    customer: {
      ...customerSummary(customer),
      email: customer.email,
      phone: customer.phone,
      clock: now,
      clockOffsetSeconds: Number(customer.clock_offset_seconds),
    },
    institutionLogins: await Promise.all(
      logins.map(async (l) => ({
        institutionLoginId: l.institutionLoginId,
        institution: { id: l.institutionId, name: (await findInstitution(engine.runtime.database, l.institutionId))?.name ?? `Institution ${l.institutionId}` },
        aggregationStatusCode: l.aggregationStatusCode,
        accounts: l.accounts.map((a) => ({
          ...accountSummary(a),
          status: a.status,
          aggregationStatusCode: a.aggregationStatusCode,
          aggregationSuccessDate: a.aggregationSuccessDate ?? null,
        })),
      })),
    ),
    transactions: { aggregated, found, latest: transactions },
  };
}
