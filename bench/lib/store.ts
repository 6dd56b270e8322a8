/** A throwaway migrated database for benchmarks. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type DialectName } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Store {
  database: Database;
  drop(): Promise<void>;
}

/** A migrated database: a SQLite file in a temporary folder, or a new schema on TEST_DATABASE_URL; drop() removes it. */
export async function openStore(dialect: DialectName): Promise<Store> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-'));
    const database = openDatabase({ sqliteFile: path.join(dir, 'ledgerlink.sqlite') });
    await migrateToLatest(database);
    return {
      database,
      drop: async () => {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = await createPgSchema();
  const database = openDatabase({ databaseUrl: PG_URL, pgSchema: schema.name });
  await migrateToLatest(database);
  return {
    database,
    drop: async () => {
      await database.close();
      await schema.drop();
    },
  };
}

export interface PgSchema {
  name: string;
  /** A DATABASE_URL whose connections use this schema (for a service started as another process). */
  url: string;
  drop(): Promise<void>;
}

/** A new, empty schema on TEST_DATABASE_URL; drop() removes it with everything in it. */
export async function createPgSchema(): Promise<PgSchema> {
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${name}`);
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema ${name} cascade`);
      await c.end();
    },
  };
}
