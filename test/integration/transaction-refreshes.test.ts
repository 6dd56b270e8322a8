import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountJson, linkProfile } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

interface RefreshAccount {
  accountId: string;
  institutionLoginId: string;
  institutionId: string;
  aggregationStatusCode?: number;
  aggregationSuccessDate?: string;
  code?: number;
  message?: string;
}
interface RefreshStatus {
  refreshId: string;
  status: string;
  mode: string;
  accounts: RefreshAccount[];
  totalCount: number;
  successCount: number;
  failedCount: number;
}

describe('transaction refreshes', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let customerId: string;
  let accounts: AccountJson[];
  let loginId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
    accounts = await linkProfile(ctx, partner, customerId, 'profile_01');
    loginId = String(accounts[0]!.institutionLoginId);
  }, 60_000);
  afterAll(async () => ctx?.close());

  const start = (who: TestPartner, body: object, id = customerId, accept = 'application/json') =>
    ctx.app.inject({ method: 'POST', url: `/aggregation/customers/${id}/transactions/refreshes`, headers: { ...who.headers, accept }, payload: body });
  const status = (who: TestPartner, refreshId: string, accept = 'application/json') =>
    ctx.app.inject({ method: 'GET', url: `/aggregation/customers/${customerId}/transactions/refreshes/${refreshId}`, headers: { ...who.headers, accept } });
  const codeOf = (r: { statusCode: number; json: <T>() => T }) => [r.statusCode, r.json<{ code: string }>().code];

  it("refreshes an institution login's accounts in the background and tells each one's outcome", async () => {
    const res = await start(partner, { institutionLoginId: loginId });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json<{ refreshId: string; status: string; accountIds: string[]; mode: string; institutionLoginId: string }>();
    expect(started).toMatchObject({ status: 'NEW', mode: 'standard', institutionLoginId: loginId });
    expect(started.accountIds.sort()).toEqual(accounts.map((a) => a.id).sort());
    await ctx.app.engine.idle();
    const done = (await status(partner, started.refreshId)).json<RefreshStatus>();
    expect(done).toMatchObject({ status: 'COMPLETED', totalCount: accounts.length, successCount: accounts.length, failedCount: 0 });
    for (const a of done.accounts) {
      expect(a).toMatchObject({ institutionLoginId: loginId, institutionId: '101732', aggregationStatusCode: 0 });
      expect(Date.parse(a.aggregationSuccessDate!)).toBeGreaterThan(0);
    }
  });

  it('refreshes only the accounts asked for, historic and custom modes included', async () => {
    const one = accounts[0]!.id;
    for (const body of [
      { accountIds: [one], institutionLoginId: '6000999999' },
      { accountIds: [one], mode: 'historic' },
      { accountIds: [one], mode: 'custom', fromDate: new Date((Math.floor(ctx.clock.now() / 1000) - 400 * 86_400) * 1000).toISOString() },
    ]) {
      const res = await start(partner, body);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json<{ accountIds: string[] }>().accountIds).toEqual([one]);
      await ctx.app.engine.idle();
      const done = (await status(partner, res.json<{ refreshId: string }>().refreshId)).json<RefreshStatus>();
      expect(done).toMatchObject({ status: 'COMPLETED', totalCount: 1, successCount: 1, mode: body.mode ?? 'standard' });
    }
  });

  it('reports a failing login as FAILED with the code and message of each account', async () => {
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`,
      headers: partner.headers,
      payload: { code: 103 },
    });
    expect(put.statusCode, put.body).toBeLessThan(300);
    const res = await start(partner, { institutionLoginId: loginId });
    await ctx.app.engine.idle();
    const done = (await status(partner, res.json<{ refreshId: string }>().refreshId)).json<RefreshStatus>();
    expect(done).toMatchObject({ status: 'FAILED', successCount: 0, failedCount: accounts.length });
    expect(done.accounts.every((a) => a.code === 103 && (a.message ?? '').length > 0)).toBe(true);
    await ctx.app.inject({ method: 'DELETE', url: `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`, headers: partner.headers });
  });

  it('answers in XML', async () => {
    const res = await start(partner, { institutionLoginId: loginId }, customerId, 'application/xml');
    expect(res.statusCode).toBe(202);
    expect(res.body).toContain('<status>NEW</status>');
    await ctx.app.engine.idle();
    const id = /<refreshId>([^<]+)<\/refreshId>/.exec(res.body)![1]!;
    const xml = await status(partner, id, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<transactionRefreshStatus>');
  });

  it("keeps each partner's refreshes its own and refuses bad input with 4xx", async () => {
    const res = await start(partner, { institutionLoginId: loginId });
    const { refreshId } = res.json<{ refreshId: string }>();
    await ctx.app.engine.idle();
    expect(codeOf(await status(stranger, refreshId))).toEqual([404, '14001']);
    expect(codeOf(await start(stranger, { institutionLoginId: loginId }))).toEqual([404, '14001']);
    expect(codeOf(await status(partner, '00000000-0000-4000-8000-000000000000'))).toEqual([404, '14001']);
    expect(codeOf(await start(partner, {}))).toEqual([400, '10005']);
    expect(codeOf(await start(partner, { institutionLoginId: loginId, mode: 'weekly' }))).toEqual([400, '10010']);
    expect(codeOf(await start(partner, { institutionLoginId: loginId, mode: 'custom' }))).toEqual([400, '16411']);
    expect((await start(partner, { institutionLoginId: loginId, mode: 'custom', fromDate: 'yesterday' })).statusCode).toBe(400);
    expect(codeOf(await start(partner, { institutionLoginId: loginId, mode: 'custom', fromDate: '2001-01-01T00:00:00Z' }))).toEqual([400, '16411']);
    const now = Math.floor(ctx.clock.now() / 1000);
    const day = (d: number) => new Date((now + d * 86_400) * 1000).toISOString();
    expect(codeOf(await start(partner, { institutionLoginId: loginId, mode: 'custom', fromDate: day(-5), toDate: day(-10) }))).toEqual([400, '16411']);
    expect(codeOf(await start(partner, { institutionLoginId: loginId, mode: 'custom', fromDate: day(-5), toDate: day(10) }))).toEqual([400, '16411']);
    expect(codeOf(await start(partner, { accountIds: ['5011999999'] }))).toEqual([404, '14001']);
    expect(codeOf(await start(partner, { institutionLoginId: '6000999999' }))).toEqual([404, '14001']);
    expect((await start(partner, { accountIds: Array.from({ length: 101 }, (_, i) => String(i)) })).statusCode).toBe(400);
    const empty = await addCustomer(ctx, partner);
    const login = await start(partner, { institutionLoginId: loginId }, empty);
    expect(codeOf(login)).toEqual([404, '14001']);
  });
});
