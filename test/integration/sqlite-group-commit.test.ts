import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { ROOT } from '../helpers/cli.js';
import { tempSqliteFile, testDialect } from '../helpers/db.js';

const require = createRequire(import.meta.url);

/**
 * Group commit on SQLite (SharedConnectionDriver in src/platform/db/database.ts): the writes of a turn of the event
 * loop share one commit, and so one wait for the disk; each caller hears back only once its write is committed,
 * and a write that fails, or a commit that fails, fails only those it concerns.
 */
describe.skipIf(testDialect() !== 'sqlite')('group commit on SQLite', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A store on a file, with a table of items, and a second connection to the file (another process's view). */
  async function store(): Promise<{ database: Database; file: string; other: SQLite.Database }> {
    const { file, remove } = tempSqliteFile();
    const database = openDatabase({ sqliteFile: file });
    await sql`create table items (n integer primary key, label text not null)`.execute(database.kysely);
    await sql`create table parents (id integer primary key)`.execute(database.kysely);
    await sql`create table children (id integer primary key, parent_id integer not null references parents (id) deferrable initially deferred)`.execute(
      database.kysely,
    );
    await sql`create table change_marks (id integer primary key, mark integer not null)`.execute(database.kysely);
    await sql`insert into change_marks (id, mark) values (1, 0)`.execute(database.kysely);
    const other = new SQLite(file, { readonly: true });
    cleanups.push(remove);
    cleanups.push(() => database.close().catch(() => undefined));
    cleanups.push(() => {
      other.close();
    });
    return { database, file, other };
  }

  const insert = (db: Database, n: number, label = 'item') => sql`insert into items (n, label) values (${n}, ${label})`.execute(db.kysely);

  /** Frames in the write-ahead log: each commit appends its changed pages, the last one marked as a commit. */
  function walFrames(file: string, pageSize: number): number {
    const size = fs.statSync(`${file}-wal`).size;
    return size === 0 ? 0 : (size - 32) / (pageSize + 24);
  }

  it('commits a hundred writes asked at once in a few commits, where a commit each fills a hundred WAL frames', async () => {
    const { database, file } = await store();
    const pageSize = (await sql<{ page_size: number }>`pragma page_size`.execute(database.kysely)).rows[0]!.page_size;
    await sql`pragma wal_checkpoint(truncate)`.execute(database.kysely);
    await Promise.all(Array.from({ length: 100 }, (_, i) => insert(database, i)));
    const grouped = walFrames(file, pageSize);
    // The same hundred writes on a connection of SQLite's own, each its own commit: one page changes per write here.
    await database.close();
    const alone = new SQLite(file);
    alone.pragma('wal_checkpoint(truncate)');
    const write = alone.prepare("insert into items (n, label) values (?, 'alone')");
    for (let i = 0; i < 100; i++) write.run(1000 + i);
    const separate = walFrames(file, pageSize);
    alone.close();
    expect(separate).toBeGreaterThanOrEqual(100);
    expect(grouped).toBeLessThanOrEqual(10);
  });

  it('answers each write only once it is committed: another connection sees it then', async () => {
    const { database, other } = await store();
    const seen = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0
          ? insert(database, i)
          : database.kysely.transaction().execute(async (tx) => {
              await sql`insert into items (n, label) values (${i}, 'in a transaction')`.execute(tx);
            })
        ).then(() => other.prepare('select count(*) as c from items where n = ?').get(i) as { c: number }),
      ),
    );
    expect(seen.every((r) => r.c === 1)).toBe(true);
  });

  it('fails only the write that fails and the transaction that rolls back; the others of the turn are kept', async () => {
    const { database, other } = await store();
    await insert(database, 7, 'already there');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => {
        if (i === 7) return insert(database, 7, 'taken twice');
        if (i % 5 === 4)
          return database.kysely.transaction().execute(async (tx) => {
            await sql`insert into items (n, label) values (${100 + i}, 'rolled back')`.execute(tx);
            throw new Error(`rolled back ${i}`);
          });
        return insert(database, 100 + i);
      }),
    );
    const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [i] : []));
    expect(failed).toEqual([4, 7, 9, 14, 19, 24, 29]);
    expect(String((outcomes[7] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    const kept = (other.prepare('select n, label from items order by n').all() as { n: number; label: string }[]).map((r) => r.n);
    expect(kept).toEqual([
      7,
      ...Array.from({ length: 30 }, (_, i) => i)
        .filter((i) => i !== 7 && i % 5 !== 4)
        .map((i) => 100 + i),
    ]);
    expect(other.prepare('select label from items where n = 7').get()).toEqual({ label: 'already there' });
  });

  it('when a commit fails, every write it carried fails, none is kept, and the next writes commit again', async () => {
    const { database, other } = await store();
    const stamp = database.changeStamp();
    // A child without its parent passes each statement and fails the commit (a deferred foreign key).
    const outcomes = await Promise.allSettled([
      insert(database, 1),
      sql`insert into children (id, parent_id) values (1, 999)`.execute(database.kysely),
      insert(database, 2),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(other.prepare('select count(*) as c from items').get()).toEqual({ c: 0 });
    // What was read from the rolled-back writes must not pass for a later state with the same mark.
    expect(database.changeStamp()).not.toBe(stamp);
    expect(other.prepare('select count(*) as c from children').get()).toEqual({ c: 0 });
    await Promise.all([insert(database, 10), insert(database, 11)]);
    expect(other.prepare('select count(*) as c from items where n >= 10').get()).toEqual({ c: 2 });
  });

  it('runs DDL and PRAGMAs asked between writes after committing those before them', async () => {
    const { database, other } = await store();
    const committed = () => (other.prepare('select n from items order by n').all() as { n: number }[]).map((r) => r.n);
    // What another connection sees when each is answered: the write before the DDL is committed by then.
    const seen = await Promise.all([
      insert(database, 1).then(committed),
      sql`create table later (x integer)`.execute(database.kysely).then(committed),
      sql`pragma synchronous = normal`.execute(database.kysely).then(committed),
      insert(database, 2).then(committed),
      sql`pragma synchronous = full`.execute(database.kysely).then(committed),
    ]);
    expect(seen[1]).toEqual([1]);
    expect(seen[4]).toEqual([1, 2]);
    expect(other.prepare("select count(*) as c from sqlite_master where name = 'later'").get()).toEqual({ c: 1 });
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(database.kysely)).rows[0]!.synchronous).toBe(2);
  });

  it('when SQLite rolls the whole group back (a trigger raises ROLLBACK), the writes it carried fail and later ones commit', async () => {
    const { database, other } = await store();
    await sql`create table refused (x integer)`.execute(database.kysely);
    await sql`create trigger refuse before insert on refused begin select raise(rollback, 'refused by trigger'); end`.execute(database.kysely);
    const outcomes = await Promise.allSettled([insert(database, 1), sql`insert into refused (x) values (1)`.execute(database.kysely), insert(database, 2)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/refused by trigger/);
    expect((other.prepare('select n from items order by n').all() as { n: number }[]).map((r) => r.n)).toEqual([2]);
  });

  // Kysely's own driver runs such later writes outside any transaction and keeps them.
  it('a transaction that goes on writing after SQLite rolled it back keeps none of it', async () => {
    const { database, other } = await store();
    await sql`create table refused (x integer)`.execute(database.kysely);
    await sql`create trigger refuse before insert on refused begin select raise(rollback, 'refused by trigger'); end`.execute(database.kysely);
    const outcome = database.kysely.transaction().execute(async (tx) => {
      await sql`insert into items (n, label) values (5, 'before')`.execute(tx);
      await sql`insert into refused (x) values (1)`.execute(tx).catch(() => undefined);
      await sql`insert into items (n, label) values (6, 'after')`.execute(tx);
    });
    await expect(outcome).rejects.toThrow();
    await insert(database, 7);
    expect((other.prepare('select n from items order by n').all() as { n: number }[]).map((r) => r.n)).toEqual([7]);
  });

  it('a transaction that only reads, or rolls back, gets its own answer even when the commit of the writes beside it fails', async () => {
    const { database } = await store();
    const outcomes = await Promise.allSettled([
      insert(database, 1),
      sql`insert into children (id, parent_id) values (1, 999)`.execute(database.kysely),
      database.kysely.transaction().execute(async (tx) => (await sql<{ c: number }>`select count(*) as c from items`.execute(tx)).rows[0]!.c),
      database.kysely.transaction().execute(async (tx) => {
        await sql`insert into items (n, label) values (3, 'rolled back')`.execute(tx);
        throw new Error('its own error');
      }),
    ]);
    expect(outcomes[2]).toMatchObject({ status: 'fulfilled' });
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toMatch(/its own error/);
    expect(outcomes[1]).toMatchObject({ status: 'rejected' });
  });

  it('a holder whose writes a failing commit carried hears it before its DDL runs', async () => {
    const { database, other } = await store();
    const outcome = database.kysely.connection().execute(async (conn) => {
      await sql`insert into children (id, parent_id) values (1, 999)`.execute(conn);
      await sql`create table made_after (x integer)`.execute(conn);
    });
    await expect(outcome).rejects.toThrow(/FOREIGN KEY/);
    expect(other.prepare("select count(*) as c from sqlite_master where name = 'made_after'").get()).toEqual({ c: 0 });
  });

  it('commits what is open when the database closes', async () => {
    const { database, file } = await store();
    const writes = Promise.all(Array.from({ length: 10 }, (_, i) => insert(database, i)));
    await database.close();
    await writes;
    const reopened = new SQLite(file, { readonly: true });
    expect(reopened.prepare('select count(*) as c from items').get()).toEqual({ c: 10 });
    reopened.close();
  });

  it('a write waits for another process that holds the write lock, also after a transaction of this process only read', async () => {
    const { database, file, other } = await store();
    // Another process takes the write lock and keeps it for 300 ms.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))}); const db = new D(${JSON.stringify(file)});
         db.exec("begin immediate; insert into items (n, label) values (100, 'other process')");
         process.stdout.write('locked\\n');
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
         db.exec('commit'); db.close();`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    // A transaction that only reads opens a snapshot from before the other commit; the write after it must not use it.
    await database.kysely.transaction().execute(async (tx) => sql`select count(*) from items`.execute(tx));
    await insert(database, 1);
    await new Promise((resolve) => holder.once('exit', resolve));
    expect((other.prepare('select n from items order by n').all() as { n: number }[]).map((r) => r.n)).toEqual([1, 100]);
  });

  it('the code commits transactions only through transaction().execute(): startTransaction would be acknowledged before the group commit', () => {
    const files = fs.readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const using = files.filter((f) => /\.startTransaction\(/.test(fs.readFileSync(path.join(ROOT, 'src', f), 'utf8')));
    expect(using).toEqual([]);
  });
});
