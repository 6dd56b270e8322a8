import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

/** Kysely migration provider over the statically imported migration list (works from dist/ and src/). */
class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Brings the schema up to date; safe to call from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(database: Database): Promise<void> {
  if (database.dialect !== 'postgres') return migrateOn(database, database.kysely as Kysely<unknown>);
  // On one connection without the service's statement limit: building an index of a large table may take longer.
  return database.kysely.connection().execute(async (connection) => {
    const db = connection as unknown as Kysely<unknown>;
    await sql`set statement_timeout = 0`.execute(db);
    await sql`set idle_in_transaction_session_timeout = 0`.execute(db);
    try {
      await migrateOn(database, db);
    } finally {
      await sql`reset statement_timeout`.execute(db);
      await sql`reset idle_in_transaction_session_timeout`.execute(db);
    }
  });
}

async function migrateOn(database: Database, db: Kysely<unknown>): Promise<void> {
  // Pin Kysely's bookkeeping tables to our own schema: otherwise it may find another schema's copies.
  const schema = database.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  // Features are developed side by side, so a database may already hold a later migration than a newly merged one.
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(),
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  // Kysely looks for its bookkeeping tables through PostgreSQL's catalogue of every schema; a schema another
  // client drops or alters at that moment makes the lookup fail (3F000 invalid schema name, 42703 or 42P01 for a
  // column or table another client's migration is changing). No migration had run then, so trying again is safe.
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    const code = (error as { code?: unknown }).code;
    const catalogueRace = code === '3F000' || code === '42703' || code === '42P01';
    if (catalogueRace && attempt < 5 && !results?.some((r) => r.status === 'Success' || r.status === 'Error')) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
