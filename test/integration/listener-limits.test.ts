import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/contract/errors/service-error.js';
import { enqueueDelivery, type EnqueueHttpInput } from '../../src/outbox/enqueue.js';
import { cancelHeldCopiesQuery, LISTENER_LEASE_SECONDS, MAX_LIVE_LISTENERS, registerSandboxListener } from '../../src/outbox/listeners.js';
import { dueForListenerQuery } from '../../src/outbox/polled.js';
import { startDeliveryWorker } from '../../src/outbox/worker.js';
import { epochSeconds } from '../../src/platform/clock.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { explainPlan, testDialect } from '../helpers/db.js';
import { waitFor } from '../helpers/listener.js';

/**
 * What one partner's `ledgerlink listen` registrations may cost everyone: a bounded number of live listeners, one
 * open poll per listener, index walks (never a scan of deliveries) for what polls and housekeeping ask many times,
 * one insert for all the copies of a delivery, and lapsed listeners retired by the worker's housekeeping. Also the
 * order of a Connect session's webhooks on PostgreSQL, whose ids are not handed out in commit order by themselves.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(Date.now());
}, 60_000);

afterAll(async () => {
  await ctx.close();
});

type Method = 'GET' | 'POST' | 'DELETE';

function call(who: TestPartner, method: Method, url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers: who.headers, ...(payload !== undefined ? { payload } : {}) });
}

async function ok<T = any>(who: TestPartner, method: Method, url: string, payload?: object): Promise<T> {
  const res = await call(who, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? (undefined as T) : res.json<T>();
}

const statusAndCode = (res: { statusCode: number; json<T>(): T }) => [res.statusCode, res.json<{ code: string }>().code];
const register = (who: TestPartner) => call(who, 'POST', '/cli/v1/listeners', { partnerId: who.partnerId });
const db = () => ctx.runtime.database.kysely;
const now = () => epochSeconds(ctx.clock);

const webhookFor = (who: TestPartner, connectSession?: string): EnqueueHttpInput => ({
  kind: 'webhook',
  partnerId: who.partnerId,
  url: 'http://127.0.0.1:9/partner-hook',
  body: JSON.stringify({ eventType: 'added', customerId: '1005000000' }),
  contentType: 'application/json',
  connectSession: connectSession ?? null,
});

const copiesTo = (target: string) => db().selectFrom('deliveries').selectAll().where('target', '=', target).orderBy('id').execute();
const pollToken = async (id: number) =>
  (await db().selectFrom('sandbox_listeners').select('poll_token').where('id', '=', id).executeTakeFirst())?.poll_token ?? null;

describe('live listeners per partner', () => {
  it(`are at most ${MAX_LIVE_LISTENERS}, of both kinds: one more is refused with 409 14097, other partners unaffected`, async () => {
    const p = await partnerWithToken(ctx);
    const other = await partnerWithToken(ctx);
    const ids: number[] = [];
    for (let i = 0; i < MAX_LIVE_LISTENERS - 1; i++) ids.push((await ok(p, 'POST', '/cli/v1/listeners', { partnerId: p.partnerId })).listenerId);
    // One registered on the store (`listen --partner`) counts as well.
    await registerSandboxListener(db(), p.partnerId, 'http://127.0.0.1:4040/', now());
    const refused = await register(p);
    expect(statusAndCode(refused)).toEqual([409, '14097']);
    expect(refused.json<{ message: string }>().message).toMatch(/already has 5 live listeners/);
    const direct = await registerSandboxListener(db(), p.partnerId, 'http://127.0.0.1:4041/', now()).catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(ServiceError);
    expect([(direct as ServiceError).errorName, (direct as ServiceError).code]).toEqual(['ListenerLimitReached', '14097']);
    expect(await db().selectFrom('sandbox_listeners').select('id').where('partner_id', '=', p.partnerId).execute()).toHaveLength(MAX_LIVE_LISTENERS);

    // Another partner's count is its own.
    expect((await register(other)).statusCode).toBe(201);

    // A removed one frees its place.
    await ok(p, 'DELETE', `/cli/v1/listeners/${ids[0]}`);
    expect((await register(p)).statusCode).toBe(201);
    expect(statusAndCode(await register(p))).toEqual([409, '14097']);

    // So do lapsed ones: the listen that held them stopped without removing them.
    ctx.clock.advance((LISTENER_LEASE_SECONDS + 1) * 1000);
    for (let i = 0; i < MAX_LIVE_LISTENERS; i++) expect((await register(p)).statusCode).toBe(201);
    expect(statusAndCode(await register(p))).toEqual([409, '14097']);
    ctx.clock.advance((LISTENER_LEASE_SECONDS + 1) * 1000);
  });

  it('get their copies of a delivery in one insert, whatever their number', async () => {
    const p = await partnerWithToken(ctx);
    const targets: string[] = [];
    for (let i = 0; i < MAX_LIVE_LISTENERS; i++) targets.push((await ok(p, 'POST', '/cli/v1/listeners', { partnerId: p.partnerId })).target);
    const inserts: string[] = [];
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        if (args.node.kind === 'InsertQueryNode') inserts.push(args.node.into?.table.identifier.name ?? '?');
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const original = await db()
      .withPlugin(counter)
      .transaction()
      .execute((tx) => enqueueDelivery(tx, ctx.runtime, webhookFor(p)));
    // The delivery, then all its copies.
    expect(inserts).toEqual(['deliveries', 'deliveries']);
    for (const target of targets)
      expect((await copiesTo(target)).map((c) => [c.event_id, c.copy_of, c.status])).toEqual([[original.eventId, original.id, 'pending']]);
    ctx.clock.advance((LISTENER_LEASE_SECONDS + 1) * 1000);
  });
});

describe('polls of a listener', () => {
  it('are one at a time: a newer poll ends the waiting one with 409 14098, and removing the listener ends its poll with 404', async () => {
    const p = await partnerWithToken(ctx);
    const listener = await ok(p, 'POST', '/cli/v1/listeners', { partnerId: p.partnerId });
    const url = `/cli/v1/listeners/${listener.listenerId}/poll?wait=25`;

    const first = call(p, 'POST', url);
    await waitFor('the first poll to start', async () => (await pollToken(listener.listenerId)) !== null);
    const firstToken = await pollToken(listener.listenerId);
    const second = call(p, 'POST', url);
    await waitFor('the second poll to start', async () => (await pollToken(listener.listenerId)) !== firstToken);
    const ended = await first;
    expect(statusAndCode(ended)).toEqual([409, '14098']);
    expect(ended.json<{ message: string }>().message).toMatch(/A newer poll of listener \d+ started/);

    // The newer poll goes on waiting, and gets what is queued.
    const queued = await enqueueDelivery(db(), ctx.runtime, webhookFor(p));
    const taken = await second;
    expect(taken.statusCode).toBe(200);
    expect(taken.json<{ deliveries: { eventId: string }[] }>().deliveries.map((d) => d.eventId)).toEqual([queued.eventId]);

    const secondToken = await pollToken(listener.listenerId);
    const third = call(p, 'POST', url);
    await waitFor('the third poll to start', async () => (await pollToken(listener.listenerId)) !== secondToken);
    await ok(p, 'DELETE', `/cli/v1/listeners/${listener.listenerId}`);
    const gone = await third;
    expect(statusAndCode(gone)).toEqual([404, '14001']);
    expect(gone.json<{ message: string }>().message).toMatch(/removed while this poll waited/);
  });

  it("of another partner's listener are refused and leave its open poll alone", async () => {
    const p = await partnerWithToken(ctx);
    const other = await partnerWithToken(ctx);
    const listener = await ok(p, 'POST', '/cli/v1/listeners', { partnerId: p.partnerId });
    const polling = call(p, 'POST', `/cli/v1/listeners/${listener.listenerId}/poll?wait=25`);
    await waitFor('the poll to start', async () => (await pollToken(listener.listenerId)) !== null);
    const token = await pollToken(listener.listenerId);
    expect(statusAndCode(await call(other, 'POST', `/cli/v1/listeners/${listener.listenerId}/poll?wait=0`))).toEqual([404, '14001']);
    expect(await pollToken(listener.listenerId)).toBe(token);
    const queued = await enqueueDelivery(db(), ctx.runtime, webhookFor(p));
    const res = await polling;
    expect(res.statusCode).toBe(200);
    expect(res.json<{ deliveries: { eventId: string }[] }>().deliveries.map((d) => d.eventId)).toEqual([queued.eventId]);
    await ok(p, 'DELETE', `/cli/v1/listeners/${listener.listenerId}`);
  });
});

describe('the queries polls and housekeeping repeat', () => {
  function expectOpenTargetWalk(text: string): void {
    expect(text).toContain('deliveries_open_target');
    if (testDialect() === 'sqlite') expect(text).not.toMatch(/^SCAN deliveries\b/m);
    else expect(text).not.toMatch(/Seq Scan/);
  }

  it("look for a listener's due copies through deliveries_open_target", async () => {
    expectOpenTargetWalk(await explainPlan(db(), dueForListenerQuery(db(), { partnerId: '4402958127364', target: 'listen://7' }, now())));
  });

  it("cancel a stopped listener's copies through deliveries_open_target", async () => {
    expectOpenTargetWalk(await explainPlan(db(), cancelHeldCopiesQuery(db(), '4402958127364', 'listen://7', now())));
  });
});

describe("the worker's housekeeping", () => {
  it('retires lapsed listeners: their pending copies are cancelled, live listeners of other partners keep theirs', async () => {
    const p = await partnerWithToken(ctx);
    const other = await partnerWithToken(ctx);
    const lapsed = await ok(p, 'POST', '/cli/v1/listeners', { partnerId: p.partnerId });
    await enqueueDelivery(db(), ctx.runtime, webhookFor(p));
    expect((await copiesTo(lapsed.target)).map((c) => c.status)).toEqual(['pending']);
    ctx.clock.advance((LISTENER_LEASE_SECONDS + 1) * 1000);
    const live = await ok(other, 'POST', '/cli/v1/listeners', { partnerId: other.partnerId });
    await enqueueDelivery(db(), ctx.runtime, webhookFor(other));

    // Housekeeping runs once when a worker starts; stopping waits for that run.
    const worker = await startDeliveryWorker(ctx.runtime, { workerId: 'housekeeping', pollIntervalMs: 60_000, maintenanceIntervalMs: 3_600_000 });
    await worker.stop();

    expect((await copiesTo(lapsed.target)).map((c) => [c.status, c.last_error])).toEqual([['cancelled', 'the ledgerlink listen it was held for stopped']]);
    expect(await db().selectFrom('sandbox_listeners').select('id').where('id', '=', lapsed.listenerId).execute()).toEqual([]);
    expect((await copiesTo(live.target)).map((c) => c.status)).toEqual(['pending']);
    await ok(other, 'DELETE', `/cli/v1/listeners/${live.listenerId}`);
  });
});

describe.runIf(testDialect() === 'postgres')('Connect webhooks of one session on PostgreSQL', () => {
  /** Whether the backend is waiting for an advisory lock. */
  async function waitsForAdvisoryLock(pid: number): Promise<boolean> {
    const { rows } = await sql<{ wait_event_type: string | null; wait_event: string | null }>`
      select wait_event_type, wait_event from pg_stat_activity where pid = ${pid}`.execute(db());
    return rows[0]?.wait_event_type === 'Lock' && rows[0]?.wait_event === 'advisory';
  }

  it("are inserted one transaction after another, so their ids follow commit order; other sessions' do not wait", async () => {
    const p = await partnerWithToken(ctx);
    let commitA!: () => void;
    const aMayCommit = new Promise<void>((resolve) => (commitA = resolve));
    let aEnqueued!: (id: number) => void;
    const aInserted = new Promise<number>((resolve) => (aEnqueued = resolve));
    const a = db()
      .transaction()
      .execute(async (tx) => {
        const d = await enqueueDelivery(tx, ctx.runtime, webhookFor(p, 'link-order'));
        aEnqueued(d.id);
        await aMayCommit;
        return d;
      });
    const aId = await aInserted;

    // Another session's webhook goes in at once while A is open.
    const unrelated = await db()
      .transaction()
      .execute((tx) => enqueueDelivery(tx, ctx.runtime, webhookFor(p, 'link-other')));
    expect(unrelated.id).toBeGreaterThan(aId);

    let bPid: number | undefined;
    let bDone = false;
    const b = db()
      .transaction()
      .execute(async (tx) => {
        bPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)).rows[0]!.pid;
        return enqueueDelivery(tx, ctx.runtime, webhookFor(p, 'link-order'));
      })
      .finally(() => (bDone = true));
    await waitFor('B to wait for the session, or to finish', async () => bDone || (bPid !== undefined && (await waitsForAdvisoryLock(bPid))));
    // B's insert waits while A is open.
    expect(bDone).toBe(false);
    commitA();
    const first = await a;
    const second = await b;
    // A committed first, and has the smaller id: a worker sends it first.
    expect(first.id).toBe(aId);
    expect(second.id).toBeGreaterThan(first.id);
  });

  it('take the lock in a transaction of their own when enqueued without one', async () => {
    const p = await partnerWithToken(ctx);
    let commitA!: () => void;
    const aMayCommit = new Promise<void>((resolve) => (commitA = resolve));
    let aEnqueued!: () => void;
    const aInserted = new Promise<void>((resolve) => (aEnqueued = resolve));
    const a = db()
      .transaction()
      .execute(async (tx) => {
        const d = await enqueueDelivery(tx, ctx.runtime, webhookFor(p, 'link-autocommit'));
        aEnqueued();
        await aMayCommit;
        return d;
      });
    await aInserted;
    let bDone = false;
    const b = enqueueDelivery(db(), ctx.runtime, webhookFor(p, 'link-autocommit')).finally(() => (bDone = true));
    await waitFor('B to wait for the session, or to finish', async () => {
      if (bDone) return true;
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'
        and query like '%ledgerlink connect_session%' and pid <> pg_backend_pid()`.execute(db());
      return Number(rows[0]!.n) > 0;
    });
    expect(bDone).toBe(false);
    commitA();
    expect((await b).id).toBeGreaterThan((await a).id);
  });
});
