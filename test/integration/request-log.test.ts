import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/contract/errors/service-error.js';
import { pruneRequestLog } from '../../src/modules/requestlog/repository.js';
import { listRequestLog } from '../../src/modules/requestlog/service.js';
import type { RequestLogRow } from '../../src/modules/requestlog/table.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { dashboardSignIn } from '../helpers/dashboard.js';

const NEW_SECRET = 'Changed-secret-2026';

/** The calls a newcomer makes first, each with the partner's app key: what its log must show. */
async function newcomerCalls(ctx: TestContext, p: TestPartner): Promise<void> {
  const key = { 'service-app-key': p.appKey, accept: 'application/json' };
  const calls = [
    { method: 'POST', url: '/aggregation/v2/partners/authentication', headers: key, payload: { partnerId: p.partnerId, partnerSecret: 'Wrong-secret-0000' } },
    { method: 'POST', url: '/aggregation/v2/partners/authentication', headers: key, payload: { partnerId: p.partnerId, partnerSecret: p.partnerSecret } },
    { method: 'GET', url: '/aggregation/v1/partners/me', headers: { ...p.headers, 'service-app-token': 'not-a-token' } },
    { method: 'GET', url: '/aggregation/v9/partners/me', headers: p.headers },
    { method: 'GET', url: '/aggregation/v1/partners/me', headers: p.headers },
    {
      method: 'PUT',
      url: '/aggregation/v2/partners/authentication',
      headers: key,
      payload: { partnerId: p.partnerId, partnerSecret: p.partnerSecret, newPartnerSecret: NEW_SECRET },
    },
  ] as const;
  const statuses = [];
  for (const call of calls) statuses.push((await ctx.app.inject(call)).statusCode);
  expect(statuses).toEqual([401, 200, 401, 404, 200, 204]);
}

const summary = (r: RequestLogRow) => [r.method, r.path, r.status, r.error_code];

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
      // Refused token, valid app key: the key's partner's.
      ['/aggregation/v1/partners/me', '/aggregation/v1/partners/me', 401, '10022', p.partnerId],
    ]);
    for (const r of mine) expect(r.latency_ms).toBeGreaterThan(0);
    expect(rows.some((r) => r.path === '/health')).toBe(false);
  });

  it("logs failed and successful partner authentication, a refused token and a wrong version's 404 for the app key's partner, and none of it for another partner", async () => {
    const a = await partnerWithToken(ctx);
    const b = await partnerWithToken(ctx);
    await newcomerCalls(ctx, a);
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me', headers: b.headers });
    await ctx.app.requestLog.flush();
    const forA = (await listRequestLog(ctx.runtime.database.kysely, { partnerId: a.partnerId })).reverse();
    expect(forA.map(summary)).toEqual([
      // partnerWithToken's own authentication.
      ['POST', '/aggregation/v2/partners/authentication', 200, null],
      ['POST', '/aggregation/v2/partners/authentication', 401, '10001'],
      ['POST', '/aggregation/v2/partners/authentication', 200, null],
      ['GET', '/aggregation/v1/partners/me', 401, '10022'],
      ['GET', '/aggregation/v9/partners/me', 404, '10404'],
      ['GET', '/aggregation/v1/partners/me', 200, null],
      ['PUT', '/aggregation/v2/partners/authentication', 204, null],
    ]);
    expect(forA.every((r) => r.partner_id === a.partnerId)).toBe(true);
    const forB = await listRequestLog(ctx.runtime.database.kysely, { partnerId: b.partnerId });
    expect(forB.map(summary)).toEqual([
      ['GET', '/aggregation/v1/partners/me', 200, null],
      ['POST', '/aggregation/v2/partners/authentication', 200, null],
    ]);
    // The dashboard shows each partner its own.
    const dashboardOfB = await dashboardSignIn(ctx, b.partnerId, b.partnerSecret);
    const shownToB = (await dashboardOfB.call('GET', '/dashboard/api/requests')).json().requests;
    expect(shownToB.map((r: { id: number }) => r.id).sort()).toEqual(forB.map((r) => r.id).sort());
  });

  it('logs requests with an unknown app key, or none, for no partner, and shows them to no partner', async () => {
    const a = await partnerWithToken(ctx);
    await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication?probe=unknown-key',
      headers: { 'service-app-key': 'f'.repeat(32) },
      payload: { partnerId: a.partnerId, partnerSecret: a.partnerSecret },
    });
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v9/partners/me?probe=unknown-key', headers: { 'service-app-key': 'f'.repeat(32) } });
    // An unknown app key makes it nobody's, whatever token comes with it.
    await ctx.app.inject({
      method: 'GET',
      url: '/aggregation/v1/partners/me?probe=unknown-key-own-token',
      headers: { ...a.headers, 'service-app-key': 'f'.repeat(32) },
    });
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v9/partners/me?probe=no-key' });
    await ctx.app.requestLog.flush();
    const probes = (await listRequestLog(ctx.runtime.database.kysely, { path: 'probe=' })).reverse();
    expect(probes.map((r) => [r.path, r.status, r.error_code, r.partner_id])).toEqual([
      ['/aggregation/v2/partners/authentication?probe=unknown-key', 401, '10020', null],
      ['/aggregation/v9/partners/me?probe=unknown-key', 404, '10404', null],
      ['/aggregation/v1/partners/me?probe=unknown-key-own-token', 401, '10020', null],
      ['/aggregation/v9/partners/me?probe=no-key', 404, '10404', null],
    ]);
    // Nothing but the summary is kept of them.
    const stored = await ctx.runtime.database.kysely.selectFrom('request_log').selectAll().where('partner_id', 'is', null).execute();
    expect(stored.length).toBe(4);
    for (const r of stored) expect([r.request_headers, r.request_body, r.response_headers, r.response_body]).toEqual([null, null, null, null]);
    expect(await listRequestLog(ctx.runtime.database.kysely, { partnerId: a.partnerId, path: 'probe=' })).toEqual([]);
  });

  it('logs a call made with a token but no app key for the partner the token was issued to', async () => {
    const a = await partnerWithToken(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me?probe=token-only', headers: { 'service-app-token': a.token } });
    expect(res.json().code).toBe('10026');
    await ctx.app.requestLog.flush();
    expect((await listRequestLog(ctx.runtime.database.kysely, { path: 'probe=token-only' })).map((r) => [r.status, r.partner_id])).toEqual([
      [401, a.partnerId],
    ]);
  });

  it("logs a call made with one partner's app key and another's token for the app key's partner", async () => {
    const a = await partnerWithToken(ctx);
    const b = await partnerWithToken(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/customers?probe=mixed', headers: { ...a.headers, 'service-app-token': b.token } });
    expect(res.json().code).toBe('10021');
    await ctx.app.requestLog.flush();
    expect((await listRequestLog(ctx.runtime.database.kysely, { path: 'probe=mixed' })).map((r) => r.partner_id)).toEqual([a.partnerId]);
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

  it('narrows a list by status class or status, method and path text (any letter case, wildcards taken literally), also after an id', async () => {
    const p = await partnerWithToken(ctx);
    await ctx.app.requestLog.flush();
    const first = (await listRequestLog(ctx.runtime.database.kysely, { partnerId: p.partnerId }))[0]!;
    await newcomerCalls(ctx, p);
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/customers?search=100%25_off', headers: { ...p.headers, 'service-app-token': 'x' } });
    await ctx.app.requestLog.flush();
    const list = async (filter: { status?: string; method?: string; path?: string; afterId?: number }) =>
      (await listRequestLog(ctx.runtime.database.kysely, { partnerId: p.partnerId, ...filter })).map(summary);
    expect(await list({ status: '4xx' })).toEqual([
      ['GET', '/aggregation/v1/customers?search=100%25_off', 401, '10022'],
      ['GET', '/aggregation/v9/partners/me', 404, '10404'],
      ['GET', '/aggregation/v1/partners/me', 401, '10022'],
      ['POST', '/aggregation/v2/partners/authentication', 401, '10001'],
    ]);
    expect(await list({ status: '401' })).toHaveLength(3);
    expect(await list({ status: '2XX', method: 'post' })).toEqual([
      ['POST', '/aggregation/v2/partners/authentication', 200, null],
      ['POST', '/aggregation/v2/partners/authentication', 200, null],
    ]);
    expect(await list({ method: 'PUT' })).toEqual([['PUT', '/aggregation/v2/partners/authentication', 204, null]]);
    expect(await list({ path: 'PARTNERS/ME' })).toHaveLength(3);
    expect(await list({ path: '%25_off' })).toHaveLength(1);
    // `%` and `_` are text, not LIKE's wildcards.
    expect(await list({ path: '%' })).toHaveLength(1);
    expect(await list({ path: 'v_/' })).toEqual([]);
    expect(await list({ status: '5xx' })).toEqual([]);
    // Empty filters are none; a filter applies to entries after an id as well (the live log's polls).
    expect(await list({ status: '', method: '', path: '' })).toHaveLength(8);
    expect(await list({ afterId: first.id, status: '2xx' })).toEqual([
      ['POST', '/aggregation/v2/partners/authentication', 200, null],
      ['GET', '/aggregation/v1/partners/me', 200, null],
      ['PUT', '/aggregation/v2/partners/authentication', 204, null],
    ]);
    for (const bad of [{ status: '600' }, { status: '4x' }, { status: 'abc' }, { method: 'GET /' }, { path: 'x'.repeat(501) }]) {
      await expect(listRequestLog(ctx.runtime.database.kysely, bad)).rejects.toSatisfy((e) => e instanceof ServiceError && e.code === '10010');
    }
  });

  it('filters on the dashboard too, and refuses a malformed filter with 400 10010', async () => {
    const p = await partnerWithToken(ctx);
    await newcomerCalls(ctx, p);
    await ctx.app.requestLog.flush();
    const dashboard = await dashboardSignIn(ctx, p.partnerId, NEW_SECRET);
    const shown = (await dashboard.call('GET', '/dashboard/api/requests?status=4xx&method=GET&path=%2Fpartners%2F')).json().requests;
    expect(shown.map((r: { path: string; status: number }) => [r.path, r.status])).toEqual([
      ['/aggregation/v9/partners/me', 404],
      ['/aggregation/v1/partners/me', 401],
    ]);
    for (const query of ['status=4x', 'status=700', 'method=G%20T', `path=${'x'.repeat(501)}`]) {
      const res = await dashboard.call('GET', `/dashboard/api/requests?${query}`);
      expect([res.statusCode, res.json().code], query).toEqual([400, '10010']);
    }
  });

  it('drops entries older than the retention', async () => {
    const p = await partnerWithToken(ctx);
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me', headers: p.headers });
    await ctx.app.requestLog.flush();
    await pruneRequestLog(ctx.runtime.database.kysely, ctx.clock.now() + 1);
    expect(await listRequestLog(ctx.runtime.database.kysely, {})).toEqual([]);
  });
});

describe('request ids', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext();
  });
  afterEach(() => ctx.close());

  it('are on every answer of every scope, errors included, and each is new', async () => {
    const p = await partnerWithToken(ctx);
    const ids = new Set<string>();
    for (const [url, status] of [
      ['/aggregation/v1/partners/me', 200],
      ['/aggregation/v9/partners/me', 404],
      ['/aggregation/v1/customers/%zz', 400],
      ['/health', 200],
      ['/openapi.json', 200],
      ['/dashboard/api/session', 401],
      ['/connect/api/session', 404],
    ] as const) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: p.headers });
      expect(res.statusCode, url).toBe(status);
      const id = res.headers['x-request-id'];
      expect(id, url).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      ids.add(String(id));
    }
    const refused = await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me', headers: { ...p.headers, 'service-app-token': 'x' } });
    expect(refused.statusCode).toBe(401);
    ids.add(String(refused.headers['x-request-id']));
    expect(ids.size).toBe(8);
  });

  it("are the client's own X-Request-Id when it is sane (echoed and logged), a new one otherwise", async () => {
    const p = await partnerWithToken(ctx);
    const ask = (id: string) =>
      ctx.app.inject({
        method: 'GET',
        url: `/aggregation/v1/partners/me?n=${encodeURIComponent(id.slice(0, 20))}`,
        headers: { ...p.headers, 'x-request-id': id },
      });
    const sane = 'client-trace_01:abc=+/.';
    expect((await ask(sane)).headers['x-request-id']).toBe(sane);
    for (const insane of ['a'.repeat(129), 'has space', 'tab\tinside', '<script>', 'ünïcode']) {
      const answered = (await ask(insane)).headers['x-request-id'];
      expect(answered).not.toBe(insane);
      expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    }
    const res = await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/customers/404404', headers: p.headers });
    await ctx.app.requestLog.flush();
    const rows = await listRequestLog(ctx.runtime.database.kysely, { partnerId: p.partnerId });
    expect(rows[0]!.request_id).toBe(res.headers['x-request-id']);
    expect(rows.some((r) => r.request_id === sane)).toBe(true);
    // The dashboard shows it with the row.
    const dashboard = await dashboardSignIn(ctx, p.partnerId, p.partnerSecret);
    const shown = (await dashboard.call('GET', '/dashboard/api/requests?limit=1')).json().requests[0];
    expect(shown).toMatchObject({ path: '/aggregation/v1/customers/404404', requestId: res.headers['x-request-id'] });
  });
});
