import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { allTransactions, DAY, linkProfile, nowOf, refresh, type AccountJson, type TransactionJson } from '../helpers/aggregation.js';

const xml = new XMLParser({ parseTagValue: false, isArray: (name) => ['account', 'transaction', 'position'].includes(name) });

describe('accounts and transactions API', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let other: TestPartner;
  let customerId: string;
  let accounts: AccountJson[];
  let all: TransactionJson[];

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    other = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_02');
    await linkProfile(ctx, partner, customerId, 'student', 102105);
    accounts = await refresh(ctx, partner, customerId);
    all = await allTransactions(ctx, partner, customerId, { fromDate: 0, toDate: nowOf(ctx) + DAY });
  });
  afterAll(() => ctx.close());

  const get = (url: string, who: TestPartner = partner, accept = 'application/json') =>
    ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });
  const db = () => ctx.runtime.database.kysely;
  const effective = (t: TransactionJson) => t.transactionDate ?? t.postedDate!;
  const ordered = (list: TransactionJson[], sort: 'asc' | 'desc') =>
    [...list].sort((a, b) => (effective(a) - effective(b) || a.id - b.id) * (sort === 'asc' ? 1 : -1));

  describe('accounts', () => {
    it('lists all accounts, by institution login, by institution, and one by id, full and simple', async () => {
      const list = (await get(`/aggregation/v1/customers/${customerId}/accounts`)).json().accounts as AccountJson[];
      expect(list).toEqual(accounts);
      expect(list).toHaveLength(10);
      const [loginA, loginB] = [...new Set(list.map((a) => a.institutionLoginId))];
      const byLogin = (await get(`/aggregation/v1/customers/${customerId}/institutionLogins/${loginB}/accounts`)).json().accounts;
      expect(byLogin).toEqual(list.filter((a) => a.institutionLoginId === loginB));
      expect((await get(`/aggregation/v1/customers/${customerId}/institutions/102105/accounts`)).json().accounts).toEqual(byLogin);
      expect((await get(`/aggregation/v1/customers/${customerId}/institutions/102106/accounts`)).json().accounts).toEqual([]);
      const one = (await get(`/aggregation/v2/customers/${customerId}/accounts/${list[0]!.id}`)).json();
      expect(one).toEqual(list[0]);

      const simpleKeys = [
        'accountNumberDisplay',
        'aggregationAttemptDate',
        'aggregationStatusCode',
        'aggregationSuccessDate',
        'createdDate',
        'currency',
        'customerId',
        'displayPosition',
        'id',
        'institutionId',
        'institutionLoginId',
        'name',
        'status',
        'type',
      ];
      const simple = (await get(`/aggregation/v1/customers/${customerId}/accounts/simple`)).json().accounts;
      expect(simple.map((a: AccountJson) => a.id)).toEqual(list.map((a) => a.id));
      expect(Object.keys(simple[0]).sort()).toEqual(simpleKeys);
      expect((await get(`/aggregation/v1/customers/${customerId}/institutionLogins/${loginA}/accounts/simple`)).json().accounts).toHaveLength(9);
      expect((await get(`/aggregation/v1/customers/${customerId}/institutions/101732/accounts/simple`)).json().accounts).toHaveLength(9);
      expect(Object.keys((await get(`/aggregation/v1/customers/${customerId}/accounts/${list[0]!.id}/simple`)).json()).sort()).toEqual(simpleKeys);
      // Filters of Get Customer Accounts.
      expect((await get(`/aggregation/v1/customers/${customerId}/accounts?account_type=creditCard`)).json().accounts.map((a: AccountJson) => a.name)).toEqual(
        list.filter((a) => a.type === 'creditCard').map((a) => a.name),
      );
      expect((await get(`/aggregation/v1/customers/${customerId}/accounts?status=closed`)).json().accounts).toEqual([]);
    });

    it('renders accounts in XML: <accounts> of <account>, with detail and repeated position elements', async () => {
      const res = await get(`/aggregation/v1/customers/${customerId}/accounts`, partner, 'application/xml');
      expect(res.statusCode).toBe(200);
      const doc = xml.parse(res.body);
      expect(doc.accounts.account).toHaveLength(10);
      const investment = doc.accounts.account.find((a: Record<string, unknown>) => a.type === 'investment');
      expect(investment.detail.availableCashBalance).toMatch(/^-?\d/);
      expect(investment.position.length).toBeGreaterThan(0);
      expect(investment.position[0].id).toMatch(/^\d+$/);
      const one = xml.parse((await get(`/aggregation/v2/customers/${customerId}/accounts/${accounts[0]!.id}`, partner, 'application/xml')).body);
      expect(one.account[0].id).toBe(accounts[0]!.id);
    });
  });

  describe('transactions', () => {
    it('has transactions of every account, pending ones among them', () => {
      expect(new Set(all.map((t) => String(t.accountId)))).toEqual(new Set(accounts.map((a) => a.id)));
      expect(all.some((t) => t.status === 'pending')).toBe(true);
      // A pending transaction's postedDate is its transaction date until it posts.
      expect(all.filter((t) => t.status === 'pending').every((t) => t.postedDate === t.transactionDate)).toBe(true);
    });

    it.each([
      ['asc', true],
      ['asc', false],
      ['desc', true],
      ['desc', false],
    ] as const)('pages exactly (sort %s, includePending %s): no transaction twice, none skipped', async (sort, includePending) => {
      const from = effective(all[Math.floor(all.length / 5)]!);
      const to = effective(all[Math.floor((all.length * 4) / 5)]!);
      const expected = ordered(
        all.filter((t) => effective(t) >= from && effective(t) <= to && (includePending || t.status === 'active')),
        sort,
      );
      expect(expected.length).toBeGreaterThan(100);
      const seen: number[] = [];
      const limit = 37;
      for (let start = 1; ; start += limit) {
        const res = await get(
          `/aggregation/v3/customers/${customerId}/transactions?fromDate=${from}&toDate=${to}&start=${start}&limit=${limit}&sort=${sort}&includePending=${includePending}`,
        );
        const body = res.json();
        expect(body).toMatchObject({ found: expected.length, fromDate: String(from), toDate: String(to), sort });
        expect(body.displaying).toBe(body.transactions.length);
        seen.push(...body.transactions.map((t: TransactionJson) => t.id));
        expect(body.moreAvailable).toBe(String(seen.length < expected.length));
        if (body.moreAvailable === 'false') break;
      }
      expect(seen).toEqual(expected.map((t) => t.id));
      // The same pages in XML.
      const xmlSeen: number[] = [];
      for (let start = 1; start <= expected.length; start += 250) {
        const res = await get(
          `/aggregation/v3/customers/${customerId}/transactions?fromDate=${from}&toDate=${to}&start=${start}&limit=250&sort=${sort}&includePending=${includePending}`,
          partner,
          'application/xml',
        );
        const doc = xml.parse(res.body).transactions;
        expect(doc.found).toBe(String(expected.length));
        xmlSeen.push(...(doc.transaction ?? []).map((t: { id: string }) => Number(t.id)));
      }
      expect(xmlSeen).toEqual(expected.map((t) => t.id));
    });

    it('pages one account exactly with v4, in both orders', async () => {
      const card = accounts.find((a) => a.type === 'creditCard')!;
      const mine = all.filter((t) => String(t.accountId) === card.id);
      for (const sort of ['asc', 'desc'] as const) {
        const ids: number[] = [];
        for (let start = 1; start <= mine.length; start += 10) {
          const body = (
            await get(
              `/aggregation/v4/customers/${customerId}/accounts/${card.id}/transactions?fromDate=0&toDate=${nowOf(ctx) + DAY}&start=${start}&limit=10&sort=${sort}&includePending=true`,
            )
          ).json();
          expect(body.found).toBe(mine.length);
          ids.push(...body.transactions.map((t: TransactionJson) => t.id));
        }
        expect(ids).toEqual(ordered(mine, sort).map((t) => t.id));
      }
    });

    it('filters dates inclusively on the transaction date', async () => {
      const t = all[100]!;
      const body = (
        await get(`/aggregation/v3/customers/${customerId}/transactions?fromDate=${effective(t)}&toDate=${effective(t)}&includePending=true&limit=1000`)
      ).json();
      expect(body.transactions.map((x: TransactionJson) => x.id)).toEqual(
        ordered(
          all.filter((x) => effective(x) === effective(t)),
          'desc',
        ).map((x) => x.id),
      );
      expect(body.transactions.every((x: TransactionJson) => x.transactionDate === t.transactionDate)).toBe(true);
      const none = (await get(`/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=1`)).json();
      expect(none).toEqual({ found: 0, displaying: 0, moreAvailable: 'false', fromDate: '0', toDate: '1', sort: 'desc', transactions: [] });
      // Past the end: an empty page.
      expect((await get(`/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${nowOf(ctx)}&start=100000`)).json().displaying).toBe(0);
    });

    it('uses the documented defaults: sort desc, limit 25, start 1, no pending', async () => {
      const body = (await get(`/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${nowOf(ctx) + DAY}`)).json();
      const posted = ordered(
        all.filter((t) => t.status === 'active'),
        'desc',
      );
      expect(body).toMatchObject({ found: posted.length, displaying: 25, moreAvailable: 'true', sort: 'desc' });
      expect(body.transactions.map((t: TransactionJson) => t.id)).toEqual(posted.slice(0, 25).map((t) => t.id));
    });

    it.each([
      ['fromDate=0', '10005'],
      ['toDate=5', '10005'],
      ['fromDate=10&toDate=5', '10010'],
      ['fromDate=0&toDate=5&limit=1001', '41004'],
      ['fromDate=0&toDate=5&limit=0', '41004'],
      ['fromDate=0&toDate=5&start=0', '41003'],
      ['fromDate=0&toDate=5&sort=up', '10010'],
      ['fromDate=abc&toDate=5', '10010'],
    ])('refuses %s with %s', async (query, code) => {
      const res = await get(`/aggregation/v3/customers/${customerId}/transactions?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(code);
      const v4 = await get(`/aggregation/v4/customers/${customerId}/accounts/${accounts[0]!.id}/transactions?${query}`, partner, 'application/xml');
      expect(v4.statusCode).toBe(400);
      expect(xml.parse(v4.body).error.code).toBe(code);
    });

    it('reads one transaction by id in JSON and XML', async () => {
      const t = all.find((x) => x.memo !== undefined) ?? all[0]!;
      expect((await get(`/aggregation/v2/customers/${customerId}/transactions/${t.id}`)).json()).toEqual(t);
      const doc = xml.parse((await get(`/aggregation/v2/customers/${customerId}/transactions/${t.id}`, partner, 'application/xml')).body);
      expect(doc.transaction[0].id).toBe(String(t.id));
      expect(doc.transaction[0].categorization.category).toBe(t.categorization && (t.categorization as { category: string }).category);
      expect((await get(`/aggregation/v2/customers/${customerId}/transactions/123`)).statusCode).toBe(404);
      expect((await get(`/aggregation/v2/customers/${customerId}/transactions/abc`)).statusCode).toBe(404);
    });
  });

  describe('isolation', () => {
    it("answers 404 for another partner's or another customer's ids on every route, and changes nothing", async () => {
      const stranger = await addCustomer(ctx, other);
      const neighbour = await addCustomer(ctx, partner);
      const account = accounts[0]!;
      const loginId = account.institutionLoginId;
      const tx = all[0]!;
      const routes: Array<[string, string, TestPartner, string]> = [];
      // Our customer's ids used by another partner (with its own customer, and with ours), and by another customer of ours.
      for (const [who, cust] of [
        [other, stranger],
        [other, customerId],
        [partner, neighbour],
      ] as const) {
        routes.push(
          ['GET', `/aggregation/v2/customers/${cust}/accounts/${account.id}`, who, 'account'],
          ['GET', `/aggregation/v1/customers/${cust}/accounts/${account.id}/simple`, who, 'account'],
          ['GET', `/aggregation/v1/customers/${cust}/institutionLogins/${loginId}/accounts`, who, 'login'],
          ['GET', `/aggregation/v1/customers/${cust}/institutionLogins/${loginId}/accounts/simple`, who, 'login'],
          ['POST', `/aggregation/v1/customers/${cust}/institutionLogins/${loginId}/accounts`, who, 'login'],
          ['POST', `/aggregation/v2/customers/${cust}/institutionLogins/${loginId}/accounts`, who, 'login'],
          ['DELETE', `/aggregation/v1/customers/${cust}/institutionLogins/${loginId}`, who, 'login'],
          ['DELETE', `/aggregation/v1/customers/${cust}/accounts/${account.id}`, who, 'account'],
          ['GET', `/aggregation/v4/customers/${cust}/accounts/${account.id}/transactions?fromDate=0&toDate=${nowOf(ctx)}`, who, 'account'],
          ['POST', `/aggregation/v1/customers/${cust}/accounts/${account.id}/transactions/historic`, who, 'account'],
          ['GET', `/aggregation/v2/customers/${cust}/transactions/${tx.id}`, who, 'transaction'],
        );
      }
      // Customer-level routes with our customer's id, called by another partner.
      for (const [method, url] of [
        ['GET', `/aggregation/v1/customers/${customerId}/accounts`],
        ['GET', `/aggregation/v1/customers/${customerId}/accounts/simple`],
        ['GET', `/aggregation/v1/customers/${customerId}/institutions/101732/accounts`],
        ['GET', `/aggregation/v1/customers/${customerId}/institutions/101732/accounts/simple`],
        ['POST', `/aggregation/v1/customers/${customerId}/accounts`],
        ['POST', `/aggregation/v2/customers/${customerId}/accounts`],
        ['GET', `/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${nowOf(ctx)}`],
        ['POST', `/aggregation/v1/customers/${customerId}/institutions/101732/accounts/addall`],
      ] as const)
        routes.push([method, url, other, 'customer']);
      const marks = await db()
        .selectFrom('aggregation_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      for (const [method, url, who] of routes) {
        const res = await ctx.app.inject({
          method: method as 'GET',
          url,
          headers: who.headers,
          ...(method === 'POST'
            ? {
                payload: url.endsWith('addall')
                  ? {
                      credentials: [
                        { id: '101732001', value: 'profile_01' },
                        { id: '101732002', value: 'profile_01' },
                      ],
                    }
                  : {},
              }
            : {}),
        });
        expect([url, res.statusCode, res.json().code]).toEqual([url, 404, '14001']);
      }
      await ctx.app.engine.idle();
      expect(
        await db()
          .selectFrom('aggregation_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow(),
      ).toEqual(marks);
      expect((await get(`/aggregation/v1/customers/${customerId}/accounts`)).json().accounts).toEqual(accounts);
      expect(await allTransactions(ctx, partner, customerId, { fromDate: 0, toDate: nowOf(ctx) + DAY })).toEqual(all);
    });
  });

  describe('deleting', () => {
    it('deletes an account with its transactions (204, deleted event), 404 afterwards; the login goes with its last account', async () => {
      const c = await addCustomer(ctx, partner);
      const [card] = await linkProfile(ctx, partner, c, 'student');
      await refresh(ctx, partner, c);
      const txs = await allTransactions(ctx, partner, c, { fromDate: 0, toDate: nowOf(ctx) + DAY });
      const del = await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${c}/accounts/${card!.id}`, headers: partner.headers });
      expect(del.statusCode).toBe(204);
      expect((await get(`/aggregation/v2/customers/${c}/accounts/${card!.id}`)).statusCode).toBe(404);
      expect((await get(`/aggregation/v2/customers/${c}/transactions/${txs[0]!.id}`)).statusCode).toBe(404);
      expect(await db().selectFrom('transactions').select('id').where('account_id', '=', Number(card!.id)).execute()).toEqual([]);
      expect(await db().selectFrom('institution_logins').select('id').where('customer_id', '=', Number(c)).execute()).toEqual([]);
      const last = await db().selectFrom('aggregation_events').selectAll().where('customer_id', '=', Number(c)).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(last).toMatchObject({ class: 'account', type: 'deleted', account_id: Number(card!.id) });
      expect(JSON.parse(last.record).id).toBe(card!.id);
      expect(
        (await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${c}/accounts/${card!.id}`, headers: partner.headers })).statusCode,
      ).toBe(404);
      // Nothing left to read: v3 answers an empty list, not 409.
      expect((await get(`/aggregation/v3/customers/${c}/transactions?fromDate=0&toDate=${nowOf(ctx)}`)).json().found).toBe(0);
    });

    it('deletes an institution login with all its accounts (204, one deleted event each); 404 when unknown', async () => {
      const c = await addCustomer(ctx, partner);
      const linked = await linkProfile(ctx, partner, c, 'profile_01');
      const keep = await linkProfile(ctx, partner, c, 'student', 102106);
      const url = `/aggregation/v1/customers/${c}/institutionLogins/${linked[0]!.institutionLoginId}`;
      expect((await ctx.app.inject({ method: 'DELETE', url, headers: partner.headers })).statusCode).toBe(204);
      expect((await get(`/aggregation/v1/customers/${c}/accounts`)).json().accounts.map((a: AccountJson) => a.id)).toEqual(keep.map((a) => a.id));
      const deleted = await db().selectFrom('aggregation_events').selectAll().where('customer_id', '=', Number(c)).where('type', '=', 'deleted').execute();
      expect(deleted.map((e) => String(e.account_id)).sort()).toEqual(linked.map((a) => a.id).sort());
      expect((await ctx.app.inject({ method: 'DELETE', url, headers: partner.headers })).statusCode).toBe(404);
      expect((await get(`/aggregation/v1/customers/${c}/institutionLogins/${linked[0]!.institutionLoginId}/accounts`)).statusCode).toBe(404);
    });

    it('deletes everything of a customer with the customer', async () => {
      const c = await addCustomer(ctx, partner);
      await linkProfile(ctx, partner, c, 'profile_02');
      await refresh(ctx, partner, c);
      expect((await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${c}`, headers: partner.headers })).statusCode).toBe(204);
      for (const table of ['institution_logins', 'accounts', 'transactions', 'aggregation_events', 'link_sessions'] as const) {
        expect(await db().selectFrom(table).select('customer_id').where('customer_id', '=', Number(c)).execute()).toEqual([]);
      }
      expect(
        await db()
          .selectFrom('positions')
          .innerJoin('accounts', 'accounts.id', 'positions.account_id')
          .select('positions.id')
          .where('accounts.customer_id', '=', Number(c))
          .execute(),
      ).toEqual([]);
    });
  });
});
