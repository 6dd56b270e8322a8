/** The queries of stored pay statements (pay-statements.service.ts). */
import type { Executor } from '../../platform/db/database.js';
import type { PayStatementRow, PayStatementTable } from './table.js';

export async function insertPayStatement(db: Executor, row: PayStatementTable): Promise<void> {
  await db.insertInto('pay_statements').values(row).execute();
}

/** One of the customer's pay statements, of the partner. */
export async function findPayStatement(db: Executor, of: { partnerId: string; customerId: number }, id: string): Promise<PayStatementRow | undefined> {
  return db
    .selectFrom('pay_statements')
    .selectAll()
    .where('id', '=', id)
    .where('partner_id', '=', of.partnerId)
    .where('customer_id', '=', of.customerId)
    .executeTakeFirst();
}
