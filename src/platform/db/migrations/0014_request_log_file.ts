import { sql, type Kysely } from 'kysely';
import { REQUEST_LOG_SCHEMA as SCHEMA } from '../database.js';
import { isPostgres } from './helpers.js';
const COLUMNS = 'id, partner_id, method, path, route, status, latency_ms, error_code, request_id, ip, created_at_ms';

/** Whether the request log's own file is attached (SQLite file databases; see openDatabase). */
async function logAttached(db: Kysely<unknown>): Promise<boolean> {
  if (isPostgres(db)) return false;
  const { rows } = await sql<{ name: string }>`pragma database_list`.execute(db);
  return rows.some((r) => r.name === SCHEMA);
}

async function tableIn(db: Kysely<unknown>, schema: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.id(schema, 'sqlite_master')} where type = 'table' and name = 'request_log'`.execute(
    db,
  );
  return Number(rows[0]?.n) > 0;
}

/** The request log's table and indexes (as migration 0009 made them on SQLite) in `schema`, unless there. */
async function createTable(db: Kysely<unknown>, schema: string): Promise<void> {
  await sql
    .raw(`create table if not exists ${schema}.request_log (
    id integer primary key autoincrement,
    partner_id text,
    method text not null,
    path text not null,
    route text,
    status integer not null,
    latency_ms double precision not null,
    error_code text,
    request_id text not null,
    ip text not null,
    created_at_ms bigint not null
  )`)
    .execute(db);
  await sql.raw(`create index if not exists ${schema}.request_log_partner on request_log (partner_id, id)`).execute(db);
  await sql.raw(`create index if not exists ${schema}.request_log_created on request_log (created_at_ms)`).execute(db);
}

/**
 * SQLite file databases: the request log moves from the main file into its own attached file, where a writer
 * thread appends to it without taking the main database's write lock. Its rows come along with their ids. A
 * transaction over two attached WAL files is atomic per file only, so every step can be repeated: the copy skips
 * rows already copied. PostgreSQL and in-memory SQLite keep the table where it is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(await logAttached(db))) return;
  await createTable(db, SCHEMA);
  if (await tableIn(db, 'main')) {
    await sql.raw(`insert or ignore into ${SCHEMA}.request_log (${COLUMNS}) select ${COLUMNS} from main.request_log`).execute(db);
    await sql.raw('drop table main.request_log').execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(await logAttached(db)) || !(await tableIn(db, SCHEMA))) return;
  await createTable(db, 'main');
  await sql.raw(`insert or ignore into main.request_log (${COLUMNS}) select ${COLUMNS} from ${SCHEMA}.request_log`).execute(db);
  await sql.raw(`drop table ${SCHEMA}.request_log`).execute(db);
}
