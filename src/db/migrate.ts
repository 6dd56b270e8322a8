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
  const db = database.kysely as Kysely<unknown>;
  // Pin Kysely's bookkeeping tables to our own schema: otherwise it may find another schema's copies.
  const schema = database.dialect === 'postgres'
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  // Features are developed side by side, so a database may already hold a later migration than a newly merged one.
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(), allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}) });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely checks for its bookkeeping tables by reading the catalogue of every schema in the database; when another
  // schema is dropped at that moment (other applications or test runs sharing the server), PostgreSQL answers 3F000
  // "schema ... does not exist" about that schema. Nothing was migrated then, and the migrator is idempotent: try again.
  for (let retry = 0; retry < 5 && error && (error as { code?: string }).code === '3F000'; retry++) {
    await new Promise((resolve) => setTimeout(resolve, 50 * (retry + 1)));
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
