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
