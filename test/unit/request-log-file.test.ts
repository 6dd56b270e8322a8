import fs from 'node:fs';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, requestLogFileOf, type Database } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { insertSizes } from '../../src/modules/requestlog/repository.js';
import { listRequestLog, RequestLogWriter, type RequestLogEntry } from '../../src/modules/requestlog/service.js';
import { ManualClock } from '../../src/platform/clock.js';
import { tempSqliteFile } from '../helpers/db.js';
import { waitFor } from '../helpers/listener.js';

const entry = (n: number, at: number, partner = 'p1'): RequestLogEntry => ({
  partner_id: partner,
  method: 'GET',
  path: `/aggregation/v1/partners/me?n=${n}`,
  route: '/aggregation/v1/partners/me',
  status: 200,
  latency_ms: 0.25,
  error_code: null,
  request_id: `req-${n}`,
  ip: '127.0.0.1',
  created_at_ms: at,
});

async function tables(database: Database, schema: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.id(schema, 'sqlite_master')} where type = 'table' order by name`.execute(database.kysely);
  return rows.map((r) => r.name);
}

// A SQLite file database keeps its request log in a file of its own, written by a thread with its own connection.
describe('the request log of a SQLite file database', () => {
  let dir: string;
  let file: string;
  let remove: () => void;
  let database: Database;
  beforeEach(() => {
    ({ dir, file, remove } = tempSqliteFile());
  });
  afterEach(async () => {
    await database.close();
    remove();
  });

  it('lives in its own file, attached as `log`; entries written by the thread are read through the main connection; they leave the change stamp alone', async () => {
    database = openDatabase({ sqliteFile: file });
    await migrateToLatest(database);
    expect(database.requestLogFile).toBe(path.join(dir, 'ledgerlink.request-log.sqlite'));
    expect(await tables(database, 'main')).not.toContain('request_log');
    expect(await tables(database, 'log')).toContain('request_log');

    const clock = new ManualClock(1_800_000_000_000);
    const writer = new RequestLogWriter(database, clock);
    const stamp = database.changeStamp();
    for (let n = 1; n <= 250; n++) writer.record(entry(n, clock.now(), n % 2 ? 'p1' : 'p2'));
    await writer.flush();
    const rows = await listRequestLog(database.kysely, { limit: 1000 });
    expect(rows).toHaveLength(250);
    expect(rows[0]).toMatchObject({ path: '/aggregation/v1/partners/me?n=250', request_id: 'req-250', status: 200, latency_ms: 0.25, partner_id: 'p2' });
    expect((await listRequestLog(database.kysely, { partnerId: 'p1', limit: 1000 })).every((r) => r.partner_id === 'p1')).toBe(true);
    // Appending to the log is not a change of the data anything in memory was read from.
    expect(database.changeStamp()).toBe(stamp);
    await writer.close();

    // Another process (a new connection) sees the same entries; a new writer continues the ids.
    const other = openDatabase({ sqliteFile: file });
    try {
      const writer2 = new RequestLogWriter(other, clock);
      writer2.record(entry(251, clock.now()));
      await writer2.close();
      const all = await listRequestLog(other.kysely, { limit: 1000 });
      expect(all).toHaveLength(251);
      expect(all[0]!.id).toBeGreaterThan(all[1]!.id);
    } finally {
      await other.close();
    }
  });

  it('prunes entries older than the retention in the thread, and counts what it could not write instead of failing', async () => {
    database = openDatabase({ sqliteFile: file });
    await migrateToLatest(database);
    const clock = new ManualClock(10 * 86_400_000);
    const writer = new RequestLogWriter(database, clock);
    writer.record(entry(1, 1_000)); // older than the seven days kept
    await writer.flush();
    // Each flush at least a minute after the last prune asks the thread to delete what is older than seven days.
    clock.advance(61_000);
    writer.record(entry(2, clock.now()));
    await writer.flush();
    expect((await listRequestLog(database.kysely, {})).map((r) => r.request_id)).toEqual(['req-2']);

    await sql`drop table log.request_log`.execute(database.kysely);
    writer.record(entry(3, clock.now()));
    writer.record(entry(4, clock.now()));
    await writer.flush();
    expect(writer.dropped).toBe(2);
    await writer.close();
  });

  for (const where of ['file', 'memory'] as const) {
    it(`keeps up with a busy service (${where === 'file' ? 'writer thread' : 'written directly'}): batches go out as they fill, nothing is dropped`, async () => {
      database = openDatabase({ sqliteFile: where === 'file' ? file : ':memory:' });
      await migrateToLatest(database);
      const clock = new ManualClock(1_800_000_000_000);
      // A timer that never fires in this test: only full batches can carry the entries out.
      const writer = new RequestLogWriter(database, clock, 3_600_000);
      const stored = async () => Number((await sql<{ n: number }>`select count(*) as n from request_log`.execute(database.kysely)).rows[0]!.n);
      // 16,000 entries, more than the 5,000 allowed to wait at once, recorded 400 at a time while batches are written.
      // The service runs at most two batches ahead of what is stored: paced by the writer's progress rather than by a
      // clock, so a slow machine takes longer and changes nothing else (how fast the log writes is benchmarked).
      for (let n = 0; n < 16_000; ) {
        for (let i = 0; i < 400; i++, n++) writer.record(entry(n, clock.now()));
        await waitFor('the full batches stored', async () => (await stored()) >= n - 2_000);
      }
      await writer.close();
      expect(writer.dropped).toBe(0);
      const { rows } = await sql<{ n: number }>`select count(*) as n from request_log`.execute(database.kysely);
      expect(Number(rows[0]!.n)).toBe(16_000);
    });
  }

  it('splits a batch into INSERTs of a few sizes only, which add up to the batch', () => {
    expect(insertSizes(0)).toEqual([]);
    expect(insertSizes(1)).toEqual([1]);
    expect(insertSizes(99)).toEqual([64, 32, 2, 1]);
    expect(insertSizes(100)).toEqual([100]);
    expect(insertSizes(250)).toEqual([100, 100, 32, 16, 2]);
    const used = new Set<number>();
    for (let rows = 0; rows <= 5_000; rows++) {
      const sizes = insertSizes(rows);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(rows);
      for (const size of sizes) used.add(size);
    }
    expect([...used].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64, 100]);
  });

  it('migration 0014 moves an existing log out of the main file, ids and all', async () => {
    database = openDatabase({ sqliteFile: file });
    const migrator = new Migrator({ db: database.kysely as unknown as Kysely<unknown>, provider: { getMigrations: async () => migrations } });
    const before = await migrator.migrateTo('0013_data_versions');
    expect(before.error).toBeUndefined();
    expect(await tables(database, 'main')).toContain('request_log');
    const k = database.kysely;
    await k
      .insertInto('request_log')
      .values([entry(1, 5), entry(2, 6)])
      .execute();
    const ids = (await listRequestLog(k, {})).map((r) => r.id);

    await migrateToLatest(database);
    expect(await tables(database, 'main')).not.toContain('request_log');
    const moved = await listRequestLog(k, {});
    expect(moved.map((r) => r.id)).toEqual(ids);
    expect(moved.map((r) => r.request_id)).toEqual(['req-2', 'req-1']);
    const writer = new RequestLogWriter(database, new ManualClock(7));
    writer.record(entry(3, 7));
    await writer.close();
    const after = await listRequestLog(k, {});
    expect(after[0]!.id).toBeGreaterThan(Math.max(...ids));

    // And back (later migrations first).
    const down = await migrator.migrateTo('0013_data_versions');
    expect(down.error).toBeUndefined();
    expect(await tables(database, 'main')).toContain('request_log');
    expect(await tables(database, 'log')).not.toContain('request_log');
    expect((await listRequestLog(k, {})).map((r) => r.request_id)).toEqual(['req-3', 'req-2', 'req-1']);
  });

  it('an in-memory database keeps the log in its main schema and writes it directly', async () => {
    database = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database);
    expect(database.requestLogFile).toBeUndefined();
    expect(await tables(database, 'main')).toContain('request_log');
    const writer = new RequestLogWriter(database, new ManualClock(1));
    writer.record(entry(1, 1));
    await writer.close();
    expect(await listRequestLog(database.kysely, {})).toHaveLength(1);
    expect(fs.existsSync(requestLogFileOf(file))).toBe(false);
  });
});
