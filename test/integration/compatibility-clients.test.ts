import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { listMail } from '../../src/outbox/service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { DAY, linkProfile, loginForm, nowOf, refresh, type TransactionJson } from '../helpers/aggregation.js';
import { appOk } from '../helpers/connect.js';
import { createTestTransaction } from '../helpers/txpush.js';

/** Calls that client libraries written for the reference make, exactly as they make them. */
describe('client code written for the reference', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let customerId: string;
  let accountId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
    const accounts = await linkProfile(ctx, partner, customerId, 'profile_03', 102105);
    await refresh(ctx, partner, customerId);
    accountId = accounts.find((a) => a.type === 'checking')!.id;
  });
  afterAll(() => ctx.close());

  const get = (url: string, accept = 'application/json') => ctx.app.inject({ url, headers: { ...partner.headers, accept } });
  const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: partner.headers, payload });
  const window = () => `fromDate=${nowOf(ctx) - 30 * DAY}&toDate=${nowOf(ctx) + DAY}`;

  describe('boolean query parameters', () => {
    it.each(['True', 'False', 'TRUE', 'false', 'tRuE'])('reads includePending=%s as the boolean it spells', async (spelling) => {
      const res = await get(`/aggregation/v3/customers/${customerId}/transactions?${window()}&limit=1000&includePending=${spelling}`);
      expect(res.statusCode).toBe(200);
      const statuses = new Set(res.json<{ transactions: TransactionJson[] }>().transactions.map((t) => t.status));
      const canonical = await get(`/aggregation/v3/customers/${customerId}/transactions?${window()}&limit=1000&includePending=${spelling.toLowerCase()}`);
      expect(res.body).toBe(canonical.body);
      if (spelling.toLowerCase() === 'false') expect(statuses.has('pending')).toBe(false);
    });

    it('reads showDailyBalance=False on account transactions, and still refuses spellings that are not true or false', async () => {
      expect(
        (await get(`/aggregation/v4/customers/${customerId}/accounts/${accountId}/transactions?${window()}&showDailyBalance=False&includePending=True`))
          .statusCode,
      ).toBe(200);
      for (const bad of ['yes', '1', 'truthy']) {
        const res = await get(`/aggregation/v3/customers/${customerId}/transactions?${window()}&includePending=${bad}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('10010');
      }
    });
  });

  describe('pending transactions', () => {
    it('carry a postedDate: their transaction date until they post', async () => {
      const created = await createTestTransaction(ctx, partner, customerId, accountId, {
        amount: -12.5,
        description: 'pending coffee',
        status: 'pending',
        transactionDate: nowOf(ctx) - 3600,
      });
      const res = await get(`/aggregation/v2/customers/${customerId}/transactions/${created.id}`);
      expect(res.json()).toMatchObject({ status: 'pending', transactionDate: nowOf(ctx) - 3600, postedDate: nowOf(ctx) - 3600 });
      const all = await get(`/aggregation/v3/customers/${customerId}/transactions?${window()}&limit=1000&includePending=true`);
      const transactions = all.json<{ transactions: TransactionJson[] }>().transactions;
      expect(transactions.length).toBeGreaterThan(0);
      expect(transactions.filter((t) => typeof t.postedDate !== 'number')).toEqual([]);
      const xml = await get(`/aggregation/v2/customers/${customerId}/transactions/${created.id}`, 'application/xml');
      expect(xml.body).toContain(`<postedDate>${nowOf(ctx) - 3600}</postedDate>`);
    });

    it("accepts the reference's own test-transaction example: pending with a postedDate", async () => {
      const body = {
        amount: -4.25,
        description: 'a testing transaction description',
        status: 'pending',
        postedDate: nowOf(ctx) + 2 * DAY,
        transactionDate: nowOf(ctx),
      };
      const res = await post(`/aggregation/v1/customers/${customerId}/accounts/${accountId}/transactions`, body);
      expect(res.statusCode).toBe(201);
      const read = await get(`/aggregation/v2/customers/${customerId}/transactions/${res.json().id}`);
      expect(read.json()).toMatchObject({ status: 'pending', postedDate: body.postedDate, transactionDate: body.transactionDate });
    });
  });

  describe('older operation versions', () => {
    it('serves GET v1 account as its v2 twin', async () => {
      const v1 = await get(`/aggregation/v1/customers/${customerId}/accounts/${accountId}`);
      const v2 = await get(`/aggregation/v2/customers/${customerId}/accounts/${accountId}`);
      expect(v1.statusCode).toBe(200);
      expect(v1.body).toBe(v2.body);
      expect((await get(`/aggregation/v1/customers/${customerId}/accounts/999999`)).statusCode).toBe(404);
    });

    it('serves v3 account transactions as their v4 twin, in JSON and XML', async () => {
      for (const accept of ['application/json', 'application/xml']) {
        const v3 = await get(`/aggregation/v3/customers/${customerId}/accounts/${accountId}/transactions?${window()}&includePending=true`, accept);
        const v4 = await get(`/aggregation/v4/customers/${customerId}/accounts/${accountId}/transactions?${window()}&includePending=true`, accept);
        expect(v3.statusCode).toBe(200);
        expect(v3.body).toBe(v4.body);
      }
    });

    it('serves POST v1 customers/active as its v2 twin: production partners only', async () => {
      const production = await partnerWithToken(ctx, 'production');
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/aggregation/v1/customers/active',
        headers: production.headers,
        payload: { username: 'v1_active_customer', firstName: 'Ada' },
      });
      expect(res.statusCode).toBe(201);
      expect(Object.keys(res.json()).sort()).toEqual(['createdDate', 'id']);
      const testDrive = await post('/aggregation/v1/customers/active', { username: 'v1_active_other' });
      expect(testDrive.statusCode).toBe(401);
      expect(testDrive.json().code).toBe('14060');
    });

    it('marks the older versions deprecated in the OpenAPI document', async () => {
      const doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
      expect(doc.paths['/aggregation/v1/customers/{customerId}/accounts/{accountId}'].get.deprecated).toBe(true);
      expect(doc.paths['/aggregation/v3/customers/{customerId}/accounts/{accountId}/transactions'].get.deprecated).toBe(true);
      expect(doc.paths['/aggregation/v1/customers/active'].post.deprecated).toBe(true);
      expect(doc.paths['/connect/v1/generate'].post.deprecated).toBe(true);
      expect(doc.paths['/connect/v1/send/email'].post.deprecated).toBe(true);
      expect(doc.paths['/aggregation/v2/customers/{customerId}/accounts/{accountId}'].get.deprecated).toBeUndefined();
    });
  });

  describe('Connect 1.0', () => {
    const v1 = (body: object, path = '/connect/v1/generate') => post(path, { partnerId: partner.partnerId, customerId, ...body });

    it('maps type aggregation to a Full link with the default experience, whatever experience is sent', async () => {
      const res = await v1({
        type: 'aggregation',
        experience: 'not-an-experience',
        redirectUrl: 'https://partner.example/done',
        webhook: 'https://partner.example/hook',
        webhookContentType: 'application/json',
      });
      expect(res.statusCode).toBe(200);
      const link = res.json().link as string;
      expect(new URL(link).searchParams.get('experience')).toBe('default');
      expect((await appOk(ctx, link, 'POST', '/session')).mode).toBe('full');
    });

    it('maps type lite (with institutionId) and fix (with institutionLoginId) to Lite and Fix links', async () => {
      const lite = await v1({ type: 'lite', institutionId: 102105 });
      expect(lite.statusCode).toBe(200);
      expect((await appOk(ctx, lite.json().link, 'POST', '/session')).mode).toBe('lite');
      const account = (await get(`/aggregation/v2/customers/${customerId}/accounts/${accountId}`)).json();
      const fix = await v1({ type: 'fix', institutionLoginId: String(account.institutionLoginId) });
      expect(fix.statusCode).toBe(200);
      expect((await appOk(ctx, fix.json().link, 'POST', '/session')).mode).toBe('fix');
    });

    it('refuses types Ledgerlink does not offer with a 400 naming the supported ones, and lite or fix without their id', async () => {
      for (const type of ['voa', 'voi', 'ach', 'nonsense']) {
        const res = await v1({ type });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: '10010', message: expect.stringMatching(/aggregation, lite, fix/) });
      }
      expect((await v1({ type: 'lite' })).json().code).toBe('10005');
      expect((await v1({ type: 'fix' })).json().code).toBe('10005');
      expect((await v1({})).json().code).toBe('10005');
    });

    it('e-mails a link through send/email, as v2 does', async () => {
      const email = {
        to: 'consumer@example.com',
        from: 'Acme Lending',
        subject: 'Link your accounts',
        firstName: 'Ada',
        institutionName: 'Acme Lending',
        signature: ['Acme Lending'],
      };
      const res = await v1({ type: 'aggregation', email }, '/connect/v1/send/email');
      expect(res.statusCode).toBe(200);
      expect(res.json().emailConfig).toEqual(email);
      await drainDeliveries(ctx.runtime);
      const mail = await listMail(ctx.runtime.database.kysely, { partnerId: partner.partnerId });
      expect(mail.map((m) => m.subject)).toContain('Link your accounts');
      const lite = await v1({ type: 'lite', institutionId: 102105, email }, '/connect/v1/send/email');
      expect((await appOk(ctx, lite.json().link, 'POST', '/session')).mode).toBe('lite');
    });
  });

  describe('ids the reference uses in its own examples', () => {
    it("has institution 4222, the reference's example institution", async () => {
      const res = await get('/institution/v2/institutions/4222');
      expect(res.statusCode).toBe(200);
      expect(res.json().institution).toMatchObject({ id: 4222, name: 'FinBank Example' });
    });

    it('takes 64-bit institution ids: an unknown one is the normal not-found or empty answer', async () => {
      expect((await get('/institution/v2/institutions/6000000000')).statusCode).toBe(404);
      const simple = await get(`/aggregation/v1/customers/${customerId}/institutions/6000000000/accounts/simple`);
      expect(simple.statusCode).toBe(200);
      expect(simple.json().accounts).toEqual([]);
      const full = await get(`/aggregation/v1/customers/${customerId}/institutions/6000000000/accounts`);
      expect(full.statusCode).toBe(200);
      const addall = await post(`/aggregation/v1/customers/${customerId}/institutions/6000000000/accounts/addall`, loginForm(6000000000, 'profile_03'));
      expect(addall.statusCode, addall.body).toBe(404);
      const lite = await post('/connect/v2/generate/lite', { partnerId: partner.partnerId, customerId, institutionId: 6000000000 });
      expect(lite.statusCode, lite.body).toBe(404);
    });
  });
});
