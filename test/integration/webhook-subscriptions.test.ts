import { XMLParser } from 'fast-xml-parser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emitConnectEvent } from '../../src/modules/connect/webhooks.service.js';
import { partnerWebhookSecret } from '../../src/outbox/sign.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { linkProfile, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startListener, type Listener } from '../helpers/listener.js';
import { createTestTransaction } from '../helpers/txpush.js';

const BASE = '/notification-subscriptions/webhooks';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Lists are repeated elements named after their field.
const xml = new XMLParser({ parseTagValue: false, isArray: (name) => ['events', 'subscriptions', 'includes', 'excludes'].includes(name) });

interface EventJson {
  webhookEventId: string;
  name: string;
  url?: string;
  status: string;
  condition?: { subscribeFor: string; includes?: string[]; excludes?: string[] };
}
interface SubscriptionJson {
  subscriptionId: string;
  url?: string;
  events: EventJson[];
  status: string;
  createdDate: string;
  lastUpdatedDate: string;
}
interface Notification {
  eventId: string;
  eventType: string;
  subscriptionId: string;
  webhookEventId: string;
  createdDate: string;
  test?: boolean;
  customerId?: string;
  payload: Record<string, any>;
}

let ctx: TestContext;
let partner: TestPartner;
let other: TestPartner;
let production: TestPartner;
let hooks: Listener;
let elsewhere: Listener;
let customerId: string;
let accounts: AccountJson[];

const db = () => ctx.runtime.database.kysely;
const drain = () => drainDeliveries(ctx.runtime, { workerId: 'test-worker', random: () => 0 });
const iso = () => new Date(nowOf(ctx) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const checking = () => accounts.find((a) => a.type === 'checking')!;
const savings = () => accounts.find((a) => a.type !== 'checking')!;

const send = (method: 'POST' | 'PUT', url: string, payload: unknown, who: TestPartner = partner) =>
  ctx.app.inject({ method, url, headers: { ...who.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
const get = (url: string, who: TestPartner = partner, accept = 'application/json') =>
  ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });
const del = (url: string, who: TestPartner = partner) => ctx.app.inject({ method: 'DELETE', url, headers: who.headers });
const errorOf = (res: { json(): unknown }) => res.json() as { code: string; message: string };

async function create(body: unknown, who: TestPartner = partner): Promise<SubscriptionJson> {
  const res = await send('POST', BASE, body, who);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** What the listener received since `from`, parsed, after checking each signature with the partner's key. */
function received(listener: Listener, from: number, who: TestPartner = partner): Notification[] {
  const hook = new Webhook(partnerWebhookSecret(ctx.runtime.keys, who.partnerId));
  return listener.requests.slice(from).map((r) => {
    hook.verify(r.body, r.headers as Record<string, string>);
    const body = JSON.parse(r.body) as Notification;
    expect(r.eventId).toBe(body.eventId);
    return body;
  });
}

async function testTransaction(accountId: string): Promise<void> {
  await createTestTransaction(ctx, partner, customerId, accountId, { amount: -4.25, description: 'a subscription test', transactionDate: nowOf(ctx) - 60 });
}

beforeAll(async () => {
  hooks = await startListener();
  elsewhere = await startListener();
  ctx = await createTestContext({ LEDGERLINK_PUSH_EXTRA_PORTS: [hooks.port, elsewhere.port].join(','), LEDGERLINK_DELIVERY_TIMEOUT_MS: '2000' });
  // Signatures carry the clock's time; standardwebhooks checks it against the real one.
  ctx.clock.set(Date.now());
  partner = await partnerWithToken(ctx);
  other = await partnerWithToken(ctx);
  production = await partnerWithToken(ctx, 'production');
  customerId = await addCustomer(ctx, partner);
  accounts = await linkProfile(ctx, partner, customerId, 'profile_03', 102105);
  await refresh(ctx, partner, customerId);
}, 120_000);

afterAll(async () => {
  await hooks.close();
  await elsewhere.close();
  await ctx.close();
});

beforeEach(async () => {
  // Every test starts with no subscriptions and nothing left to deliver.
  await db().deleteFrom('webhook_subscription_events').execute();
  await db().deleteFrom('webhook_subscriptions').execute();
  await drain();
});

describe('available events', () => {
  it('lists the events Ledgerlink sends, with the fields a condition may name, in JSON and XML', async () => {
    const res = await get(`${BASE}/events`);
    expect(res.statusCode).toBe(200);
    const { events } = res.json<{ events: Array<Record<string, any>> }>();
    const byName = new Map(events.map((e) => [e.name, e]));
    expect(byName.get('manage.txpush.account.created')).toEqual({
      name: 'manage.txpush.account.created',
      description: expect.any(String),
      status: 'active',
      conditionalSubscription: { applicable: true, fields: 'accountId,customerId,institutionId', mandatory: false },
    });
    expect(byName.get('manage.txpush.transaction.deleted')?.conditionalSubscription).toEqual({
      applicable: true,
      fields: 'accountId,customerId',
      mandatory: false,
    });
    expect(byName.get('authorization.accesstoken.expiry')).toBeDefined();
    expect(byName.get('connect.added')?.conditionalSubscription.fields).toBe('customerId');
    expect(events).toHaveLength(7 + 14);

    const inXml = await get(`${BASE}/events`, partner, 'application/xml');
    expect(inXml.statusCode).toBe(200);
    expect(xml.parse(inXml.body).root.events).toHaveLength(events.length);
  });
});

describe('the lifecycle of a subscription', () => {
  it('creates an active subscription with UUIDs and ISO dates, reads it, lists it and deletes it', async () => {
    const created = await create({
      url: hooks.url,
      events: [
        { name: 'manage.txpush.account.created', condition: { subscribeFor: 'accountId', includes: [checking().id] } },
        { name: 'connect.added', url: elsewhere.url },
      ],
    });
    expect(created).toEqual({
      subscriptionId: expect.stringMatching(UUID),
      url: hooks.url,
      events: [
        {
          webhookEventId: expect.stringMatching(UUID),
          name: 'manage.txpush.account.created',
          status: 'active',
          condition: { subscribeFor: 'accountId', includes: [checking().id] },
        },
        { webhookEventId: expect.stringMatching(UUID), name: 'connect.added', url: elsewhere.url, status: 'active' },
      ],
      status: 'active',
      createdDate: iso(),
      lastUpdatedDate: iso(),
    });
    const read = await get(`${BASE}/${created.subscriptionId}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);

    const list = await get(BASE);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ count: 1, offset: 1, limit: 10, total: 1, subscriptions: [created] });

    const gone = await del(`${BASE}/${created.subscriptionId}`);
    expect(gone.statusCode).toBe(204);
    expect(gone.body).toBe('');
    expect((await get(`${BASE}/${created.subscriptionId}`)).statusCode).toBe(404);
    expect((await del(`${BASE}/${created.subscriptionId}`)).statusCode).toBe(404);
    expect(await db().selectFrom('webhook_subscription_events').selectAll().execute()).toEqual([]);
  });

  it('pages the list oldest first: offset is the page, limit its size', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await create({ url: hooks.url, events: [{ name: 'connect.done' }] })).subscriptionId);
      ctx.clock.advance(1000);
    }
    const page = await get(`${BASE}?offset=2&limit=2`);
    expect(page.statusCode).toBe(200);
    const body = page.json<{ count: number; offset: number; limit: number; total: number; subscriptions: SubscriptionJson[] }>();
    expect(body).toMatchObject({ count: 2, offset: 2, limit: 2, total: 5 });
    expect(body.subscriptions.map((s) => s.subscriptionId)).toEqual(ids.slice(2, 4));
    expect((await get(`${BASE}?offset=4&limit=2`)).json()).toMatchObject({ count: 0, total: 5, subscriptions: [] });
  });

  it('updates a subscription: events named before keep their id and status, new ones are active, others go', async () => {
    const created = await create({ url: hooks.url, events: [{ name: 'connect.done' }, { name: 'connect.added' }, { name: 'manage.txpush.account.deleted' }] });
    const [done, added] = created.events;
    expect((await send('PUT', `${BASE}/${created.subscriptionId}/events/${added!.webhookEventId}/status`, { status: 'inactive' })).json()).toEqual({
      status: 'inactive',
    });
    ctx.clock.advance(5000);
    const res = await send('PUT', `${BASE}/${created.subscriptionId}`, {
      url: elsewhere.url,
      events: [{ name: 'connect.added', condition: { subscribeFor: 'customerId', excludes: ['1'] } }, { name: 'manage.txpush.transaction.created' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json<SubscriptionJson>();
    expect(updated).toEqual({
      subscriptionId: created.subscriptionId,
      url: elsewhere.url,
      events: [
        { webhookEventId: added!.webhookEventId, name: 'connect.added', status: 'inactive', condition: { subscribeFor: 'customerId', excludes: ['1'] } },
        { webhookEventId: expect.stringMatching(UUID), name: 'manage.txpush.transaction.created', status: 'active' },
      ],
      status: 'active',
      createdDate: created.createdDate,
      lastUpdatedDate: iso(),
    });
    expect(updated.events.map((e) => e.webhookEventId)).not.toContain(done!.webhookEventId);
    expect((await get(`${BASE}/${created.subscriptionId}`)).json()).toEqual(updated);
  });

  it('updates, disables and deletes one event of a subscription', async () => {
    const created = await create({ url: hooks.url, events: [{ name: 'connect.done' }, { name: 'connect.added' }] });
    const eventUrl = `${BASE}/${created.subscriptionId}/events/${created.events[0]!.webhookEventId}`;
    const res = await send('PUT', eventUrl, {
      name: 'connect.cancelled',
      url: elsewhere.url,
      condition: { subscribeFor: 'customerid', includes: [customerId] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      webhookEventId: created.events[0]!.webhookEventId,
      name: 'connect.cancelled',
      url: elsewhere.url,
      status: 'active',
      condition: { subscribeFor: 'customerId', includes: [customerId] },
    });
    // Renaming to a name another event has is refused.
    const clash = await send('PUT', eventUrl, { name: 'connect.added' });
    expect(clash.statusCode).toBe(400);
    expect(errorOf(clash).code).toBe('16306');

    expect((await send('PUT', `${eventUrl}/status`, { status: 'inactive' })).json()).toEqual({ status: 'inactive' });
    expect((await get(`${BASE}/${created.subscriptionId}`)).json<SubscriptionJson>().events[0]!.status).toBe('inactive');

    expect((await del(eventUrl)).statusCode).toBe(204);
    expect((await del(eventUrl)).statusCode).toBe(404);
    expect((await get(`${BASE}/${created.subscriptionId}`)).json<SubscriptionJson>().events.map((e) => e.name)).toEqual(['connect.added']);
  });

  it('disables and enables a subscription with all its events', async () => {
    const created = await create({ url: hooks.url, events: [{ name: 'connect.done' }, { name: 'connect.added' }] });
    const res = await send('PUT', `${BASE}/${created.subscriptionId}/status`, { status: 'inactive' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'inactive' });
    const read = (await get(`${BASE}/${created.subscriptionId}`)).json<SubscriptionJson>();
    expect([read.status, ...read.events.map((e) => e.status)]).toEqual(['inactive', 'inactive', 'inactive']);
    await send('PUT', `${BASE}/${created.subscriptionId}/status`, { status: 'ACTIVE' });
    const again = (await get(`${BASE}/${created.subscriptionId}`)).json<SubscriptionJson>();
    expect([again.status, ...again.events.map((e) => e.status)]).toEqual(['active', 'active', 'active']);
  });

  it("answers 404 for another partner's subscription and events, exactly as for unknown ids", async () => {
    const mine = await create({ url: hooks.url, events: [{ name: 'connect.done' }] });
    const sub = `${BASE}/${mine.subscriptionId}`;
    const event = `${sub}/events/${mine.events[0]!.webhookEventId}`;
    const unknown = `${BASE}/00000000-0000-4000-8000-000000000000`;
    const body = { url: hooks.url, events: [{ name: 'connect.done' }] };
    const calls = (base: string, ev: string) => [
      get(base, other),
      send('PUT', base, body, other),
      send('PUT', `${base}/status`, { status: 'inactive' }, other),
      get(`${base}/test-subscriptions`, other),
      send('PUT', ev, { name: 'connect.done' }, other),
      send('PUT', `${ev}/status`, { status: 'inactive' }, other),
      get(`${ev}/test-subscriptions`, other),
      del(ev, other),
      del(base, other),
    ];
    const theirs = await Promise.all(calls(sub, event));
    const nobody = await Promise.all(calls(unknown, `${unknown}/events/${mine.events[0]!.webhookEventId}`));
    for (const [i, res] of theirs.entries()) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(nobody[i]!.json());
    }
    expect((await get(BASE, other)).json()).toMatchObject({ count: 0, total: 0, subscriptions: [] });
    expect((await get(sub)).json()).toEqual(mine);
    await drain();
    expect(hooks.requests.filter((r) => JSON.parse(r.body).subscriptionId === mine.subscriptionId)).toEqual([]);
  });

  it('reads XML bodies and answers in XML', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: BASE,
      headers: { ...partner.headers, 'content-type': 'application/xml', accept: 'application/xml' },
      payload: `<subscription><url>${hooks.url}</url><events><name>manage.txpush.account.modified</name><condition><subscribeFor>accountId</subscribeFor><includes>${checking().id}</includes><includes>${savings().id}</includes></condition></events><events><name>connect.done</name></events></subscription>`,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = xml.parse(res.body).subscription;
    expect(created.subscriptionId).toMatch(UUID);
    expect(created.events.map((e: { name: string }) => e.name)).toEqual(['manage.txpush.account.modified', 'connect.done']);
    expect(created.events[0].condition).toEqual({ subscribeFor: 'accountId', includes: [checking().id, savings().id] });
    const list = await get(BASE, partner, 'application/xml');
    expect(list.statusCode).toBe(200);
    expect(xml.parse(list.body).root).toMatchObject({ count: '1', total: '1', subscriptions: [{ subscriptionId: created.subscriptionId }] });
    const status = await ctx.app.inject({
      method: 'PUT',
      url: `${BASE}/${created.subscriptionId}/status`,
      headers: { ...partner.headers, 'content-type': 'application/xml', accept: 'application/xml' },
      payload: '<status><status>inactive</status></status>',
    });
    expect(status.statusCode).toBe(200);
    expect(xml.parse(status.body).status).toEqual({ status: 'inactive' });
    const missing = await get(`${BASE}/${created.subscriptionId}x`, partner, 'application/xml');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<code>14001</code>');
  });
});

describe('bad input', () => {
  const refused: Array<[string, () => unknown, string]> = [
    ['no events field', () => ({ url: hooks.url }), '10005'],
    ['an event without a name', () => ({ url: hooks.url, events: [{}] }), '10005'],
    ['a blank event name', () => ({ url: hooks.url, events: [{ name: '  ' }] }), '10005'],
    ['an event Ledgerlink does not send', () => ({ url: hooks.url, events: [{ name: 'bank.customer.consent' }] }), '16305'],
    ['an event named twice', () => ({ url: hooks.url, events: [{ name: 'connect.done' }, { name: 'connect.done' }] }), '16306'],
    ['an event with nowhere to go', () => ({ events: [{ name: 'connect.done' }] }), '16304'],
    ['a url that is not a URL', () => ({ url: 'not a url', events: [{ name: 'connect.done' }] }), '16300'],
    ['a url with credentials', () => ({ url: 'https://user:pw@example.com/hook', events: [{ name: 'connect.done' }] }), '16300'],
    ['an event url on another port', () => ({ url: hooks.url, events: [{ name: 'connect.done', url: 'https://example.com:8443/hook' }] }), '16302'],
    ['a cloud metadata address', () => ({ url: 'http://169.254.169.254/latest', events: [{ name: 'connect.done' }] }), '16303'],
    [
      'a condition on a field the event lacks',
      () => ({ url: hooks.url, events: [{ name: 'connect.done', condition: { subscribeFor: 'accountId', includes: ['1'] } }] }),
      '16307',
    ],
    [
      'a condition without includes or excludes',
      () => ({ url: hooks.url, events: [{ name: 'connect.done', condition: { subscribeFor: 'customerId' } }] }),
      '16307',
    ],
    [
      'includes that are not a list of values',
      () => ({ url: hooks.url, events: [{ name: 'connect.done', condition: { subscribeFor: 'customerId', includes: { id: 'x' } } }] }),
      '10010',
    ],
    ['events that are not a list', () => ({ url: hooks.url, events: 'connect.done' }), '10010'],
  ];

  it.each(refused)('refuses a subscription with %s (400), storing nothing', async (_what, body, code) => {
    const res = await send('POST', BASE, body());
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).code).toBe(code);
    expect(await db().selectFrom('webhook_subscriptions').selectAll().execute()).toEqual([]);
  });

  it('refuses plain http from a partner not on the Test Drive plan (16301)', async () => {
    const res = await send('POST', BASE, { url: hooks.url, events: [{ name: 'connect.done' }] }, production);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('16301');
  });

  it('refuses a status other than active or inactive, a page before the first and malformed bodies', async () => {
    const created = await create({ url: hooks.url, events: [{ name: 'connect.done' }] });
    for (const status of ['pending', 'removed', 'on']) {
      const res = await send('PUT', `${BASE}/${created.subscriptionId}/status`, { status });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe('16308');
    }
    expect((await send('PUT', `${BASE}/${created.subscriptionId}/status`, {})).statusCode).toBe(400);
    for (const query of ['offset=0', 'limit=0', 'limit=101', 'offset=x']) expect((await get(`${BASE}?${query}`)).statusCode, query).toBe(400);
    const broken = await ctx.app.inject({
      method: 'POST',
      url: BASE,
      headers: { ...partner.headers, 'content-type': 'application/json' },
      payload: '{"events": [',
    });
    expect(broken.statusCode).toBe(400);
    const update = await send('PUT', `${BASE}/${created.subscriptionId}`, { events: [{ name: 'connect.done' }] });
    expect(update.statusCode).toBe(400);
    expect(errorOf(update).code).toBe('16304');
    expect((await get(`${BASE}/${created.subscriptionId}`)).json()).toEqual(created);
  });
});

describe('concurrency and limits', () => {
  it('creates the same subscription 50 times at once: 50 subscriptions, no error', async () => {
    const body = { url: hooks.url, events: [{ name: 'manage.txpush.transaction.created' }, { name: 'connect.done' }] };
    const answers = await Promise.all(Array.from({ length: 50 }, () => send('POST', BASE, body)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((r) => r.json<SubscriptionJson>().subscriptionId)).size).toBe(50);
    expect((await get(`${BASE}?limit=100`)).json()).toMatchObject({ count: 50, total: 50 });
  });

  it('changes one subscription from many calls at once without an error', async () => {
    const created = await create({ url: hooks.url, events: [{ name: 'connect.done' }] });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send('PUT', `${BASE}/${created.subscriptionId}`, {
          url: hooks.url,
          events: [{ name: 'connect.done' }, { name: i % 2 ? 'connect.added' : 'connect.cancelled' }],
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await get(`${BASE}/${created.subscriptionId}`)).json<SubscriptionJson>().events).toHaveLength(2);
  });

  it('refuses a 101st subscription of a partner with 409', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      partner_id: partner.partnerId,
      url: hooks.url,
      status: 'active' as const,
      created_at: nowOf(ctx),
      updated_at: nowOf(ctx),
    }));
    await db().insertInto('webhook_subscriptions').values(rows).execute();
    const res = await send('POST', BASE, { url: hooks.url, events: [{ name: 'connect.done' }] });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('16309');
    expect((await send('POST', BASE, { url: hooks.url, events: [{ name: 'connect.done' }] }, other)).statusCode).toBe(201);
  });
});

describe('delivering events', () => {
  it("delivers a TxPUSH test transaction's events to subscribers, signed, and not to a disabled one or another partner's", async () => {
    const mine = await create({ url: hooks.url, events: [{ name: 'manage.txpush.transaction.created' }, { name: 'manage.txpush.account.modified' }] });
    const disabled = await create({ url: hooks.url, events: [{ name: 'manage.txpush.transaction.created' }] });
    await send('PUT', `${BASE}/${disabled.subscriptionId}/status`, { status: 'inactive' });
    const theirs = await create({ url: hooks.url, events: [{ name: 'manage.txpush.transaction.created' }] }, other);
    const before = hooks.requests.length;
    await testTransaction(checking().id);
    await drain();
    const got = received(hooks, before);
    expect(got.map((n) => n.subscriptionId)).toEqual([mine.subscriptionId, mine.subscriptionId]);
    expect(got.map((n) => n.subscriptionId)).not.toContain(theirs.subscriptionId);
    const tx = got.find((n) => n.eventType === 'manage.txpush.transaction.created')!;
    expect(tx).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      eventType: 'manage.txpush.transaction.created',
      subscriptionId: mine.subscriptionId,
      webhookEventId: mine.events[0]!.webhookEventId,
      createdDate: iso(),
      customerId,
      payload: { accountId: checking().id, transactions: [expect.objectContaining({ description: 'a subscription test', amount: -4.25 })] },
    });
    const account = got.find((n) => n.eventType === 'manage.txpush.account.modified')!;
    expect(account.payload.account).toMatchObject({ id: checking().id });
    // Listed with the other deliveries.
    const rows = await db().selectFrom('deliveries').select(['kind', 'event_type', 'partner_id']).where('event_id', '=', tx.eventId).execute();
    expect(rows).toEqual([{ kind: 'webhook', event_type: 'manage.txpush.transaction.created', partner_id: partner.partnerId }]);
  });

  it('stops delivering while an event or its subscription is disabled, and starts again when enabled', async () => {
    const sub = await create({ url: hooks.url, events: [{ name: 'manage.txpush.transaction.created' }] });
    const event = `${BASE}/${sub.subscriptionId}/events/${sub.events[0]!.webhookEventId}`;
    const deliveredNow = async () => {
      const before = hooks.requests.length;
      await testTransaction(checking().id);
      await drain();
      return received(hooks, before).length;
    };
    expect(await deliveredNow()).toBe(1);
    await send('PUT', `${event}/status`, { status: 'inactive' });
    expect(await deliveredNow()).toBe(0);
    await send('PUT', `${event}/status`, { status: 'active' });
    expect(await deliveredNow()).toBe(1);
    await send('PUT', `${BASE}/${sub.subscriptionId}/status`, { status: 'inactive' });
    expect(await deliveredNow()).toBe(0);
    await send('PUT', `${BASE}/${sub.subscriptionId}/status`, { status: 'active' });
    expect(await deliveredNow()).toBe(1);
    await del(`${BASE}/${sub.subscriptionId}`);
    expect(await deliveredNow()).toBe(0);
  });

  it('cancels what is still queued for a subscription or an event when it is disabled, removed or deleted', async () => {
    const sub = await create({ url: elsewhere.url, events: [{ name: 'connect.done' }, { name: 'connect.added' }, { name: 'connect.cancelled' }] });
    const [done, added] = sub.events;
    const open = async () =>
      (
        await db()
          .selectFrom('deliveries')
          .select(['event_type', 'status', 'last_error'])
          .where('webhook_subscription_id', '=', sub.subscriptionId)
          .orderBy('id')
          .execute()
      ).map((d) => [d.event_type, d.status, d.last_error]);
    // The receiver fails, so the test notifications stay queued for a retry.
    elsewhere.setBehaviour(() => ({ status: 500 }));
    try {
      await get(`${BASE}/${sub.subscriptionId}/test-subscriptions`);
      await drain();
      expect((await open()).map(([, status]) => status)).toEqual(['pending', 'pending', 'pending']);
      await send('PUT', `${BASE}/${sub.subscriptionId}/events/${done!.webhookEventId}/status`, { status: 'inactive' });
      await del(`${BASE}/${sub.subscriptionId}/events/${added!.webhookEventId}`);
      expect(await open()).toEqual([
        ['connect.done', 'cancelled', 'the event of the webhook subscription was disabled'],
        ['connect.added', 'cancelled', 'the event was removed from its webhook subscription'],
        ['connect.cancelled', 'pending', expect.stringContaining('500')],
      ]);
      await del(`${BASE}/${sub.subscriptionId}`);
      expect((await open())[2]).toEqual(['connect.cancelled', 'cancelled', 'the webhook subscription was deleted']);
    } finally {
      elsewhere.setBehaviour(() => ({ status: 200 }));
    }
  });

  it("sends only the events a condition lets through, to the event's own URL when it has one", async () => {
    const only = await create({
      url: hooks.url,
      events: [{ name: 'manage.txpush.transaction.created', url: elsewhere.url, condition: { subscribeFor: 'accountId', includes: [savings().id] } }],
    });
    const not = await create({
      url: hooks.url,
      events: [{ name: 'manage.txpush.transaction.created', condition: { subscribeFor: 'accountId', excludes: [checking().id] } }],
    });
    const [hooksBefore, elsewhereBefore] = [hooks.requests.length, elsewhere.requests.length];
    await testTransaction(checking().id);
    await drain();
    expect(received(hooks, hooksBefore)).toEqual([]);
    expect(received(elsewhere, elsewhereBefore)).toEqual([]);
    await testTransaction(savings().id);
    await drain();
    expect(received(elsewhere, elsewhereBefore).map((n) => [n.subscriptionId, n.payload.accountId])).toEqual([[only.subscriptionId, savings().id]]);
    expect(received(hooks, hooksBefore).map((n) => [n.subscriptionId, n.payload.accountId])).toEqual([[not.subscriptionId, savings().id]]);
  });

  it('delivers Connect steps to subscriptions, whether or not the link has a webhook', async () => {
    const sub = await create({ url: hooks.url, events: [{ name: 'connect.added', condition: { subscribeFor: 'customerId', includes: [customerId] } }] });
    const generated = await send('POST', '/connect/v2/generate', { partnerId: partner.partnerId, customerId });
    expect(generated.statusCode, generated.body).toBe(200);
    const link = await db()
      .selectFrom('connect_links')
      .selectAll()
      .where('customer_id', '=', Number(customerId))
      .orderBy('created_at_ms', 'desc')
      .executeTakeFirstOrThrow();
    const before = hooks.requests.length;
    await emitConnectEvent(db(), ctx.runtime, link, 'added', { institutionId: '102105', accounts: [checking().id] });
    await emitConnectEvent(db(), ctx.runtime, link, 'done', { reason: 'done' });
    await drain();
    expect(received(hooks, before)).toEqual([
      {
        eventId: expect.stringMatching(/^evt_/),
        eventType: 'connect.added',
        subscriptionId: sub.subscriptionId,
        webhookEventId: sub.events[0]!.webhookEventId,
        createdDate: iso(),
        customerId,
        payload: { institutionId: '102105', accounts: [checking().id] },
      },
    ]);
  });

  it('sends a test notification to each event of a subscription, or to the one asked for, whatever their status', async () => {
    const sub = await create({ url: hooks.url, events: [{ name: 'connect.done' }, { name: 'manage.txpush.account.created', url: elsewhere.url }] });
    await send('PUT', `${BASE}/${sub.subscriptionId}/status`, { status: 'inactive' });
    const [hooksBefore, elsewhereBefore] = [hooks.requests.length, elsewhere.requests.length];
    const res = await get(`${BASE}/${sub.subscriptionId}/test-subscriptions`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    await drain();
    expect(received(hooks, hooksBefore)).toEqual([
      {
        eventId: expect.stringMatching(/^evt_/),
        eventType: 'connect.done',
        subscriptionId: sub.subscriptionId,
        webhookEventId: sub.events[0]!.webhookEventId,
        createdDate: iso(),
        test: true,
        payload: { description: expect.any(String) },
      },
    ]);
    expect(received(elsewhere, elsewhereBefore).map((n) => [n.eventType, n.test])).toEqual([['manage.txpush.account.created', true]]);

    const one = await get(`${BASE}/${sub.subscriptionId}/events/${sub.events[1]!.webhookEventId}/test-subscriptions`);
    expect(one.statusCode).toBe(200);
    await drain();
    expect(received(hooks, hooksBefore)).toHaveLength(1);
    expect(received(elsewhere, elsewhereBefore)).toHaveLength(2);
    expect((await get(`${BASE}/${sub.subscriptionId}/events/00000000-0000-4000-8000-000000000000/test-subscriptions`)).statusCode).toBe(404);
  });
});
