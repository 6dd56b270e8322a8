import { XMLParser } from 'fast-xml-parser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { advanceCustomerClock } from '../../src/modules/aggregation/clock.service.js';
import { DAY, linkProfile, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import type { Received } from '../helpers/listener.js';
import { freePort, startListener, type Listener } from '../helpers/listener.js';
import { correctVerification, createTestTransaction, startPushListener, subscribe, subscribeRequest, verificationCodeOf } from '../helpers/txpush.js';

type PushListener = Awaited<ReturnType<typeof startPushListener>>;
const xml = new XMLParser({ parseTagValue: false, isArray: (name) => ['account', 'transaction'].includes(name) });

let ctx: TestContext;
let partner: TestPartner;
let good: PushListener;
let odd: Listener;
let deadPort: number;
let customerId: string;
let accounts: AccountJson[];

const db = () => ctx.runtime.database.kysely;
const drain = () => drainDeliveries(ctx.runtime, { workerId: 'test-worker', random: () => 0 });
const checking = () => accounts.find((a) => a.type === 'checking')!;
const notificationsSince = (listener: PushListener, n: number) => listener.notifications().slice(n);
const errorOf = (res: { json(): unknown }) => res.json() as { code: string; message: string };

beforeAll(async () => {
  good = await startPushListener();
  odd = await startListener();
  deadPort = await freePort();
  ctx = await createTestContext({ LEDGERLINK_PUSH_EXTRA_PORTS: [good.port, odd.port, deadPort].join(','), LEDGERLINK_DELIVERY_TIMEOUT_MS: '2000' });
  // Signatures carry the clock's time; standardwebhooks checks it against the real one.
  ctx.clock.set(Date.now());
  partner = await partnerWithToken(ctx);
  customerId = await addCustomer(ctx, partner);
  accounts = await linkProfile(ctx, partner, customerId, 'profile_03', 102105);
  await refresh(ctx, partner, customerId);
}, 120_000);

afterAll(async () => {
  await good.close();
  await odd.close();
  await ctx.close();
});

beforeEach(async () => {
  // Every test starts with no subscriptions and nothing left to deliver.
  await db().deleteFrom('txpush_subscriptions').execute();
  await drain();
});

describe('subscribing: the verification handshake', () => {
  it('verifies the listener with a GET carrying a code, then answers 201 with an account and a transaction subscription', async () => {
    const before = good.requests.length;
    const res = await subscribeRequest(ctx, partner, customerId, checking().id, good.url);
    expect(res.statusCode, res.body).toBe(201);
    const verification = good.requests.slice(before);
    expect(verification).toHaveLength(1);
    expect(verification[0]).toMatchObject({ method: 'GET' });
    expect(verificationCodeOf(verification[0]!)).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(verification[0]!.path.startsWith('/hook?')).toBe(true);

    const { subscriptions } = res.json<{ subscriptions: Array<Record<string, unknown>> }>();
    expect(subscriptions.map((s) => s.type).sort()).toEqual(['account', 'transaction']);
    for (const s of subscriptions) {
      expect(s).toEqual({
        id: expect.any(Number),
        accountId: Number(checking().id),
        type: s.type,
        callbackUrl: good.url,
        signingKey: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      });
    }
    expect(subscriptions[0]!.signingKey).not.toBe(subscriptions[1]!.signingKey);
  });

  it('stores the signing keys only encrypted', async () => {
    const subs = await subscribe(ctx, partner, customerId, checking().id, good.url);
    const rows = await db().selectFrom('txpush_subscriptions').selectAll().execute();
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    for (const s of [subs.account, subs.transaction]) expect(stored).not.toContain(s.signingKey.slice('whsec_'.length));
  });

  const failures: Array<[string, () => Parameters<Listener['setBehaviour']>[0], string, RegExp]> = [
    ['a status other than 200', () => () => ({ status: 404, body: 'no such hook' }), '14085', /HTTP 404/],
    [
      'a redirect, which is not followed',
      () => () => ({ status: 302, headers: { location: 'http://elsewhere.example/hook' } }),
      '14085',
      /HTTP 302.*redirects are not followed/,
    ],
    [
      'a Content-Type other than text/plain',
      () => (r: Received) => ({ ...correctVerification(r), headers: { 'content-type': 'application/json' } }),
      '14086',
      /Content-Type "application\/json"/,
    ],
    [
      'a body other than exactly the code (a trailing line break)',
      () => (r: Received) => ({ ...correctVerification(r), body: `${verificationCodeOf(r)}\n` }),
      '14087',
      /33 bytes/,
    ],
    ['a different code', () => () => ({ status: 200, body: 'not-the-code', headers: { 'content-type': 'text/plain' } }), '14087', /"not-the-code"/],
  ];

  it.each(failures)('refuses a listener that answers the verification with %s, storing nothing', async (_what, behaviour, code, message) => {
    odd.setBehaviour(behaviour());
    const res = await subscribeRequest(ctx, partner, customerId, checking().id, odd.url);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe(code);
    expect(errorOf(res).message).toMatch(message);
    expect(await db().selectFrom('txpush_subscriptions').selectAll().execute()).toEqual([]);
  });

  it('refuses a listener that cannot be reached (connection refused) with 14084', async () => {
    const res = await subscribeRequest(ctx, partner, customerId, checking().id, `http://127.0.0.1:${deadPort}/hook`);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ code: '14084', message: expect.stringMatching(/could not be reached \(.*ECONNREFUSED/) });
  });

  it('refuses a listener that does not answer within the timeout with 14084', async () => {
    odd.setBehaviour(() => ({ hang: true }));
    const res = await subscribeRequest(ctx, partner, customerId, checking().id, odd.url);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ code: '14084', message: expect.stringMatching(/no answer within 2000 ms/) });
  });

  it('answers in XML when asked, with the same code', async () => {
    odd.setBehaviour(() => ({ status: 500 }));
    const res = await subscribeRequest(ctx, partner, customerId, checking().id, odd.url, 'application/xml');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<code>14085</code>');
  });

  it('replaces the subscriptions of a callback URL subscribed again, and allows 5 listeners per account', async () => {
    const first = await subscribe(ctx, partner, customerId, checking().id, good.url);
    const again = await subscribe(ctx, partner, customerId, checking().id, good.url);
    expect(again.account.id).not.toBe(first.account.id);
    expect((await db().selectFrom('txpush_subscriptions').select('id').execute()).map((r) => Number(r.id)).sort()).toEqual(
      [again.account.id, again.transaction.id].sort(),
    );
    for (let i = 2; i <= 5; i++) await subscribe(ctx, partner, customerId, checking().id, `${good.url}?listener=${i}`);
    const sixth = await subscribeRequest(ctx, partner, customerId, checking().id, `${good.url}?listener=6`);
    expect(sixth.statusCode).toBe(409);
    expect(errorOf(sixth).code).toBe('14088');
  });

  it('answers 404 for an unknown account before contacting the listener', async () => {
    const before = good.requests.length;
    const res = await subscribeRequest(ctx, partner, customerId, '5011999999', good.url);
    expect(res.statusCode).toBe(404);
    expect(good.requests.length).toBe(before);
  });
});

describe('subscribing: target rules', () => {
  const refused: Array<[string, () => string, string]> = [
    ['a port other than 80 and 443 (https)', () => 'https://listener.example:8443/hook', '14082'],
    ['a port other than 80 and 443 (http)', () => 'http://listener.example:8080/hook', '14082'],
    ['https on port 80', () => 'https://listener.example:80/hook', '14082'],
    ['a scheme other than http and https', () => 'ftp://listener.example/hook', '14080'],
    ['credentials in the URL', () => 'https://user:secret@listener.example/hook', '14080'],
    ['something that is not a URL', () => 'listener.example/hook', '14080'],
  ];

  it.each(refused)('refuses %s without contacting it', async (_what, url, code) => {
    const res = await subscribeRequest(ctx, partner, customerId, checking().id, url());
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe(code);
  });

  it('refuses http for a partner that is not on the Test Drive plan, even at a test institution', async () => {
    const production = await partnerWithToken(ctx, 'production');
    const customer = await addCustomer(ctx, production);
    const [account] = await linkProfile(ctx, production, customer, 'profile_03', 102105);
    const res = await subscribeRequest(ctx, production, customer, account!.id, good.url);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ code: '14081', message: expect.stringMatching(/must use https/) });
  });

  it('in production mode refuses a loopback listener on the resolved address (14083), and extra ports are not allowed', async () => {
    const prod = await createTestContext({ LEDGERLINK_MODE: 'production' });
    try {
      const p = await partnerWithToken(prod);
      const c = await addCustomer(prod, p);
      const [account] = await linkProfile(prod, p, c, 'profile_03', 102105);
      for (const url of ['http://127.0.0.1/hook', 'http://localhost/hook']) {
        const res = await subscribeRequest(prod, p, c, account!.id, url);
        expect(res.statusCode, url).toBe(400);
        expect(errorOf(res), url).toEqual({
          code: '14083',
          message: expect.stringMatching(/loopback address, which the outbound target policy refuses in production mode/),
        });
      }
      const port = await subscribeRequest(prod, p, c, account!.id, good.url);
      expect(errorOf(port).code).toBe('14082');
    } finally {
      await prod.close();
    }
  });
});

describe('notifications', () => {
  it('sends a signed transaction created and account modified notification in JSON for a test transaction', async () => {
    const account = checking();
    const subs = await subscribe(ctx, partner, customerId, account.id, good.url);
    const before = good.notifications().length;
    const balance = (
      await ctx.app.inject({ url: `/aggregation/v2/customers/${customerId}/accounts/${account.id}`, headers: partner.headers })
    ).json<AccountJson>().balance;
    const now = nowOf(ctx);
    const created = await createTestTransaction(ctx, partner, customerId, account.id, {
      amount: -4.25,
      description: 'a testing transaction',
      transactionDate: now - 60,
    });
    expect(created).toEqual({ id: expect.any(Number), createdDate: expect.any(Number) });
    expect(await drain()).toBe(2);

    const got = notificationsSince(good, before);
    expect(got).toHaveLength(2);
    const byClass = new Map(got.map((r) => [JSON.parse(r.body).event.class as string, r]));
    const tx = byClass.get('transaction')!;
    const acc = byClass.get('account')!;
    expect(tx.headers['content-type']).toBe('application/json');
    expect(tx.eventId).toMatch(/^evt_/);
    expect(tx.eventId).not.toBe(acc.eventId);
    // Each subscription signs with its own key; the other key does not verify.
    expect(new Webhook(subs.transaction.signingKey).verify(tx.body, tx.headers as Record<string, string>)).toEqual(JSON.parse(tx.body));
    expect(new Webhook(subs.account.signingKey).verify(acc.body, acc.headers as Record<string, string>)).toEqual(JSON.parse(acc.body));
    expect(() => new Webhook(subs.account.signingKey).verify(tx.body, tx.headers as Record<string, string>)).toThrow();

    expect(JSON.parse(tx.body)).toEqual({
      event: {
        class: 'transaction',
        type: 'created',
        records: [
          {
            id: created.id,
            amount: -4.25,
            accountId: Number(account.id),
            customerId: Number(customerId),
            status: 'active',
            description: 'a testing transaction',
            transactionDate: now - 60,
            postedDate: now - 60,
            createdDate: created.createdDate,
            categorization: {
              normalizedPayeeName: 'a testing transaction',
              category: 'Uncategorized',
              bestRepresentation: 'a testing transaction',
              country: 'USA',
            },
            bonusAmount: 0,
            escrowAmount: 0,
            feeAmount: 0,
            interestAmount: 0,
            principalAmount: 0,
            unitQuantity: 0,
            unitValue: 0,
          },
        ],
      },
    });
    const accountEvent = JSON.parse(acc.body).event;
    expect(accountEvent).toMatchObject({ class: 'account', type: 'modified' });
    expect(accountEvent.records).toHaveLength(1);
    const after = (
      await ctx.app.inject({ url: `/aggregation/v2/customers/${customerId}/accounts/${account.id}`, headers: partner.headers })
    ).json<AccountJson>();
    expect(after.balance).toBeCloseTo(balance - 4.25, 2);
    expect(accountEvent.records[0]).toEqual(after);

    // The transaction is an ordinary one: readable by id.
    const read = await ctx.app.inject({ url: `/aggregation/v2/customers/${customerId}/transactions/${created.id}`, headers: partner.headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: created.id, amount: -4.25, status: 'active' });
  });

  it('sends XML notifications when the enabling call asked for XML, with account and transaction record elements', async () => {
    const account = checking();
    const subs = await subscribe(ctx, partner, customerId, account.id, good.url, 'application/xml');
    const before = good.notifications().length;
    const created = await createTestTransaction(ctx, partner, customerId, account.id, {
      amount: 12.5,
      description: 'Refund & <credit>',
      transactionDate: nowOf(ctx) - 10,
      status: 'pending',
    });
    await drain();
    const got = notificationsSince(good, before);
    expect(got).toHaveLength(2);
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/xml');
      expect(r.body.startsWith('<?xml')).toBe(true);
    }
    const parsed = got.map((r) => ({
      r,
      doc: xml.parse(r.body) as { event: { class: string; type: string; records: Record<string, Array<Record<string, unknown>>> } },
    }));
    const tx = parsed.find((p) => p.doc.event.class === 'transaction')!;
    const acc = parsed.find((p) => p.doc.event.class === 'account')!;
    expect(tx.doc.event.type).toBe('created');
    expect(tx.doc.event.records.transaction).toHaveLength(1);
    expect(tx.doc.event.records.transaction![0]).toMatchObject({
      id: String(created.id),
      amount: '12.5',
      status: 'pending',
      description: 'Refund & <credit>',
      feeAmount: '0',
      unitValue: '0',
    });
    // Pending: its transaction date stands for the posting date until it posts.
    expect(tx.doc.event.records.transaction![0]).toMatchObject({ postedDate: String(nowOf(ctx) - 10) });
    expect(acc.doc.event.type).toBe('modified');
    expect(acc.doc.event.records.account![0]).toMatchObject({ id: account.id, customerId });
    // Signatures cover the XML body exactly as sent.
    expect(new Webhook(subs.transaction.signingKey).verify(tx.r.body, tx.r.headers as Record<string, string>, { jsonParse: false })).toBeUndefined();
    expect(new Webhook(subs.account.signingKey).verify(acc.r.body, acc.r.headers as Record<string, string>, { jsonParse: false })).toBeUndefined();
  });

  it('accepts the subscription in XML and answers in XML', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/accounts/${checking().id}/txpush`,
      headers: { ...partner.headers, accept: 'application/xml', 'content-type': 'application/xml' },
      payload: `<subscription><callbackUrl>${good.url}</callbackUrl></subscription>`,
    });
    expect(res.statusCode, res.body).toBe(201);
    const doc = new XMLParser({ parseTagValue: false, isArray: (n) => n === 'subscription' }).parse(res.body);
    expect(doc.subscriptions.subscription.map((s: { type: string }) => s.type).sort()).toEqual(['account', 'transaction']);
    for (const s of doc.subscriptions.subscription)
      expect(s).toMatchObject({ accountId: checking().id, callbackUrl: good.url, signingKey: expect.stringMatching(/^whsec_/) });
  });

  it('sends XML when the enabling call carried no Accept header', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/accounts/${checking().id}/txpush`,
      headers: { 'service-app-key': partner.appKey, 'service-app-token': partner.token },
      payload: { callbackUrl: good.url },
    });
    expect(res.statusCode).toBe(201);
    const before = good.notifications().length;
    await createTestTransaction(ctx, partner, customerId, checking().id, { amount: 1, description: 'no accept', transactionDate: nowOf(ctx) });
    await drain();
    expect(notificationsSince(good, before).map((r) => r.headers['content-type'])).toEqual(['application/xml', 'application/xml']);
  });

  it('notifies transaction modified and deleted events from refreshes, and account deleted when the account goes', async () => {
    const customer = await addCustomer(ctx, partner);
    const [account] = (await linkProfile(ctx, partner, customer, 'profile_03', 102105)).filter((a) => a.type === 'checking');
    await refresh(ctx, partner, customer);
    const subs = await subscribe(ctx, partner, customer, account!.id, good.url);
    const seen = () =>
      notificationsSince(good, before).map((r) => JSON.parse(r.body).event as { class: string; type: string; records: Array<Record<string, unknown>> });
    let before = good.notifications().length;

    // A pending test transaction the institution does not show: the next refresh drops it (transaction deleted).
    const pending = await createTestTransaction(ctx, partner, customer, account!.id, {
      amount: -3,
      description: 'vanishing',
      transactionDate: nowOf(ctx),
      status: 'pending',
    });
    await drain();
    before = good.notifications().length;
    await refresh(ctx, partner, customer);
    await drain();
    const deleted = seen().find((e) => e.class === 'transaction' && e.type === 'deleted');
    expect(deleted?.records.map((r) => r.id)).toContain(pending.id);

    // Day after day the institution shows new transactions and posts pending ones (debit card purchases post after 1 to 4 days).
    before = good.notifications().length;
    const kinds = new Set<string>();
    for (let day = 0; day < 21 && !(kinds.has('transaction created') && kinds.has('transaction modified')); day++) {
      await advanceCustomerClock(ctx.app.engine, partner.partnerId, customer, DAY);
      await refresh(ctx, partner, customer);
      await drain();
      for (const e of seen()) kinds.add(`${e.class} ${e.type}`);
    }
    expect(kinds).toContain('transaction created');
    expect(kinds).toContain('transaction modified');
    expect(kinds).toContain('account modified');
    for (const e of seen()) expect(e.records.every((r) => r.accountId === undefined || r.accountId === Number(account!.id))).toBe(true);

    // Deleting the account sends its last notification, and its subscriptions go with it.
    before = good.notifications().length;
    const del = await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customer}/accounts/${account!.id}`, headers: partner.headers });
    expect(del.statusCode).toBe(204);
    await drain();
    const last = notificationsSince(good, before);
    expect(last).toHaveLength(1);
    expect(JSON.parse(last[0]!.body).event).toMatchObject({ class: 'account', type: 'deleted', records: [{ id: account!.id }] });
    expect(() => new Webhook(subs.account.signingKey).verify(last[0]!.body, last[0]!.headers as Record<string, string>)).not.toThrow();
    expect(await db().selectFrom('txpush_subscriptions').selectAll().where('account_id', '=', Number(account!.id)).execute()).toEqual([]);
  });

  it('checks the outbound target policy again at every delivery: a worker in production mode refuses the loopback listener', async () => {
    await subscribe(ctx, partner, customerId, checking().id, good.url);
    const before = good.notifications().length;
    await createTestTransaction(ctx, partner, customerId, checking().id, { amount: 3, description: 'policy', transactionDate: nowOf(ctx) });
    const production = { ...ctx.runtime, config: { ...ctx.runtime.config, mode: 'production' as const } };
    expect(await drainDeliveries(production, { workerId: 'strict-worker', random: () => 0 })).toBe(2);
    expect(good.notifications().length).toBe(before);
    const attempts = await db().selectFrom('delivery_attempts').selectAll().where('worker_id', '=', 'strict-worker').execute();
    expect(attempts.map((a) => a.error)).toEqual(Array(2).fill('127.0.0.1 is a loopback address, which the outbound target policy refuses in production mode'));
    // A sandbox worker delivers them at their next attempt.
    ctx.clock.advance(10_000);
    await drain();
    expect(good.notifications().length).toBe(before + 2);
    ctx.clock.set(Date.now());
  });

  it('sends nothing for accounts without subscriptions', async () => {
    const other = accounts.find((a) => a.id !== checking().id)!;
    await subscribe(ctx, partner, customerId, checking().id, good.url);
    const before = good.notifications().length;
    const enqueued = await db()
      .selectFrom('deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await createTestTransaction(ctx, partner, customerId, other.id, { amount: 1, description: 'unsubscribed', transactionDate: nowOf(ctx) });
    const after = await db()
      .selectFrom('deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(enqueued.n));
    await drain();
    expect(good.notifications().length).toBe(before);
  });
});

describe('disabling', () => {
  it('DELETE .../txpush removes both subscriptions and cancels notifications not yet delivered', async () => {
    await subscribe(ctx, partner, customerId, checking().id, good.url);
    await createTestTransaction(ctx, partner, customerId, checking().id, { amount: 2, description: 'undelivered', transactionDate: nowOf(ctx) });
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/aggregation/v1/customers/${customerId}/accounts/${checking().id}/txpush`,
      headers: partner.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(await db().selectFrom('txpush_subscriptions').selectAll().execute()).toEqual([]);
    const open = await db().selectFrom('deliveries').select('status').where('status', 'in', ['pending', 'delivering']).execute();
    expect(open).toEqual([]);
    const before = good.notifications().length;
    await createTestTransaction(ctx, partner, customerId, checking().id, { amount: 2, description: 'after disabling', transactionDate: nowOf(ctx) });
    await drain();
    expect(good.notifications().length).toBe(before);
    // Disabling an account without subscriptions is fine; an unknown account is 404.
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customerId}/accounts/${checking().id}/txpush`, headers: partner.headers }))
        .statusCode,
    ).toBe(204);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customerId}/accounts/5011999999/txpush`, headers: partner.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('DELETE .../subscriptions/{id} removes one subscription; the other class keeps arriving', async () => {
    const subs = await subscribe(ctx, partner, customerId, checking().id, good.url);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/aggregation/v1/customers/${customerId}/subscriptions/${subs.account.id}`,
      headers: partner.headers,
    });
    expect(res.statusCode).toBe(204);
    const before = good.notifications().length;
    await createTestTransaction(ctx, partner, customerId, checking().id, { amount: 2, description: 'one class', transactionDate: nowOf(ctx) });
    await drain();
    expect(notificationsSince(good, before).map((r) => JSON.parse(r.body).event.class)).toEqual(['transaction']);
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/aggregation/v1/customers/${customerId}/subscriptions/${subs.account.id}`,
      headers: partner.headers,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('test transactions', () => {
  const url = (accountId: string) => `/aggregation/v1/customers/${customerId}/accounts/${accountId}/transactions`;

  it("are refused before the account's initial aggregation (409)", async () => {
    const customer = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, customer, 'profile_03', 102105);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customer}/accounts/${account!.id}/transactions`,
      headers: partner.headers,
      payload: { amount: 1, description: 'x', transactionDate: nowOf(ctx) },
    });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('14064');
  });

  it('refuse missing or blank fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 1, description: '  ', transactionDate: nowOf(ctx) }, '10005'],
      [{ amount: 1, description: 'x' }, '10005'],
      [{ amount: 'lots', description: 'x', transactionDate: nowOf(ctx) }, '10010'],
      [{ amount: 1, description: 'x', transactionDate: nowOf(ctx), status: 'posted' }, '10010'],
    ];
    for (const [payload, code] of cases) {
      const res = await ctx.app.inject({ method: 'POST', url: url(checking().id), headers: partner.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(res).code, JSON.stringify(payload)).toBe(code);
    }
  });

  it('accept an XML body and answer in XML', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: url(checking().id),
      headers: { ...partner.headers, accept: 'application/xml', 'content-type': 'application/xml' },
      payload: `<transaction><amount>-1.5</amount><description>xml test</description><transactionDate>${nowOf(ctx)}</transactionDate></transaction>`,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).toMatch(/<transaction><id>\d+<\/id><createdDate>\d+<\/createdDate><\/transaction>/);
  });
});
