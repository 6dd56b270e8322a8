import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDueDeliveries, leaseSecondsFor } from '../../src/outbox/claim.js';
import { enqueueDelivery, type EnqueueHttpInput } from '../../src/outbox/enqueue.js';
import { createHttpTransport } from '../../src/outbox/transports/http.js';
import { drainDeliveries, startDeliveryWorker, type DeliveryWorker } from '../../src/outbox/worker.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { epochSeconds } from '../../src/platform/clock.js';
import type { Resolver } from '../../src/platform/net/outbound.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { testDialect } from '../helpers/db.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';

/**
 * Deliveries are claimed and recorded in batches (one transaction records the attempts that finished and claims
 * for the slots they free), and connections to a target are kept alive between deliveries.
 */
describe('batched deliveries', () => {
  let ctx: TestContext;
  let listener: Listener;
  let partnerId: string;
  const workers: DeliveryWorker[] = [];

  beforeEach(async () => {
    ctx = await createTestContext();
    ctx.clock.set(Date.now());
    partnerId = (await createPartner(ctx.runtime, { name: 'Acme' })).partnerId;
    listener = await startListener();
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.stop();
    await listener.close();
    await ctx.close();
  });

  const db = () => ctx.runtime.database.kysely;
  const input = (overrides: Partial<EnqueueHttpInput> = {}): EnqueueHttpInput => ({
    kind: 'txpush',
    partnerId,
    url: listener.url,
    body: JSON.stringify({ event: { class: 'transaction', type: 'created' } }),
    contentType: 'application/json',
    ...overrides,
  });
  const webhook = (session: string) => input({ kind: 'webhook', connectSession: session });
  const rows = () => db().selectFrom('deliveries').selectAll().orderBy('id').execute();
  const attempts = () => db().selectFrom('delivery_attempts').selectAll().orderBy('id').execute();

  describe('claims', () => {
    it('take only the head of each session per target, and hand concurrent claimers disjoint deliveries', async () => {
      const sessions = ['link-a', 'link-b', 'link-c'];
      const heads: number[] = [];
      for (const s of sessions) {
        for (let i = 0; i < 4; i++) {
          const { id } = await db()
            .transaction()
            .execute((tx) => enqueueDelivery(tx, ctx.runtime, webhook(s)));
          if (i === 0) heads.push(id);
        }
      }
      const pushes: number[] = [];
      for (let i = 0; i < 20; i++) pushes.push((await enqueueDelivery(db(), ctx.runtime, input())).id);

      const now = epochSeconds(ctx.clock);
      const claim = (workerId: string) => claimDueDeliveries(db(), { workerId, limit: 100, now, leaseSeconds: 60 });
      const [a, b] = await Promise.all([claim('a'), claim('b')]);
      const ids = [...a, ...b].map((d) => d.id);
      // Every push and every session's first webhook, once; nothing that waits behind an open webhook.
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort((x, y) => x - y)).toEqual([...heads, ...pushes].sort((x, y) => x - y));
      expect(await claim('c')).toEqual([]);
    });

    it('of two running workers deliver every event once, each session in order', async () => {
      // The first answers wait until both workers have every slot full, so both take part whatever the speed of each;
      // later ones come a little apart, mixing the order in which attempts end.
      let bothBusy!: () => void;
      const held = new Promise<void>((resolve) => (bothBusy = resolve));
      listener.setBehaviour((_r, i) => (i < 8 ? { status: 200, after: held } : { status: 200, delayMs: i % 3 }));
      for (const id of ['one', 'two']) {
        // A time limit far beyond that wait: no attempt ends unanswered.
        workers.push(await startDeliveryWorker(ctx.runtime, { workerId: id, concurrency: 4, pollIntervalMs: 50, random: () => 0, timeoutMs: 60_000 }));
      }
      const sessions = ['link-a', 'link-b', 'link-c', 'link-d'];
      const order = new Map<string, string[]>(sessions.map((s) => [s, []]));
      // All due at once, so that each worker's first claim fills its slots and the other one takes the rest.
      const events = await db()
        .transaction()
        .execute(async (tx) => {
          const list: string[] = [];
          for (let i = 0; i < 6; i++) {
            for (const s of sessions) {
              const { eventId } = await enqueueDelivery(tx, ctx.runtime, webhook(s));
              order.get(s)!.push(eventId);
              list.push(eventId);
            }
            for (let j = 0; j < 4; j++) list.push((await enqueueDelivery(tx, ctx.runtime, input())).eventId);
          }
          return list;
        });
      await waitFor('both workers with every slot taken', () => listener.openNow() === 8);
      bothBusy();
      await waitFor('every event acknowledged', () => events.every((e) => listener.acknowledged().has(e)));
      await waitFor('every outcome recorded', async () => (await rows()).every((r) => r.status === 'delivered'));

      // Once each, never two at a time, and in order within a session.
      expect(listener.requests.map((r) => r.eventId).sort()).toEqual([...events].sort());
      expect(listener.overlaps).toEqual(new Set());
      for (const [s, expected] of order) {
        const bySession = new Set(expected);
        expect(
          listener.requests.map((r) => r.eventId!).filter((e) => bySession.has(e)),
          s,
        ).toEqual(expected);
      }
      const recorded = await attempts();
      expect(recorded).toHaveLength(events.length);
      expect(new Set(recorded.map((a) => a.worker_id))).toEqual(new Set(['one', 'two']));
    });
  });

  describe('recording', () => {
    /** Makes inserts of attempt rows fail (for one delivery, or all), as a database error would. */
    async function refuseAttempts(deliveryId?: number): Promise<() => Promise<void>> {
      if (testDialect() === 'sqlite') {
        const when = deliveryId === undefined ? sql`` : sql`when new.delivery_id = ${sql.lit(deliveryId)}`;
        await sql`create trigger refuse_attempts before insert on delivery_attempts ${when} begin select raise(abort, 'attempts refused'); end`.execute(db());
        return async () => void (await sql`drop trigger refuse_attempts`.execute(db()));
      }
      const test = deliveryId === undefined ? sql`true` : sql`new.delivery_id = ${sql.lit(deliveryId)}`;
      await sql`create function refuse_attempts() returns trigger language plpgsql as $$ begin if ${test} then raise exception 'attempts refused'; end if; return new; end $$`.execute(
        db(),
      );
      await sql`create trigger refuse_attempts before insert on delivery_attempts for each row execute function refuse_attempts()`.execute(db());
      return async () => {
        await sql`drop trigger refuse_attempts on delivery_attempts`.execute(db());
        await sql`drop function refuse_attempts()`.execute(db());
      };
    }
    const drain = () => drainDeliveries(ctx.runtime, { workerId: 'w', timeoutMs: 2000, random: () => 0 });

    it('leaves every delivery of a batch that cannot be recorded claimed, to be sent again when its lease ends', async () => {
      const enqueued: Array<{ id: number; eventId: string }> = [];
      for (let i = 0; i < 5; i++) enqueued.push(await enqueueDelivery(db(), ctx.runtime, input()));
      const allow = await refuseAttempts();
      expect(await drain()).toBe(5);
      expect(listener.acknowledged()).toEqual(new Set(enqueued.map((e) => e.eventId)));
      expect(await attempts()).toEqual([]);
      // Still claimed: nobody takes them before the lease ends.
      expect((await rows()).map((r) => r.status)).toEqual(Array(5).fill('delivering'));
      expect(await drain()).toBe(0);

      await allow();
      ctx.clock.advance((leaseSecondsFor(2000) + 1) * 1000);
      expect(await drain()).toBe(5);
      expect((await rows()).map((r) => [r.status, r.attempts])).toEqual(Array(5).fill(['delivered', 2]));
      // At least once: each event went twice, the second time recorded.
      expect(listener.requests).toHaveLength(10);
      expect((await attempts()).map((a) => a.status_code)).toEqual(Array(5).fill(200));
    });

    it('records the rest of a batch one by one when one of its attempts cannot be recorded', async () => {
      const enqueued: Array<{ id: number; eventId: string }> = [];
      for (let i = 0; i < 4; i++) enqueued.push(await enqueueDelivery(db(), ctx.runtime, input()));
      const bad = enqueued[2]!.id;
      const allow = await refuseAttempts(bad);
      expect(await drain()).toBe(4);
      expect((await rows()).map((r) => [r.id, r.status])).toEqual(enqueued.map((e) => [e.id, e.id === bad ? 'delivering' : 'delivered']));
      expect((await attempts()).map((a) => a.delivery_id)).toEqual(enqueued.filter((e) => e.id !== bad).map((e) => e.id));

      await allow();
      ctx.clock.advance((leaseSecondsFor(2000) + 1) * 1000);
      expect(await drain()).toBe(1);
      expect((await rows()).every((r) => r.status === 'delivered')).toBe(true);
      expect(listener.requests.filter((r) => r.eventId === enqueued[2]!.eventId)).toHaveLength(2);
    });

    it('records the attempts of a running worker in fewer transactions than deliveries', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      // Every answer waits until all the requests have arrived, so their outcomes come back together.
      listener.setBehaviour((_r, i) => {
        if (i === 7) release();
        return { status: 200, after: gate };
      });
      const events = await db()
        .transaction()
        .execute(async (tx) => {
          const list = [];
          for (let i = 0; i < 8; i++) list.push((await enqueueDelivery(tx, ctx.runtime, input())).eventId);
          return list;
        });
      const commits = { count: 0 };
      const counting = { ...ctx.runtime, database: { ...ctx.runtime.database, kysely: countingTransactions(db(), commits) } };
      workers.push(await startDeliveryWorker(counting, { workerId: 'batch', concurrency: 8, pollIntervalMs: 60_000 }));
      await waitFor('all eight recorded', async () => (await rows()).every((r) => r.status === 'delivered'));
      expect(listener.acknowledged()).toEqual(new Set(events));
      expect(commits.count).toBeLessThan(8);
    });
  });

  describe('connections', () => {
    /** An HTTP listener that answers 200 and counts the connections it accepted. */
    async function countingListener(): Promise<{ url: (host?: string) => string; connections(): number; received: string[]; server: http.Server }> {
      let connections = 0;
      const received: string[] = [];
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          received.push(req.headers['webhook-id'] as string);
          res.writeHead(200).end();
        });
      });
      server.on('connection', () => connections++);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as AddressInfo).port;
      return { url: (host = '127.0.0.1') => `http://${host}:${port}/hook`, connections: () => connections, received, server };
    }

    it('reuse one kept-alive connection for many deliveries to one target', async () => {
      const target = await countingListener();
      try {
        const events = await db()
          .transaction()
          .execute(async (tx) => {
            const list = [];
            for (let i = 0; i < 12; i++) list.push((await enqueueDelivery(tx, ctx.runtime, input({ url: target.url() }))).eventId);
            return list;
          });
        workers.push(await startDeliveryWorker(ctx.runtime, { workerId: 'keep', concurrency: 1, pollIntervalMs: 60_000 }));
        await waitFor('all twelve', () => events.every((e) => target.received.includes(e)));
        expect(target.connections()).toBe(1);
      } finally {
        for (const w of workers.splice(0)) await w.stop();
        target.server.closeAllConnections();
        target.server.close();
      }
    });

    it('check the resolved address of every new connection: a name that now resolves to a refused address gets none', async () => {
      const target = await countingListener();
      let address = '127.0.0.1';
      const resolve = ((_host: string, _options: unknown, callback: (e: null, a: Array<{ address: string; family: number }>) => void) =>
        callback(null, [{ address, family: 4 }])) as unknown as Resolver;
      const transport = createHttpTransport({ mode: 'sandbox', timeoutMs: 2000, clock: ctx.clock, keys: ctx.runtime.keys, maxSocketsPerTarget: 4, resolve });
      const drain = () => drainDeliveries(ctx.runtime, { workerId: 'dns', concurrency: 1, transports: { txpush: transport.send } });
      try {
        for (let i = 0; i < 3; i++) await enqueueDelivery(db(), ctx.runtime, input({ url: target.url('hooks.example.test') }));
        await drain();
        expect(target.received).toHaveLength(3);
        expect(target.connections()).toBe(1);

        // The name now points at the cloud metadata service, and the listener closed the kept-alive connection.
        address = '169.254.169.254';
        target.server.closeAllConnections();
        const { id } = await enqueueDelivery(db(), ctx.runtime, input({ url: target.url('hooks.example.test') }));
        await drain();
        expect(target.received).toHaveLength(3);
        expect(target.connections()).toBe(1);
        const [attempt] = await db().selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', id).execute();
        expect(attempt).toMatchObject({
          status_code: null,
          error: 'hooks.example.test: 169.254.169.254 is a cloud metadata address, which the outbound target policy refuses in sandbox mode',
        });
      } finally {
        transport.close();
        target.server.closeAllConnections();
        target.server.close();
      }
    });
  });
});

/** The executor with every transaction it starts counted (what the worker's commits are). */
function countingTransactions<T extends { transaction(): unknown }>(executor: T, counter: { count: number }): T {
  return new Proxy(executor, {
    get(target, property, receiver) {
      if (property === 'transaction') {
        return () => {
          counter.count++;
          return target.transaction();
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
