import type { ExpressionBuilder } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import type { InstitutionLoginRow, InstitutionLoginUpdate, NewInstitutionLoginRow } from './table.js';

/** One of the customer's institution logins. */
export async function findCustomerLogin(db: Executor, customer: { id: number; partner_id: string }, id: number): Promise<InstitutionLoginRow | undefined> {
  return db
    .selectFrom('institution_logins')
    .selectAll()
    .where('id', '=', id)
    .where('customer_id', '=', customer.id)
    .where('partner_id', '=', customer.partner_id)
    .executeTakeFirst();
}

export async function findLogin(db: Executor, id: number): Promise<InstitutionLoginRow | undefined> {
  return db.selectFrom('institution_logins').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The customer's institution logins, oldest first. */
export async function listCustomerLogins(db: Executor, customerId: number): Promise<InstitutionLoginRow[]> {
  return db.selectFrom('institution_logins').selectAll().where('customer_id', '=', customerId).orderBy('id').execute();
}

export async function insertLogin(db: Executor, row: NewInstitutionLoginRow): Promise<InstitutionLoginRow> {
  return db.insertInto('institution_logins').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateLogin(db: Executor, id: number, changes: InstitutionLoginUpdate): Promise<InstitutionLoginRow> {
  return db.updateTable('institution_logins').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteLogin(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('institution_logins').where('id', '=', id).execute();
}

/**
 * Locks the customer's row until the transaction ends (a no-op update), so that linking runs one at a time per
 * customer.
 */
export async function lockCustomerForLinking(db: Executor, customerId: number): Promise<void> {
  await db
    .updateTable('customers')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', customerId)
    .execute();
}

/** A condition on logins: no refresh holds the login's lease, or the lease ran out (before `now`). */
export function refreshLeaseFree(now: number) {
  return (eb: ExpressionBuilder<DB, 'institution_logins'>) => eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<', now)]);
}

/** Takes the refresh lease of a login when no one holds it or it ran out (before `now`); true when taken. */
export async function takeRefreshLease(db: Executor, loginId: number, owner: string, now: number, until: number): Promise<boolean> {
  const result = await db
    .updateTable('institution_logins')
    .set({ refresh_lease_until: until, refresh_lease_owner: owner })
    .where('id', '=', loginId)
    .where(refreshLeaseFree(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Until when a refresh holds the login (null when none does; undefined when the login is gone). */
export async function refreshLeaseUntil(db: Executor, loginId: number): Promise<number | null | undefined> {
  const row = await db.selectFrom('institution_logins').select('refresh_lease_until').where('id', '=', loginId).executeTakeFirst();
  return row?.refresh_lease_until;
}

/** Who holds the login's refresh lease; undefined when nobody does (free, run out, or the login is gone). */
export async function refreshLeaseOwner(db: Executor, loginId: number, now: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('institution_logins')
    .select('refresh_lease_owner')
    .where('id', '=', loginId)
    .where((eb) => eb.not(refreshLeaseFree(now)(eb)))
    .executeTakeFirst();
  return row?.refresh_lease_owner ?? undefined;
}

/** Updates the login if `owner` still holds its refresh lease; true when it did. */
export async function updateLeasedLogin(db: Executor, loginId: number, owner: string, changes: InstitutionLoginUpdate): Promise<boolean> {
  const result = await db.updateTable('institution_logins').set(changes).where('id', '=', loginId).where('refresh_lease_owner', '=', owner).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The customer's statement-file login at the institution (there is at most one), if any. */
export async function findStatementFileLogin(db: Executor, customerId: number, institutionId: number): Promise<InstitutionLoginRow | undefined> {
  return db
    .selectFrom('institution_logins')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('institution_id', '=', institutionId)
    .where('source', '=', 'statement-file')
    .executeTakeFirst();
}
