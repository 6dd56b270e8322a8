import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRequestLog } from '../../src/modules/requestlog/service.js';
import { redactedLogger } from '../../src/platform/logger.js';
import { linkFor, pathOf } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { basicAuth, claim, mintToken, readAccess } from '../helpers/simplefin-server.js';

// Security review (issue 17, item 11): Connect links, signature included, were logged in full at info level.
describe('secrets in query strings', () => {
  let ctx: TestContext;
  let logs: string;
  beforeEach(async () => {
    logs = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs += String(chunk);
        done();
      },
    });
    ctx = await createTestContext({ LEDGERLINK_PUBLIC_URL: 'https://ledgerlink.example.org' }, { logger: redactedLogger('info', sink) });
  });
  afterEach(() => ctx.close());

  it('never reach the server log: a Connect link opened, an unknown URL and an OAuth callback are logged with [redacted] values', async () => {
    const partner = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId });
    const signature = new URL(link).searchParams.get('signature')!;
    expect(signature.length).toBeGreaterThan(16);
    expect((await ctx.app.inject({ method: 'GET', url: pathOf(link) })).statusCode).toBe(200);
    await ctx.app.inject({ method: 'GET', url: `/no/such/page?Signature=${signature}&access_token=tok-0123456789` });
    await ctx.app.inject({ method: 'GET', url: '/connect/oauth/callback?state=state-0123456789&code=code-0123456789' });
    await ctx.app.inject({ method: 'GET', url: `/connect?%73ignature=${signature}x` });
    expect(logs).toContain('request completed');
    for (const secret of [signature, 'tok-0123456789', 'state-0123456789', 'code-0123456789']) expect(logs).not.toContain(secret);
    expect(logs).toContain(`customerId=${customerId}`);
    expect(logs).toContain('signature=[redacted]');
    expect(logs).toContain('Signature=[redacted]');
    expect(logs).toContain('%73ignature=[redacted]');
    for (const line of logs.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("never show a SimpleFIN claim token or an access's credentials in the server log", async () => {
    const partner = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, partner);
    const token = await mintToken(ctx, partner, customerId);
    const secret = token.claimUrl.split('/').pop()!;
    const accessUrl = (await claim(ctx, token.claimUrl)).body;
    expect((await readAccess(ctx, accessUrl, 'accounts')).statusCode).toBe(200);
    const { username, password } = new URL(accessUrl);
    for (const s of [secret, token.setupToken, username, password, basicAuth(accessUrl).slice(6)]) expect(logs).not.toContain(s);
    expect(logs).toContain('/simplefin/claim/[redacted]');
    expect(logs).toContain('/simplefin/accounts');
  });

  it('writes one line per request at info, with method, path, status and time, for answered and refused requests alike', async () => {
    const ok = await ctx.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'one-line-ok' } });
    const missing = await ctx.app.inject({ method: 'GET', url: '/no/such/page', headers: { 'x-request-id': 'one-line-404' } });
    expect([ok.statusCode, missing.statusCode]).toEqual([200, 404]);
    const lines = logs
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { reqId?: string; msg: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number });
    for (const [id, url, status] of [
      ['one-line-ok', '/health', 200],
      ['one-line-404', '/no/such/page', 404],
    ] as const) {
      const mine = lines.filter((l) => l.reqId === id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url }, res: { statusCode: status }, responseTime: expect.any(Number) });
    }
  });

  it('are redacted in the request log the dashboard and logs tail show, other parameters kept', async () => {
    const partner = await partnerWithToken(ctx);
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/customers?search=ada&token=tok-9876543210&start=1', headers: partner.headers });
    await ctx.app.requestLog.flush();
    const paths = (await listRequestLog(ctx.runtime.database.kysely, { partnerId: partner.partnerId })).map((r) => r.path);
    expect(paths).toContain('/aggregation/v1/customers?search=ada&token=[redacted]&start=1');
    expect(JSON.stringify(paths)).not.toContain('tok-9876543210');
  });
});
