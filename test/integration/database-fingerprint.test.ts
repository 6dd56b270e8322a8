import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { changedTables, databaseFingerprint, walkChangingNothing } from '../helpers/fuzz.js';

/**
 * The check the route walks (fuzz.test.ts, isolation.test.ts) rely on to show a request changed nothing: it must see
 * any change to any row, whatever the order rows come back in, and a failure must say what changed and where.
 */
let test: TestDatabase;
// The seeded catalogue is large and nothing here writes it.
const CATALOGUE = ['institutions', 'institution_catalog'];

beforeAll(async () => {
  test = await createTestDatabase();
});

afterAll(async () => {
  await test.drop();
});

async function addServer(id: number, org: string): Promise<void> {
  await sql`insert into ofx_servers (institution_id, url, fid, org, source) values (${id}, 'https://ofx.example/', '1', ${org}, 'test')`.execute(
    test.database.kysely,
  );
}

describe('the database fingerprint', () => {
  it('sees a row added, a value changed (even from null to empty), and not the order of rows', async () => {
    const db = test.database.kysely;
    const empty = await databaseFingerprint(test.database, CATALOGUE);
    const throttle = (key: string) => sql`insert into sign_in_throttle (key, updated_at) values (${key}, 1)`.execute(db);
    await throttle('a');
    await throttle('b');
    const two = await databaseFingerprint(test.database, CATALOGUE);
    expect(changedTables(empty, two)).toEqual(['sign_in_throttle']);

    await sql`update sign_in_throttle set failures = 1 where key = 'b'`.execute(db);
    expect(changedTables(two, await databaseFingerprint(test.database, CATALOGUE))).toEqual(['sign_in_throttle']);
    await sql`update sign_in_throttle set failures = 0 where key = 'b'`.execute(db);
    expect(await databaseFingerprint(test.database, CATALOGUE)).toEqual(two);

    // The same rows stored again the other way round.
    await sql`delete from sign_in_throttle`.execute(db);
    await throttle('b');
    await throttle('a');
    expect(await databaseFingerprint(test.database, CATALOGUE)).toEqual(two);

    await addServer(1, 'First');
    const server = await databaseFingerprint(test.database, CATALOGUE);
    await sql`update ofx_servers set broker_id = '' where institution_id = 1`.execute(db);
    expect(changedTables(server, await databaseFingerprint(test.database, CATALOGUE))).toEqual(['ofx_servers']);
    expect(changedTables(server, await databaseFingerprint(test.database, [...CATALOGUE, 'ofx_servers']))).toEqual(['ofx_servers']);
    if (test.database.dialect === 'sqlite') {
      // Text after a NUL (PostgreSQL text holds none).
      await sql`update ofx_servers set broker_id = ${'a\u0000b'} where institution_id = 1`.execute(db);
      const nul = await databaseFingerprint(test.database, CATALOGUE);
      await sql`update ofx_servers set broker_id = ${'a\u0000c'} where institution_id = 1`.execute(db);
      expect(changedTables(nul, await databaseFingerprint(test.database, CATALOGUE))).toEqual(['ofx_servers']);
    }
    await sql`delete from ofx_servers`.execute(db);
    await sql`delete from sign_in_throttle`.execute(db);
    expect(await databaseFingerprint(test.database, CATALOGUE)).toEqual(empty);
  });

  it("fails a walk whose block changed a table, naming the table, the block's items and the one that changed it", async () => {
    const items = ['GET /a', 'GET /b', 'POST /c', 'GET /d', 'GET /e'];
    let next = 100;
    const walked: string[] = [];
    const walk = walkChangingNothing({
      database: test.database,
      ignore: CATALOGUE,
      items,
      blockSize: 2,
      name: (item) => item,
      walk: async (item) => {
        walked.push(item);
        if (item === 'POST /c') await addServer(next++, 'Planted');
      },
    });
    const error = await walk.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toBe(
      ['the database changed (tables: ofx_servers) while walking:', '  POST /c', '  GET /d', 'walked again one at a time: POST /c changed ofx_servers'].join(
        '\n',
      ),
    );
    // The first block passed; the last was never walked.
    expect(walked).toEqual(['GET /a', 'GET /b', 'POST /c', 'GET /d', 'POST /c', 'GET /d']);
  });

  it('passes a walk that changes only the tables it ignores', async () => {
    let next = 200;
    await walkChangingNothing({
      database: test.database,
      ignore: [...CATALOGUE, 'ofx_servers'],
      items: ['POST /a', 'POST /b', 'POST /c'],
      blockSize: 2,
      name: (item) => item,
      walk: () => addServer(next++, 'Ignored'),
    });
    expect(next).toBe(203);
  });
});
