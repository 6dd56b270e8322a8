import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { StampedMemo, stampedMemo } from '../../src/platform/db/stamped-memo.js';
import { whenReady } from '../../src/platform/when-ready.js';
import { tempSqliteFile, type TempSqliteFile } from '../helpers/db.js';

interface Item {
  name: string;
  value: number;
}

// Two connections to one SQLite file stand for two processes sharing the database.
describe('StampedMemo on SQLite', () => {
  let temp: TempSqliteFile;
  let first: Database;
  let second: Database;
  const k = (d: Database) => d.kysely as unknown as Kysely<{ items: Item; other: { n: number } }>;

  beforeAll(async () => {
    temp = tempSqliteFile();
    first = openDatabase({ sqliteFile: temp.file });
    second = openDatabase({ sqliteFile: temp.file });
    await sql`create table items (name text primary key, value integer not null)`.execute(first.kysely);
    await sql`create table other (n integer)`.execute(first.kysely);
    // The shape migration 0024 gives the tables a memo reads from (partners, partner_tokens, customers): a mark
    // that every row change moves, in the writer's transaction. `other` stands for every other table.
    await sql`create table change_marks (id integer primary key check (id = 1), mark integer not null)`.execute(first.kysely);
    await sql`insert into change_marks (id, mark) values (1, 0)`.execute(first.kysely);
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(`create trigger items_${event} after ${event} on items for each row begin update change_marks set mark = mark + 1 where id = 1; end`)
        .execute(first.kysely);
    }
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    temp.remove();
  });

  let memo: StampedMemo<Item>;
  let loads: number;
  const load = (d: Database, name: string) => async () => {
    loads += 1;
    return k(d).selectFrom('items').selectAll().where('name', '=', name).executeTakeFirst();
  };
  const read = (name: string) => memo.read(name, load(first, name));

  beforeEach(async () => {
    await k(first).deleteFrom('items').execute();
    await k(first)
      .insertInto('items')
      .values([
        { name: 'a', value: 1 },
        { name: 'b', value: 2 },
      ])
      .execute();
    memo = new StampedMemo<Item>(first);
    loads = 0;
  });

  it('uses the stamp a request took on arrival: kept values answer it while that stamp is current, a change made since is loaded', async () => {
    const arrived = first.changeStamp();
    await memo.read('a', load(first, 'a'), arrived);
    await memo.read('a', load(first, 'a'), arrived);
    expect(loads).toBe(1);
    await sql`update items set value = value + 1 where name = 'a'`.execute(second.kysely);
    // A request that arrived before the change may still be answered from memory; one that arrives after is not.
    expect((await memo.read('a', load(first, 'a'), arrived))?.value).toBeDefined();
    const later = first.changeStamp();
    expect(later).not.toBe(arrived);
    const fresh = await memo.read('a', load(first, 'a'), later);
    expect(loads).toBe(2);
    expect(fresh).toEqual(await load(first, 'a')());
  });

  it('serves a value from memory while nothing changes', async () => {
    expect(await read('a')).toEqual({ name: 'a', value: 1 });
    expect(loads).toBe(1);
    for (let i = 0; i < 5; i++) expect(await read('a')).toEqual({ name: 'a', value: 1 });
    expect(loads).toBe(1);
    // Other keys are loaded once each, and kept alongside.
    expect(await read('b')).toEqual({ name: 'b', value: 2 });
    expect(await read('b')).toEqual({ name: 'b', value: 2 });
    expect(await read('a')).toEqual({ name: 'a', value: 1 });
    expect(loads).toBe(2);
    // Reads through either connection change nothing.
    await k(second).selectFrom('items').selectAll().execute();
    await k(first).selectFrom('items').selectAll().execute();
    await read('a');
    expect(loads).toBe(2);
    // What it keeps cannot be changed by whoever got it.
    const kept = await read('a');
    expect(Object.isFrozen(kept)).toBe(true);
  });

  it('gives a kept value at once, not in a promise, and a loaded one in a promise', async () => {
    const first = read('a');
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ name: 'a', value: 1 });
    const kept = read('a');
    expect(kept).not.toBeInstanceOf(Promise);
    expect(kept).toEqual({ name: 'a', value: 1 });
    expect(whenReady(kept, (item) => item?.value)).toBe(1);
    expect(await whenReady(read('b'), (item) => item?.value)).toBe(2);
  });

  it('loads again after a write through the same connection, and returns the new value', async () => {
    await read('a');
    await k(first).updateTable('items').set({ value: 10 }).where('name', '=', 'a').execute();
    expect(await read('a')).toEqual({ name: 'a', value: 10 });
    expect(loads).toBe(2);
    expect(await read('a')).toEqual({ name: 'a', value: 10 });
    expect(loads).toBe(2);
    // A write to a table no memo reads from (the outbox, the request log) forgets nothing.
    await k(first).insertInto('other').values({ n: 1 }).execute();
    expect(await read('a')).toEqual({ name: 'a', value: 10 });
    expect(loads).toBe(2);
    // A delete forgets, and the deleted row is not served from memory.
    await k(first).deleteFrom('items').where('name', '=', 'a').execute();
    expect(await read('a')).toBeUndefined();
    expect(loads).toBe(3);
  });

  it('moves the stamp on every kind of write to a watched table through the same connection: RETURNING, raw SQL, inside an open transaction; reads and other tables leave it alone', async () => {
    const stamp = () => first.changeStamp();
    let before = stamp();
    await k(first).selectFrom('items').selectAll().execute();
    await sql`select count(*) from items`.execute(first.kysely);
    expect(stamp()).toBe(before);
    await k(first).insertInto('items').values({ name: 'r', value: 5 }).returning('value').execute();
    expect(stamp()).not.toBe(before);
    before = stamp();
    await sql`update items set value = 6 where name = 'r'`.execute(first.kysely);
    expect(stamp()).not.toBe(before);
    before = stamp();
    await k(first).updateTable('items').set({ value: 7 }).where('name', '=', 'nobody').execute();
    expect(stamp(), 'a write that changed no row has nothing to forget').toBe(before);
    await k(first).insertInto('other').values({ n: 3 }).execute();
    expect(stamp(), 'a write to another table').toBe(before);
    await k(first)
      .transaction()
      .execute(async (trx) => {
        before = stamp();
        await trx.deleteFrom('items').where('name', '=', 'r').execute();
        // Uncommitted, but visible to this connection's later reads: the stamp has moved already.
        expect(stamp()).not.toBe(before);
      });
    expect(await read('r')).toBeUndefined();
  });

  it('loads again after a commit through another connection (another process), and returns the new value', async () => {
    expect(await read('a')).toEqual({ name: 'a', value: 1 });
    expect(await read('a')).toEqual({ name: 'a', value: 1 });
    expect(loads).toBe(1);
    await k(second).updateTable('items').set({ value: 20 }).where('name', '=', 'a').execute();
    expect(await read('a')).toEqual({ name: 'a', value: 20 });
    expect(loads).toBe(2);
    expect(await read('a')).toEqual({ name: 'a', value: 20 });
    expect(loads).toBe(2);
    // A commit of an explicit transaction of the other connection, to a table no memo reads from: nothing to forget.
    await k(second)
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('other').values({ n: 2 }).execute();
      });
    await read('a');
    expect(loads).toBe(2);
    await k(second)
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'x', value: 0 }).execute();
      });
    await read('a');
    expect(loads).toBe(3);
    // The other connection's uncommitted change is invisible, and once committed, it shows at once.
    await k(second)
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('items').set({ value: 21 }).where('name', '=', 'a').execute();
        expect(await read('a')).toEqual({ name: 'a', value: 20 });
      });
    expect(await read('a')).toEqual({ name: 'a', value: 21 });
  });

  it('never keeps undefined: an absent value is looked up again on every read', async () => {
    expect(await read('c')).toBeUndefined();
    expect(await read('c')).toBeUndefined();
    expect(await read('c')).toBeUndefined();
    expect(loads).toBe(3);
    // Absent values do not disturb kept ones.
    await read('a');
    await read('a');
    expect(loads).toBe(4);
    // Once another process adds it, the very next read finds it.
    await k(second).insertInto('items').values({ name: 'c', value: 3 }).execute();
    expect(await read('c')).toEqual({ name: 'c', value: 3 });
  });

  it('does not keep a value loaded under an older stamp once a newer read has forgotten everything', async () => {
    // A read that started before the change, whose load answers only after a newer read completed.
    let release!: (v: Item) => void;
    const slow = memo.read(
      'a',
      () =>
        new Promise<Item>((resolve) => {
          release = resolve;
        }),
    );
    await k(second).updateTable('items').set({ value: 30 }).where('name', '=', 'a').execute();
    expect(await read('a')).toEqual({ name: 'a', value: 30 });
    // The slow one read before the change: its (old) value must not replace the newer one.
    release({ name: 'a', value: 1 });
    expect(await slow).toEqual({ name: 'a', value: 1 });
    const before = loads;
    expect(await read('a')).toEqual({ name: 'a', value: 30 });
    expect(loads).toBe(before);
  });

  it('keeps one memo per database and name', () => {
    expect(stampedMemo(first, 'x')).toBe(stampedMemo(first, 'x'));
    expect(stampedMemo(first, 'x')).not.toBe(stampedMemo(first, 'y'));
    expect(stampedMemo(first, 'x')).not.toBe(stampedMemo(second, 'x'));
  });

  it('reads every time where the database has no change stamp', async () => {
    // The same SQLite connection seen as a database without a change stamp (PostgreSQL while its LISTEN connection is down).
    const stampless: Database = {
      kysely: first.kysely,
      yielding: first.kysely,
      dialect: 'postgres',
      close: () => first.close(),
      changeStamp: () => undefined,
      changesSettled: async () => {},
    };
    const plain = new StampedMemo<Item>(stampless);
    for (let i = 0; i < 4; i++) expect(await plain.read('a', load(first, 'a'))).toEqual({ name: 'a', value: 1 });
    expect(loads).toBe(4);
    await k(first).updateTable('items').set({ value: 5 }).where('name', '=', 'a').execute();
    expect(await plain.read('a', load(first, 'a'))).toEqual({ name: 'a', value: 5 });
    expect(loads).toBe(5);
  });
});
