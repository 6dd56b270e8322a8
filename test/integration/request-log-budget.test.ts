import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';

// Counts the header and body redaction the request log does: a request whose detail is not kept must cost none.
const made = vi.hoisted(() => ({ headers: 0, json: 0 }));
vi.mock('../../src/modules/requestlog/redact.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/modules/requestlog/redact.js')>();
  return {
    ...original,
    headerLines: (...args: Parameters<typeof original.headerLines>) => {
      made.headers++;
      return original.headerLines(...args);
    },
    redactedJson: (...args: Parameters<typeof original.redactedJson>) => {
      made.json++;
      return original.redactedJson(...args);
    },
  };
});

/** The partner's logged calls whose path contains `marker`, oldest first, with whether each kept its detail. */
async function logged(ctx: TestContext, partnerId: string, marker: string): Promise<{ path: string; detail: boolean }[]> {
  await ctx.app.requestLog.flush();
  const rows = await ctx.runtime.database.kysely
    .selectFrom('request_log')
    .select(['path', 'request_headers'])
    .where('partner_id', '=', partnerId)
    .where('path', 'like', `%${marker}%`)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ path: r.path, detail: r.request_headers !== null }));
}

describe("the request log's allowance for headers and bodies", () => {
  let ctx: TestContext;
  let busy: TestPartner;
  let quiet: TestPartner;

  beforeEach(async () => {
    ctx = await createTestContext();
    busy = await partnerWithToken(ctx);
    quiet = await partnerWithToken(ctx);
  });
  afterEach(() => ctx.close());

  /**
   * Spends `p`'s allowance: 8 KB bodies until the log keeps one of its calls without headers and bodies, then calls
   * without a body (the least a call counts) until one of those loses them too. The clock stands still meanwhile.
   */
  async function spendAllowance(p: TestPartner): Promise<number> {
    const body = JSON.stringify({ username: 'u'.repeat(9_000) });
    let sent = 0;
    for (const large of [true, false]) {
      const before = ctx.app.requestLog.detailsDropped;
      // 4 MB at once, about 9 KB a large call.
      while (ctx.app.requestLog.detailsDropped === before && sent < 2_000) {
        const url = `/aggregation/v2/customers/testing?spend=${sent++}`;
        const res = large
          ? await ctx.app.inject({ method: 'POST', url, headers: { ...p.headers, 'content-type': 'application/json' }, payload: body })
          : await ctx.app.inject({ method: 'GET', url, headers: p.headers });
        expect(res.statusCode).toBe(large ? 400 : 404);
      }
    }
    return sent;
  }

  it("is per partner: one partner's traffic spends only its own, and another's calls keep theirs", async () => {
    const sent = await spendAllowance(busy);
    expect(sent).toBeGreaterThan(300);
    expect(sent).toBeLessThan(2_000);
    const spent = await logged(ctx, busy.partnerId, 'spend=');
    expect(spent).toHaveLength(sent);
    expect(spent.at(-1)!.detail).toBe(false);
    expect(spent.filter((r) => r.detail)).toHaveLength(sent - 2);

    for (const p of [quiet, busy]) {
      await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me?after=spent', headers: p.headers });
      await ctx.app.inject({
        method: 'POST',
        url: '/aggregation/v2/partners/authentication?after=spent',
        headers: { 'service-app-key': p.appKey, 'content-type': 'application/json' },
        payload: JSON.stringify({ partnerId: p.partnerId, partnerSecret: 'Wrong-secret-0' }),
      });
    }
    expect(await logged(ctx, quiet.partnerId, 'after=spent')).toEqual([
      { path: '/aggregation/v1/partners/me?after=spent', detail: true },
      { path: '/aggregation/v2/partners/authentication?after=spent', detail: true },
    ]);
    expect(await logged(ctx, busy.partnerId, 'after=spent')).toEqual([
      { path: '/aggregation/v1/partners/me?after=spent', detail: false },
      { path: '/aggregation/v2/partners/authentication?after=spent', detail: false },
    ]);
    // It comes back with time: a second later, 1 MB of it.
    ctx.clock.advance(1_000);
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me?after=second', headers: busy.headers });
    expect(await logged(ctx, busy.partnerId, 'after=second')).toEqual([{ path: '/aggregation/v1/partners/me?after=second', detail: true }]);
  });

  it('is asked before any header or body is redacted: not at all for a call that is nobody’s, or whose partner spent it', async () => {
    await spendAllowance(busy);
    made.headers = 0;
    made.json = 0;
    const calls = [
      // An app key nobody holds, with a body: logged for no partner.
      { method: 'POST', url: '/aggregation/v2/partners/authentication?who=nobody', headers: { 'service-app-key': 'f'.repeat(32) } },
      // The busy partner's app key with a refused token, a failed authentication, a path no route has, a valid call.
      { method: 'POST', url: '/aggregation/v2/customers/testing?who=busy', headers: { ...busy.headers, 'service-app-token': 'not-a-token' } },
      { method: 'POST', url: '/aggregation/v2/partners/authentication?who=busy', headers: { 'service-app-key': busy.appKey } },
      { method: 'POST', url: '/aggregation/v9/nothing?who=busy', headers: busy.headers },
      { method: 'POST', url: '/aggregation/v2/customers/testing?who=busy', headers: busy.headers },
    ] as const;
    for (const call of calls) {
      const res = await ctx.app.inject({ ...call, payload: { partnerId: busy.partnerId, partnerSecret: 'Wrong-secret-1', username: 'x' } });
      expect(res.statusCode, call.url).toBeGreaterThanOrEqual(200);
    }
    expect(await logged(ctx, busy.partnerId, 'who=busy')).toHaveLength(4);
    expect((await logged(ctx, busy.partnerId, 'who=busy')).every((r) => !r.detail)).toBe(true);
    expect(made).toEqual({ headers: 0, json: 0 });

    // The same calls of a partner with allowance left are redacted and kept.
    await ctx.app.inject({ method: 'POST', url: '/aggregation/v2/customers/testing?who=quiet', headers: quiet.headers, payload: { username: 'q' } });
    expect(await logged(ctx, quiet.partnerId, 'who=quiet')).toEqual([{ path: '/aggregation/v2/customers/testing?who=quiet', detail: true }]);
    expect(made).toEqual({ headers: 2, json: 1 });
  });
});
