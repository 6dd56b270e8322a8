import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * A query Kysely builds and compiles once per database; each call only swaps in its parameters. Building and
 * compiling a query costs 10 to 16 µs, more than running a primary-key lookup on SQLite, so the statements every
 * request runs (caller, customer) are kept this way.
 *
 * `build` receives one placeholder per parameter (typed `never`, so it fits any column) and must use each exactly
 * once, as a value (never as SQL text): the compiled query's parameter list is then the placeholders in some order,
 * which is remembered.
 */
export function preparedQuery<Args extends unknown[], R>(arity: Args['length'], build: (db: Kysely<DB>, ...placeholders: never[]) => Compilable<R>): (db: Kysely<DB>, ...args: Args) => Promise<R[]> {
  const compiled = new WeakMap<Kysely<DB>, { query: CompiledQuery<R>; positions: number[] }>();
  const compile = (db: Kysely<DB>) => {
    const placeholders = Array.from({ length: arity }, (_, i) => `\u0000ledgerlink-parameter-${i}\u0000`);
    const query = build(db, ...(placeholders as never[])).compile();
    const positions = query.parameters.map((p) => placeholders.indexOf(p as string));
    for (let i = 0; i < arity; i++) {
      if (positions.filter((p) => p === i).length !== 1) throw new Error(`preparedQuery: placeholder ${i} must appear exactly once in: ${query.sql}`);
    }
    const entry = { query, positions };
    compiled.set(db, entry);
    return entry;
  };
  return async (db, ...args) => {
    const { query, positions } = compiled.get(db) ?? compile(db);
    const parameters = positions.map((p, i) => (p >= 0 ? args[p] : query.parameters[i]));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
