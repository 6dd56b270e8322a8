import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type Compilable, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, sqliteFileIn, type Database, type DialectName, type Executor } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';

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

/**
 * A fresh, migrated database: SQLite in memory (or, with `onFile`, in a file of a new temporary directory, as the
 * service runs it), or a new PostgreSQL schema; drop() removes it.
 */
export async function createTestDatabase(dialect: DialectName = testDialect(), options: { onFile?: boolean } = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite' && options.onFile) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-test-db-'));
    const sqliteFile = sqliteFileIn(dir);
    const database = openDatabase({ sqliteFile });
    await migrateToLatest(database);
    return {
      database,
      sqliteFile,
      drop: async () => {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (dialect === 'sqlite') {
    const database = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database);
    return { database, drop: () => database.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 5 });
  await migrateToLatest(database);
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
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
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
