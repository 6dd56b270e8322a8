import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * SQL texts that PostgreSQL runs as named (server-side prepared) statements: parsed and planned once per connection
 * instead of on every execution, which is most of the server's work for the short statements every request runs
 * (docs/benchmarks.md, "Named statements on PostgreSQL"). Only a bounded set of texts may be named (preparedQuery's
 * shapes), since each stays prepared on every connection that ran it for as long as the connection lives.
 */
const names = new Map<string, string>();

/** Runs `sql` as a named statement on PostgreSQL from now on. */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `ledgerlink_${names.size + 1}`);
}

/**
 * Kysely's view of `pool`, whose clients run the named texts as named statements and everything else as before.
 * A pooler in transaction mode must therefore keep prepared statements per client (docs/operations.md).
 */
export function namingPool(pool: pg.Pool): PostgresPool {
  // Kysely keeps one connection per client object, so a client keeps its wrapper.
  const wrapped = new WeakMap<pg.PoolClient, NamingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let named = wrapped.get(client);
      if (!named) wrapped.set(client, (named = new NamingClient(client)));
      return named;
    },
    end: () => pool.end(),
  };
}

class NamingClient implements PostgresPoolClient {
  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') return (this.client.query as (cursor: unknown) => PostgresCursor<R>)(sqlOrCursor);
    const values = parameters as unknown[];
    const name = names.get(sqlOrCursor);
    const result = name ? this.client.query({ name, text: sqlOrCursor, values }) : this.client.query(sqlOrCursor, values);
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release();
  }
}
