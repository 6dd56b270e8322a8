import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancelSubscriptionDeliveries } from '../../src/outbox/cancel.js';
import { claimDueDeliveries } from '../../src/outbox/claim.js';
import { enqueueDelivery, type EnqueueHttpInput } from '../../src/outbox/enqueue.js';
import { registerSandboxListener } from '../../src/outbox/listeners.js';
import { DELIVERY_STATES, listDeliveries, type DeliveryView } from '../../src/outbox/service.js';
import type { DeliveryOutcome, Transport } from '../../src/outbox/transports/transport.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { backfill } from '../../src/platform/db/migrations/0022_delivery_states.js';
import { epochSeconds } from '../../src/platform/clock.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { dashboardSignIn, type DashboardBrowser } from '../helpers/dashboard.js';
import { startListener, type Listener } from '../helpers/listener.js';

/**
 * The delivery log: five states derived from what the outbox stores (pending, retrying, failed, delivered,
 * cancelled), filters by state, event type and target that the service applies in one place, `listen` copies grouped
 * under the delivery they copy, and the dashboard's deliveries call with payloads, the last answer and its scoping.
 */
describe('delivery states, filters and the dashboard delivery log', () => {
  let ctx: TestContext;
  let partner: PartnerCredentials;

  beforeEach(async () => {
    ctx = await createTestContext();
    ctx.clock.set(Date.now());
    partner = await createPartner(ctx.runtime, { name: 'Acme' });
  });
  afterEach(() => ctx.close());

  const db = () => ctx.runtime.database.kysely;
  const now = () => epochSeconds(ctx.clock);
  const push = (target: string, overrides: Partial<EnqueueHttpInput> = {}): EnqueueHttpInput => ({
    kind: 'txpush',
    partnerId: partner.partnerId,
    url: `https://${target}.example.com/hook`,
    body: JSON.stringify({ event: { class: 'transaction', type: 'created', records: [{ id: 1 }] } }),
    contentType: 'application/json',
    eventType: 'transaction.created',
    ...overrides,
  });
  /** A transport answering per target host, so no request leaves the test. */
  const answers =
    (byHost: Record<string, DeliveryOutcome>): Transport =>
    async (d) =>
      byHost[new URL(d.target).hostname.split('.')[0]!] ?? { ok: true, statusCode: 200, error: null, response: 'ok' };
  const states = (list: DeliveryView[]) => Object.fromEntries(list.map((d) => [new URL(d.target).hostname.split('.')[0], d.state]));

  it('derives the five states from the stored rows, and filters by each of them exactly as it shows them', async () => {
    for (const target of ['fresh', 'sending', 'flaky', 'gone', 'fine', 'dropped']) {
      await enqueueDelivery(db(), ctx.runtime, push(target, { subscriptionId: target === 'dropped' ? 77 : null }));
    }
    await cancelSubscriptionDeliveries(db(), [77], { now: now(), reason: 'the subscription was deleted' });
    // `fresh` stays unattempted: it is due later than the others are claimed.
    await db()
      .updateTable('deliveries')
      .set({ next_attempt_at: now() + 60 })
      .where('target', 'like', 'https://fresh.%')
      .execute();
    await drainDeliveries(ctx.runtime, {
      random: () => 0,
      transports: {
        txpush: answers({
          flaky: { ok: false, statusCode: 503, error: 'HTTP 503; the listener must answer 200', response: 'busy' },
          gone: { ok: false, statusCode: 410, error: 'HTTP 410', permanent: true, response: 'gone for good' },
          sending: { ok: false, statusCode: 500, error: 'HTTP 500', response: '' },
        }),
      },
    });
    // `sending` is due again and claimed by a worker that is sending it right now: its second attempt is under way.
    ctx.clock.advance(10_000);
    await db()
      .updateTable('deliveries')
      .set({ next_attempt_at: now() + 600 })
      .where('target', 'like', 'https://flaky.%')
      .execute();
    expect(await claimDueDeliveries(db(), { workerId: 'busy', limit: 10, now: now(), leaseSeconds: 30 })).toHaveLength(1);

    const all = await listDeliveries(db(), { partnerId: partner.partnerId }, ctx.clock);
    expect(states(all)).toEqual({ fresh: 'pending', sending: 'retrying', flaky: 'retrying', gone: 'failed', fine: 'delivered', dropped: 'cancelled' });
    expect(all.find((d) => d.state === 'failed')).toMatchObject({ lastResponse: { statusCode: 410, body: 'gone for good' }, cancelledAt: expect.any(Number) });
    expect(all.find((d) => d.target.includes('sending'))).toMatchObject({ inFlight: true, nextAttemptAt: null, status: 'delivering' });
    for (const state of DELIVERY_STATES) {
      const filtered = await listDeliveries(db(), { partnerId: partner.partnerId, state }, ctx.clock);
      expect(filtered.map((d) => d.id)).toEqual(all.filter((d) => d.state === state).map((d) => d.id));
    }
  });

  it('filters by event type and target, and shows listen copies under the delivery they copy', async () => {
    const listen = 'http://127.0.0.1:4999/';
    await registerSandboxListener(db(), partner.partnerId, listen, now());
    const created = await enqueueDelivery(db(), ctx.runtime, push('partner'));
    const added = await enqueueDelivery(db(), ctx.runtime, push('partner', { kind: 'webhook', eventType: 'connect.added', body: '{"eventType":"added"}' }));
    await enqueueDelivery(db(), ctx.runtime, {
      kind: 'email',
      partnerId: partner.partnerId,
      to: 'a@example.com',
      subject: 's',
      text: 't',
      eventType: 'connect.email',
    });
    // The partner's receiver takes everything; the listener is gone (nothing answers its port).
    const refused = answers({ '127': { ok: false, statusCode: null, error: 'connect ECONNREFUSED' } });
    await drainDeliveries(ctx.runtime, { random: () => 0, transports: { txpush: refused, webhook: refused } });

    const flat = await listDeliveries(db(), { partnerId: partner.partnerId }, ctx.clock);
    expect(flat).toHaveLength(5);
    expect(flat.filter((d) => d.copyOf !== null).map((d) => [d.copyOf, d.target])).toEqual([
      [added.id, listen],
      [created.id, listen],
    ]);

    const grouped = await listDeliveries(db(), { partnerId: partner.partnerId, groupCopies: true }, ctx.clock);
    expect(grouped.map((d) => [d.eventType, d.copies.map((c) => c.target)])).toEqual([
      ['connect.email', []],
      ['connect.added', [listen]],
      ['transaction.created', [listen]],
    ]);
    const pushed = grouped.find((d) => d.id === created.id)!;
    expect(pushed).toMatchObject({ state: 'delivered', payload: push('x').body, contentType: 'application/json', payloadTruncated: false });
    expect(pushed.copies[0]).toMatchObject({ state: 'retrying', lastResponse: { statusCode: null, body: null, error: 'connect ECONNREFUSED' } });

    const ids = async (filter: Parameters<typeof listDeliveries>[1]) =>
      (await listDeliveries(db(), { partnerId: partner.partnerId, groupCopies: true, ...filter }, ctx.clock)).map((d) => d.id);
    expect(await ids({ eventType: 'connect.added' })).toEqual([added.id]);
    // A filter keeps a delivery when one of its copies meets it.
    expect(await ids({ target: listen })).toEqual([added.id, created.id]);
    expect(await ids({ state: 'retrying' })).toEqual([added.id, created.id]);
    expect(await ids({ state: 'retrying', eventType: 'transaction.created' })).toEqual([created.id]);
    expect(await ids({ state: 'failed' })).toEqual([]);
    expect(await ids({ kind: 'email' })).toHaveLength(1);
  });

  describe('the dashboard call', () => {
    let browser: DashboardBrowser;
    let receiver: Listener;
    beforeEach(async () => {
      browser = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
      receiver = await startListener((r) => (r.body.includes('"id":2') ? { status: 200, body: 'thanks' } : { status: 500, body: `${'x'.repeat(600)}END` }));
    });
    afterEach(() => receiver.close());

    it('shows event type, payload and the last answer cut to 500 bytes, with what the filters offer', async () => {
      const body = (id: number) => JSON.stringify({ event: { class: 'transaction', type: 'created', records: [{ id }] } });
      const failing = await enqueueDelivery(db(), ctx.runtime, push('x', { url: receiver.url, body: body(1) }));
      const fine = await enqueueDelivery(db(), ctx.runtime, push('x', { url: receiver.url, body: body(2), eventType: 'account.modified' }));
      await drainDeliveries(ctx.runtime, { random: () => 0 });

      const res = await browser.call('GET', '/dashboard/api/deliveries');
      expect(res.statusCode, res.body).toBe(200);
      const { deliveries, filters, now: shownNow } = res.json();
      expect(shownNow).toBe(now());
      expect(filters).toEqual({ eventTypes: ['account.modified', 'transaction.created'], targets: [receiver.url] });
      expect(deliveries.map((d: DeliveryView) => d.id)).toEqual([fine.id, failing.id]);
      expect(deliveries[0]).toMatchObject({
        eventType: 'account.modified',
        state: 'delivered',
        payload: body(2),
        lastResponse: { statusCode: 200, body: 'thanks' },
      });
      const cut = deliveries[1].lastResponse.body as string;
      expect(deliveries[1]).toMatchObject({ state: 'retrying', nextAttemptAt: now() + 10, lastResponse: { statusCode: 500 } });
      expect(cut).toBe(`${'x'.repeat(500)}…`);

      const failed = await browser.call('GET', '/dashboard/api/deliveries?state=retrying&eventType=transaction.created');
      expect(failed.json().deliveries.map((d: DeliveryView) => d.id)).toEqual([failing.id]);
      expect((await browser.call('GET', `/dashboard/api/deliveries?target=${encodeURIComponent('https://elsewhere.example/')}`)).json().deliveries).toEqual([]);
    });

    it('refuses unknown states and limits with 400, and hides and protects deliveries from another partner', async () => {
      const own = await enqueueDelivery(db(), ctx.runtime, push('x', { url: receiver.url }));
      for (const query of ['state=lost', 'limit=0', 'limit=201', `target=${'h'.repeat(2049)}`, 'eventType=']) {
        const res = await browser.call('GET', `/dashboard/api/deliveries?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json(), query).toMatchObject({ code: expect.stringMatching(/^\d+$/), message: expect.any(String) });
      }
      const other = await createPartner(ctx.runtime, { name: 'Other' });
      const intruder = await dashboardSignIn(ctx, other.partnerId, other.partnerSecret);
      const seen = await intruder.call('GET', '/dashboard/api/deliveries');
      expect(seen.json()).toMatchObject({ deliveries: [], filters: { eventTypes: [], targets: [] } });
      const refused = await intruder.call('POST', `/dashboard/api/deliveries/${own.id}/redeliver`);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ code: expect.any(String), message: `Delivery ${own.id} not found` });
      const accepted = await browser.call('POST', `/dashboard/api/deliveries/${own.id}/redeliver`);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json().delivery).toMatchObject({ id: own.id, state: 'pending', redeliveredAt: now() });
    });
  });

  it('fills in event types and failed deliveries for rows written before migration 0022', async () => {
    const json = await enqueueDelivery(db(), ctx.runtime, push('a', { eventType: null }));
    const xml = await enqueueDelivery(
      db(),
      ctx.runtime,
      push('b', { eventType: null, contentType: 'application/xml', body: '<event><class>account</class><type>modified</type><records/></event>' }),
    );
    const hook = await enqueueDelivery(db(), ctx.runtime, push('c', { kind: 'webhook', eventType: null, body: '{"customerId":"1","eventType":"mfa"}' }));
    const odd = await enqueueDelivery(db(), ctx.runtime, push('d', { eventType: null, body: 'not json' }));
    const dropped = await enqueueDelivery(db(), ctx.runtime, push('e', { subscriptionId: 5 }));
    await cancelSubscriptionDeliveries(db(), [5], { now: now(), reason: 'the subscription was deleted' });
    await drainDeliveries(ctx.runtime, {
      transports: {
        txpush: answers({ a: { ok: false, statusCode: 410, error: 'HTTP 410', permanent: true } }),
        webhook: answers({ c: { ok: false, statusCode: 410, error: 'HTTP 410', permanent: true } }),
      },
    });
    // As a database written before the migration has them.
    await db().updateTable('deliveries').set({ gave_up: 0 }).execute();
    await backfill(db() as unknown as Kysely<unknown>);

    const rows = await db().selectFrom('deliveries').select(['id', 'event_type', 'gave_up']).orderBy('id').execute();
    expect(rows.map((r) => [r.id, r.event_type, Number(r.gave_up)])).toEqual([
      [json.id, 'transaction.created', 1],
      [xml.id, 'account.modified', 0],
      [hook.id, 'connect.mfa', 1],
      [odd.id, null, 0],
      [dropped.id, 'transaction.created', 0],
    ]);
  });
});
