import type { Executor } from '../../platform/db/database.js';
import type { MicroEntryRow, MicroEntryStatus, MicroEntryTable } from './table.js';
import type { Insertable, Updateable } from 'kysely';

/**
 * Inserts the entry unless the customer already has one for these numbers; undefined then (the unique index decides
 * between simultaneous initiations).
 */
export async function insertMicroEntry(db: Executor, row: Insertable<MicroEntryTable>): Promise<MicroEntryRow | undefined> {
  return db
    .insertInto('micro_entries')
    .values(row)
    .onConflict((oc) => oc.columns(['customer_id', 'routing_number', 'account_number_hash']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** The customer's entry for these numbers. */
export async function findMicroEntryByNumbers(db: Executor, customerId: number, routingNumber: string, hash: string): Promise<MicroEntryRow | undefined> {
  return db
    .selectFrom('micro_entries')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('routing_number', '=', routingNumber)
    .where('account_number_hash', '=', hash)
    .executeTakeFirst();
}

/** The customer's entry of this receiving account (the newest, should numbers of two entries share an account). */
export async function findMicroEntryOfAccount(db: Executor, customerId: number, accountId: number): Promise<MicroEntryRow | undefined> {
  return db
    .selectFrom('micro_entries')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Updates the entry only while it has the expected status; undefined when another request changed it first. */
export async function updateMicroEntryIf(
  db: Executor,
  id: number,
  expected: readonly MicroEntryStatus[],
  changes: Updateable<MicroEntryTable>,
): Promise<MicroEntryRow | undefined> {
  return db.updateTable('micro_entries').set(changes).where('id', '=', id).where('status', 'in', expected).returningAll().executeTakeFirst();
}

/** Counts a wrong answer while the entry waits for its amounts; the row afterwards, or undefined when it no longer waits. */
export async function countFailedAttempt(db: Executor, id: number, now: number): Promise<MicroEntryRow | undefined> {
  return db
    .updateTable('micro_entries')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .where('status', '=', 'Completed')
    .returningAll()
    .executeTakeFirst();
}

/** The customer's aggregated accounts at this routing number (their numbers are compared by the caller). */
export async function accountsAtRoutingNumber(db: Executor, customerId: number, routingNumber: string) {
  return db.selectFrom('accounts').selectAll().where('customer_id', '=', customerId).where('routing_number', '=', routingNumber).orderBy('id').execute();
}

/** How many accounts an institution login holds. */
export async function countLoginAccounts(db: Executor, loginId: number): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('institution_login_id', '=', loginId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The customer's entries that time can still change (Pending, Completed). */
export async function listOpenMicroEntries(db: Executor, customerId: number): Promise<MicroEntryRow[]> {
  return db
    .selectFrom('micro_entries')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('status', 'in', ['Pending', 'Completed'])
    .orderBy('id')
    .execute();
}
