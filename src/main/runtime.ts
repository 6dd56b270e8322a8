import type { Logger } from 'pino';
import type { Config } from './config.js';
import { openDatabase, sqliteFileIn, type Database } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { ensureInstitutionCatalog } from '../modules/institutions/seed.service.js';
import { systemClock, type Clock } from '../platform/clock.js';
import { warnAboutDataPermissions } from '../platform/data-dir.js';
import { keysFrom, loadMasterKey } from '../platform/keys.js';

export type { Runtime } from '../platform/dependencies.js';
import type { Runtime } from '../platform/dependencies.js';

export interface RuntimeOptions {
  clock?: Clock;
  database?: Database;
  logger?: Logger;
}

/**
 * Opens the database (migrating it, loading the institution catalogue on first start), loads the master key, and
 * returns the runtime. With a logger, also warns when the data directory is readable by other users.
 */
export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const database =
    options.database ??
    openDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: sqliteFileIn(config.dataDir),
      poolSize: config.pgPoolSize,
      statementTimeoutMs: config.pgStatementTimeoutMs,
    });
  const clock = options.clock ?? systemClock;
  try {
    await migrateToLatest(database);
    await ensureInstitutionCatalog(database);
  } catch (e) {
    await database.close();
    throw e;
  }
  const keys = keysFrom(loadMasterKey(config.masterKey, config.dataDir));
  // Processes that start the service (serve, worker) pass a logger: they say when others may read the data.
  if (options.logger && (!config.databaseUrl || !config.masterKey)) warnAboutDataPermissions(config.dataDir, options.logger);
  return { config, database, clock, keys };
}
