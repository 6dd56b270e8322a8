import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { preparedQuery } from '../../platform/db/prepared.js';
import type { CustomerRow, CustomerTable, CustomerType } from './table.js';

export type NewCustomerRow = Omit<CustomerTable, 'id' | 'clock_offset_seconds' | 'data_version'>;

export async function insertCustomer(db: Executor, row: NewCustomerRow): Promise<CustomerRow> {
  return db.insertInto('customers').values(row).returningAll().executeTakeFirstOrThrow();
}

const customerQuery = preparedQuery<[id: number, partnerId: string], CustomerRow>(2, (db, id, partnerId) =>
  db.selectFrom('customers').selectAll().where('id', '=', id).where('partner_id', '=', partnerId),
);

/** The partner's customer with this id (every customer-scoped request starts here, so the query is prepared once). */
export async function findCustomer(db: Executor, partnerId: string, id: number): Promise<CustomerRow | undefined> {
  return (await customerQuery(db, id, partnerId))[0];
}

export async function findCustomerByUsername(db: Executor, partnerId: string, username: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('partner_id', '=', partnerId).where('username', '=', username).executeTakeFirst();
}

export interface CustomerFilter {
  /** Case-insensitive text found in the username, the first or last name, or "first last". */
  search?: string | undefined;
  /** Exact username. */
  username?: string | undefined;
  type?: CustomerType | undefined;
}

/** `text` as a LIKE pattern that matches it anywhere, with % _ and \ taken literally (escape character \). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filtered(db: Executor, partnerId: string, filter: CustomerFilter) {
  let q = db.selectFrom('customers').where('partner_id', '=', partnerId);
  if (filter.username !== undefined) q = q.where('username', '=', filter.username);
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  if (filter.search !== undefined) {
    const p = containsPattern(filter.search);
    q = q.where(sql<SqlBool>`(lower(username) like ${p} escape '\\'
      or lower(coalesce(first_name, '')) like ${p} escape '\\'
      or lower(coalesce(last_name, '')) like ${p} escape '\\'
      or lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) like ${p} escape '\\'
      or lower(coalesce(last_name, '') || ' ' || coalesce(first_name, '')) like ${p} escape '\\')`);
  }
  return q;
}

/** One page of a partner's customers in creation order, and how many match in all. */
export async function listCustomers(
  db: Executor,
  partnerId: string,
  filter: CustomerFilter,
  offset: number,
  limit: number,
): Promise<{ found: number; rows: CustomerRow[] }> {
  const count = await filtered(db, partnerId, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, partnerId, filter).selectAll().orderBy('id').limit(limit).offset(offset).execute();
  return { found: Number(count.n), rows };
}

export async function updateCustomer(
  db: Executor,
  partnerId: string,
  id: number,
  changes: Partial<Pick<CustomerTable, 'first_name' | 'last_name'>>,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('customers')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes the customer; foreign keys with ON DELETE CASCADE remove everything it owns. */
export async function deleteCustomerRow(db: Executor, partnerId: string, id: number): Promise<boolean> {
  const result = await db.deleteFrom('customers').where('id', '=', id).where('partner_id', '=', partnerId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
