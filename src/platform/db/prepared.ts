import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import { nameStatement } from './named-statements.js';
import type { DB } from './schema.js';

/**
 * A query Kysely builds and compiles once per SQL dialect; each call only swaps in its parameters. Building and
 * compiling a query costs 10 to 16 µs, more than running a primary-key lookup on SQLite, so the statements every
 * request runs (caller, customer, transaction pages) are kept this way. On PostgreSQL they also run as named
 * statements, planned once per connection (named-statements.ts).
 *
 * `build` receives one placeholder per parameter (typed `never`, so it fits any column) and must use each exactly
 * once, as a value (never as SQL text): the compiled query's parameter list is then the placeholders in some order,
 * which is remembered.
 */
export function preparedQuery<Args extends unknown[], R>(
  arity: Args['length'],
  build: (db: Kysely<DB>, ...placeholders: never[]) => Compilable<R>,
): (db: Kysely<DB>, ...args: Args) => Promise<R[]> {
  // The SQL depends only on the dialect: one compilation serves the database, its transactions and pinned connections.
  const compiled = new WeakMap<object, PlaceholderQuery<R>>();
  const compile = (db: Kysely<DB>) => {
    const entry = compileWithPlaceholders(db, arity, build);
    nameStatement(entry.query.sql);
    compiled.set(db.getExecutor().adapter, entry);
    return entry;
  };
  return async (db, ...args) => {
    const { query, bind } = compiled.get(db.getExecutor().adapter) ?? compile(db);
    return (await db.executeQuery<R>({ ...query, parameters: bind(args) })).rows;
  };
}

/** A query compiled with placeholders for its values: its SQL, and its parameter list for the values of a call. */
export interface PlaceholderQuery<R> {
  query: CompiledQuery<R>;
  bind(args: readonly unknown[]): unknown[];
}

/** Builds and compiles a query for preparedQuery (the same rules for `build`), once; `bind` puts values in place. */
export function compileWithPlaceholders<R>(
  db: Kysely<DB>,
  arity: number,
  build: (db: Kysely<DB>, ...placeholders: never[]) => Compilable<R>,
): PlaceholderQuery<R> {
  const placeholders = Array.from({ length: arity }, (_, i) => `\u0000ledgerlink-parameter-${i}\u0000`);
  const query = build(db, ...(placeholders as never[])).compile();
  const index = new Map(placeholders.map((p, i) => [p, i]));
  const positions = query.parameters.map((p) => index.get(p as string) ?? -1);
  const uses = new Array<number>(arity).fill(0);
  for (const p of positions) if (p >= 0) uses[p]!++;
  const wrong = uses.findIndex((n) => n !== 1);
  if (wrong >= 0) throw new Error(`preparedQuery: placeholder ${wrong} must appear exactly once in: ${query.sql}`);
  return { query, bind: (args) => positions.map((p, i) => (p >= 0 ? args[p] : query.parameters[i])) };
}
