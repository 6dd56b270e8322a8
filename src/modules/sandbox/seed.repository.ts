import { sql } from 'kysely';
import type { Database, Executor } from '../../platform/db/database.js';
import type { NewCustomerRow } from '../customers/repository.js';

/** A stored row as plain columns, to copy whatever columns the tables have. */
export type Row = Record<string, unknown>;

/** What seeded customers receive copies of: the template customer's logins, accounts, positions and transaction columns. */
export interface CustomerTemplate {
  logins: Row[];
  accounts: Row[];
  positions: Row[];
  /** The transactions table's columns but the id; none when the template has no transactions. */
  transactionColumns: string[];
}

const without = (row: Row, ...keys: string[]): Row => Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));

/** Reads the template customer's data, and how many transactions it has. */
export async function readTemplate(db: Executor, customerId: number): Promise<{ template: CustomerTemplate; transactions: number }> {
  const logins = (await db.selectFrom('institution_logins').selectAll().where('customer_id', '=', customerId).orderBy('id').execute()) as unknown as Row[];
  const accounts = (await db.selectFrom('accounts').selectAll().where('customer_id', '=', customerId).orderBy('id').execute()) as unknown as Row[];
  const positions =
    accounts.length === 0
      ? []
      : ((await db
          .selectFrom('positions')
          .selectAll()
          .where(
            'account_id',
            'in',
            accounts.map((a) => a.id as number),
          )
          .orderBy('id')
          .execute()) as unknown as Row[]);
  const sample = await db.selectFrom('transactions').selectAll().where('customer_id', '=', customerId).limit(1).executeTakeFirst();
  const count = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  // A pending or transfer link names a row of the template customer's: a copy carries none (aggregation/table.ts).
  const transactionColumns = sample ? Object.keys(sample).filter((c) => c !== 'id' && !LINK_COLUMNS.has(c)) : [];
  return { template: { logins, accounts, positions, transactionColumns }, transactions: Number(count.n) };
}

/** Transaction columns holding the id of another transaction. */
const LINK_COLUMNS = new Set(['pending_transaction_id', 'transfer_transaction_id']);

/** Copies the template customer's logins, accounts, positions and transactions to one new customer. */
export async function copyTemplate(tx: Executor, template: CustomerTemplate, customerId: number): Promise<void> {
  const loginIds = new Map<number, number>();
  for (const login of template.logins) {
    const { id } = await tx
      .insertInto('institution_logins')
      .values({ ...without(login, 'id'), customer_id: customerId, refresh_lease_until: null, refresh_lease_owner: null } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    loginIds.set(login.id as number, id);
  }
  for (const account of template.accounts) {
    const { id } = await tx
      .insertInto('accounts')
      .values({ ...without(account, 'id'), customer_id: customerId, institution_login_id: loginIds.get(account.institution_login_id as number)! } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const positions = template.positions.filter((p) => p.account_id === account.id).map((p) => ({ ...without(p, 'id'), account_id: id }));
    if (positions.length > 0)
      await tx
        .insertInto('positions')
        .values(positions as never)
        .execute();
    const columns = template.transactionColumns;
    if (columns.length === 0) continue;
    await tx
      .insertInto('transactions')
      .columns(columns as never)
      .expression(
        (eb) =>
          eb
            .selectFrom('transactions')
            .select(columns.map((c) => (c === 'customer_id' ? eb.val(customerId).as(c) : c === 'account_id' ? eb.val(id).as(c) : eb.ref(c as 'ref'))) as never)
            .where('account_id', '=', account.id as number)
            .orderBy('id') as never,
      )
      .execute();
  }
}

/** Removes all but the `keep` most recent transactions of a customer (newest by date, then id). */
export async function keepMostRecentTransactions(db: Executor, customerId: number, keep: number): Promise<void> {
  const kept = db
    .selectFrom('transactions')
    .select('id')
    .where('customer_id', '=', customerId)
    .orderBy('effective_date', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  await db.deleteFrom('transactions').where('customer_id', '=', customerId).where('id', 'not in', kept).execute();
}

/** Inserts customers in one statement; answers their ids in order. */
export async function insertCustomers(db: Executor, rows: NewCustomerRow[]): Promise<number[]> {
  return (await db.insertInto('customers').values(rows).returning('id').execute()).map((r) => r.id);
}

/** The tables a seed fills, in the order they are filled. */
const SEEDED_TABLES = ['customers', 'institution_logins', 'accounts', 'positions', 'transactions'] as const;

/**
 * After a bulk load on PostgreSQL, what autovacuum would do minutes later: the planner's statistics, and the
 * visibility map without which an index-only walk (every transaction page and count) also reads each row's table
 * page. Outside any transaction, as VACUUM requires. SQLite needs neither (its plans here do not depend on
 * statistics, and it reads covering indexes alone).
 */
export async function settleAfterBulkLoad(database: Database): Promise<void> {
  if (database.dialect !== 'postgres') return;
  for (const table of SEEDED_TABLES) await sql`vacuum (analyze) ${sql.table(table)}`.execute(database.kysely);
}
