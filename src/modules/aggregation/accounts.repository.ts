import type { Executor } from '../../platform/db/database.js';
import type { AccountRow, AccountUpdate, NewAccountRow, PositionRow } from './table.js';

/** The customer an account query is scoped to. */
type Owner = { id: number; partner_id: string };

/** Which of a customer's accounts a list holds. */
export interface AccountFilter {
  institutionLoginId?: number;
  institutionId?: number;
  status?: string;
  type?: string;
}

/** The customer's accounts in a stable order (institution login, then the institution's display order). */
export async function selectCustomerAccounts(db: Executor, customer: Owner, filter: AccountFilter): Promise<AccountRow[]> {
  let q = db.selectFrom('accounts').selectAll().where('customer_id', '=', customer.id).where('partner_id', '=', customer.partner_id);
  if (filter.institutionLoginId !== undefined) q = q.where('institution_login_id', '=', filter.institutionLoginId);
  if (filter.institutionId !== undefined) q = q.where('institution_id', '=', filter.institutionId);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  return q.orderBy('institution_login_id').orderBy('display_position').orderBy('id').execute();
}

/** One of the customer's accounts. */
export async function findCustomerAccount(db: Executor, customer: Owner, id: number): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', id)
    .where('customer_id', '=', customer.id)
    .where('partner_id', '=', customer.partner_id)
    .executeTakeFirst();
}

/** The customer's accounts at the institution with these refs, oldest first. */
export async function selectAccountsWithRefs(db: Executor, customerId: number, institutionId: number, refs: readonly string[]): Promise<AccountRow[]> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('institution_id', '=', institutionId)
    .where('ref', 'in', [...refs])
    .orderBy('id')
    .execute();
}

/** How many accounts the customer has, and how many of them have had their first aggregation. */
export async function aggregationProgress(db: Executor, customerId: number): Promise<{ accounts: number; aggregated: number }> {
  return db
    .selectFrom('accounts')
    .select((eb) => [eb.fn.countAll<number>().as('accounts'), eb.fn.count<number>('first_aggregated_at').as('aggregated')])
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
}

/** Whether the institution login still has an account. */
export async function loginHasAccounts(db: Executor, institutionLoginId: number): Promise<boolean> {
  const left = await db.selectFrom('accounts').select('id').where('institution_login_id', '=', institutionLoginId).executeTakeFirst();
  return left !== undefined;
}

/** The login each of these accounts is under now, by account id (a deleted account is missing). */
export async function loginsOfAccounts(db: Executor, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('accounts').select(['id', 'institution_login_id']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), Number(r.institution_login_id)]));
}

export async function insertAccountRow(db: Executor, row: NewAccountRow): Promise<AccountRow> {
  return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateAccountRow(db: Executor, id: number, changes: AccountUpdate): Promise<AccountRow> {
  return db.updateTable('accounts').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Sets the status code and attempt time of these accounts. */
export async function markAccountsAttempted(db: Executor, ids: number[], code: number, now: number): Promise<void> {
  await db.updateTable('accounts').set({ aggregation_status_code: code, aggregation_attempt_at: now }).where('id', 'in', ids).execute();
}

/** Clears the status code of every account of the login. */
export async function clearLoginAccountsStatus(db: Executor, institutionLoginId: number): Promise<void> {
  await db.updateTable('accounts').set({ aggregation_status_code: 0 }).where('institution_login_id', '=', institutionLoginId).execute();
}

/** Deletes accounts; their transactions and positions go with them (ON DELETE CASCADE). */
export async function deleteAccounts(db: Executor, ids: number[]): Promise<void> {
  await db.deleteFrom('accounts').where('id', 'in', ids).execute();
}

/** The stored positions of an account. */
export async function selectPositions(db: Executor, accountId: number): Promise<PositionRow[]> {
  return db.selectFrom('positions').selectAll().where('account_id', '=', accountId).execute();
}

/** The positions of these accounts by account id, each list in id order; no query for none. */
export async function positionsOfAccounts(db: Executor, accountIds: readonly number[]): Promise<Map<number, PositionRow[]>> {
  const out = new Map<number, PositionRow[]>();
  if (accountIds.length === 0) return out;
  const rows = await db
    .selectFrom('positions')
    .selectAll()
    .where('account_id', 'in', [...accountIds])
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = out.get(Number(row.account_id)) ?? [];
    list.push(row);
    out.set(Number(row.account_id), list);
  }
  return out;
}

export async function insertPosition(db: Executor, accountId: number, ref: string, record: string): Promise<void> {
  await db.insertInto('positions').values({ account_id: accountId, ref, record }).execute();
}

export async function updatePosition(db: Executor, id: number, record: string): Promise<void> {
  await db.updateTable('positions').set({ record }).where('id', '=', id).execute();
}

export async function deletePositions(db: Executor, ids: number[]): Promise<void> {
  await db.deleteFrom('positions').where('id', 'in', ids).execute();
}
