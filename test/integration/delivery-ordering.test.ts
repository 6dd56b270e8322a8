import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDueDeliveries } from '../../src/outbox/claim.js';
import { registerSandboxListener } from '../../src/outbox/listeners.js';
import { getDelivery, listDeliveries, redeliverDelivery } from '../../src/outbox/service.js';
import { drainDeliveries, startDeliveryWorker, type DeliveryWorker } from '../../src/outbox/worker.js';
import { enqueueConnectWebhook, type ConnectWebhookTarget } from '../../src/modules/connect/webhooks.service.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { epochSeconds } from '../../src/platform/clock.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';

/**
 * Issue: one failing receiver silenced `listen` and redelivery. Connect webhooks of a session go out in order per
 * target, never across targets: a `listen` copy is its own target, so it arrives at once while the partner's own
 * receiver keeps failing. Shown next attempt times are never in the past, and a redelivery goes out at once.
 */
describe('delivery order, listen copies, next attempts and redelivery', () => {
  let ctx: TestContext;
  let partnerReceiver: Listener;
  let listen: Listener;
  let partnerId: string;
  let worker: DeliveryWorker | undefined;

  beforeEach(async () => {
    ctx = await createTestContext();
    ctx.clock.set(Date.now());
    partnerId = (await createPartner(ctx.runtime, { name: 'Acme' })).partnerId;
    // The partner's receiver is down; `listen` answers everything.
    partnerReceiver = await startListener(() => ({ status: 500, body: 'receiver down' }));
    listen = await startListener();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await partnerReceiver.close();
    await listen.close();
    await ctx.close();
  });

  const db = () => ctx.runtime.database.kysely;
  const now = () => epochSeconds(ctx.clock);
  const session = (connectSession = 'link-0001'): ConnectWebhookTarget => ({
    partnerId,
    customerId: 1005000001,
    url: partnerReceiver.url,
    contentType: 'application/json',
    headers: {},
    webhookData: undefined,
    connectSession,
  });
  /** Connect webhooks of one session, each queued in its own transaction as the session's steps would. */
  async function fire(types: ('started' | 'institutionSelected' | 'credentialsSubmitted' | 'added' | 'done')[], target = session()): Promise<string[]> {
    const ids: string[] = [];
    for (const type of types)
      ids.push(
        await db()
          .transaction()
          .execute((tx) => enqueueConnectWebhook(tx, ctx.runtime, target, type, { step: type })),
      );
    return ids;
  }
  /** A worker that only looks when woken: its poll comes after a minute, so whatever arrives sooner was woken for. */
  const startWorker = async () => (worker = await startDeliveryWorker(ctx.runtime, { workerId: 'loop', pollIntervalMs: 60_000, random: () => 0 }));
  const deliveriesTo = async (target: string) => (await listDeliveries(db(), { partnerId, target, limit: 100 }, ctx.clock)).reverse();

  it("delivers every listen copy at once while the partner's receiver keeps failing, each target in its own order", async () => {
    await registerSandboxListener(db(), partnerId, listen.url, now());
    await startWorker();
    const events = await fire(['started', 'institutionSelected', 'credentialsSubmitted', 'added', 'done']);

    await waitFor('every event at the listener', () => listen.acknowledged().size === events.length, 10_000);
    // The copies arrived in the order the events happened.
    expect(listen.requests.map((r) => r.eventId)).toEqual(events);
    await waitFor('the first webhook at the partner failed', async () => (await deliveriesTo(partnerReceiver.url))[0]!.state === 'retrying', 10_000);
    // The partner's receiver got the first event only: the rest wait behind it, in order, for that target alone.
    expect(partnerReceiver.requests.map((r) => r.eventId)).toEqual([events[0]]);

    const atPartner = await deliveriesTo(partnerReceiver.url);
    expect(atPartner.map((d) => d.eventId)).toEqual(events);
    expect(atPartner.map((d) => d.state)).toEqual(['retrying', 'pending', 'pending', 'pending', 'pending']);
    const head = atPartner[0]!;
    expect(head.waitingFor).toBeNull();
    expect(head.nextAttemptAt).toBeGreaterThan(now());
    for (const waiting of atPartner.slice(1)) {
      expect(waiting.waitingFor).toBe(head.id);
      // It cannot go before the delivery it waits for.
      expect(waiting.nextAttemptAt).toBe(head.nextAttemptAt);
    }
    expect((await deliveriesTo(listen.url)).map((d) => [d.state, d.copyOf])).toEqual(atPartner.map((d) => ['delivered', d.id]));

    // The receiver recovers: at the retry time the partner gets every event, still in order.
    await worker!.stop();
    worker = undefined;
    partnerReceiver.setBehaviour(() => ({ status: 200 }));
    ctx.clock.set(head.nextAttemptAt! * 1000);
    await drainDeliveries(ctx.runtime);
    expect(partnerReceiver.requests.map((r) => r.eventId)).toEqual([events[0], ...events]);
    expect(new Set((await deliveriesTo(partnerReceiver.url)).map((d) => d.state))).toEqual(new Set(['delivered']));
    // Nothing went twice to the listener.
    expect(listen.requests).toHaveLength(events.length);
  });

  it('keeps the order of a session per target, and sessions apart from each other', async () => {
    const other = await startListener(() => ({ status: 200 }));
    try {
      const first = await fire(['started', 'added']);
      const elsewhere = await fire(['started', 'added'], { ...session(), url: other.url });
      const second = await fire(['started'], session('link-0002'));
      await drainDeliveries(ctx.runtime, { random: () => 0 });
      // Another target of the same session, and another session to the same target, do not wait.
      expect(other.requests.map((r) => r.eventId)).toEqual(elsewhere);
      expect(partnerReceiver.requests.map((r) => r.eventId).sort()).toEqual([first[0], second[0]].sort());
    } finally {
      await other.close();
    }
  });

  it('never shows a next attempt in the past: overdue, retrying and orphaned claims are due now', async () => {
    const [overdueEvent] = await fire(['started']);
    const overdue = (await deliveriesTo(partnerReceiver.url))[0]!;
    ctx.clock.advance(90_000);
    // Queued 90 seconds ago and not picked up yet (no worker ran): due now, not 90 seconds ago.
    expect(await getDelivery(db(), overdue.id, partnerId, ctx.clock)).toMatchObject({ state: 'pending', nextAttemptAt: now(), inFlight: false });

    // A claim in progress: no next attempt while its attempt runs.
    const [claimed] = await claimDueDeliveries(db(), { workerId: 'dead', limit: 1, now: now(), leaseSeconds: 20 });
    expect(claimed!.event_id).toBe(overdueEvent);
    expect(await getDelivery(db(), overdue.id, partnerId, ctx.clock)).toMatchObject({ state: 'pending', inFlight: true, nextAttemptAt: null });
    // Its worker died: once the lease ran out (long ago by now) the claim comes back, due now.
    ctx.clock.advance(3_600_000);
    expect(await getDelivery(db(), overdue.id, partnerId, ctx.clock)).toMatchObject({ state: 'pending', inFlight: false, nextAttemptAt: now() });

    // A failed attempt whose retry time has passed: retrying, due now.
    await drainDeliveries(ctx.runtime, { random: () => 0 });
    const retrying = await getDelivery(db(), overdue.id, partnerId, ctx.clock);
    // The orphaned claim counted as the first attempt, so this failure was the second: 30 seconds.
    expect(retrying).toMatchObject({ state: 'retrying', nextAttemptAt: now() + 30 });
    ctx.clock.advance(600_000);
    expect(await getDelivery(db(), overdue.id, partnerId, ctx.clock)).toMatchObject({ state: 'retrying', nextAttemptAt: now() });
    const listed = await listDeliveries(db(), { partnerId, state: 'retrying' }, ctx.clock);
    expect(listed.map((d) => [d.id, d.nextAttemptAt])).toEqual([[overdue.id, now()]]);
  });

  it('redelivers at once through a woken worker: a failed delivery, a delivered one, and one waiting in its session order', async () => {
    // Failed: the receiver refused for six hours.
    const [gone] = await fire(['started']);
    for (let i = 0; i < 60; i++) {
      await drainDeliveries(ctx.runtime, { random: () => 0 });
      const d = (await deliveriesTo(partnerReceiver.url))[0]!;
      if (d.state !== 'retrying') break;
      ctx.clock.set(Math.max(d.nextAttemptAt!, now()) * 1000);
    }
    const failed = (await deliveriesTo(partnerReceiver.url))[0]!;
    expect(failed).toMatchObject({ state: 'failed', eventId: gone });
    const tried = failed.attempts.length;

    await startWorker();
    partnerReceiver.setBehaviour(() => ({ status: 200 }));
    // No clock moves from here on: only the wake-up can make the worker look before its poll a minute away.
    const again = await redeliverDelivery(db(), ctx.clock, failed.id, partnerId);
    expect(again).toMatchObject({ state: 'pending', nextAttemptAt: now(), redeliveredAt: now() });
    await waitFor('the redelivered event at the receiver', () => partnerReceiver.acknowledged().has(gone!), 10_000);
    await waitFor('the redelivery recorded', async () => (await getDelivery(db(), failed.id, partnerId, ctx.clock)).state === 'delivered', 10_000);
    expect((await getDelivery(db(), failed.id, partnerId, ctx.clock)).attempts).toHaveLength(tried + 1);

    // Delivered: sent once more, with the same event id.
    await redeliverDelivery(db(), ctx.clock, failed.id, partnerId);
    await waitFor('the second redelivery', () => partnerReceiver.requests.filter((r) => r.status === 200).length === 2, 10_000);

    // Waiting in order behind an earlier webhook that keeps failing: a redelivery does not wait for it.
    partnerReceiver.setBehaviour((r) => (r.eventId === gone ? { status: 200 } : { status: 503, body: 'still down' }));
    const [head, behind] = await fire(['started', 'added'], session('link-0002'));
    await waitFor(
      'the head of the session failed',
      async () => (await deliveriesTo(partnerReceiver.url)).some((d) => d.eventId === head && d.state === 'retrying'),
      10_000,
    );
    const waiting = (await deliveriesTo(partnerReceiver.url)).find((d) => d.eventId === behind)!;
    expect(waiting).toMatchObject({ state: 'pending', waitingFor: expect.any(Number) });
    partnerReceiver.setBehaviour((r) => (r.eventId === head ? { status: 503 } : { status: 200 }));
    await redeliverDelivery(db(), ctx.clock, waiting.id, partnerId);
    await waitFor('the redelivered webhook, ahead of the failing one', () => partnerReceiver.acknowledged().has(behind!), 10_000);
    expect((await getDelivery(db(), waiting.id, partnerId, ctx.clock)).waitingFor).toBeNull();
  });

  it("hides a partner's deliveries from another partner, who cannot redeliver them", async () => {
    await registerSandboxListener(db(), partnerId, listen.url, now());
    await fire(['started']);
    const [own] = await listDeliveries(db(), { partnerId, groupCopies: true }, ctx.clock);
    expect(own!.copies).toHaveLength(1);
    const other = (await createPartner(ctx.runtime, { name: 'Other' })).partnerId;
    expect(await listDeliveries(db(), { partnerId: other }, ctx.clock)).toEqual([]);
    expect(await listDeliveries(db(), { partnerId: other, groupCopies: true, target: listen.url }, ctx.clock)).toEqual([]);
    for (const id of [own!.id, own!.copies[0]!.id]) {
      await expect(redeliverDelivery(db(), ctx.clock, id, other)).rejects.toMatchObject({ errorName: 'ResourceNotFound' });
      await expect(getDelivery(db(), id, other, ctx.clock)).rejects.toMatchObject({ errorName: 'ResourceNotFound' });
    }
  });
});
