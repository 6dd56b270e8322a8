import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { linkProfile, refresh, type AccountJson } from '../helpers/aggregation.js';
import { appOk } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { dashboardSignIn, type DashboardBrowser } from '../helpers/dashboard.js';
import { startListener, type Listener } from '../helpers/listener.js';
import { startPushListener } from '../helpers/txpush.js';

/**
 * The dashboard's customer actions: adding a testing customer, Connect links, TxPUSH subscriptions of an account, and
 * the customer's transactions newest first by posted date, a page at a time. Each needs the session's CSRF token
 * for changes, and another partner's customer, account or subscription is not found.
 */
describe('dashboard customer actions', () => {
  let ctx: TestContext;
  let push: Awaited<ReturnType<typeof startPushListener>>;
  let wrongListener: Listener;
  let mine: TestPartner;
  let theirs: TestPartner;
  let browser: DashboardBrowser;
  let theirBrowser: DashboardBrowser;
  /** A customer of `mine` with profile_03 linked and aggregated. */
  let linked: string;
  let accounts: AccountJson[];
  let theirCustomer: string;
  let theirAccounts: AccountJson[];

  beforeAll(async () => {
    push = await startPushListener();
    // Answers the verification request with the wrong body.
    wrongListener = await startListener(() => ({ status: 200, body: 'not the code', headers: { 'content-type': 'text/plain' } }));
    ctx = await createTestContext({ LEDGERLINK_PUSH_EXTRA_PORTS: [push.port, wrongListener.port].join(',') });
    await ensureInstitutionCatalog(ctx.runtime.database);
    mine = await partnerWithToken(ctx);
    theirs = await partnerWithToken(ctx);
    linked = await addCustomer(ctx, mine, { username: 'linked-dash-1', firstName: 'Lina' });
    accounts = await linkProfile(ctx, mine, linked, 'profile_03');
    await refresh(ctx, mine, linked);
    theirCustomer = await addCustomer(ctx, theirs, { username: 'their-dash-1' });
    theirAccounts = await linkProfile(ctx, theirs, theirCustomer, 'profile_03');
    browser = await dashboardSignIn(ctx, mine.partnerId, mine.partnerSecret);
    theirBrowser = await dashboardSignIn(ctx, theirs.partnerId, theirs.partnerSecret);
  });
  afterAll(async () => {
    await ctx?.close();
    await push?.close();
    await wrongListener?.close();
  });

  describe('creating a testing customer', () => {
    it("adds a testing customer of the signed-in partner (201), seen by the partner's API and not by another partner", async () => {
      const res = await browser.call('POST', '/dashboard/api/customers', { username: 'dash_made_01', firstName: 'Ada', lastName: 'Lovelace' });
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json();
      expect(created).toEqual({
        id: expect.stringMatching(/^\d+$/),
        username: 'dash_made_01',
        firstName: 'Ada',
        lastName: 'Lovelace',
        type: 'testing',
        createdDate: expect.any(Number),
      });
      const viaApi = await ctx.app.inject({ url: `/aggregation/v1/customers/${created.id}`, headers: mine.headers });
      expect(viaApi.statusCode).toBe(200);
      expect(viaApi.json()).toMatchObject({ id: created.id, username: 'dash_made_01', type: 'testing' });
      const listed = (await browser.call('GET', '/dashboard/api/customers?search=dash_made_01')).json();
      expect(listed.customers.map((c: { id: string }) => c.id)).toEqual([created.id]);
      expect((await theirBrowser.call('GET', '/dashboard/api/customers?search=dash_made_01')).json().customers).toEqual([]);
      expect((await theirBrowser.call('GET', `/dashboard/api/customers/${created.id}`)).statusCode).toBe(404);
    });

    it('refuses bad input with the API codes, a taken username with 409, and a change without the CSRF token, creating nobody', async () => {
      const cases: [object, number, string][] = [
        [{ username: 'short' }, 400, '110039'],
        [{ username: 'has space 1' }, 400, '110039'],
        [{ username: '   ' }, 400, '10005'],
        [{}, 400, '10005'],
        [{ username: 'dash_made_02', firstName: '<script>' }, 400, '45003'],
        [{ username: 'x'.repeat(256) }, 400, '10010'],
        [{ username: 'linked-dash-1' }, 409, '110002'],
      ];
      for (const [body, status, code] of cases) {
        const res = await browser.call('POST', '/dashboard/api/customers', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().code, JSON.stringify(body)).toBe(code);
      }
      const noToken = await browser.call('POST', '/dashboard/api/customers', { username: 'dash_made_03' }, { 'x-csrf-token': '' });
      expect(noToken.statusCode).toBe(403);
      expect(noToken.json().code).toBe('14102');
      const crossSite = await browser.call('POST', '/dashboard/api/customers', { username: 'dash_made_03' }, { origin: 'https://evil.example' });
      expect(crossSite.json().code).toBe('14103');
      const rows = await ctx.runtime.database.kysely
        .selectFrom('customers')
        .select('username')
        .where('username', 'in', ['dash_made_02', 'dash_made_03'])
        .execute();
      expect(rows).toEqual([]);
    });
  });

  describe('Connect links', () => {
    const linkUrl = (customerId: string) => `/dashboard/api/customers/${customerId}/connect-links`;

    it('generates Full, Lite and Fix links for the customer that the Connect app opens', async () => {
      const loginId = accounts[0]!.institutionLoginId;
      const full = await browser.call('POST', linkUrl(linked), { type: 'full' });
      expect(full.statusCode, full.body).toBe(200);
      const fullBody = full.json();
      expect(fullBody).toMatchObject({ type: 'full', link: expect.stringMatching(/^http:\/\/.+\/connect\?/), expiresAt: expect.any(Number) });
      const fullParams = new URL(fullBody.link).searchParams;
      expect(Object.fromEntries(fullParams)).toMatchObject({ customerId: linked, partnerId: mine.partnerId, type: 'full', experience: 'default' });
      expect(fullBody.expiresAt).toBe(Math.floor(Number(fullParams.get('ttl')) / 1000));
      expect(fullBody.expiresAt - Math.floor(ctx.clock.now() / 1000)).toBe(7200);
      await appOk(ctx, fullBody.link, 'POST', '/session');

      const lite = (await browser.call('POST', linkUrl(linked), { type: 'lite', institutionId: 101732, webhook: 'https://hooks.example.com/connect' })).json();
      expect(Object.fromEntries(new URL(lite.link).searchParams)).toMatchObject({
        type: 'lite',
        institutionId: '101732',
        webhookContentType: 'application/json',
      });
      await appOk(ctx, lite.link, 'POST', '/session');

      const fix = await browser.call('POST', linkUrl(linked), { type: 'fix', institutionLoginId: loginId });
      expect(fix.statusCode, fix.body).toBe(200);
      expect(Object.fromEntries(new URL(fix.json().link).searchParams)).toMatchObject({ type: 'fix', institutionLoginId: String(loginId) });
      await appOk(ctx, fix.json().link, 'POST', '/session');
    });

    it("refuses what the API refuses, another partner's customer and login, and a change without the CSRF token", async () => {
      const cases: [string, object, number, string][] = [
        [linked, { type: 'lite' }, 400, '10005'],
        [linked, { type: 'fix' }, 400, '10005'],
        [linked, { type: 'aggregation' }, 400, '10010'],
        [linked, {}, 400, '10005'],
        [linked, { type: 'full', webhook: 'ftp://hooks.example.com' }, 400, '10010'],
        [linked, { type: 'full', institutionId: 'abc' }, 400, '10010'],
        [linked, { type: 'fix', institutionLoginId: theirAccounts[0]!.institutionLoginId }, 404, '14001'],
        [theirCustomer, { type: 'full' }, 404, '14001'],
        ['9999999999', { type: 'full' }, 404, '14001'],
      ];
      for (const [customerId, body, status, code] of cases) {
        const res = await browser.call('POST', linkUrl(customerId), body);
        expect(res.statusCode, `${customerId} ${JSON.stringify(body)} ${res.body}`).toBe(status);
        expect(res.json().code, JSON.stringify(body)).toBe(code);
      }
      // A testing customer links test institutions only, as with the API (a real institution of the catalogue).
      const real = await browser.call('POST', linkUrl(linked), { type: 'lite', institutionId: 101732 + 1 });
      expect(real.statusCode).toBeGreaterThanOrEqual(400);
      expect(real.statusCode).toBeLessThan(500);
      const unknownExperience = await browser.call('POST', linkUrl(linked), { type: 'full', experience: 'nonexistent' });
      expect(unknownExperience.statusCode).toBeGreaterThanOrEqual(400);
      expect(unknownExperience.statusCode).toBeLessThan(500);
      const noToken = await browser.call('POST', linkUrl(linked), { type: 'full' }, { 'x-csrf-token': 'wrong' });
      expect(noToken.statusCode).toBe(403);
      expect(noToken.json().code).toBe('14102');
      const made = await ctx.runtime.database.kysely
        .selectFrom('connect_links')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('partner_id', '=', mine.partnerId)
        .where('customer_id', '=', Number(theirCustomer))
        .executeTakeFirstOrThrow();
      expect(Number(made.n)).toBe(0);
    });
  });

  describe('TxPUSH subscriptions of an account', () => {
    const subs = (customerId: string, accountId: string) => `/dashboard/api/customers/${customerId}/accounts/${accountId}/txpush`;

    it('adds a listener after verifying it, as the API does, lists its two subscriptions, and deletes one at a time', async () => {
      const account = accounts[0]!.id;
      expect((await browser.call('GET', subs(linked, account))).json()).toEqual({ subscriptions: [] });
      const verificationsBefore = push.requests.filter((r) => r.method === 'GET').length;
      const added = await browser.call('POST', subs(linked, account), { callbackUrl: push.url });
      expect(added.statusCode, added.body).toBe(201);
      expect(push.requests.filter((r) => r.method === 'GET').length).toBe(verificationsBefore + 1);
      const made = added.json().subscriptions;
      expect(made.map((s: { type: string }) => s.type).sort()).toEqual(['account', 'transaction']);
      for (const s of made) {
        expect(s).toMatchObject({ accountId: account, callbackUrl: push.url, format: 'json', signingKey: expect.stringMatching(/^whsec_/) });
      }
      const listed = (await browser.call('GET', subs(linked, account))).json().subscriptions;
      expect(listed).toEqual(made.map(({ signingKey: _key, ...s }: { signingKey: string }) => s));
      expect(JSON.stringify(listed)).not.toContain('whsec_');

      // The API's own subscriptions are the same rows: a test transaction is pushed to the listener.
      const pushed = await ctx.app.inject({
        method: 'POST',
        url: `/aggregation/v1/customers/${linked}/accounts/${account}/transactions`,
        headers: mine.headers,
        payload: { amount: -4.25, description: 'coffee', transactionDate: Math.floor(ctx.clock.now() / 1000) },
      });
      expect(pushed.statusCode, pushed.body).toBe(201);
      const queued = await ctx.runtime.database.kysely
        .selectFrom('deliveries')
        .select('subscription_id')
        .where('partner_id', '=', mine.partnerId)
        .where('kind', '=', 'txpush')
        .execute();
      expect(new Set(queued.map((d) => Number(d.subscription_id)))).toEqual(new Set(made.map((s: { id: number }) => s.id)));

      const transactionSub = made.find((s: { type: string }) => s.type === 'transaction');
      const deleted = await browser.call('DELETE', `${subs(linked, account)}/${transactionSub.id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect((await browser.call('GET', subs(linked, account))).json().subscriptions.map((s: { type: string }) => s.type)).toEqual(['account']);
      const again = await browser.call('DELETE', `${subs(linked, account)}/${transactionSub.id}`);
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('14001');
    });

    it('refuses a listener that fails verification or breaks the URL rules with the API codes, and stores nothing', async () => {
      const account = accounts[1]!.id;
      const cases: [object, number, string][] = [
        [{ callbackUrl: wrongListener.url }, 400, '14087'],
        [{ callbackUrl: 'not a url' }, 400, '14080'],
        [{ callbackUrl: 'http://127.0.0.1:9/hook' }, 400, '14082'],
        [{ callbackUrl: '' }, 400, '10005'],
        [{ callbackUrl: push.url, format: 'yaml' }, 400, '10010'],
      ];
      for (const [body, status, code] of cases) {
        const res = await browser.call('POST', subs(linked, account), body);
        expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(status);
        expect(res.json().code, JSON.stringify(body)).toBe(code);
      }
      expect((await browser.call('GET', subs(linked, account))).json().subscriptions).toEqual([]);
    });

    it("keeps another partner's accounts and subscriptions out of reach, and needs the CSRF token for changes", async () => {
      const account = accounts[2]!.id;
      const mineMade = (await browser.call('POST', subs(linked, account), { callbackUrl: push.url, format: 'xml' })).json().subscriptions;
      expect(mineMade.every((s: { format: string }) => s.format === 'xml')).toBe(true);
      const theirAccount = theirAccounts[0]!.id;
      // Their customer through my session, my account under their customer, and my subscription through their session.
      for (const url of [subs(theirCustomer, theirAccount), subs(linked, theirAccount), subs(theirCustomer, account)]) {
        const list = await browser.call('GET', url);
        expect(list.statusCode, url).toBe(404);
        expect(list.json().code).toBe('14001');
        expect((await browser.call('POST', url, { callbackUrl: push.url })).statusCode, url).toBe(404);
      }
      expect((await theirBrowser.call('GET', subs(linked, account))).statusCode).toBe(404);
      expect((await theirBrowser.call('DELETE', `${subs(linked, account)}/${mineMade[0].id}`)).statusCode).toBe(404);
      // A subscription of another account of the same customer is not this account's.
      expect((await browser.call('DELETE', `${subs(linked, accounts[0]!.id)}/${mineMade[0].id}`)).statusCode).toBe(404);
      const noToken = await browser.call('DELETE', `${subs(linked, account)}/${mineMade[0].id}`, undefined, { 'x-csrf-token': '' });
      expect(noToken.statusCode).toBe(403);
      expect(noToken.json().code).toBe('14102');
      expect((await browser.call('GET', subs(linked, account))).json().subscriptions).toHaveLength(2);
    });
  });

  describe('transactions', () => {
    type Row = { id: number; account_id: number; posted_date: number | null; effective_date: number };
    const txUrl = (customerId: string, query = '') => `/dashboard/api/customers/${customerId}/transactions${query}`;

    /** The customer's rows in the order the dashboard promises, computed here from the table. */
    async function expectedOrder(customerId: string, accountId?: string): Promise<number[]> {
      let q = ctx.runtime.database.kysely
        .selectFrom('transactions')
        .select(['id', 'account_id', 'posted_date', 'effective_date'])
        .where('customer_id', '=', Number(customerId));
      if (accountId) q = q.where('account_id', '=', Number(accountId));
      const rows = (await q.execute()) as Row[];
      const key = (r: Row) => Number(r.posted_date ?? r.effective_date);
      return rows.sort((a, b) => key(b) - key(a) || Number(b.id) - Number(a.id)).map((r) => Number(r.id));
    }

    async function pages(customerId: string, limit: number, account?: string): Promise<{ ids: number[]; postedDates: number[]; found: number[] }> {
      const out = { ids: [] as number[], postedDates: [] as number[], found: [] as number[] };
      for (let page = 1; ; page++) {
        const q = new URLSearchParams({ page: String(page), limit: String(limit), ...(account ? { account } : {}) });
        const res = await browser.call('GET', txUrl(customerId, `?${q}`));
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ aggregated: true, page, limit, accountId: account ?? null });
        expect(body.transactions.length).toBeLessThanOrEqual(limit);
        out.ids.push(...body.transactions.map((t: { id: number }) => t.id));
        out.postedDates.push(...body.transactions.map((t: { postedDate: number }) => t.postedDate));
        out.found.push(body.found);
        if (!body.moreAvailable) return out;
      }
    }

    it('pages through more than 100 transactions newest first by posted date, then id, without gaps or repeats', async () => {
      const expected = await expectedOrder(linked);
      expect(expected.length).toBeGreaterThan(100);
      // The API's lists order by transaction date, which differs for this profile: what the page used to show.
      const byTransactionDate = await ctx.runtime.database.kysely
        .selectFrom('transactions')
        .select('id')
        .where('customer_id', '=', Number(linked))
        .orderBy('effective_date', 'desc')
        .orderBy('id', 'desc')
        .execute();
      expect(byTransactionDate.map((r) => Number(r.id))).not.toEqual(expected);
      const { ids, postedDates, found } = await pages(linked, 100);
      expect(ids).toEqual(expected);
      expect(new Set(found)).toEqual(new Set([expected.length]));
      for (let i = 1; i < postedDates.length; i++) expect(postedDates[i - 1]!, `position ${i}`).toBeGreaterThanOrEqual(postedDates[i]!);
      // Another page size gives the same sequence.
      expect((await pages(linked, 37)).ids).toEqual(expected);
      // The default page holds 25, and a page past the end is empty.
      const first = (await browser.call('GET', txUrl(linked))).json();
      expect(first).toMatchObject({ page: 1, limit: 25, moreAvailable: true });
      expect(first.transactions.map((t: { id: number }) => t.id)).toEqual(expected.slice(0, 25));
      const past = (await browser.call('GET', txUrl(linked, `?page=${Math.ceil(expected.length / 25) + 1}`))).json();
      expect(past).toMatchObject({ transactions: [], moreAvailable: false, found: expected.length });
    });

    it("filters by one account of the customer; another partner's customer or account is not found", async () => {
      const account = accounts.find((a) => a.type === 'checking') ?? accounts[0]!;
      const expected = await expectedOrder(linked, account.id);
      expect(expected.length).toBeGreaterThan(0);
      const { ids } = await pages(linked, 50, account.id);
      expect(ids).toEqual(expected);
      const one = (await browser.call('GET', txUrl(linked, `?account=${account.id}&limit=100`))).json();
      expect(one.transactions.every((t: { accountId: number }) => String(t.accountId) === account.id)).toBe(true);
      for (const url of [txUrl(theirCustomer), txUrl(linked, `?account=${theirAccounts[0]!.id}`), txUrl('9999999999')]) {
        const res = await browser.call('GET', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().code).toBe('14001');
      }
    });

    it('answers a customer not aggregated yet as such, and refuses a bad page or page size', async () => {
      const fresh = await addCustomer(ctx, mine);
      const freshAccounts = await linkProfile(ctx, mine, fresh, 'profile_01');
      expect((await browser.call('GET', txUrl(fresh))).json()).toEqual({
        aggregated: false,
        accountId: null,
        page: 1,
        limit: 25,
        found: 0,
        moreAvailable: false,
        transactions: [],
      });
      expect((await browser.call('GET', txUrl(fresh, `?account=${freshAccounts[0]!.id}`))).json()).toMatchObject({ aggregated: false, found: 0 });
      const empty = await addCustomer(ctx, mine);
      expect((await browser.call('GET', txUrl(empty))).json()).toMatchObject({ aggregated: true, found: 0, transactions: [] });
      const refused: [string, string][] = [
        ['?page=0', '10010'],
        ['?page=x', '10010'],
        ['?page=1000001', '10010'],
        ['?limit=0', '41004'],
        ['?limit=101', '41004'],
        ['?account=abc', '14001'],
      ];
      for (const [query, code] of refused) {
        const res = await browser.call('GET', txUrl(linked, query));
        expect(res.statusCode, query).toBe(code === '14001' ? 404 : 400);
        expect(res.json().code, query).toBe(code);
      }
    });
  });
});
