import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepListening, type KeptListen } from '../../src/platform/db/listen.js';
import { createTestDatabase, TEST_DATABASE_URL, testDialect, type TestDatabase } from '../helpers/db.js';

/**
 * keepListening (src/platform/db/listen.ts), which keeps the change stamp's and the delivery wake-ups' LISTEN up: it
 * hears its schema's notifications, and after its connection is lost says so and listens again. Each test listens
 * on a channel of its own, so that ending its connection ends no other test's.
 */
describe.runIf(testDialect() === 'postgres')('a kept LISTEN', () => {
  let test: TestDatabase;
  let channel: string;
  let kept: KeptListen | undefined;
  const events: string[] = [];
  let next: (() => void) | undefined;
  /** Resolves once `events` holds `count` entries `what` (already, or as they come). */
  const until = (what: string, count = 1) =>
    new Promise<void>((resolve) => {
      const check = () => (events.filter((e) => e === what).length >= count ? resolve() : (next = check));
      check();
    });
  const record = (what: string) => {
    events.push(what);
    next?.();
  };
  /** How many connections LISTEN on the test's channel (the query they last ran). */
  const listening = async () =>
    Number(
      (await sql<{ n: string | number }>`select count(*) as n from pg_stat_activity where query = ${`listen "${channel}"`}`.execute(test.database.kysely))
        .rows[0]!.n,
    );

  beforeEach(async () => {
    test = await createTestDatabase('postgres');
    channel = `ledgerlink_test_${randomBytes(4).toString('hex')}`;
    events.length = 0;
  });
  afterEach(async () => {
    await kept?.stop();
    kept = undefined;
    await test.drop();
  });

  const keep = () =>
    keepListening(
      test.database.kysely,
      test.database.listen!,
      channel,
      {
        notified: (payload, schema) => record(payload === schema ? 'own schema' : `other: ${payload}`),
        up: (schema) => record(`up ${schema}`),
        down: () => record('down'),
      },
      50,
    );
  const notify = (payload: string) => sql`select pg_notify(${channel}, ${payload})`.execute(test.database.kysely);

  it('is up once ready, with the schema its notifications carry, and hears them', async () => {
    kept = keep();
    await kept.ready;
    expect(events).toEqual([`up ${test.pgSchema}`]);
    await notify(test.pgSchema!);
    await notify('elsewhere');
    await until('other: elsewhere');
    expect(events).toEqual([`up ${test.pgSchema}`, 'own schema', 'other: elsewhere']);
  });

  it('says when its connection is lost, listens again after the pause, and hears what is sent then', async () => {
    kept = keep();
    await kept.ready;
    expect(await listening()).toBe(1);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where query = $1', [`listen "${channel}"`]);
    } finally {
      await admin.end();
    }
    await until(`up ${test.pgSchema}`, 2);
    await notify(test.pgSchema!);
    await until('own schema');
    expect(events).toEqual([`up ${test.pgSchema}`, 'down', `up ${test.pgSchema}`, 'own schema']);
  });

  it('once stopped, closes its connection without calling it lost', async () => {
    kept = keep();
    await kept.ready;
    expect(await listening()).toBe(1);
    await kept.stop();
    // The server lets go of the backend a moment after the client has closed its socket.
    for (let waited = 0; (await listening()) > 0; waited += 10) {
      if (waited > 10_000) throw new Error('the LISTEN connection is still there 10 s after stop');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(events).toEqual([`up ${test.pgSchema}`]);
  });
});
