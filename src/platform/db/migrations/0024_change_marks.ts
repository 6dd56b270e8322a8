import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * Every committed change to the rows a request's credentials and customer are read from (`partners`,
 * `partner_tokens`, `customers`) is announced, so a process may keep those rows in memory (platform/db/stamped-memo)
 * and forget them when they change, whoever changed them: this process, another one, the CLI.
 *
 * - SQLite: triggers add one to `change_marks.mark` in the writer's own transaction; a reader compares the mark
 *   with the one its memory was filled under (one primary-key read per request).
 * - PostgreSQL: statement triggers send `NOTIFY ledgerlink_change` (delivered at commit, once per transaction and
 *   table); each process listens, and forgets on every notification (see database.ts).
 *
 * Foreign-key cascades (a partner deleted with its tokens and customers) fire the triggers too.
 */
export const WATCHED_TABLES = ['partners', 'partner_tokens', 'customers'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create function ledgerlink_note_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('ledgerlink_change', TG_TABLE_SCHEMA);
        return null;
      end $$`.execute(db);
    for (const table of WATCHED_TABLES) {
      await sql
        .raw(`create trigger ${table}_change_mark after insert or update or delete on ${table} for each statement execute function ledgerlink_note_change()`)
        .execute(db);
    }
    return;
  }
  await sql`create table change_marks (id integer primary key check (id = 1), mark integer not null)`.execute(db);
  await sql`insert into change_marks (id, mark) values (1, 0)`.execute(db);
  for (const table of WATCHED_TABLES) {
    for (const event of EVENTS) {
      await sql
        .raw(`create trigger ${table}_change_mark_${event} after ${event} on ${table} for each row begin
          update change_marks set mark = mark + 1 where id = 1;
        end`)
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of WATCHED_TABLES) await sql.raw(`drop trigger if exists ${table}_change_mark on ${table}`).execute(db);
    await sql`drop function if exists ledgerlink_note_change()`.execute(db);
    return;
  }
  for (const table of WATCHED_TABLES) {
    for (const event of EVENTS) await sql.raw(`drop trigger if exists ${table}_change_mark_${event}`).execute(db);
  }
  await sql`drop table if exists change_marks`.execute(db);
}
