/**
 * Migrated PostgreSQL schemas used again within a test process. Creating and migrating a schema costs PostgreSQL
 * far more than emptying one (docs/benchmarks.md, "The test suite's time"), and the integration tests create one
 * per test. A schema a test is done with is emptied and kept for the next test of the same process, when it still
 * has exactly the objects the migrations made and the session may switch triggers off to empty it; otherwise it
 * is dropped, as before. Only the projects that set LEDGERLINK_TEST_SCHEMA_POOL use it; their global setup
 * (schema-pool-global.ts) drops the run's schemas at the end.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/** Names of pooled schemas: the prefix, the run (set by the global setup), a random part. */
export const POOLED_PREFIX = 'tp_';
export const POOL_RUN_ENV = 'LEDGERLINK_TEST_SCHEMA_POOL';

/** What a freshly migrated schema holds: its objects' signature, its tables, and the rows the migrations put in. */
interface Pristine {
  signature: string;
  tables: string[];
  seeds: { table: string; rows: string }[];
}

interface PoolState {
  free: string[];
  pristine?: Pristine;
  /** Set once emptying a schema failed (no right to switch triggers off, say): drop schemas from then on. */
  disabled?: boolean;
}

// On globalThis so that the test files one worker process runs share it.
const state: PoolState = ((globalThis as { __ledgerlinkSchemaPool?: PoolState }).__ledgerlinkSchemaPool ??= { free: [] });

/** The run a pooled schema belongs to, when this process pools schemas. */
export function poolRun(): string | undefined {
  const run = process.env[POOL_RUN_ENV];
  return run && /^[a-z0-9]+$/.test(run) && !state.disabled ? run : undefined;
}

export function newSchemaName(): string {
  const run = poolRun();
  return run ? `${POOLED_PREFIX}${run}_${randomBytes(5).toString('hex')}` : `t_${randomBytes(6).toString('hex')}`;
}

/** A schema emptied to what migrations leave, when the pool has one. */
export function takePooledSchema(): string | undefined {
  return poolRun() ? state.free.pop() : undefined;
}

const SIGNATURE = `
  select (select count(*) from pg_class where relnamespace = n.oid) || '/' ||
         (select count(*) from pg_proc where pronamespace = n.oid) || '/' ||
         (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = n.oid) as signature
  from pg_namespace n where n.nspname = $1`;
const TABLES = `select tablename from pg_tables where schemaname = $1 and tablename not like 'kysely_migration%' order by tablename`;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Records what a schema fresh from its migrations holds, once per process. */
export async function notePristine(client: pg.Client, schema: string): Promise<void> {
  if (state.pristine || !poolRun()) return;
  const signature = (await client.query<{ signature: string }>(SIGNATURE, [schema])).rows[0]!.signature;
  const seeds: Pristine['seeds'] = [];
  const tables = (await client.query<{ tablename: string }>(TABLES, [schema])).rows.map((r) => r.tablename);
  for (const tablename of tables) {
    const table = `${quoted(schema)}.${quoted(tablename)}`;
    const rows = (await client.query<{ rows: string | null }>(`select json_agg(t)::text as rows from ${table} t`)).rows[0]!.rows;
    if (rows) seeds.push({ table: tablename, rows });
  }
  state.pristine = { signature, tables, seeds };
}

/**
 * Empties `schema` back to what its migrations left and keeps it for the next test; answers false when it cannot
 * (the caller then drops it).
 */
export async function returnToPool(client: pg.Client, schema: string): Promise<boolean> {
  const pristine = state.pristine;
  if (!pristine || !poolRun() || !schema.startsWith(POOLED_PREFIX)) return false;
  const signature = (await client.query<{ signature: string }>(SIGNATURE, [schema])).rows[0]?.signature;
  if (signature !== pristine.signature) return false;
  const table = (name: string) => `${quoted(schema)}.${quoted(name)}`;
  // One round trip: emptying a schema statement by statement was most of a PostgreSQL test's own set-up.
  // Triggers and foreign keys off while emptying: the tables are emptied in any order, and no trigger runs.
  const statements = [
    'begin',
    'set local session_replication_role = replica',
    ...pristine.tables.map((name) => `delete from ${table(name)}`),
    ...pristine.seeds.map(
      (seed) => `insert into ${table(seed.table)} select * from json_populate_recordset(null::${table(seed.table)}, ${client.escapeLiteral(seed.rows)}::json)`,
    ),
    'commit',
  ];
  try {
    await client.query(statements.join(';\n'));
  } catch {
    await client.query('rollback').catch(() => undefined);
    state.disabled = true;
    return false;
  }
  state.free.push(schema);
  return true;
}
