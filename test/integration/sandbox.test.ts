import { XMLParser } from 'fast-xml-parser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { CONNECT_EVENT_TYPES, connectWebhookSecret } from '../../src/modules/connect/webhooks.service.js';
import { allTransactions, DAY, linkProfile, refresh, type AccountJson } from '../helpers/aggregation.js';
import { appCall, appOk, linkFor, profileForm } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import type { Received } from '../helpers/listener.js';
import { startPushListener, subscribe } from '../helpers/txpush.js';

type PushListener = Awaited<ReturnType<typeof startPushListener>>;

let ctx: TestContext;
let partner: TestPartner;
let other: TestPartner;
let production: TestPartner;
let listener: PushListener;

const drain = () => drainDeliveries(ctx.runtime, { workerId: 'sandbox-test', random: () => 0 });
const xml = new XMLParser({ parseTagValue: false });

function call(who: TestPartner, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method, url, headers: { ...who.headers, ...headers }, ...(payload !== undefined ? { payload } : {}) });
}

async function ok<T = any>(who: TestPartner, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<T> {
  const res = await call(who, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url} failed: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

const accountsOf = async (who: TestPartner, customerId: string) =>
  (await ok<{ accounts: AccountJson[] }>(who, 'GET', `/aggregation/v1/customers/${customerId}/accounts`)).accounts;
const customerClock = async (customerId: string) =>
  Number(
    (await ctx.runtime.database.kysely.selectFrom('customers').select('clock_offset_seconds').where('id', '=', Number(customerId)).executeTakeFirstOrThrow())
      .clock_offset_seconds,
  );
const window = (now: number) => ({ fromDate: now - 200 * DAY, toDate: now + DAY });
const nowOfCustomer = async (customerId: string) => Math.floor(ctx.clock.now() / 1000) + (await customerClock(customerId));

/** A customer that linked a test-bank profile and had its first refresh. */
async function linkedCustomer(profile = 'profile_01', who = partner): Promise<{ customerId: string; accounts: AccountJson[]; loginId: string }> {
  const customerId = await addCustomer(ctx, who);
  await linkProfile(ctx, who, customerId, profile);
  const accounts = await refresh(ctx, who, customerId);
  return { customerId, accounts, loginId: String(accounts[0]!.institutionLoginId) };
}

beforeAll(async () => {
  listener = await startPushListener();
  ctx = await createTestContext({ LEDGERLINK_PUSH_EXTRA_PORTS: String(listener.port), LEDGERLINK_DELIVERY_TIMEOUT_MS: '2000' });
  // Signatures carry the clock's time; standardwebhooks checks it against the real one.
  ctx.clock.set(Date.now());
  partner = await partnerWithToken(ctx);
  other = await partnerWithToken(ctx);
  production = await partnerWithToken(ctx, 'production');
}, 120_000);

afterAll(async () => {
  await listener.close();
  await ctx.close();
});

describe('sandbox controls: scope and refusals', () => {
  it("refuses production-plan partners with 403 14090 on every control, and answers 404 for another partner's customer", async () => {
    const mine = await linkedCustomer();
    const prodCustomer = await addCustomer(ctx, production, { type: 'active' });
    const requests = (customerId: string, loginId: string, accountId: string) =>
      [
        ['POST', `/sandbox/v1/customers/${customerId}/clock`, { days: 1 }],
        ['PUT', `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`, { code: 103 }],
        ['DELETE', `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`, undefined],
        ['POST', `/sandbox/v1/customers/${customerId}/reset`, undefined],
        ['POST', `/sandbox/v1/customers/${customerId}/webhooks/connect`, { eventType: 'done', webhook: listener.url }],
        ['POST', `/sandbox/v1/customers/${customerId}/accounts/${accountId}/txpush/events`, { eventType: 'account.modified' }],
      ] as const;
    for (const [method, url, body] of requests(prodCustomer, '6000000000', '5011000000')) {
      const res = await call(production, method, url, body);
      expect([res.statusCode, res.json().code], `${method} ${url}`).toEqual([403, '14090']);
    }
    const before = await accountsOf(partner, mine.customerId);
    for (const [method, url, body] of requests(mine.customerId, mine.loginId, mine.accounts[0]!.id)) {
      const res = await call(other, method, url, body);
      expect([res.statusCode, res.json().code], `${method} ${url}`).toEqual([404, '14001']);
    }
    expect(await accountsOf(partner, mine.customerId)).toEqual(before);
    expect(await customerClock(mine.customerId)).toBe(0);
  });

  it("answers bad input with a documented 4xx in the caller's format", async () => {
    const { customerId, loginId, accounts } = await linkedCustomer();
    const cases = [
      ['POST', `/sandbox/v1/customers/${customerId}/clock`, { days: 0 }, 400, '10010'],
      ['POST', `/sandbox/v1/customers/${customerId}/clock`, { days: 'soon' }, 400, '10010'],
      ['POST', `/sandbox/v1/customers/${customerId}/clock`, {}, 400, '10005'],
      ['PUT', `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`, { code: 999 }, 400, '14091'],
      ['PUT', `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`, { code: 187 }, 400, '14091'],
      ['PUT', `/sandbox/v1/customers/${customerId}/institutionLogins/nope/error`, { code: 103 }, 404, '14001'],
      ['POST', `/sandbox/v1/customers/${customerId}/webhooks/connect`, { eventType: 'exploded', webhook: listener.url }, 400, '14092'],
      ['POST', `/sandbox/v1/customers/${customerId}/webhooks/connect`, { eventType: 'done' }, 409, '14093'],
      ['POST', `/sandbox/v1/customers/${customerId}/webhooks/connect`, { eventType: 'done', webhook: 'ftp://example.com' }, 400, '10010'],
      ['POST', `/sandbox/v1/customers/${customerId}/accounts/${accounts[0]!.id}/txpush/events`, { eventType: 'account.exploded' }, 400, '14092'],
      ['POST', `/sandbox/v1/customers/${customerId}/accounts/${accounts[0]!.id}/txpush/events`, { eventType: 'account.modified' }, 409, '14094'],
    ] as const;
    for (const [method, url, body, status, code] of cases) {
      const res = await call(partner, method, url, body);
      expect([res.statusCode, res.json().code], `${method} ${url} ${JSON.stringify(body)}: ${res.body}`).toEqual([status, code]);
    }
    const asXml = await call(partner, 'PUT', `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`, undefined, {
      accept: 'application/xml',
    });
    expect(asXml.statusCode).toBe(400);
    expect(xml.parse(asXml.body).error.code).toBe('10005');
  });

  it('speaks XML in and out like every other route', async () => {
    const { customerId, loginId } = await linkedCustomer();
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`,
      headers: { ...partner.headers, accept: 'application/xml', 'content-type': 'application/xml' },
      payload: '<error><code>108</code></error>',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    expect(xml.parse(res.body).institutionLogin).toMatchObject({ institutionLoginId: loginId, aggregationStatusCode: '108' });
  });
});

describe('sandbox clock', () => {
  it('makes new transactions appear and pending ones post, notifying subscribed listeners', async () => {
    const { customerId, accounts } = await linkedCustomer('profile_04');
    const before = await allTransactions(ctx, partner, customerId, window(await nowOfCustomer(customerId)));
    const pending = before.filter((t) => t.status === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    const withPending = accounts.find((a) => pending.some((p) => String(p.accountId) === String(a.id)))!;
    const subs = await subscribe(ctx, partner, customerId, withPending.id, listener.url);
    await drain();
    const seen = listener.notifications().length;

    const result = await ok(partner, 'POST', `/sandbox/v1/customers/${customerId}/clock`, { days: 5 });
    expect(result).toMatchObject({
      customerId,
      days: 5,
      institutionLogins: [{ institutionLoginId: String(accounts[0]!.institutionLoginId), aggregationStatusCode: 0 }],
    });
    expect(await customerClock(customerId)).toBe(5 * DAY);
    expect(result.customerDate).toBe(await nowOfCustomer(customerId));

    const after = await allTransactions(ctx, partner, customerId, window(result.customerDate));
    const afterById = new Map(after.map((t) => [t.id, t]));
    expect(pending.some((p) => afterById.get(p.id)?.status === 'active')).toBe(true);
    const fresh = after.filter((t) => !before.some((b) => b.id === t.id));
    expect(fresh.length).toBeGreaterThan(0);
    expect(Math.max(...fresh.map((t) => t.transactionDate))).toBeGreaterThan(Math.max(...before.map((t) => t.transactionDate)));

    await drain();
    const pushed = listener.notifications().slice(seen);
    const created = pushed.map((r) => JSON.parse(r.body).event).filter((e) => e.class === 'transaction' && e.type === 'created');
    const createdIds = new Set(created.flatMap((e: { records: { id: number }[] }) => e.records.map((r) => String(r.id))));
    const freshOfAccount = fresh.filter((t) => String(t.accountId) === String(withPending.id));
    expect(freshOfAccount.length).toBeGreaterThan(0);
    expect(freshOfAccount.every((t) => createdIds.has(String(t.id)))).toBe(true);
    const modified = pushed.map((r) => JSON.parse(r.body).event).filter((e) => e.class === 'transaction' && e.type === 'modified');
    expect(modified.flatMap((e: { records: { status: string }[] }) => e.records.map((r) => r.status))).toContain('active');
    for (const r of pushed) {
      const secret = JSON.parse(r.body).event.class === 'account' ? subs.account.signingKey : subs.transaction.signingKey;
      expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    }
  });
});

describe('sandbox error states and Connect Fix', () => {
  for (const code of [103, 185, 102]) {
    it(`drives the Fix flow end to end for ${code}: error set, seen on refresh and read, Fix through Connect, healthy again`, async () => {
      const customerId = await addCustomer(ctx, partner);
      const full = await linkFor(ctx, partner, 'full', { customerId });
      const signIn = await appOk(ctx, full, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'profile_01') });
      const added = await appOk(ctx, full, 'POST', `/signin/${signIn.sessionId}/accounts`, {});
      const loginId = String(added.institutionLoginId);
      expect((await refresh(ctx, partner, customerId)).map((a) => a.aggregationStatusCode).every((c) => c === 0)).toBe(true);

      const set = await ok(partner, 'PUT', `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`, { code });
      expect(set).toMatchObject({ customerId, institutionLoginId: loginId, aggregationStatusCode: code });
      // Reads show it at once, refreshes keep failing with it (the institution is not asked), time does not heal it.
      expect((await accountsOf(partner, customerId)).every((a) => a.aggregationStatusCode === code)).toBe(true);
      expect((await refresh(ctx, partner, customerId)).every((a) => a.aggregationStatusCode === code)).toBe(true);
      const advanced = await ok(partner, 'POST', `/sandbox/v1/customers/${customerId}/clock`, { days: 2 });
      expect(advanced.institutionLogins).toEqual([{ institutionLoginId: loginId, aggregationStatusCode: code }]);
      const byLogin = await call(partner, 'POST', `/aggregation/v1/customers/${customerId}/institutionLogins/${loginId}/accounts`, {});
      expect(byLogin.statusCode).toBe(200);
      expect(byLogin.json().accounts.every((a: AccountJson) => a.aggregationStatusCode === code)).toBe(true);
      const connectLogins = await appOk(ctx, full, 'GET', '/logins');
      expect(connectLogins.logins.find((l: { institutionLoginId: string }) => l.institutionLoginId === loginId).aggregationStatusCode).toBe(code);

      const fix = await linkFor(ctx, partner, 'fix', { customerId, institutionLoginId: loginId });
      expect(await appOk(ctx, fix, 'POST', '/session')).toMatchObject({ mode: 'fix', institutionLoginId: loginId });
      const step = await appOk(ctx, fix, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'profile_01') });
      expect(step.accounts.every((a: { alreadyLinked: boolean }) => a.alreadyLinked)).toBe(true);
      const repaired = await appOk(ctx, fix, 'POST', `/signin/${step.sessionId}/accounts`, {});
      expect(repaired.institutionLoginId).toBe(loginId);

      const healthy = await refresh(ctx, partner, customerId);
      expect(healthy.map((a) => a.aggregationStatusCode).every((c) => c === 0)).toBe(true);
      const now = await nowOfCustomer(customerId);
      expect(healthy.every((a) => a.aggregationSuccessDate === now)).toBe(true);
      const txs = await allTransactions(ctx, partner, customerId, window(now));
      expect(txs.some((t) => t.transactionDate > now - 2 * DAY)).toBe(true);
      expect((await appCall(ctx, fix, 'GET', '/logins')).statusCode).toBe(403);
    });
  }

  it('clears an error state through the API, after which refreshes reach the institution again', async () => {
    const { customerId, loginId } = await linkedCustomer();
    await ok(partner, 'PUT', `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`, { code: 109 });
    const historic = await call(
      partner,
      'POST',
      `/aggregation/v1/customers/${customerId}/accounts/${(await accountsOf(partner, customerId))[0]!.id}/transactions/historic`,
      {},
    );
    expect([historic.statusCode, historic.json().code]).toEqual([400, '109']);
    const cleared = await ok(partner, 'DELETE', `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`);
    expect(cleared).toEqual({ customerId, institutionLoginId: loginId, aggregationStatusCode: 0, message: null });
    expect((await accountsOf(partner, customerId)).every((a) => a.aggregationStatusCode === 0)).toBe(true);
    const refreshed = await refresh(ctx, partner, customerId);
    expect(refreshed.every((a) => a.aggregationStatusCode === 0 && a.aggregationSuccessDate === Math.floor(ctx.clock.now() / 1000))).toBe(true);
  });
});

describe('events on demand', () => {
  it("fires every Connect webhook event type to the listener, signed, in order, with the link's settings by default", async () => {
    const { customerId } = await linkedCustomer();
    const start = listener.requests.length;
    const ids: string[] = [];
    for (const eventType of CONNECT_EVENT_TYPES) {
      const res = await call(partner, 'POST', `/sandbox/v1/customers/${customerId}/webhooks/connect`, { eventType, webhook: listener.url });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ eventType, customerId, webhook: listener.url });
      ids.push(res.json().eventId);
      await drain();
    }
    const got = listener.requests.slice(start);
    expect(got.map((r) => JSON.parse(r.body).eventType)).toEqual([...CONNECT_EVENT_TYPES]);
    expect(got.map((r) => r.eventId)).toEqual(ids);
    const wh = new Webhook(connectWebhookSecret(ctx.runtime, partner.partnerId));
    for (const r of got) {
      const body = wh.verify(r.body, r.headers as Record<string, string>) as { customerId: string; eventId: string; payload: object };
      expect(body.customerId).toBe(customerId);
      expect(body.eventId).toBe(r.headers['webhook-id']);
    }
    const added = JSON.parse(got.find((r) => JSON.parse(r.body).eventType === 'added')!.body);
    expect(added.payload.accounts.length).toBe(1);

    // Without a webhook URL: the customer's latest Connect link's, with its content type and webhookData.
    await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url, webhookContentType: 'application/xml', webhookData: { tag: 'sandbox' } });
    const fired = await call(partner, 'POST', `/sandbox/v1/customers/${customerId}/webhooks/connect`, { eventType: 'done', payload: { reason: 'custom' } });
    expect(fired.statusCode, fired.body).toBe(202);
    await drain();
    const last = listener.requests.at(-1)!;
    expect(last.headers['content-type']).toContain('application/xml');
    expect(xml.parse(last.body).webhook).toMatchObject({
      eventType: 'done',
      eventId: fired.json().eventId,
      payload: { reason: 'custom' },
      webhookData: { tag: 'sandbox' },
    });
  });

  it("fires TxPUSH events to the account's subscriptions through the normal path, changing nothing", async () => {
    const { customerId, accounts } = await linkedCustomer();
    const account = accounts[0]!;
    const subs = await subscribe(ctx, partner, customerId, account.id, listener.url);
    await drain();
    const start = listener.notifications().length;
    // The account's own latest transaction (the customer's latest may be another account's, whichever the order of a tie).
    const latest = (await allTransactions(ctx, partner, customerId, { ...window(await nowOfCustomer(customerId)), sort: 'desc' })).find(
      (t) => String(t.accountId) === String(account.id),
    );
    const fired: string[] = [];
    for (const eventType of ['transaction.created', 'account.modified', 'transaction.modified', 'transaction.deleted', 'account.deleted', 'account.created']) {
      const res = await call(partner, 'POST', `/sandbox/v1/customers/${customerId}/accounts/${account.id}/txpush/events`, { eventType });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ eventType, customerId, accountId: account.id, notifications: 1 });
      fired.push(eventType);
    }
    const chosen = await ok(partner, 'POST', `/sandbox/v1/customers/${customerId}/accounts/${account.id}/txpush/events`, {
      eventType: 'transaction.modified',
      transactionId: String(latest!.id),
    });
    expect(chosen.transactionId).toBe(String(latest!.id));
    fired.push('transaction.modified');
    await drain();
    const got = listener.notifications().slice(start);
    expect(got.map((r) => `${JSON.parse(r.body).event.class}.${JSON.parse(r.body).event.type}`)).toEqual(fired);
    for (const r of got) {
      const event = JSON.parse(r.body).event;
      const secret = event.class === 'account' ? subs.account.signingKey : subs.transaction.signingKey;
      expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
      expect(String(event.records[0].accountId ?? event.records[0].id)).toBe(String(account.id));
    }
    expect(String(JSON.parse(got.at(-1)!.body).event.records[0].id)).toBe(String(latest!.id));
    // Nothing changed: the account is still there, still subscribed.
    expect((await accountsOf(partner, customerId)).map((a) => a.id)).toContain(account.id);
    expect(
      (await ctx.runtime.database.kysely.selectFrom('txpush_subscriptions').select('id').where('account_id', '=', Number(account.id)).execute()).length,
    ).toBe(2);
    const unknownTx = await call(partner, 'POST', `/sandbox/v1/customers/${customerId}/accounts/${account.id}/txpush/events`, {
      eventType: 'transaction.created',
      transactionId: '1',
    });
    expect([unknownTx.statusCode, unknownTx.json().code]).toEqual([404, '14001']);
  });
});

describe('sandbox reset', () => {
  it('removes logins, accounts, transactions and subscriptions; the customer stays with its clock back', async () => {
    const { customerId, accounts } = await linkedCustomer();
    await subscribe(ctx, partner, customerId, accounts[0]!.id, listener.url);
    await ok(partner, 'POST', `/sandbox/v1/customers/${customerId}/clock`, { days: 3 });
    await drain();
    const seen = listener.notifications().length;
    const result = await ok(partner, 'POST', `/sandbox/v1/customers/${customerId}/reset`);
    expect(result).toEqual({ customerId, institutionLogins: 1, accounts: accounts.length });
    expect(await accountsOf(partner, customerId)).toEqual([]);
    expect(await allTransactions(ctx, partner, customerId, window(Math.floor(ctx.clock.now() / 1000)))).toEqual([]);
    expect((await call(partner, 'GET', `/aggregation/v1/customers/${customerId}`)).statusCode).toBe(200);
    expect(await customerClock(customerId)).toBe(0);
    const db = ctx.runtime.database.kysely;
    for (const table of ['institution_logins', 'txpush_subscriptions', 'transactions', 'link_sessions'] as const) {
      expect((await db.selectFrom(table).select('customer_id').where('customer_id', '=', Number(customerId)).execute()).length, table).toBe(0);
    }
    // The subscribed account's listener got its last notification: the account was deleted.
    await drain();
    const last = listener
      .notifications()
      .slice(seen)
      .map((r: Received) => JSON.parse(r.body).event);
    expect(last).toEqual([expect.objectContaining({ class: 'account', type: 'deleted' })]);
    // The customer can link again from scratch.
    await linkProfile(ctx, partner, customerId, 'profile_01');
    expect((await refresh(ctx, partner, customerId)).length).toBe(accounts.length);
  });
});
