import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { ensurePrivateDir, ensurePrivateFile } from '../data-dir.js';
import type { DB } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

/** An open database: the Kysely handle plus which dialect it speaks. */
export interface Database {
  readonly kysely: Kysely<DB>;
  readonly dialect: DialectName;
  close(): Promise<void>;
  /**
   * PostgreSQL only: calls `onNotify` with the payload of every NOTIFY on `channel`, on a connection of its own,
   * until the returned function is called. `onError` hears when that connection is lost.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onError: (e: Error) => void): Promise<() => Promise<void>>;
  /**
   * SQLite only: a value that changes whenever anything may have changed in the database: every statement that
   * may write run through this connection (committed or not, triggers included; counted in JavaScript) and
   * commits of any other connection, in this process or another (the WAL index's change counter, see
   * walIndexChange, or `PRAGMA data_version`). Costs one small read, no round trip. PostgreSQL has no such local
   * signal (other processes commit on the server), so it leaves this undefined.
   */
  changeStamp?(): string;
  /**
   * SQLite file databases only: the file of the request log (see `requestLogFileOf`), attached to every connection
   * as the schema `log`, where the table `request_log` lives; its writer keeps a connection of its own to it.
   */
  readonly requestLogFile?: string;
}

/** Anything queries can run on: the database itself or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export interface OpenOptions {
  /** PostgreSQL connection string. When set, PostgreSQL is used. */
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' for a throwaway database. Used when databaseUrl is absent. */
  sqliteFile?: string;
  /** PostgreSQL schema to use as search_path (tests isolate themselves this way). */
  pgSchema?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

// Parse int8 and numeric as JS numbers: our ids and epoch seconds fit in 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    if (oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

async function listenOn(pool: pg.Pool, channel: string, onNotify: (payload: string) => void, onError: (e: Error) => void): Promise<() => Promise<void>> {
  const client = await pool.connect();
  let released = false;
  // Destroy rather than return the connection, so no pooled connection keeps listening.
  const release = () => {
    if (released) return;
    released = true;
    client.release(true);
  };
  client.on('notification', (message) => {
    if (message.channel === channel) onNotify(message.payload ?? '');
  });
  client.on('error', (e) => {
    if (released) return;
    release();
    onError(e);
  });
  try {
    await client.query(`listen ${client.escapeIdentifier(channel)}`);
  } catch (e) {
    release();
    throw e;
  }
  return async () => release();
}

/** Opens the configured database. The caller runs migrations (see migrate.ts). */
export function openDatabase(options: OpenOptions): Database {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: pgTypes as pg.CustomTypesConfig,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // A client losing its connection (server restart) must not crash the process: idle ones report through the
    // pool, checked-out ones (between the statements of a transaction, say) on themselves. The query in flight
    // fails on its own (mapped to 503), and the pool drops the broken client when it is released.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy(), listen: (channel, onNotify, onError) => listenOn(pool, channel, onNotify, onError) };
  }
  const file = options.sqliteFile ?? ':memory:';
  // The files are made 0600 (their -wal and -shm follow) in a 0700 directory before SQLite opens them: it would
  // make them 0644, readable by every user of the machine.
  const requestLogFile = file === ':memory:' ? undefined : requestLogFileOf(file);
  if (file !== ':memory:') {
    ensurePrivateDir(path.dirname(file));
    ensurePrivateFile(file);
    ensurePrivateFile(requestLogFile!);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a committed outbox row survives power loss, not just a process crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('foreign_keys = ON');
  // The API request log lives in a database file of its own, attached here, so that its writer (a thread with its
  // own connection, see domain/requestlog) never contends for the main database's write lock or grows its WAL,
  // and unqualified `request_log` in queries finds it there (migration 0014 moved it out of the main file).
  if (requestLogFile) {
    sqlite.prepare(`attach database ? as ${REQUEST_LOG_SCHEMA}`).run(requestLogFile);
    sqlite.pragma(`${REQUEST_LOG_SCHEMA}.journal_mode = WAL`);
    sqlite.pragma(`${REQUEST_LOG_SCHEMA}.synchronous = NORMAL`);
  }
  // Writes through this connection are counted as they run (every statement goes through the statement cache);
  // commits of other connections move the WAL index's change counter, read without a lock (walIndexChange), or
  // else `PRAGMA data_version`. Counting in JavaScript saves the statement `select total_changes()` on every
  // request (about 0.5 µs of the 1.8 µs both took under load); the counter costs 0.6 µs where the pragma costs 1.4.
  const writes = { count: 0 };
  const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, writes) }) });
  const dataVersion = sqlite.prepare('pragma main.data_version').pluck();
  // Reading anything creates the WAL index if this connection is the database's first.
  dataVersion.get();
  const walIndex = file === ':memory:' ? undefined : walIndexChange(`${file}-shm`);
  return {
    kysely,
    dialect: 'sqlite',
    close: async () => {
      await kysely.destroy();
      walIndex?.close();
    },
    changeStamp: () => {
      const change = walIndex?.read();
      return change === undefined ? `${writes.count}:v${dataVersion.get() as number}` : `${writes.count}:w${change}`;
    },
    ...(requestLogFile ? { requestLogFile } : {}),
  };
}

const WAL_INDEX_VERSION = 3007000;
const WAL_INDEX_HEADER = 48;

/**
 * The change mark of a WAL-mode database, read from its shared-memory WAL index (the `-shm` file) without a lock
 * (https://sqlite.org/walformat.html). The file starts with two copies of a 48-byte header. Every commit of any
 * connection, and every restart of the WAL, increments the header's change counter (`iChange`, offset 8) and
 * writes the second copy, then the first, before the commit returns. When both copies read alike and the header
 * is initialised, the mark (change counter, last valid frame, WAL salt) is current as of the read. When they
 * differ a writer is halfway, and `read` gives undefined so that the caller asks SQLite (`PRAGMA data_version`).
 * Undefined when there is no such file or it is not of the known version.
 */
export function walIndexChange(shmFile: string): { read(): string | undefined; close(): void } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(shmFile, 'r');
  } catch {
    return undefined;
  }
  const header = Buffer.alloc(2 * WAL_INDEX_HEADER);
  const u32 = (offset: number) => (LITTLE_ENDIAN ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
  const read = (): string | undefined => {
    try {
      // Where the system enforces SQLite's locks on the file (Windows), a locked header cannot be read: ask SQLite.
      if (fs.readSync(fd, header, 0, header.length, 0) !== header.length) return undefined;
    } catch {
      return undefined;
    }
    if (header.compare(header, WAL_INDEX_HEADER, 2 * WAL_INDEX_HEADER, 0, WAL_INDEX_HEADER) !== 0) return undefined;
    // isInit (offset 12) must be set; iVersion, iChange, mxFrame (16), the first WAL salt (32).
    if (header[12] !== 1 || u32(0) !== WAL_INDEX_VERSION) return undefined;
    return `${u32(8)}.${u32(16)}.${u32(32)}`;
  };
  if (read() === undefined) {
    fs.closeSync(fd);
    return undefined;
  }
  return { read, close: () => fs.closeSync(fd) };
}

/** The WAL index is written in the byte order of the machine (it is never moved between machines). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The statement interface Kysely's SQLite driver uses. */
interface DriverStatement {
  readonly reader: boolean;
  readonly busy: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * A prepared statement whose rows come from better-sqlite3 as arrays (raw mode) and become objects through a
 * function compiled once per statement for its result columns. Building each row from a fixed object literal is
 * several times faster than better-sqlite3 setting the properties one by one (a 30-column transaction row: 8 µs
 * → 3 µs), and the objects are the same: one property per column name, a later column of the same name winning.
 */
function fastRows(stmt: SQLite.Statement): DriverStatement {
  if (!stmt.reader) return stmt as unknown as DriverStatement;
  const names = stmt.columns().map((c) => c.name);
  if (names.includes('__proto__')) return stmt as unknown as DriverStatement;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- column names are quoted with JSON.stringify
  const toObject = new Function('r', `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}};`) as (r: unknown[]) => unknown;
  stmt.raw(true);
  return {
    reader: true,
    get busy() {
      return stmt.busy;
    },
    all: (parameters) => (stmt.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => stmt.run(parameters),
    *iterate(parameters) {
      for (const r of stmt.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(r);
    },
  };
}

/**
 * A statement that may write (`readonly` is false for INSERT, UPDATE, DELETE, DDL, with or without RETURNING)
 * adds one to `writes.count` each time it runs, before anything else can run: the count moves with every change
 * this connection makes, like `total_changes()`, committed or not, triggers included.
 */
function counted(stmt: DriverStatement, readonly: boolean, writes: { count: number }): DriverStatement {
  if (readonly) return stmt;
  return {
    reader: stmt.reader,
    get busy() {
      return stmt.busy;
    },
    all: (parameters) => {
      writes.count++;
      return stmt.all(parameters);
    },
    run: (parameters) => {
      writes.count++;
      return stmt.run(parameters);
    },
    iterate: (parameters) => {
      writes.count++;
      return stmt.iterate(parameters);
    },
  };
}

/**
 * Kysely's SQLite driver prepares every statement again on each query; the same few hundred SQL texts repeat,
 * so keep their prepared statements (least recently used beyond `max` are dropped). A statement still busy
 * with an iteration is never handed out twice.
 */
function withStatementCache(db: SQLite.Database, writes: { count: number }, max = 500): { prepare(sql: string): DriverStatement; close(): void } {
  const cache = new Map<string, DriverStatement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const prepared = db.prepare(sql);
      const stmt = counted(fastRows(prepared), prepared.readonly, writes);
      cache.set(sql, stmt);
      if (cache.size > max) cache.delete(cache.keys().next().value!);
      return stmt;
    },
  };
}

/** The schema name under which a SQLite database's request log file is attached. */
export const REQUEST_LOG_SCHEMA = 'log';

/** The request log's file beside a SQLite database file: `ledgerlink.sqlite` → `ledgerlink.request-log.sqlite`. */
export function requestLogFileOf(sqliteFile: string): string {
  return `${sqliteFile.replace(/\.sqlite$/, '')}.request-log.sqlite`;
}

/** The SQLite file inside a data directory. */
export function sqliteFileIn(dataDir: string): string {
  return path.join(dataDir, 'ledgerlink.sqlite');
}
