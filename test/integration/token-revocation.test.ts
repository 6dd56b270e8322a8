import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/main/app.js';
import { loadConfig } from '../../src/main/config.js';
import type { Database } from '../../src/platform/db/database.js';
import { rotateAppKey } from '../../src/modules/partners/service.js';
import { revokePartnerTokens } from '../../src/modules/partners/tokens.service.js';
import { ManualClock } from '../../src/platform/clock.js';
import { keysFrom } from '../../src/platform/keys.js';
import type { Runtime } from '../../src/main/runtime.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { dashboardSignIn } from '../helpers/dashboard.js';
import { createTestDatabase, openSameData, testDialect } from '../helpers/db.js';

// Security review (issue 17, item 15): tokens could not be revoked.
const AUTH = '/aggregation/v2/partners/authentication';
const ME = '/aggregation/v1/partners/me';

/** A second token of the same partner, from its credentials. */
async function anotherToken(ctx: TestContext, p: TestPartner): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: AUTH,
    headers: { 'service-app-key': p.appKey },
    payload: { partnerId: p.partnerId, partnerSecret: p.partnerSecret },
  });
  return res.json<{ token: string }>().token;
}

const me = (ctx: TestContext, p: TestPartner, token = p.token, appKey = p.appKey) =>
  ctx.app.inject({ method: 'GET', url: ME, headers: { 'service-app-key': appKey, 'service-app-token': token, accept: 'application/json' } });

const revoke = (ctx: TestContext, p: TestPartner, partnerId = p.partnerId, headers: Record<string, string> = p.headers) =>
  ctx.app.inject({ method: 'DELETE', url: AUTH, headers, payload: { partnerId } });

describe("revoking a partner's tokens", () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext();
  });
  afterEach(() => ctx.close());

  it('DELETE on the authentication path answers 204, and every token of the partner, the one used included, gets 10022 on the next request', async () => {
    const p = await partnerWithToken(ctx);
    const second = await anotherToken(ctx, p);
    expect((await me(ctx, p)).statusCode).toBe(200);
    expect((await me(ctx, p, second)).statusCode).toBe(200);
    const res = await revoke(ctx, p);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    for (const token of [p.token, second]) {
      const refused = await me(ctx, p, token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('10022');
    }
    // The partner authenticates again, as a client does on 10022.
    expect((await me(ctx, p, await anotherToken(ctx, p))).statusCode).toBe(200);
  });

  it('takes an XML body too', async () => {
    const p = await partnerWithToken(ctx);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: AUTH,
      headers: { ...p.headers, 'content-type': 'application/xml', accept: 'application/xml' },
      payload: `<credentials><partnerId>${p.partnerId}</partnerId></credentials>`,
    });
    expect(res.statusCode).toBe(204);
    expect((await me(ctx, p)).json().code).toBe('10022');
  });

  it("leaves other partners' tokens alone, and refuses a body naming another partner, changing nothing", async () => {
    const a = await partnerWithToken(ctx);
    const b = await partnerWithToken(ctx);
    const wrong = await revoke(ctx, a, b.partnerId);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('10010');
    const missing = await ctx.app.inject({ method: 'DELETE', url: AUTH, headers: a.headers, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect((await me(ctx, a)).statusCode).toBe(200);
    expect((await me(ctx, b)).statusCode).toBe(200);
    expect((await revoke(ctx, a)).statusCode).toBe(204);
    expect((await me(ctx, a)).statusCode).toBe(401);
    expect((await me(ctx, b)).statusCode).toBe(200);
  });

  it('needs the app key and a live token of the same partner', async () => {
    const a = await partnerWithToken(ctx);
    const b = await partnerWithToken(ctx);
    const noToken = await revoke(ctx, a, a.partnerId, { 'service-app-key': a.appKey, accept: 'application/json' });
    expect([noToken.statusCode, noToken.json().code]).toEqual([401, '10024']);
    const mixed = await revoke(ctx, a, a.partnerId, { ...a.headers, 'service-app-token': b.token });
    expect([mixed.statusCode, mixed.json().code]).toEqual([401, '10021']);
    expect((await me(ctx, a)).statusCode).toBe(200);
    expect((await me(ctx, b)).statusCode).toBe(200);
  });

  it('is not done by a secret change or a key rotation: tokens issued before both keep working', async () => {
    const p = await partnerWithToken(ctx);
    const newSecret = 'Changed-Secret-2026-x';
    const changed = await ctx.app.inject({
      method: 'PUT',
      url: AUTH,
      headers: { 'service-app-key': p.appKey },
      payload: { partnerId: p.partnerId, partnerSecret: p.partnerSecret, newPartnerSecret: newSecret },
    });
    expect(changed.statusCode).toBe(204);
    expect((await me(ctx, p)).statusCode).toBe(200);
    const appKey = await rotateAppKey(ctx.runtime, p.partnerId);
    expect((await me(ctx, p, p.token, appKey)).statusCode).toBe(200);
  });

  it("the dashboard's button revokes every token with the CSRF token, and is refused without it", async () => {
    const p = await partnerWithToken(ctx);
    const second = await anotherToken(ctx, p);
    const browser = await dashboardSignIn(ctx, p.partnerId, p.partnerSecret);
    const noCsrf = await browser.call('POST', '/dashboard/api/tokens/revoke', undefined, { 'x-csrf-token': '' });
    expect([noCsrf.statusCode, noCsrf.json().code]).toEqual([403, '14102']);
    const crossSite = await browser.call('POST', '/dashboard/api/tokens/revoke', undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect((await me(ctx, p)).statusCode).toBe(200);
    const res = await browser.call('POST', '/dashboard/api/tokens/revoke');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    for (const token of [p.token, second]) expect((await me(ctx, p, token)).json().code).toBe('10022');
    // The session is not a token: the dashboard stays signed in.
    expect((await browser.call('GET', '/dashboard/api/session')).statusCode).toBe(200);
  });

  it('counts only tokens that still worked, and answers 14001 for an unknown partner', async () => {
    const p = await partnerWithToken(ctx);
    ctx.clock.advance(3 * 3600 * 1000);
    const fresh = await anotherToken(ctx, p);
    expect(await revokePartnerTokens(ctx.runtime, p.partnerId)).toEqual({ revoked: 1 });
    expect((await me(ctx, p, fresh)).json().code).toBe('10022');
    expect(await revokePartnerTokens(ctx.runtime, p.partnerId)).toEqual({ revoked: 0 });
    await expect(revokePartnerTokens(ctx.runtime, '9999999999999')).rejects.toMatchObject({ code: '14001' });
  });
});

/**
 * A revocation committed by another connection (another process, the CLI) is seen by a running app on its very next
 * request (on PostgreSQL, the next after its NOTIFY arrived), though the app keeps the callers it has seen in memory:
 * as for a key rotation.
 */
describe('a revocation through another connection', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let runtime: Runtime;
  let other: Database;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const test = await createTestDatabase(testDialect(), { onFile: true });
    other = openSameData(test, 1);
    cleanup = () => test.drop();
    runtime = { config: loadConfig({ LEDGERLINK_DATA_DIR: os.tmpdir() }), database: test.database, clock: new ManualClock(), keys: keysFrom(randomBytes(32)) };
    app = await buildApp(runtime, { logger: false });
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
    await other.close();
    await cleanup();
  });

  it('refuses the revoked token on the very next request of a running app', async () => {
    const ctx = { app, runtime } as unknown as TestContext;
    const p = await partnerWithToken(ctx);
    // The caller is now remembered by this process.
    expect((await me(ctx, p)).statusCode).toBe(200);
    expect((await me(ctx, p)).statusCode).toBe(200);
    expect(await revokePartnerTokens({ ...runtime, database: other }, p.partnerId)).toEqual({ revoked: 1 });
    // PostgreSQL: the app hears of another process's commit by NOTIFY; SQLite: at once.
    await runtime.database.changesSettled();
    const refused = await me(ctx, p);
    expect([refused.statusCode, refused.json().code]).toEqual([401, '10022']);
  });
});
