import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDueDeliveries, type ClaimedDelivery } from '../../src/outbox/claim.js';
import { completeDelivery } from '../../src/outbox/complete.js';
import { enqueueDelivery, type EnqueueHttpInput } from '../../src/outbox/enqueue.js';
import { RETRY_WINDOW_SECONDS } from '../../src/outbox/fail.js';
import { getDelivery, listDeliveries, redeliverDelivery } from '../../src/outbox/service.js';
import { generateSigningSecret } from '../../src/outbox/sign.js';
import { drainDeliveries, startDeliveryWorker } from '../../src/outbox/worker.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { ServiceError } from '../../src/contract/errors/service-error.js';
import { epochSeconds } from '../../src/platform/clock.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';

describe('the delivery outbox', () => {
  let ctx: TestContext;
  let listener: Listener;
  let partnerId: string;

  beforeEach(async () => {
    ctx = await createTestContext();
    // Signatures carry the clock's time; standardwebhooks checks it against the real one.
    ctx.clock.set(Date.now());
    partnerId = (await createPartner(ctx.runtime, { name: 'Acme' })).partnerId;
    listener = await startListener();
  });
  afterEach(async () => {
    await listener.close();
    await ctx.close();
  });

  const db = () => ctx.runtime.database.kysely;
  const push = (overrides: Partial<EnqueueHttpInput> = {}): EnqueueHttpInput => ({
    kind: 'txpush',
    partnerId,
    url: listener.url,
    body: JSON.stringify({ event: { class: 'transaction', type: 'created', records: [{ id: 1 }] } }),
    contentType: 'application/json',
    ...overrides,
  });
  const enqueue = (overrides: Partial<EnqueueHttpInput> = {}) => enqueueDelivery(db(), ctx.runtime, push(overrides));
  const drain = () => drainDeliveries(ctx.runtime, { workerId: 'test-worker', random: () => 0 });
  const row = (id: number) => db().selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('writes nothing when the producing transaction rolls back, and a due row when it commits', async () => {
    await expect(
      db()
        .transaction()
        .execute(async (tx) => {
          await enqueueDelivery(tx, ctx.runtime, push());
          throw new Error('the change failed');
        }),
    ).rejects.toThrow('the change failed');
    expect(await db().selectFrom('deliveries').selectAll().execute()).toEqual([]);

    const { id, eventId } = await db()
      .transaction()
      .execute((tx) => enqueueDelivery(tx, ctx.runtime, push()));
    expect(await row(id)).toMatchObject({
      status: 'pending',
      event_id: eventId,
      attempts: 0,
      next_attempt_at: epochSeconds(ctx.clock),
      first_attempt_at: null,
    });
  });

  it('delivers to a listener with the event id and a signature the standardwebhooks library verifies', async () => {
    const secret = generateSigningSecret();
    const input = push({ signingSecret: secret, headers: { 'X-Partner-Tag': 'abc' } });
    const { id, eventId } = await enqueueDelivery(db(), ctx.runtime, input);
    expect(await drain()).toBe(1);

    expect(listener.requests).toHaveLength(1);
    const [req] = listener.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/hook', body: input.body, eventId });
    expect(req!.headers).toMatchObject({ 'content-type': 'application/json', 'x-partner-tag': 'abc', 'webhook-timestamp': String(epochSeconds(ctx.clock)) });
    expect(new Webhook(secret).verify(req!.body, req!.headers as Record<string, string>)).toEqual(JSON.parse(input.body));

    const delivered = await getDelivery(db(), id);
    expect(delivered).toMatchObject({ status: 'delivered', deliveredAt: epochSeconds(ctx.clock), lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(delivered.attempts).toEqual([
      { attemptedAt: epochSeconds(ctx.clock), workerId: 'test-worker', statusCode: 200, latencyMs: expect.any(Number), error: null },
    ]);
    expect((await row(id)).locked_by).toBeNull();
  });

  it('stores the signing secret encrypted', async () => {
    const secret = generateSigningSecret();
    const { id } = await enqueue({ signingSecret: secret });
    const stored = await row(id);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6));
    expect(stored.signing_secret_encrypted).toMatch(/^v1\./);
  });

  it('sends deliveries without a secret unsigned but still with webhook-id', async () => {
    const { eventId } = await enqueue();
    await drain();
    expect(listener.requests[0]!.headers['webhook-id']).toBe(eventId);
    expect(listener.requests[0]!.headers['webhook-signature']).toBeUndefined();
  });

  it('retries anything but 200 within 10 seconds, with the same event id, and records every attempt', async () => {
    listener.setBehaviour((_r, i) => (i === 0 ? { status: 500, body: 'listener broke\nbadly' } : i === 1 ? { status: 201 } : { status: 200 }));
    const { id, eventId } = await enqueue();
    const start = epochSeconds(ctx.clock);
    await drain();
    const afterFirst = await row(id);
    expect(afterFirst).toMatchObject({
      status: 'pending',
      attempts: 1,
      first_attempt_at: start,
      last_status_code: 500,
      last_error: 'HTTP 500: listener broke badly; the listener must answer 200',
    });
    expect(afterFirst.next_attempt_at - start).toBeGreaterThanOrEqual(8);
    expect(afterFirst.next_attempt_at - start).toBeLessThanOrEqual(10);

    // Not due yet: nothing happens.
    ctx.clock.advance(5_000);
    expect(await drain()).toBe(0);
    ctx.clock.set(afterFirst.next_attempt_at * 1000);
    await drain();
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 201 });
    ctx.clock.set((await row(id)).next_attempt_at * 1000);
    await drain();

    const view = await getDelivery(db(), id);
    expect(view.status).toBe('delivered');
    expect(view.attempts.map((a) => a.statusCode)).toEqual([500, 201, 200]);
    expect(view.attempts[0]!.error).toMatch(/HTTP 500/);
    expect(view.attempts[2]!.error).toBeNull();
    expect(listener.requests.map((r) => r.eventId)).toEqual([eventId, eventId, eventId]);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const elsewhere = await startListener();
    try {
      listener.setBehaviour(() => ({ status: 302, headers: { location: elsewhere.url } }));
      const { id } = await enqueue();
      await drain();
      expect(await row(id)).toMatchObject({ status: 'pending', last_status_code: 302 });
      expect((await row(id)).last_error).toBe(`HTTP 302 redirect to ${elsewhere.url} not followed; the listener must answer 200`);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('gives up on a listener that does not answer within the timeout', async () => {
    listener.setBehaviour(() => ({ hang: true }));
    const { id } = await enqueue();
    await drainDeliveries(ctx.runtime, { timeoutMs: 200 });
    expect(await row(id)).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'no answer within 200 ms' });
  });

  it('records a refused connection as a failed attempt', async () => {
    const port = listener.port;
    await listener.close();
    const { id } = await enqueue({ url: `http://127.0.0.1:${port}/hook` });
    await drain();
    expect((await getDelivery(db(), id)).attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) });
    listener = await startListener();
  });

  it('keeps retrying for six hours from the first attempt, then cancels the delivery', async () => {
    listener.setBehaviour(() => ({ status: 503 }));
    const { id, eventId } = await enqueue();
    const first = epochSeconds(ctx.clock);
    for (let round = 0; round < 100; round++) {
      await drainDeliveries(ctx.runtime, { workerId: 'test-worker' });
      const current = await row(id);
      if (current.status !== 'pending') break;
      ctx.clock.set(current.next_attempt_at * 1000);
    }
    const view = await getDelivery(db(), id);
    expect(view.status).toBe('cancelled');
    expect(view.cancelledAt).toBe(first + RETRY_WINDOW_SECONDS);
    const times = view.attempts.map((a) => a.attemptedAt);
    expect(times[0]).toBe(first);
    expect(times[1]! - times[0]!).toBeLessThanOrEqual(10);
    expect(times.at(-1)).toBe(first + RETRY_WINDOW_SECONDS);
    // Gaps grow to about 30 minutes and never beyond.
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(1800);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(1440);
    expect(view.attempts.length).toBeGreaterThanOrEqual(19);
    expect(view.attempts.length).toBeLessThanOrEqual(25);
    expect(listener.requests).toHaveLength(view.attempts.length);
    expect(new Set(listener.requests.map((r) => r.eventId))).toEqual(new Set([eventId]));

    // Cancelled means no more attempts, however much time passes.
    ctx.clock.advance(24 * 3600 * 1000);
    expect(await drain()).toBe(0);
  });

  it('redelivers with the same event id, keeping the attempt history and starting a new window', async () => {
    listener.setBehaviour(() => ({ status: 410 }));
    const { id, eventId } = await enqueue();
    for (let i = 0; i < 40 && (await row(id)).status === 'pending'; i++) {
      await drain();
      const r = await row(id);
      if (r.status === 'pending') ctx.clock.set(r.next_attempt_at * 1000);
    }
    expect((await row(id)).status).toBe('cancelled');
    const before = (await getDelivery(db(), id)).attempts.length;

    listener.setBehaviour(() => ({ status: 200 }));
    ctx.clock.advance(3600_000);
    const again = await redeliverDelivery(db(), ctx.clock, id);
    expect(again).toMatchObject({ status: 'pending', nextAttemptAt: epochSeconds(ctx.clock), cancelledAt: null, eventId });
    await drain();
    const view = await getDelivery(db(), id);
    expect(view.status).toBe('delivered');
    expect(view.attempts).toHaveLength(before + 1);
    expect(listener.requests.at(-1)!.eventId).toBe(eventId);
    expect((await row(id)).first_attempt_at).toBe(epochSeconds(ctx.clock));

    // A delivered one can be sent again too.
    await redeliverDelivery(db(), ctx.clock, id);
    await drain();
    expect(listener.acknowledged()).toEqual(new Set([eventId]));
    expect(listener.requests.filter((r) => r.status === 200)).toHaveLength(2);
  });

  it("refuses to redeliver a delivery in flight, and hides other partners' deliveries", async () => {
    const { id } = await enqueue();
    const [claimed] = await claimDueDeliveries(db(), { workerId: 'w', limit: 10, now: epochSeconds(ctx.clock), leaseSeconds: 30 });
    await expect(redeliverDelivery(db(), ctx.clock, id)).rejects.toMatchObject({
      errorName: 'BadRequest',
      message: expect.stringMatching(/being delivered right now/),
    });
    // Once the claim has run out (its worker died), it can be sent again.
    ctx.clock.advance(31_000);
    await expect(redeliverDelivery(db(), ctx.clock, id)).resolves.toMatchObject({ status: 'pending' });
    expect(await completeDelivery(db(), claimed!, { now: epochSeconds(ctx.clock), statusCode: 200 })).toBe(false);

    const other = (await createPartner(ctx.runtime, { name: 'Other' })).partnerId;
    await expect(getDelivery(db(), id, other)).rejects.toMatchObject({ errorName: 'ResourceNotFound' });
    await expect(redeliverDelivery(db(), ctx.clock, id, other)).rejects.toBeInstanceOf(ServiceError);
    await expect(redeliverDelivery(db(), ctx.clock, 999_999)).rejects.toMatchObject({ errorName: 'ResourceNotFound' });
  });

  it('lists deliveries newest first, filtered by partner, status, kind and event', async () => {
    const other = (await createPartner(ctx.runtime, { name: 'Other' })).partnerId;
    const a = await enqueue();
    const b = await enqueue({ kind: 'webhook' });
    const c = await enqueue({ partnerId: other });
    await drain();
    await enqueue();
    expect((await listDeliveries(db())).map((d) => d.id)).toEqual([a.id + 3, c.id, b.id, a.id]);
    expect((await listDeliveries(db(), { partnerId: other })).map((d) => d.id)).toEqual([c.id]);
    expect((await listDeliveries(db(), { partnerId, status: 'delivered' })).map((d) => d.id)).toEqual([b.id, a.id]);
    expect((await listDeliveries(db(), { kind: 'webhook' })).map((d) => d.id)).toEqual([b.id]);
    expect((await listDeliveries(db(), { eventId: c.eventId })).map((d) => d.id)).toEqual([c.id]);
    expect(await listDeliveries(db(), { limit: 2 })).toHaveLength(2);
    expect((await listDeliveries(db(), { partnerId: other }))[0]!.attempts).toHaveLength(1);
  });

  it('refuses malformed deliveries when they are enqueued', async () => {
    await expect(enqueue({ url: 'ftp://example.com/x' })).rejects.toMatchObject({ errorName: 'InvalidParameter' });
    await expect(enqueue({ url: 'not a url' })).rejects.toMatchObject({ errorName: 'InvalidParameter' });
    await expect(enqueue({ signingSecret: 'plain' })).rejects.toMatchObject({ errorName: 'InvalidParameter' });
    await expect(enqueue({ headers: { 'webhook-id': 'x' } })).rejects.toMatchObject({ errorName: 'InvalidParameter' });
    await expect(enqueue({ headers: { 'x-a': 'b\r\nx-injected: 1' } })).rejects.toMatchObject({ errorName: 'InvalidParameter' });
    await expect(enqueueDelivery(db(), ctx.runtime, { kind: 'email', partnerId, to: 'nobody', subject: 's', text: 't' })).rejects.toMatchObject({
      errorName: 'InvalidParameter',
    });
  });

  describe('claims', () => {
    it('never hand the same delivery to two workers claiming at once', async () => {
      const ids = new Set<number>();
      for (let i = 0; i < 120; i++) ids.add((await enqueue()).id);
      const now = epochSeconds(ctx.clock);
      const claimedBy = new Map<number, string>();
      const duplicates: number[] = [];
      // Each claims a first batch, then all go on together: every worker takes part however fast each one is.
      let arrived = 0;
      let allArrived!: () => void;
      const together = new Promise<void>((resolve) => (allArrived = resolve));
      const claimer = async (workerId: string) => {
        for (let batch = 0; ; batch++) {
          const rows = await claimDueDeliveries(db(), { workerId, limit: 7, now, leaseSeconds: 60 });
          for (const r of rows) {
            if (claimedBy.has(r.id)) duplicates.push(r.id);
            claimedBy.set(r.id, workerId);
          }
          if (batch === 0 && ++arrived === 3) allArrived();
          if (batch === 0) await together;
          if (rows.length === 0) return;
        }
      };
      await Promise.all([claimer('a'), claimer('b'), claimer('c')]);
      expect(duplicates).toEqual([]);
      expect(new Set(claimedBy.keys())).toEqual(ids);
      expect(new Set(claimedBy.values()).size).toBeGreaterThan(1);
    });

    it('come back after the lease of a worker that died, counting the attempt and keeping the window', async () => {
      const { id } = await enqueue();
      const now = epochSeconds(ctx.clock);
      const [first] = await claimDueDeliveries(db(), { workerId: 'dead', limit: 1, now, leaseSeconds: 20 });
      expect(first).toMatchObject({
        id,
        status: 'delivering',
        attempts: 1,
        first_attempt_at: now,
        locked_until: now + 20,
        locked_by: expect.stringMatching(/^dead#/),
      });
      expect(await claimDueDeliveries(db(), { workerId: 'live', limit: 1, now: now + 19, leaseSeconds: 20 })).toEqual([]);
      const [second] = (await claimDueDeliveries(db(), { workerId: 'live', limit: 1, now: now + 20, leaseSeconds: 20 })) as ClaimedDelivery[];
      expect(second).toMatchObject({ id, attempts: 2, first_attempt_at: now, locked_by: expect.stringMatching(/^live#/) });
      // The dead worker's late answer no longer counts; the live one's does.
      expect(await completeDelivery(db(), first!, { now: now + 21, statusCode: 200 })).toBe(false);
      expect(await completeDelivery(db(), second!, { now: now + 21, statusCode: 200 })).toBe(true);
    });
  });

  describe('the outbound target policy in production mode', () => {
    let prod: TestContext;
    let prodPartner: string;
    beforeEach(async () => {
      prod = await createTestContext({ LEDGERLINK_MODE: 'production' });
      prodPartner = (await createPartner(prod.runtime, { name: 'Acme' })).partnerId;
    });
    afterEach(() => prod.close());

    it('refuses loopback listeners, by address and by name, and records the refusal as a failed attempt', async () => {
      const byAddress = await enqueueDelivery(prod.runtime.database.kysely, prod.runtime, push({ partnerId: prodPartner }));
      const byName = await enqueueDelivery(
        prod.runtime.database.kysely,
        prod.runtime,
        push({ partnerId: prodPartner, url: `http://localhost:${listener.port}/hook` }),
      );
      await drainDeliveries(prod.runtime, { workerId: 'prod' });
      expect(listener.requests).toHaveLength(0);
      const a = await getDelivery(prod.runtime.database.kysely, byAddress.id);
      expect(a).toMatchObject({ status: 'pending', lastStatusCode: null });
      expect(a.attempts).toEqual([
        expect.objectContaining({ statusCode: null, error: '127.0.0.1 is a loopback address, which the outbound target policy refuses in production mode' }),
      ]);
      const b = await getDelivery(prod.runtime.database.kysely, byName.id);
      expect(b.attempts[0]!.error).toMatch(
        /^localhost: (127\.0\.0\.1|::1) is a loopback address, which the outbound target policy refuses in production mode$/,
      );
    });
  });

  describe('the worker loop', () => {
    it('delivers an enqueue at once, also one made inside a transaction, and stops cleanly', async () => {
      const worker = await startDeliveryWorker(ctx.runtime, { workerId: 'loop', pollIntervalMs: 60_000 });
      try {
        const a = await enqueue();
        await waitFor('the first delivery', () => listener.acknowledged().has(a.eventId));
        const b = await db()
          .transaction()
          .execute((tx) => enqueueDelivery(tx, ctx.runtime, push()));
        await waitFor('the delivery made in a transaction', () => listener.acknowledged().has(b.eventId));
      } finally {
        await worker.stop();
      }
      await waitFor('both recorded', async () => (await listDeliveries(db(), { status: 'delivered' })).length === 2);
    });

    it('lets a delivery in flight finish and record its outcome when stopped', async () => {
      let release!: () => void;
      listener.setBehaviour(() => ({ status: 200, after: new Promise<void>((r) => (release = r)) }));
      const worker = await startDeliveryWorker(ctx.runtime, { workerId: 'loop', pollIntervalMs: 60_000 });
      const { id } = await enqueue();
      await waitFor('the request to arrive', () => listener.requests.length === 1);
      const stopped = worker.stop();
      expect(await row(id)).toMatchObject({ status: 'delivering' });
      release();
      await stopped;
      expect(await row(id)).toMatchObject({ status: 'delivered', locked_by: null });
      expect((await getDelivery(db(), id)).attempts).toHaveLength(1);
    });

    it('runs as many deliveries at once as its concurrency, and no more', async () => {
      // The listener answers only once four requests wait (or the last ones came): a worker running fewer at once stalls.
      let gate: { promise: Promise<void>; open: () => void } | undefined;
      const newGate = () => {
        let open!: () => void;
        const promise = new Promise<void>((r) => (open = r));
        return { promise, open };
      };
      let waiting = 0;
      listener.setBehaviour((_r, index) => {
        gate ??= newGate();
        const current = gate;
        if (++waiting === 4 || index === 9) {
          waiting = 0;
          gate = undefined;
          setImmediate(current.open);
        }
        return { status: 200, after: current.promise };
      });
      const events = await db()
        .transaction()
        .execute(async (tx) => {
          const list = [];
          for (let i = 0; i < 10; i++) list.push((await enqueueDelivery(tx, ctx.runtime, push())).eventId);
          return list;
        });
      const worker = await startDeliveryWorker(ctx.runtime, { workerId: 'loop', concurrency: 4, pollIntervalMs: 60_000 });
      try {
        await waitFor('all ten', () => events.every((e) => listener.acknowledged().has(e)));
      } finally {
        await worker.stop();
      }
      expect(listener.peakInFlight()).toBe(4);
    });
  });
});
