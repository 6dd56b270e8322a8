import { sql, type Kysely } from 'kysely';
import type { Database, Executor } from '../../platform/db/database.js';
import { preparedQuery } from '../../platform/db/prepared.js';
import type { DB } from '../../platform/db/schema.js';
import type { RequestLogDetailColumn, RequestLogDetailRow, RequestLogRow, RequestLogTable } from './table.js';

/** A row to write; its headers and bodies may be left out (none kept). */
export type RequestLogEntry = Omit<RequestLogTable, 'id' | RequestLogDetailColumn> & Partial<Pick<RequestLogTable, RequestLogDetailColumn>>;

/** Rows per INSERT; the event loop serves requests between two of them. */
const CHUNK = 100;

/** The columns an entry fills, in the order of an INSERT's parameters (and of the writer thread's). */
export const COLUMNS = [
  'partner_id',
  'method',
  'path',
  'route',
  'status',
  'latency_ms',
  'error_code',
  'request_id',
  'ip',
  'created_at_ms',
  'request_headers',
  'request_body',
  'request_bytes',
  'response_headers',
  'response_body',
  'response_bytes',
] as const satisfies ReadonlyArray<keyof RequestLogEntry>;

/** The columns lists read: an entry without its headers and bodies, which only its detail shows. */
const LIST_COLUMNS = ['id', 'partner_id', 'method', 'path', 'route', 'status', 'latency_ms', 'error_code', 'request_id', 'ip', 'created_at_ms'] as const;

/** The entries' values in COLUMNS order, one row after another: the parameters of a multi-row INSERT. */
export function valuesOf(entries: readonly RequestLogEntry[]): unknown[] {
  const values: unknown[] = new Array(entries.length * COLUMNS.length);
  let i = 0;
  for (const e of entries) for (const column of COLUMNS) values[i++] = e[column] ?? null;
  return values;
}

type InsertRows = (db: Kysely<DB>, ...values: unknown[]) => Promise<unknown[]>;
const inserts = new Map<number, InsertRows>();

/**
 * How `rows` entries are split into INSERTs: CHUNK rows at a time, the rest in descending powers of two. Each
 * size is a statement compiled once and kept; when every size from 1 to CHUNK came up (the last INSERT of each
 * batch), the kept statements of up to 1,000 parameters each held several MB of native memory.
 */
export function insertSizes(rows: number): number[] {
  const sizes: number[] = [];
  let left = rows;
  for (; left >= CHUNK; left -= CHUNK) sizes.push(CHUNK);
  for (let size = 2 ** Math.floor(Math.log2(CHUNK - 1)); size >= 1; size /= 2) {
    if (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}

/** A multi-row INSERT of `rows` entries, compiled once per size (building 1,000 values per flush cost more than writing them). */
function insertOf(rows: number): InsertRows {
  let insert = inserts.get(rows);
  if (!insert) {
    insert = preparedQuery<unknown[], unknown>(rows * COLUMNS.length, (db, ...p) =>
      db
        .insertInto('request_log')
        .values(
          Array.from(
            { length: rows },
            (_, r) => Object.fromEntries(COLUMNS.map((column, c) => [column, p[r * COLUMNS.length + c]])) as unknown as RequestLogEntry,
          ),
        ),
    );
    inserts.set(rows, insert);
  }
  return insert;
}

/**
 * Writes one chunk of entries in one statement. On SQLite its commit does not wait for the disk (synchronous
 * NORMAL, for this statement only): the log is best effort, WAL mode stays consistent, and the next commit of
 * anything else (synchronous FULL) makes it durable with its own. Every other commit keeps waiting for the disk.
 */
export async function writeChunk(database: Database, entries: readonly RequestLogEntry[]): Promise<void> {
  const values = valuesOf(entries);
  const insert = insertOf(entries.length);
  if (database.dialect !== 'sqlite') {
    await insert(database.kysely, ...values);
    return;
  }
  await database.kysely.connection().execute(async (conn) => {
    await sql`pragma synchronous = normal`.execute(conn);
    try {
      await insert(conn, ...values);
    } finally {
      await sql`pragma synchronous = full`.execute(conn);
    }
  });
}

export async function pruneRequestLog(db: Executor, beforeMs: number): Promise<void> {
  await db.deleteFrom('request_log').where('created_at_ms', '<', beforeMs).execute();
}

/** What a list of entries is narrowed to; every part is optional. */
export interface RequestLogQuery {
  partnerId?: string | undefined;
  afterId?: number | undefined;
  /** Inclusive range of statuses. */
  status?: readonly [number, number] | undefined;
  /** Upper-case method. */
  method?: string | undefined;
  /** Text the path (with its query string) contains, in any letter case. */
  path?: string | undefined;
  limit: number;
}

/** `text` as a LIKE pattern matching itself anywhere, with `\` escaping LIKE's wildcards. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A partner's log entries (or everyone's when partnerId is undefined) that match the filters, newest first, or those
 * after `afterId` oldest first. Headers and bodies are not read.
 */
export async function selectRequestLog(db: Executor, filter: RequestLogQuery): Promise<RequestLogRow[]> {
  let q = db.selectFrom('request_log').select(LIST_COLUMNS);
  if (filter.partnerId !== undefined) q = q.where('partner_id', '=', filter.partnerId);
  if (filter.status !== undefined) q = q.where('status', '>=', filter.status[0]).where('status', '<=', filter.status[1]);
  if (filter.method !== undefined) q = q.where('method', '=', filter.method);
  // lower() on both sides: SQLite's LIKE ignores ASCII case and PostgreSQL's does not.
  if (filter.path !== undefined && filter.path !== '') q = q.where(sql<boolean>`lower(path) like ${containsPattern(filter.path)} escape '\\'`);
  if (filter.afterId !== undefined) return q.where('id', '>', filter.afterId).orderBy('id', 'asc').limit(filter.limit).execute();
  return q.orderBy('id', 'desc').limit(filter.limit).execute();
}

/** One entry of a partner's log with its headers and bodies, or undefined when the partner has no entry of that id. */
export async function selectRequestLogEntry(db: Executor, partnerId: string, id: number): Promise<RequestLogDetailRow | undefined> {
  return db.selectFrom('request_log').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

/** The id of the partner whose app key has this hash, if any. */
export async function partnerIdOfAppKeyHash(db: Executor, appKeyHash: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('partners').select('id').where('app_key_hash', '=', appKeyHash).executeTakeFirst();
}

/** The id of the partner a token with this hash was issued to (expired or not), if it is still stored. */
export async function partnerIdOfTokenHash(db: Executor, tokenHash: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('partner_tokens').select('partner_id as id').where('token_hash', '=', tokenHash).executeTakeFirst();
}
