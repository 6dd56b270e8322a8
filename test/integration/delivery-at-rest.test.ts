import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancelSubscriptionDeliveries } from '../../src/outbox/cancel.js';
import { enqueueDelivery, type EnqueueHttpInput } from '../../src/outbox/enqueue.js';
import { purgeExpiredDeliveries } from '../../src/outbox/maintenance.js';
import { getDelivery, listMail } from '../../src/outbox/service.js';
import { drainDeliveries, startDeliveryWorker } from '../../src/outbox/worker.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { epochSeconds } from '../../src/platform/clock.js';
import { encryptValue } from '../../src/platform/secrets.js';
import { createTestContext, partnerWithToken, type TestContext } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { appOk, linkFor } from '../helpers/connect.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';

const DAY_MS = 86_400_000;
const SECRET_HEADER = 'Bearer receiver-credential-7f3a9c';

describe('webhook headers at rest', () => {
  let ctx: TestContext;
  let listener: Listener;
  beforeEach(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    listener = await startListener();
  });
  afterEach(async () => {
    await listener.close();
    await ctx.close();
  });

  const rows = () => ctx.runtime.database.kysely.selectFrom('deliveries').selectAll().orderBy('id').execute();

  it("leaves out a link's stored headers that today's rules refuse (a link made before them), and still sends its webhooks", async () => {
    const partner = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url, webhookHeaders: { Authorization: SECRET_HEADER } });
    // What a link made under the older rules could hold.
    const stored = { Expect: '100-continue', 'X-Bad': 'a\u0001b', Authorization: SECRET_HEADER };
    await ctx.runtime.database.kysely
      .updateTable('connect_links')
      .set({ webhook_headers_encrypted: encryptValue(ctx.runtime.keys.derive('connect-webhook-headers'), JSON.stringify(stored)) })
      .where('id', '=', new URL(link).searchParams.get('linkId')!)
      .execute();
    await appOk(ctx, link, 'POST', '/session');
    await drainDeliveries(ctx.runtime);
    expect(listener.requests).toHaveLength(1);
    expect(listener.requests[0]!.headers).toMatchObject({ authorization: SECRET_HEADER });
    expect(listener.requests[0]!.headers).not.toHaveProperty('x-bad');
    expect(listener.requests[0]!.headers).not.toHaveProperty('expect');
  });

  it("stores a Connect link's webhookHeaders encrypted in the outbox, and still sends them", async () => {
    const partner = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url, webhookHeaders: { Authorization: SECRET_HEADER } });
    await appOk(ctx, link, 'POST', '/session');
    const [row] = await rows();
    expect(row).toMatchObject({ kind: 'webhook', headers: '{}', headers_encrypted: expect.stringMatching(/^v1\./) });
    // Neither the link nor the delivery holds the credential in clear, in any column.
    expect(JSON.stringify(await rows())).not.toContain('receiver-credential');
    expect(JSON.stringify(await ctx.runtime.database.kysely.selectFrom('connect_links').selectAll().execute())).not.toContain('receiver-credential');
    await drainDeliveries(ctx.runtime);
    expect(listener.requests.map((r) => r.headers.authorization)).toEqual([SECRET_HEADER]);
  });

  it('sends the clear headers of deliveries written before, and the worker encrypts them when it starts', async () => {
    const partnerId = (await createPartner(ctx.runtime, { name: 'Acme' })).partnerId;
    const input: EnqueueHttpInput = { kind: 'webhook', partnerId, url: listener.url, body: '{}', contentType: 'application/json' };
    const db = ctx.runtime.database.kysely;
    // Rows as the code before migration 0015 wrote them: headers in clear, nothing encrypted.
    const sent = await enqueueDelivery(db, ctx.runtime, input);
    await db
      .updateTable('deliveries')
      .set({ headers: JSON.stringify({ authorization: SECRET_HEADER }) })
      .where('id', '=', sent.id)
      .execute();
    await drainDeliveries(ctx.runtime);
    expect(listener.requests.map((r) => r.headers.authorization)).toEqual([SECRET_HEADER]);

    const queued = await enqueueDelivery(db, ctx.runtime, input);
    await db
      .updateTable('deliveries')
      .set({ headers: JSON.stringify({ authorization: SECRET_HEADER }) })
      .where('id', '=', queued.id)
      .execute();
    const worker = await startDeliveryWorker(ctx.runtime, { pollIntervalMs: 20 });
    try {
      await waitFor('the clear headers to be encrypted', async () => !JSON.stringify(await rows()).includes('receiver-credential'));
      await waitFor('the queued delivery', () => listener.requests.length === 2);
    } finally {
      await worker.stop();
    }
    expect((await rows()).map((r) => r.headers)).toEqual(['{}', '{}']);
    expect((await rows()).every((r) => r.headers_encrypted?.startsWith('v1.'))).toBe(true);
    expect(listener.requests[1]!.headers.authorization).toBe(SECRET_HEADER);
  });
});

describe('retention of finished deliveries', () => {
  let ctx: TestContext;
  let listener: Listener;
  let partnerId: string;
  beforeEach(async () => {
    ctx = await createTestContext();
    listener = await startListener();
    partnerId = (await createPartner(ctx.runtime, { name: 'Acme' })).partnerId;
  });
  afterEach(async () => {
    await listener.close();
    await ctx.close();
  });

  const db = () => ctx.runtime.database.kysely;
  const push = (url = listener.url): EnqueueHttpInput => ({ kind: 'txpush', partnerId, url, body: '{"customer":"data"}', contentType: 'application/json' });
  const ids = async () => (await db().selectFrom('deliveries').select('id').orderBy('id').execute()).map((r) => r.id);
  const attempts = async () => (await db().selectFrom('delivery_attempts').select('delivery_id').execute()).map((r) => r.delivery_id);

  it('deletes delivered and cancelled deliveries with their attempts 30 days after they finished, keeping open and newer ones', async () => {
    const delivered = await enqueueDelivery(db(), ctx.runtime, push());
    const email = await enqueueDelivery(db(), ctx.runtime, { kind: 'email', partnerId, to: 'a@example.com', subject: 's', text: 't' });
    await drainDeliveries(ctx.runtime);
    // A day later, one is cancelled before it was sent (its subscription was deleted).
    ctx.clock.advance(DAY_MS);
    const cancelled = await enqueueDelivery(db(), ctx.runtime, { ...push(), subscriptionId: 17 });
    expect(await cancelSubscriptionDeliveries(db(), [17], { now: epochSeconds(ctx.clock), reason: 'unsubscribed' })).toBe(1);
    ctx.clock.advance(19 * DAY_MS);
    const recent = await enqueueDelivery(db(), ctx.runtime, push());
    await drainDeliveries(ctx.runtime);
    const pending = await enqueueDelivery(db(), ctx.runtime, push());
    expect(await attempts()).toContain(delivered.id);

    // 30 days after the first two were delivered: they go, with their attempts.
    ctx.clock.advance(10 * DAY_MS + 1000);
    expect(await purgeExpiredDeliveries(ctx.runtime)).toBe(2);
    expect(await ids()).toEqual([cancelled.id, recent.id, pending.id]);
    expect(await attempts()).not.toContain(delivered.id);
    // The mailbox message stays, without its delivery.
    expect(await listMail(db())).toEqual([expect.objectContaining({ deliveryId: null, eventId: email.eventId })]);
    // 30 days after it was cancelled.
    ctx.clock.advance(DAY_MS);
    expect(await purgeExpiredDeliveries(ctx.runtime)).toBe(1);
    expect(await ids()).toEqual([recent.id, pending.id]);
    expect((await getDelivery(db(), pending.id)).status).toBe('pending');
  });

  it('keeps finished deliveries as many days as LEDGERLINK_DELIVERY_RETENTION_DAYS says', async () => {
    await ctx.close();
    ctx = await createTestContext({ LEDGERLINK_DELIVERY_RETENTION_DAYS: '2' });
    partnerId = (await createPartner(ctx.runtime, { name: 'Acme' })).partnerId;
    const { id } = await enqueueDelivery(db(), ctx.runtime, push());
    await drainDeliveries(ctx.runtime);
    ctx.clock.advance(2 * DAY_MS - 1000);
    expect(await purgeExpiredDeliveries(ctx.runtime)).toBe(0);
    expect(await ids()).toEqual([id]);
    ctx.clock.advance(2000);
    expect(await purgeExpiredDeliveries(ctx.runtime)).toBe(1);
    expect(await ids()).toEqual([]);
  });

  it('is done by the running delivery worker, at start and then periodically', async () => {
    const old = await enqueueDelivery(db(), ctx.runtime, push());
    await drainDeliveries(ctx.runtime);
    ctx.clock.advance(31 * DAY_MS);
    const worker = await startDeliveryWorker(ctx.runtime, { pollIntervalMs: 20, maintenanceIntervalMs: 50 });
    try {
      await waitFor('the old delivery to be purged at start', async () => !(await ids()).includes(old.id));
      const recent = await enqueueDelivery(db(), ctx.runtime, push());
      await waitFor('the new delivery', async () => (await getDelivery(db(), recent.id)).status === 'delivered');
      ctx.clock.advance(31 * DAY_MS);
      await waitFor('the next purge', async () => (await ids()).length === 0);
    } finally {
      await worker.stop();
    }
  });
});
