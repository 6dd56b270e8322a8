import { randomBytes } from 'node:crypto';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { systemClock } from '../platform/clock.js';
import { keysFrom } from '../platform/keys.js';

/**
 * The OpenAPI description exactly as the committed file holds it: built from the route schemas of an app
 * on a throwaway database, with the default public URL so the output does not depend on the machine.
 */
export async function generateOpenApiDocument(): Promise<Record<string, unknown>> {
  const database = openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(database);
  const config = loadConfig({ LEDGERLINK_DATA_DIR: '/nonexistent' });
  const app = await buildApp({ config, database, clock: systemClock, keys: keysFrom(randomBytes(32)) }, { logger: false });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await database.close();
  }
}

/** The text of the committed file. */
export function formatOpenApiDocument(doc: Record<string, unknown>): string {
  return JSON.stringify(doc, null, 2) + '\n';
}
