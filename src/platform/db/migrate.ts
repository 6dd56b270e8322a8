import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider } from 'kysely';
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
    db: schema ? ownSchemaOnly(db, schema) : db,
    provider: new StaticMigrationProvider(),
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (!error) return;
  const failed = results?.find((r) => r.status === 'Error');
  throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/**
 * `db` whose introspection sees only `schema`. Kysely's own reads the columns of every schema in the database and
 * names each schema to check its rights on it, so another client dropping or changing a schema of the same
 * database at that moment made a migration fail (3F000, 42703, 42P01). The migrator asks only which schemas and
 * tables exist.
 */
function ownSchemaOnly(db: Kysely<unknown>, schema: string): Kysely<unknown> {
  const introspection: DatabaseIntrospector = {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db);
      return rows.map((r) => ({ name: r.name, schema, isView: false, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
