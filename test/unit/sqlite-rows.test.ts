import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/database.js';

// SQLite rows are read as arrays and turned into objects by a function compiled per statement; they must be
// exactly the objects better-sqlite3 itself would build.
describe('SQLite result rows', () => {
  let database: Database;
  beforeAll(async () => {
    database = openDatabase({});
    await sql`create table t (id integer primary key, name text, amount real, note text, "__proto__" text, "quote""d" text)`.execute(database.kysely);
    await sql`insert into t (id, name, amount, note, "__proto__", "quote""d") values (1, 'a', 1.5, null, 'p', 'q'), (2, 'b', -2, 'x', null, null)`.execute(
      database.kysely,
    );
  });
  afterAll(() => database.close());

  it('have one property per column, in order, with SQLite values and nulls', async () => {
    const rows = await sql<Record<string, unknown>>`select id, name, amount, note from t order by id`.execute(database.kysely);
    expect(rows.rows).toEqual([
      { id: 1, name: 'a', amount: 1.5, note: null },
      { id: 2, name: 'b', amount: -2, note: 'x' },
    ]);
    expect(Object.keys(rows.rows[0]!)).toEqual(['id', 'name', 'amount', 'note']);
    expect(Object.getPrototypeOf(rows.rows[0])).toBe(Object.prototype);
  });

  it('keep the last of two columns with the same name, like better-sqlite3', async () => {
    const rows = await sql<Record<string, unknown>>`select id, name, amount as name from t where id = 1`.execute(database.kysely);
    expect(rows.rows).toEqual([{ id: 1, name: 1.5 }]);
  });

  it('handle column names that are not identifiers, and a column named __proto__ without touching the prototype', async () => {
    const quoted = await sql<Record<string, unknown>>`select "quote""d", name as "a b" from t where id = 1`.execute(database.kysely);
    expect(quoted.rows).toEqual([{ 'quote"d': 'q', 'a b': 'a' }]);
    const proto = await sql<Record<string, unknown>>`select "__proto__" from t where id = 1`.execute(database.kysely);
    expect(Object.getPrototypeOf(proto.rows[0])).toBe(Object.prototype);
  });

  it('stream as objects too, and writes still report changes and ids', async () => {
    const streamed: unknown[] = [];
    for await (const row of database.kysely
      .selectFrom('t' as never)
      .select(['id' as never, 'name' as never])
      .orderBy('id' as never)
      .stream())
      streamed.push(row);
    expect(streamed).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    const inserted = await sql`insert into t (id, name, amount) values (3, 'c', 0)`.execute(database.kysely);
    expect(inserted.numAffectedRows).toBe(1n);
    expect(inserted.insertId).toBe(3n);
    const returning = await sql<{ id: number }>`insert into t (id, name, amount) values (4, 'd', 0) returning id`.execute(database.kysely);
    expect(returning.rows).toEqual([{ id: 4 }]);
  });
});
