import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { type Config, loadConfig } from '../config.js';
import { openRuntime, type Runtime } from '../runtime.js';
import { openDatabase, sqliteFileIn, type Database } from '../../platform/db/database.js';
import { printError } from '../../platform/terminal-text.js';
import { UsageError } from './args.js';

/**
 * Direct mode: a command that opens the data store itself (the SQLite file in --data DIR or LEDGERLINK_DATA_DIR,
 * or the PostgreSQL database of DATABASE_URL). Only commands that make a store's first records (`partner create`,
 * `seed`) may start a new one; the others refuse a store that does not exist, instead of making an empty one
 * wherever they were run.
 */
export interface StoreOptions {
  /** May create the store (and its master key) when there is none. */
  create?: boolean;
}

/** A PostgreSQL URL as it may be shown: without its password (nor any query parameter naming one). */
export function shownDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = '';
    for (const name of [...url.searchParams.keys()]) if (/pass/i.test(name)) url.searchParams.delete(name);
    return url.toString();
  } catch {
    return 'postgres (an unreadable DATABASE_URL)';
  }
}

/** Which store a configuration names, e.g. `sqlite /home/me/data/ledgerlink.sqlite` or `postgres postgres://db.example/ledgerlink`. */
export function storeLabel(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  return config.databaseUrl ? `postgres ${shownDatabaseUrl(config.databaseUrl)}` : `sqlite ${sqliteFileIn(config.dataDir)}`;
}

function hasSqliteStore(config: Config): boolean {
  try {
    return fs.statSync(sqliteFileIn(config.dataDir)).size > 0;
  } catch {
    return false;
  }
}

/** Whether the PostgreSQL schema has been set up by a Ledgerlink (its migration bookkeeping is there). */
async function hasPostgresStore(database: Database): Promise<boolean> {
  const { rows } = await sql<{ found: number }>`
    select 1 as found from information_schema.tables where table_schema = current_schema() and table_name = 'kysely_migration'
  `.execute(database.kysely);
  return rows.length > 0;
}

const NEW_STORE_HINT = 'give --data DIR of an existing store (or DATABASE_URL); `ledgerlink partner create` or `ledgerlink seed` start a new one';

/**
 * Opens the store a command names (migrating it if it is older), having said which on stderr (`store: ...`, so
 * --json output on stdout stays one object). Without `create`, a store that does not exist is a usage mistake.
 */
export async function openStore(dataDir: string | undefined, options: StoreOptions = {}): Promise<Runtime> {
  const config = loadConfig(process.env, { data: dataDir });
  let database: Database | undefined;
  let existed: boolean;
  if (config.databaseUrl) {
    database = openDatabase({ databaseUrl: config.databaseUrl });
    try {
      existed = await hasPostgresStore(database);
    } catch (e) {
      await database.close();
      throw e;
    }
    if (!existed && !options.create) {
      await database.close();
      throw new UsageError(`no Ledgerlink data store in ${storeLabel(config)} (its schema has no Ledgerlink tables)`, NEW_STORE_HINT);
    }
  } else {
    existed = hasSqliteStore(config);
    if (!existed && !options.create)
      throw new UsageError(`no data store in ${config.dataDir} (no ${path.basename(sqliteFileIn(config.dataDir))})`, NEW_STORE_HINT);
  }
  // A new master key for an existing store would make its secrets unreadable, and make a data directory here.
  if (existed && !options.create && !config.masterKey && !fs.existsSync(path.join(config.dataDir, 'master.key'))) {
    await database?.close();
    throw new UsageError(
      `the store ${storeLabel(config)} needs its master key, and ${config.dataDir} has no master.key`,
      'set LEDGERLINK_MASTER_KEY, or give --data DIR holding the master.key of the service that uses this store',
    );
  }
  printError(`store: ${storeLabel(config)}${existed ? '' : ' (new)'}`);
  return openRuntime(config, database ? { database } : {});
}

/** Opens the store (see openStore), runs `fn`, closes it. */
export async function withRuntime<T>(dataDir: string | undefined, fn: (runtime: Runtime) => Promise<T>, options: StoreOptions = {}): Promise<T> {
  const runtime = await openStore(dataDir, options);
  try {
    return await fn(runtime);
  } finally {
    await runtime.database.close();
  }
}
