import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql, type Compilable, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, sqliteFileIn, type Database, type DialectName, type Executor } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { newSchemaName, notePristine, returnToPool, takePooledSchema } from './schema-pool.js';

/** The PostgreSQL server tests use; CI starts one when none answers. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Which dialect this test run targets (the vitest project sets it). */
export function testDialect(): DialectName {
  return process.env.LEDGERLINK_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  database: Database;
  /** For PostgreSQL, the schema the database lives in (so other processes can join it). */
  pgSchema?: string;
  /** A DATABASE_URL another process can use to reach the same data. */
  url?: string;
  /** For SQLite on a file, the file (so another Database can open the same data). */
  sqliteFile?: string;
  drop(): Promise<void>;
}

/** Where a test keeps a SQLite database on a file: a new temporary directory and the file in it. */
export interface TempSqliteFile {
  /** The directory, laid out as the service's data directory (the request log's file lands beside the database). */
  dir: string;
  /** The database file, not created yet: `openDatabase({ sqliteFile: file })` creates it. */
  file: string;
  /** Deletes the directory and everything in it; close the databases on it first. */
  remove(): void;
}

/**
 * A SQLite database file in a new temporary directory, named as the service names it (`sqliteFileIn`). For tests
 * that open the file themselves (several connections, their own tables, migrations one at a time); a migrated
 * database on a file is `createTestDatabase('sqlite', { onFile: true })`, which uses this.
 */
export function tempSqliteFile(): TempSqliteFile {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-test-db-'));
  return { dir, file: sqliteFileIn(dir), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh, migrated database: SQLite in memory (or, with `onFile`, in a file of a new temporary directory, as the
 * service runs it: `tempSqliteFile`), or a new PostgreSQL schema; drop() removes it.
 */
export async function createTestDatabase(dialect: DialectName = testDialect(), options: { onFile?: boolean } = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite' && options.onFile) {
    const temp = tempSqliteFile();
    const database = openDatabase({ sqliteFile: temp.file });
    await migrateToLatest(database);
    return {
      database,
      sqliteFile: temp.file,
      drop: async () => {
        await database.close();
        temp.remove();
      },
    };
  }
  if (dialect === 'sqlite') {
    const database = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database);
    return { database, drop: () => database.close() };
  }
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  let schema = takePooledSchema();
  let database: Database;
  try {
    if (schema) {
      database = openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 5 });
    } else {
      schema = newSchemaName();
      await admin.query(`create schema ${schema}`);
      database = openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 5 });
      await migrateToLatest(database);
      await notePristine(admin, schema);
    }
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    database,
    pgSchema: schema,
    url: url.toString(),
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      try {
        if (!(await returnToPool(c, schema))) await c.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Another Database on the data of `test`, as another process would open it: the same SQLite file, or the same
 * PostgreSQL schema with a pool of `poolSize`. The caller closes it before `test.drop()`.
 */
export function openSameData(test: TestDatabase, poolSize = 2): Database {
  if (test.sqliteFile) return openDatabase({ sqliteFile: test.sqliteFile });
  if (test.pgSchema) return openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: test.pgSchema, poolSize });
  throw new Error('an in-memory SQLite database cannot be opened again: create it with { onFile: true }');
}

/**
 * The plan the dialect's planner gives for `query`, as text: SQLite's EXPLAIN QUERY PLAN details, PostgreSQL's
 * EXPLAIN lines. PostgreSQL may prefer a sequential scan of a small test table, so sequential scans are off while it
 * is asked: what a plan test checks is that an index plan exists, which is what a large table gets.
 */
export async function explainPlan(executor: Executor, query: Compilable<unknown>): Promise<string> {
  const compiled = query.compile();
  if (testDialect() === 'sqlite') {
    const rows = await executor.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    return rows.rows.map((r) => r.detail).join('\n');
  }
  return executor.connection().execute(async (conn) => {
    await conn.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
    try {
      const rows = await conn.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await conn.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
    }
  });
}

/**
 * The database's change stamp once it gives one (on PostgreSQL its LISTEN connection starts on the first call and
 * the stamp is undefined until it is up); throws after 10 s.
 */
export async function untilStamped(database: Database): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 10) {
    const stamp = database.changeStamp();
    if (stamp !== undefined) return stamp;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the database gave no change stamp within 10 s');
}

/**
 * Waits until the change stamp differs from `before`: at once on SQLite, when the NOTIFY of a change made by
 * another connection arrives on PostgreSQL. Throws after 10 s.
 */
export async function untilStampMoves(database: Database, before: string | undefined): Promise<void> {
  await database.changesSettled();
  if (database.changeStamp() === before) throw new Error('the change stamp did not move');
}

/**
 * Holds the database's connection in an open transaction until `release` is called (on SQLite, the process's only
 * one, so everything else waits for it); `held` resolves once it has it, `done` once the transaction is over.
 */
export function holdConnection<T>(kysely: Kysely<T>): { held: Promise<void>; release: () => void; done: Promise<void> } {
  let release!: () => void;
  let held!: () => void;
  const heldP = new Promise<void>((r) => (held = r));
  const gate = new Promise<void>((r) => (release = r));
  const done = kysely.transaction().execute(async (tx) => {
    await sql`select 1`.execute(tx);
    held();
    await gate;
  });
  return { held: heldP, release, done };
}

/**
 * The dialects a system test runs its processes on: the one of its vitest project. Files that run on both are in
 * the system-sqlite and the system-postgres projects (vitest.config.ts), so each dialect's run is a file of its own
 * that a worker can take while another runs the other; what does not depend on the store runs in system-sqlite only
 * (`onceOnly`).
 */
export const SYSTEM_DIALECTS: readonly DialectName[] = [testDialect()];
/** Whether tests that do not depend on the store run here: in the SQLite project only. */
export const onceOnly = testDialect() === 'sqlite';
/**
 * The store of system test files whose checks do not depend on it (a command's parsing, output and client mode):
 * SQLite only, so they are not in the system-postgres project; what their commands do to a database is covered on
 * both dialects by the integration tests.
 */
export const STORE_NEUTRAL: readonly DialectName[] = ['sqlite'];
