import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, holdConnection, testDialect, type TestDatabase } from '../helpers/db.js';

/**
 * What handing the one SQLite connection to its waiters costs (src/platform/db/database.ts, SharedConnectionDriver): one
 * wake per release, so a queue of n waiters drains in time linear in n. Kysely's own driver woke every waiter on
 * every release (n² wakes); both are timed here in the same run, and only their ratio is checked.
 */
describe.skipIf(testDialect() !== 'sqlite')('the cost of waiting for the SQLite connection', () => {
  let db: TestDatabase;
  let stock: Kysely<Record<string, never>>;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    stock = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  });
  afterAll(async () => {
    await stock.destroy();
    await db.drop();
  });

  /** Milliseconds from letting go of the connection until `waiters` queued queries have all been answered. */
  async function drain(k: Kysely<never>, waiters: number): Promise<number> {
    const { held, release, done } = holdConnection(k);
    await held;
    const queries = Array.from({ length: waiters }, (_, i) => sql`select ${i} as n`.execute(k));
    const start = performance.now();
    release();
    await done;
    await Promise.all(queries);
    return performance.now() - start;
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  it('drains 3,000 waiting queries several times faster than a driver that wakes every waiter on each release', async () => {
    const ours = db.database.kysely as unknown as Kysely<never>;
    const theirs = stock as unknown as Kysely<never>;
    await drain(ours, 500);
    await drain(theirs, 500);
    const oursMs: number[] = [];
    const theirsMs: number[] = [];
    for (let round = 0; round < 3; round++) {
      oursMs.push(await drain(ours, 3000));
      theirsMs.push(await drain(theirs, 3000));
    }
    // Measured about 20 times faster (15 against 300 ms); 4 leaves room for a loaded machine.
    expect(median(theirsMs) / median(oursMs), `ours ${oursMs.map(Math.round)} ms, Kysely's ${theirsMs.map(Math.round)} ms`).toBeGreaterThan(4);
  });
});
