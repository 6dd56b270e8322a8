/** A customer as the dashboard shows it: the record, its institution logins with their accounts; testing customers made from the dashboard. */
import { customerNow, type Engine } from '../aggregation/engine.js';
import { listInstitutionLogins } from '../aggregation/linking.service.js';
import { listInstitutionLoginStatuses } from '../aggregation/login-status.service.js';
import { accountSummary } from '../aggregation/records.js';
import { createCustomer, getCustomerForPartner, type CustomerContext } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { findInstitution } from '../institutions/service.js';
import type { Caller } from '../partners/service.js';

/** The fields of a customer every dashboard listing shows. */
export function customerSummary(c: CustomerRow) {
  return { id: String(c.id), username: c.username, firstName: c.first_name, lastName: c.last_name, type: c.type, createdDate: Number(c.created_at) };
}

/** Adds a testing customer of the signed-in partner, by the rules of Add Testing Customer (username policy, unique usernames). */
export async function createTestingCustomer(ctx: CustomerContext, caller: Caller, input: { username: string; firstName?: string; lastName?: string }) {
  return customerSummary(await createCustomer(ctx, caller, 'testing', input));
}

/** One customer of the partner (404 for another partner's, exactly like an unknown id). Its transactions are paged apart (transactions.service.ts). */
export async function customerOverview(engine: Engine, partnerId: string, customerId: string) {
  const db = engine.runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const logins = await listInstitutionLogins(engine, partnerId, customerId);
  const statuses = new Map(
    (await listInstitutionLoginStatuses(engine, partnerId, customer.id)).map(({ institutionName: _, ...s }) => [s.institutionLoginId, s]),
  );
  return {
    customer: {
      ...customerSummary(customer),
      email: customer.email,
      phone: customer.phone,
      clock: customerNow(engine, customer),
      clockOffsetSeconds: Number(customer.clock_offset_seconds),
    },
    institutionLogins: await Promise.all(
      logins.map(async (l) => ({
        institutionLoginId: l.institutionLoginId,
        institution: { id: l.institutionId, name: (await findInstitution(engine.runtime.database, l.institutionId))?.name ?? `Institution ${l.institutionId}` },
        aggregationStatusCode: l.aggregationStatusCode,
        statementFile: l.statementFile,
        status: statuses.get(l.institutionLoginId)!,
        accounts: l.accounts.map((a) => ({
          ...accountSummary(a),
          status: a.status,
          aggregationStatusCode: a.aggregationStatusCode,
          aggregationSuccessDate: a.aggregationSuccessDate ?? null,
        })),
      })),
    ),
  };
}
