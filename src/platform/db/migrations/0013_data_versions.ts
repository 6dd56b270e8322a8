import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * `customers.data_version` moves on with every committed change to what the customer's account and transaction
 * reads return: its institution logins, accounts, positions and transactions. Triggers keep it, so every writer
 * (the API, the aggregation engine, the sandbox, `ledgerlink seed`, other processes on the same database) moves it
 * in the same transaction as its change, and a cached response can be checked against it with one lookup.
 *
 * SQLite has row triggers only: one cheap primary-key update per changed row. PostgreSQL uses statement triggers
 * with transition tables, one update per customer and statement, so bulk writes do not create a row version of
 * the customer per changed row.
 */
const CUSTOMER_TABLES = ['institution_logins', 'accounts', 'transactions'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('customers')
    .addColumn('data_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  if (isPostgres(db)) {
    // An update may move a row to another customer (or a position to another account): both owners move on.
    await sql`create function ledgerlink_bump_customers() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'UPDATE' then
          update customers set data_version = data_version + 1 where id in (select customer_id from changed union select customer_id from changed_before);
        else
          update customers set data_version = data_version + 1 where id in (select distinct customer_id from changed);
        end if;
        return null;
      end $$`.execute(db);
    await sql`create function ledgerlink_bump_position_customers() returns trigger language plpgsql as $$
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
    for (const table of [...CUSTOMER_TABLES, 'positions'] as const) {
      const fn = table === 'positions' ? 'ledgerlink_bump_position_customers' : 'ledgerlink_bump_customers';
      for (const event of EVENTS) {
        const transition = { insert: 'new table as changed', update: 'old table as changed_before new table as changed', delete: 'old table as changed' }[
          event
        ];
        await sql
          .raw(`create trigger ${table}_data_version_${event} after ${event} on ${table} referencing ${transition} for each statement execute function ${fn}()`)
          .execute(db);
      }
    }
    return;
  }
  // The rows an event concerns: an update may move a row to another customer (or a position to another account).
  const rows = { insert: ['new'], update: ['old', 'new'], delete: ['old'] } as const;
  for (const table of CUSTOMER_TABLES) {
    for (const event of EVENTS) {
      await sql
        .raw(`create trigger ${table}_data_version_${event} after ${event} on ${table} for each row begin
        update customers set data_version = data_version + 1 where id in (${rows[event].map((r) => `${r}.customer_id`).join(', ')});
      end`)
        .execute(db);
    }
  }
  for (const event of EVENTS) {
    await sql
      .raw(`create trigger positions_data_version_${event} after ${event} on positions for each row begin
      update customers set data_version = data_version + 1 where id in (select customer_id from accounts where id in (${rows[event].map((r) => `${r}.account_id`).join(', ')}));
    end`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...CUSTOMER_TABLES, 'positions']) {
    for (const event of EVENTS) await sql.raw(`drop trigger if exists ${table}_data_version_${event}${isPostgres(db) ? ` on ${table}` : ''}`).execute(db);
  }
  if (isPostgres(db)) {
    await sql`drop function if exists ledgerlink_bump_customers()`.execute(db);
    await sql`drop function if exists ledgerlink_bump_position_customers()`.execute(db);
  }
  await db.schema.alterTable('customers').dropColumn('data_version').execute();
}
