import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * Migration 0013's triggers that move `customers.data_version` found the customer through a list or a subquery,
 * which made every written login, account, position or transaction far dearer than the write itself
 * (docs/benchmarks.md, "The data_version triggers by key"):
 *
 * - SQLite: `where id in (old.customer_id, new.customer_id)` in a row trigger cost 116–355 µs per account update
 *   on a seeded database file, against 4–8 µs for these lookups by key, once per owner the row had (an update may
 *   move a row to another customer, or a position to another account); a refresh spent about 30 % of its CPU there.
 * - PostgreSQL: `where id in (select customer_id from changed ...)` over a transition table, of which the planner
 *   knows nothing, was planned as a scan of every customer. `id = any(array(...))` is an index lookup per distinct
 *   customer whatever the planner guesses.
 */
const CUSTOMER_TABLES = ['institution_logins', 'accounts', 'transactions'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

const bump = (customer: string) => `update customers set data_version = data_version + 1 where id = ${customer};`;

function body(table: (typeof CUSTOMER_TABLES)[number] | 'positions', event: (typeof EVENTS)[number]): string {
  const owner = (row: 'new' | 'old') => (table === 'positions' ? `(select customer_id from accounts where id = ${row}.account_id)` : `${row}.customer_id`);
  const key = table === 'positions' ? 'account_id' : 'customer_id';
  if (event === 'insert') return bump(owner('new'));
  if (event === 'delete') return bump(owner('old'));
  // The old owner only when it differs, so a row that stays where it was moves its customer once.
  return `${bump(owner('new'))}\n        update customers set data_version = data_version + 1 where id = ${owner('old')} and old.${key} is not new.${key};`;
}

const PG_BUMP_CUSTOMERS = `create or replace function ledgerlink_bump_customers() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'UPDATE' then
          update customers set data_version = data_version + 1
            where id = any(array(select customer_id from changed union select customer_id from changed_before));
        else
          update customers set data_version = data_version + 1 where id = any(array(select distinct customer_id from changed));
        end if;
        return null;
      end $$`;
const PG_BUMP_POSITION_CUSTOMERS = `create or replace function ledgerlink_bump_position_customers() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'UPDATE' then
          update customers set data_version = data_version + 1 where id = any(array(
            select a.customer_id from accounts a where a.id = any(array(select account_id from changed union select account_id from changed_before))));
        else
          update customers set data_version = data_version + 1 where id = any(array(
            select a.customer_id from accounts a where a.id = any(array(select distinct account_id from changed))));
        end if;
        return null;
      end $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw(PG_BUMP_CUSTOMERS).execute(db);
    await sql.raw(PG_BUMP_POSITION_CUSTOMERS).execute(db);
    return;
  }
  for (const table of [...CUSTOMER_TABLES, 'positions'] as const) {
    for (const event of EVENTS) {
      await sql.raw(`drop trigger if exists ${table}_data_version_${event}`).execute(db);
      await sql
        .raw(`create trigger ${table}_data_version_${event} after ${event} on ${table} for each row begin
        ${body(table, event)}
      end`)
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create or replace function ledgerlink_bump_customers() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'UPDATE' then
          update customers set data_version = data_version + 1 where id in (select customer_id from changed union select customer_id from changed_before);
        else
          update customers set data_version = data_version + 1 where id in (select distinct customer_id from changed);
        end if;
        return null;
      end $$`.execute(db);
    await sql`create or replace function ledgerlink_bump_position_customers() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'UPDATE' then
          update customers set data_version = data_version + 1
            where id in (select a.customer_id from accounts a where a.id in (select account_id from changed union select account_id from changed_before));
        else
          update customers set data_version = data_version + 1
            where id in (select a.customer_id from accounts a where a.id in (select distinct account_id from changed));
        end if;
        return null;
      end $$`.execute(db);
    return;
  }
  const rows = { insert: ['new'], update: ['old', 'new'], delete: ['old'] } as const;
  for (const table of [...CUSTOMER_TABLES, 'positions'] as const) {
    for (const event of EVENTS) {
      const list = rows[event].map((r) => `${r}.${table === 'positions' ? 'account_id' : 'customer_id'}`).join(', ');
      const where = table === 'positions' ? `id in (select customer_id from accounts where id in (${list}))` : `id in (${list})`;
      await sql.raw(`drop trigger if exists ${table}_data_version_${event}`).execute(db);
      await sql
        .raw(`create trigger ${table}_data_version_${event} after ${event} on ${table} for each row begin
        update customers set data_version = data_version + 1 where ${where};
      end`)
        .execute(db);
    }
  }
}
