import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, holdConnection, testDialect, type TestDatabase } from '../helpers/db.js';

/**
 * SQLite has one connection per process: queries and transactions wait for it and get it in the order they asked
 * (src/platform/db/database.ts, SharedConnectionDriver), whatever fails, and none arriving later goes first.
 */
describe.skipIf(testDialect() !== 'sqlite')('the SQLite connection, handed on in arrival order', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterAll(() => db.drop());

  const k = () => db.database.kysely;
  const one = (n: number) => sql<{ n: number }>`select ${n} as n`.execute(k()).then((r) => r.rows[0]!.n);

  it('answers the queries that waited in the order they asked, and one asking as the holder lets go comes after them', async () => {
    const { held, release, done } = holdConnection(k());
    await held;
    const order: number[] = [];
    const waiting = Array.from({ length: 30 }, (_, i) => one(i).then((n) => order.push(n)));
    // The holder lets go; a query asked the moment its transaction is over still queues behind the 30.
    release();
    const late = done.then(() => one(100).then((n) => order.push(n)));
    await Promise.all([...waiting, late]);
    expect(order).toEqual([...Array.from({ length: 30 }, (_, i) => i), 100]);
  });

  it('hands the connection on after a failed query and after a rolled-back transaction', async () => {
    const { held, release, done } = holdConnection(k());
    await held;
    // Their assertions are made at once: the failures may come before `done` (a commit at the end of a turn).
    const failing = expect(sql`select * from no_such_table`.execute(k())).rejects.toThrow(/no_such_table/);
    const rolledBack = expect(
      k()
        .transaction()
        .execute(async (tx) => {
          await sql`select 1`.execute(tx);
          throw new Error('rolled back on purpose');
        }),
    ).rejects.toThrow('rolled back on purpose');
    const after = one(7);
    release();
    await done;
    await failing;
    await rolledBack;
    await expect(after).resolves.toBe(7);
  });

  it('runs two hundred reads, writes and transactions asked at once, each with its own result', async () => {
    await sql`create table if not exists order_check (n integer primary key)`.execute(k());
    const tasks = Array.from({ length: 200 }, (_, i) => {
      if (i % 3 === 0) return sql`insert into order_check (n) values (${i})`.execute(k()).then(() => i);
      if (i % 3 === 1)
        return k()
          .transaction()
          .execute(async (tx) => {
            await sql`insert into order_check (n) values (${i})`.execute(tx);
            return (await sql<{ n: number }>`select n from order_check where n = ${i}`.execute(tx)).rows[0]!.n;
          });
      return one(i);
    });
    expect(await Promise.all(tasks)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const stored = await sql<{ c: number }>`select count(*) as c from order_check`.execute(k());
    expect(stored.rows[0]!.c).toBe(134);
  });
});
