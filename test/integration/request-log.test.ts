import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneRequestLog } from '../../src/modules/requestlog/repository.js';
import { listRequestLog } from '../../src/modules/requestlog/service.js';
import { createTestContext, partnerWithToken, type TestContext } from '../helpers/context.js';

describe('the API request log', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext();
  });
  afterEach(() => ctx.close());

  it('records method, path, route, status, latency, error code and partner of API requests', async () => {
    const p = await partnerWithToken(ctx);
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me', headers: p.headers });
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/customers/123?x=1', headers: p.headers });
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me', headers: { ...p.headers, 'service-app-token': 'nope' } });
    await ctx.app.inject({ method: 'GET', url: '/health' });
    await ctx.app.requestLog.flush();
    const rows = (await listRequestLog(ctx.runtime.database.kysely, {})).reverse();
    const mine = rows.filter((r) => r.method === 'GET');
    expect(mine.map((r) => [r.path, r.route, r.status, r.error_code, r.partner_id])).toEqual([
      ['/aggregation/v1/partners/me', '/aggregation/v1/partners/me', 200, null, p.partnerId],
      ['/aggregation/v1/customers/123?x=1', '/aggregation/v1/customers/:customerId', 404, '14001', p.partnerId],
      ['/aggregation/v1/partners/me', '/aggregation/v1/partners/me', 401, '10022', null],
    ]);
    for (const r of mine) expect(r.latency_ms).toBeGreaterThan(0);
    expect(rows.some((r) => r.path === '/health')).toBe(false);
  });

  it("lists one partner's entries only, and entries after an id in order", async () => {
    const a = await partnerWithToken(ctx);
    const b = await partnerWithToken(ctx);
    for (const p of [a, b, a]) await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me', headers: p.headers });
    await ctx.app.requestLog.flush();
    const forA = await listRequestLog(ctx.runtime.database.kysely, { partnerId: a.partnerId });
    expect(forA.every((r) => r.partner_id === a.partnerId)).toBe(true);
    expect(forA.filter((r) => r.method === 'GET')).toHaveLength(2);
    const first = forA.at(-1)!;
    const after = await listRequestLog(ctx.runtime.database.kysely, { afterId: first.id });
    expect(after.map((r) => r.id)).toEqual([...after.map((r) => r.id)].sort((x, y) => x - y));
    expect(after.every((r) => r.id > first.id)).toBe(true);
  });

  it('drops entries older than the retention', async () => {
    const p = await partnerWithToken(ctx);
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me', headers: p.headers });
    await ctx.app.requestLog.flush();
    await pruneRequestLog(ctx.runtime.database.kysely, ctx.clock.now() + 1);
    expect(await listRequestLog(ctx.runtime.database.kysely, {})).toEqual([]);
  });
});
