/** The payment products' own queries; the accounts themselves are read through the aggregation module. */
import type { Executor } from '../../platform/db/database.js';

/** Whether a statement file stated a balance of the account (its daily history holds one of source `statement`). */
export async function hasStatedBalance(db: Executor, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('account_balances').select('day').where('account_id', '=', accountId).where('source', '=', 'statement').executeTakeFirst();
  return row !== undefined;
}

/** The institutions where the partner's customers hold accounts whose source stated this routing number. */
export async function institutionIdsWithRoutingNumber(db: Executor, partnerId: string, routingNumber: string): Promise<number[]> {
  const rows = await db
    .selectFrom('accounts')
    .innerJoin('customers', 'customers.id', 'accounts.customer_id')
    .select('accounts.institution_id')
    .distinct()
    .where('customers.partner_id', '=', partnerId)
    .where('accounts.routing_number', '=', routingNumber)
    .execute();
  return rows.map((r) => Number(r.institution_id));
}
