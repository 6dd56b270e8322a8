import type { Executor } from '../../platform/db/database.js';
import type { ConsumerRow, ConsumerTable } from './table.js';

export async function insertConsumer(db: Executor, row: ConsumerTable): Promise<ConsumerRow> {
  return db.insertInto('consumers').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The partner's consumer with this id. */
export async function findConsumer(db: Executor, partnerId: string, id: string): Promise<ConsumerRow | undefined> {
  return db.selectFrom('consumers').selectAll().where('id', '=', id).where('partner_id', '=', partnerId).executeTakeFirst();
}

/** The customer's consumer (the customer is already known to be the partner's). */
export async function findConsumerOfCustomer(db: Executor, customerId: number): Promise<ConsumerRow | undefined> {
  return db.selectFrom('consumers').selectAll().where('customer_id', '=', customerId).executeTakeFirst();
}

export async function updateConsumerData(db: Executor, partnerId: string, id: string, dataEncrypted: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('consumers')
    .set({ data_encrypted: dataEncrypted, updated_at: now })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
