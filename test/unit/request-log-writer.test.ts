import { Migrator, sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { listRequestLog, type RequestLogEntry, RequestLogWriter } from '../../src/modules/requestlog/service.js';
import { ManualClock } from '../../src/platform/clock.js';
import { tempSqliteFile, type TempSqliteFile } from '../helpers/db.js';

/** An entry with headers and bodies of about `size` characters together. */
const entry = (n: number, size: number, partner = 'p1'): RequestLogEntry => ({
  partner_id: partner,
  method: 'POST',
  path: `/aggregation/v2/customers/testing?n=${n}`,
  route: '/aggregation/v2/customers/testing',
  status: 201,
  latency_ms: 1,
  error_code: null,
  request_id: `req-${n}`,
  ip: '127.0.0.1',
  created_at_ms: 1_800_000_000_000,
  request_headers: 'content-type: application/json',
  request_body: 'q'.repeat(size / 2),
  request_bytes: 1_000_000,
  response_headers: 'content-type: application/json',
  response_body: 'r'.repeat(size / 2),
  response_bytes: size / 2,
});

async function columnsOf(database: Database, schema: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info('request_log', ${schema})`.execute(database.kysely);
  return rows.map((r) => r.name);
}

describe('the request log writer with headers and bodies', () => {
  let temp: TempSqliteFile;
  let database: Database;
  beforeEach(() => {
    temp = tempSqliteFile();
  });
  afterEach(async () => {
    await database.close();
    temp.remove();
  });

  for (const where of ['file', 'memory'] as const) {
    it(`keeps every entry of a burst of large bodies, and drops the bodies beyond 4 MB waiting (${where === 'file' ? 'writer thread' : 'written directly'})`, async () => {
      database = openDatabase({ sqliteFile: where === 'file' ? temp.file : ':memory:' });
      await migrateToLatest(database);
      // A timer that never fires in this test: only full batches carry the entries out.
      const writer = new RequestLogWriter(database, new ManualClock(1), 3_600_000);
      // 3,000 entries of 16,384 characters each (49 MB) in one turn: what a burst of 8 KB bodies both ways makes.
      for (let n = 0; n < 3_000; n++) writer.record(entry(n, 16_384));
      await writer.close();
      expect(writer.dropped).toBe(0);
      const { rows } = await sql<{ n: number; kept: number; chars: number }>`
        select count(*) as n, count(request_body) as kept, sum(length(request_body) + length(response_body)) as chars from request_log`.execute(
        database.kysely,
      );
      expect(Number(rows[0]!.n)).toBe(3_000);
      // Batches left at each 1 MB, so a few MB waited at most: the rest kept their summary only.
      const kept = Number(rows[0]!.kept);
      expect(kept).toBeGreaterThan(60);
      expect(kept).toBeLessThan(3_000);
      expect(writer.detailsDropped).toBe(3_000 - kept);
      expect(Number(rows[0]!.chars)).toBe(kept * 16_384);
      const bare = await database.kysely.selectFrom('request_log').selectAll().where('request_body', 'is', null).executeTakeFirstOrThrow();
      expect(bare).toMatchObject({ request_headers: null, response_headers: null, response_body: null, request_id: expect.stringMatching(/^req-/) });
    });
  }

  it("lets a partner's entries keep at most 1 MB of headers and bodies a second, and 4 MB at once after a quiet spell", async () => {
    database = openDatabase({ sqliteFile: ':memory:' });
    const clock = new ManualClock(1_000);
    const writer = new RequestLogWriter(database, clock);
    expect(writer.keepsDetail('p1', 4 << 20)).toBe(true);
    expect(writer.keepsDetail('p1', 1)).toBe(false);
    clock.advance(500);
    expect(writer.keepsDetail('p1', 1 << 20)).toBe(false);
    expect(writer.keepsDetail('p1', 512 << 10)).toBe(true);
    expect(writer.keepsDetail('p1', 1)).toBe(false);
    clock.advance(60_000);
    expect(writer.keepsDetail('p1', 4 << 20)).toBe(true);
    expect(writer.detailsDropped).toBe(3);
    await writer.close();
  });

  it("keeps one allowance per partner: a partner who spent theirs leaves everyone else's whole", async () => {
    database = openDatabase({ sqliteFile: ':memory:' });
    const writer = new RequestLogWriter(database, new ManualClock(1_000));
    expect(writer.keepsDetail('busy', 4 << 20)).toBe(true);
    expect(writer.keepsDetail('busy', 1)).toBe(false);
    expect(writer.keepsDetail('quiet', 4 << 20)).toBe(true);
    expect(writer.keepsDetail('other', 1_000)).toBe(true);
    expect(writer.keepsDetail('busy', 1)).toBe(false);
    // What was counted before the detail was made is settled once it is: less given back, more taken.
    writer.countDetail('other', -1_000);
    expect(writer.keepsDetail('other', 4 << 20)).toBe(true);
    writer.countDetail('quiet', -(1 << 20));
    expect(writer.keepsDetail('quiet', 1 << 20)).toBe(true);
    expect(writer.keepsDetail('quiet', 1)).toBe(false);
    await writer.close();
  });

  it('remembers the allowances of at most 1,000 partners, forgetting the one seen least recently first', async () => {
    database = openDatabase({ sqliteFile: ':memory:' });
    const writer = new RequestLogWriter(database, new ManualClock(1_000));
    expect(writer.keepsDetail('first', 4 << 20)).toBe(true);
    expect(writer.keepsDetail('recent', 4 << 20)).toBe(true);
    for (let n = 0; n < 998; n++) writer.keepsDetail(`p${n}`, 1);
    // 1,000 remembered: seeing `recent` again keeps it; one more partner makes `first` the one forgotten.
    expect(writer.keepsDetail('recent', 1)).toBe(false);
    writer.keepsDetail('one-more', 1);
    expect(writer.keepsDetail('recent', 1)).toBe(false);
    expect(writer.keepsDetail('first', 4 << 20)).toBe(true);
    await writer.close();
  });

  it('writes entries in the order their requests were answered, also those waiting for their partner', async () => {
    database = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database);
    const writer = new RequestLogWriter(database, new ManualClock(1));
    let answer!: (e: RequestLogEntry) => void;
    writer.record(entry(1, 2));
    writer.recordWhen(new Promise<RequestLogEntry>((resolve) => (answer = resolve)));
    writer.record(entry(3, 2));
    writer.recordWhen(Promise.resolve(entry(4, 2)));
    writer.recordWhen(Promise.resolve(undefined));
    writer.recordWhen(Promise.reject(new Error('the look-up failed')));
    writer.record(entry(5, 2));
    const flushed = writer.flush();
    answer(entry(2, 2));
    await flushed;
    expect((await listRequestLog(database.kysely, { afterId: 0 })).map((r) => r.request_id)).toEqual(['req-1', 'req-2', 'req-3', 'req-4', 'req-5']);
    expect(writer.dropped).toBe(1);
    await writer.close();
  });

  it('migration 0021 adds the headers and bodies to the log in its own file, and takes them away again', async () => {
    database = openDatabase({ sqliteFile: temp.file });
    await migrateToLatest(database);
    const added = ['request_headers', 'request_body', 'request_bytes', 'response_headers', 'response_body', 'response_bytes'];
    expect(await columnsOf(database, 'log')).toEqual(expect.arrayContaining(added));
    const migrator = new Migrator({ db: database.kysely as unknown as Kysely<unknown>, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo('0020_statement_file_logins');
    expect(down.error).toBeUndefined();
    const before = await columnsOf(database, 'log');
    for (const column of added) expect(before).not.toContain(column);
    await migrateToLatest(database);
    expect(await columnsOf(database, 'log')).toEqual(expect.arrayContaining(added));
  });
});
