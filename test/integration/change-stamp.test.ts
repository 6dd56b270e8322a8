import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/database.js';
import { authenticatePartner, createPartner, resolveCaller, rotateAppKey } from '../../src/modules/partners/service.js';
import { readCustomerForPartner } from '../../src/modules/customers/service.js';
import { ManualClock } from '../../src/platform/clock.js';
import { keysFrom } from '../../src/platform/keys.js';
import { loadConfig } from '../../src/main/config.js';
import { enqueueDelivery } from '../../src/outbox/enqueue.js';
import type { Runtime } from '../../src/main/runtime.js';
import { createTestDatabase, openSameData, TEST_DATABASE_URL, testDialect, untilStampMoves, untilStamped } from '../helpers/db.js';

/**
 * The change stamp (migration 0024) that lets each process keep callers and customers in memory: it moves on every
 * change to partners, tokens and customers, by this process (at once) or another (SQLite: at once; PostgreSQL: when
 * the NOTIFY arrives), and on nothing else. Two Database objects on the same data stand for two processes.
 */
describe('the change stamp of the in-memory callers and customers', () => {
  let here: Database;
  let there: Database;
  let runtime: Runtime;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const test = await createTestDatabase(testDialect(), { onFile: true });
    here = test.database;
    there = openSameData(test);
    cleanup = () => test.drop();
    runtime = { config: loadConfig({ LEDGERLINK_DATA_DIR: os.tmpdir() }), database: here, clock: new ManualClock(), keys: keysFrom(randomBytes(32)) };
    await untilStamped(here);
    await untilStamped(there);
  });
  afterEach(async () => {
    await there.close();
    await cleanup();
  });

  const insertCustomer = (db: Database, partnerId: string, username: string) =>
    db.kysely
      .insertInto('customers')
      .values({ partner_id: partnerId, username, type: 'testing', created_at: 1, updated_at: 1 } as never)
      .returning('id')
      .executeTakeFirstOrThrow();

  it('moves at once on every change this process makes to partners, tokens and customers, and only at commit inside a transaction', async () => {
    let before = here.changeStamp();
    const creds = await createPartner(runtime, { name: 'P', plan: 'testdrive' });
    expect(here.changeStamp()).not.toBe(before);
    before = here.changeStamp();
    await authenticatePartner(runtime, creds.appKey, creds);
    expect(here.changeStamp(), 'a new token').not.toBe(before);
    before = here.changeStamp();
    const { id } = await insertCustomer(here, creds.partnerId, 'c1');
    expect(here.changeStamp(), 'a new customer').not.toBe(before);
    before = here.changeStamp();
    await sql`update customers set first_name = 'Ann' where id = ${id}`.execute(here.kysely);
    expect(here.changeStamp(), 'raw SQL').not.toBe(before);
    // Notifications of the changes above may still be on their way (PostgreSQL): let them arrive first.
    await here.changesSettled();
    before = here.changeStamp();
    await here.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('customers').set({ last_name: 'Lee' }).where('id', '=', id).execute();
      // On PostgreSQL nobody else sees the change before the commit, so nothing kept is stale yet.
      if (here.dialect === 'postgres') expect(here.changeStamp()).toBe(before);
    });
    expect(here.changeStamp(), 'after the commit').not.toBe(before);
    await here.changesSettled();
    before = here.changeStamp();
    await here.kysely
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('partners').set({ name: 'Q' }).where('id', '=', creds.partnerId).execute();
        throw new Error('rolled back');
      })
      .catch(() => {});
    await here.changesSettled();
    expect(here.changeStamp(), 'a rolled-back change changed nothing').toBe(before);
  });

  it('stays put on writes to every other table (the outbox, the request log, logins)', async () => {
    const creds = await createPartner(runtime, { name: 'P', plan: 'testdrive' });
    await here.changesSettled();
    const before = here.changeStamp();
    for (let i = 0; i < 5; i++) {
      await enqueueDelivery(here.kysely, runtime, {
        kind: 'webhook',
        partnerId: creds.partnerId,
        url: 'http://127.0.0.1:9/x',
        body: '{}',
        contentType: 'application/json',
      });
      await sql`update deliveries set attempts = attempts + 1`.execute(here.kysely);
    }
    await sql`delete from deliveries`.execute(there.kysely);
    await sql`insert into request_log (method, url, status, duration_ms, created_at) values ('GET', '/', 200, 1, 1)`.execute(there.kysely).catch(() => {});
    await here.changesSettled();
    expect(here.changeStamp()).toBe(before);
  });

  it("moves on another process's commits: the caller it kept is refused after a key rotation or a deletion there", async () => {
    const creds = await createPartner(runtime, { name: 'P', plan: 'testdrive' });
    const { token } = await authenticatePartner(runtime, creds.appKey, creds);
    const resolve = () => resolveCaller(runtime, creds.appKey, token, here.changeStamp());
    await here.changesSettled();
    expect(await resolve()).toMatchObject({ partnerId: creds.partnerId });
    // Kept: the second answer comes without a promise.
    expect(resolve()).not.toBeInstanceOf(Promise);
    let before = here.changeStamp();
    await rotateAppKey({ ...runtime, database: there }, creds.partnerId);
    await untilStampMoves(here, before);
    await expect(Promise.resolve().then(resolve)).rejects.toMatchObject({ code: '10020' });

    const { id } = await insertCustomer(there, creds.partnerId, 'c2');
    await untilStampMoves(here, before);
    await here.changesSettled();
    expect(await readCustomerForPartner(here, creds.partnerId, id, here.changeStamp())).toMatchObject({ id });
    expect(readCustomerForPartner(here, creds.partnerId, id, here.changeStamp())).not.toBeInstanceOf(Promise);
    before = here.changeStamp();
    await there.kysely.deleteFrom('partners').where('id', '=', creds.partnerId).execute();
    await untilStampMoves(here, before);
    await expect(Promise.resolve().then(() => readCustomerForPartner(here, creds.partnerId, id, here.changeStamp()))).rejects.toMatchObject({
      code: '14001',
    });
  });

  it.runIf(testDialect() === 'postgres')('keeps nothing while its LISTEN connection is down, and starts afresh when it is back', async () => {
    const before = here.changeStamp();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%ledgerlink_change%' and datname = current_database()`,
      );
    } finally {
      await admin.end();
    }
    await untilStampMoves(here, before);
    // Reconnected (after about a second): a new stamp, never the old one again.
    const back = await untilStamped(here);
    expect(back).not.toBe(before);
  });
});
