import { afterEach, describe, expect, it } from 'vitest';
import { createPartner } from '../../src/modules/partners/service.js';
import { createTestContext, partnerWithToken, type TestContext } from '../helpers/context.js';

const ME = '/aggregation/v1/partners/me';
const AUTH = '/aggregation/v2/partners/authentication';

describe('transport and caller rules', () => {
  let ctx: TestContext;
  afterEach(() => ctx.close());

  /** A call as if from `ip`, through a trusted proxy on loopback that terminated TLS. */
  const viaProxy = (ip: string, headers: Record<string, string>, url = ME) =>
    ctx.app.inject({ method: 'GET', url, headers: { ...headers, 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' } });

  describe('TLS', () => {
    it('refuses plain HTTP from a non-loopback address with 403 code 10050', async () => {
      ctx = await createTestContext();
      const p = await partnerWithToken(ctx);
      const res = await ctx.app.inject({ method: 'GET', url: ME, headers: p.headers, remoteAddress: '8.8.8.8' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('10050');
    });

    it('ignores X-Forwarded-Proto from a proxy that is not trusted', async () => {
      ctx = await createTestContext();
      const p = await partnerWithToken(ctx);
      const res = await ctx.app.inject({
        method: 'GET',
        url: ME,
        headers: { ...p.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': '8.8.8.8' },
        remoteAddress: '8.8.4.4',
      });
      expect(res.json().code).toBe('10050');
    });

    it('accepts requests a trusted proxy says arrived over TLS, and sends HSTS', async () => {
      ctx = await createTestContext({ LEDGERLINK_TRUST_PROXY: '127.0.0.1' });
      const p = await partnerWithToken(ctx);
      const res = await viaProxy('8.8.8.8', p.headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    });

    it('accepts plain HTTP from loopback without HSTS', async () => {
      ctx = await createTestContext();
      const p = await partnerWithToken(ctx);
      const res = await ctx.app.inject({ method: 'GET', url: ME, headers: p.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it('sends HSTS over TLS from every scope, the health check included, and never over plain HTTP', async () => {
      ctx = await createTestContext({ LEDGERLINK_TRUST_PROXY: '127.0.0.1' });
      const p = await partnerWithToken(ctx);
      for (const url of [ME, '/health', '/openapi.json', '/connect', '/dashboard']) {
        const tls = await viaProxy('8.8.8.8', p.headers, url);
        expect(tls.statusCode, url).toBeLessThan(500);
        expect(tls.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
        const plain = await ctx.app.inject({ method: 'GET', url, headers: p.headers });
        expect(plain.headers['strict-transport-security'], url).toBeUndefined();
      }
    });

    it('accepts plain HTTP from anywhere with LEDGERLINK_INSECURE_HTTP', async () => {
      ctx = await createTestContext({ LEDGERLINK_INSECURE_HTTP: '1' });
      const p = await partnerWithToken(ctx);
      expect((await ctx.app.inject({ method: 'GET', url: ME, headers: p.headers, remoteAddress: '8.8.8.8' })).statusCode).toBe(200);
    });
  });

  describe('permitted regions', () => {
    it.each([
      ['8.8.8.8', 'US'],
      ['24.48.0.1', 'CA'],
      ['81.2.69.160', 'GB'],
      ['10.1.2.3', 'private'],
      ['192.168.1.20', 'private'],
    ])('allows %s (%s)', async (ip) => {
      ctx = await createTestContext({ LEDGERLINK_TRUST_PROXY: '127.0.0.1' });
      const p = await partnerWithToken(ctx);
      expect((await viaProxy(ip, p.headers)).statusCode).toBe(200);
    });

    it.each([
      ['193.0.6.139', 'NL'],
      ['202.12.27.33', 'JP'],
    ])('refuses %s (%s) with 403 code 10051 naming the country', async (ip, country) => {
      ctx = await createTestContext({ LEDGERLINK_TRUST_PROXY: '127.0.0.1' });
      const p = await partnerWithToken(ctx);
      const res = await viaProxy(ip, p.headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('10051');
      expect(res.json().message).toContain(`country ${country}`);
      expect(res.json().message).toContain('US, CA, GB');
    });

    it('refuses addresses it cannot locate', async () => {
      ctx = await createTestContext({ LEDGERLINK_TRUST_PROXY: '127.0.0.1' });
      const p = await partnerWithToken(ctx);
      const res = await viaProxy('240.0.0.1', p.headers);
      expect(res.json()).toMatchObject({ code: '10051' });
      expect(res.json().message).toContain('unknown location');
    });

    it('follows the configured list, and * turns the check off', async () => {
      ctx = await createTestContext({ LEDGERLINK_TRUST_PROXY: '127.0.0.1', LEDGERLINK_ALLOWED_COUNTRIES: 'NL' });
      const p = await partnerWithToken(ctx);
      expect((await viaProxy('193.0.6.139', p.headers)).statusCode).toBe(200);
      expect((await viaProxy('8.8.8.8', p.headers)).json().code).toBe('10051');
      await ctx.close();
      ctx = await createTestContext({ LEDGERLINK_TRUST_PROXY: '127.0.0.1', LEDGERLINK_ALLOWED_COUNTRIES: '*' });
      const q = await partnerWithToken(ctx);
      expect((await viaProxy('202.12.27.33', q.headers)).statusCode).toBe(200);
    });

    it('answers the health check from anywhere', async () => {
      ctx = await createTestContext({ LEDGERLINK_TRUST_PROXY: '127.0.0.1' });
      expect((await viaProxy('202.12.27.33', {}, '/health')).statusCode).toBe(200);
      expect((await ctx.app.inject({ url: '/health', remoteAddress: '202.12.27.33' })).statusCode).toBe(200);
    });
  });

  describe('authentication rate limits', () => {
    const attempt = (appKey: string, ip: string, partnerId = '1', partnerSecret = 'x') =>
      ctx.app.inject({
        method: 'POST',
        url: AUTH,
        headers: { 'service-app-key': appKey, 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' },
        payload: { partnerId, partnerSecret },
      });

    it('limits attempts per IP with 429, code 10429 and Retry-After, and lets them through again later', async () => {
      ctx = await createTestContext({
        LEDGERLINK_TRUST_PROXY: '127.0.0.1',
        LEDGERLINK_AUTH_RATE_LIMIT_PER_IP: '3',
        LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY: '100',
      });
      for (let i = 0; i < 3; i++) expect((await attempt(`key${i}`, '8.8.8.8')).statusCode).toBe(401);
      const limited = await attempt('key9', '8.8.8.8');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('10429');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(120);
      expect((await attempt('key9', '8.8.4.4')).statusCode).toBe(401);
      ctx.clock.advance(retryAfter * 1000);
      expect((await attempt('key9', '8.8.8.8')).statusCode).toBe(401);
    });

    it('limits attempts per app key across addresses, without locking the partner by itself', async () => {
      ctx = await createTestContext({
        LEDGERLINK_TRUST_PROXY: '127.0.0.1',
        LEDGERLINK_AUTH_RATE_LIMIT_PER_IP: '100',
        LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY: '2',
      });
      const creds = await createPartner(ctx.runtime, { name: 'Acme' });
      expect((await attempt(creds.appKey, '8.8.8.8', creds.partnerId, creds.partnerSecret)).statusCode).toBe(200);
      expect((await attempt(creds.appKey, '8.8.4.4', creds.partnerId, creds.partnerSecret)).statusCode).toBe(200);
      expect((await attempt(creds.appKey, '24.48.0.1', creds.partnerId, creds.partnerSecret)).statusCode).toBe(429);
      ctx.clock.advance(120_000);
      expect((await attempt(creds.appKey, '24.48.0.1', creds.partnerId, creds.partnerSecret)).statusCode).toBe(200);
    });

    it('limits attempts per app key whichever header carries it, a LEDGERLINK_APP_KEY_HEADERS alias included', async () => {
      ctx = await createTestContext({
        LEDGERLINK_TRUST_PROXY: '127.0.0.1',
        LEDGERLINK_AUTH_RATE_LIMIT_PER_IP: '100',
        LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY: '3',
        LEDGERLINK_APP_KEY_HEADERS: 'x-api-key,x-app-key',
      });
      const creds = await createPartner(ctx.runtime, { name: 'Acme' });
      const viaHeader = (header: string, value: string, ip: string) =>
        ctx.app.inject({
          method: 'POST',
          url: AUTH,
          headers: { [header]: value, 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' },
          payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret },
        });
      expect((await viaHeader('x-api-key', creds.appKey, '8.8.8.8')).statusCode).toBe(200);
      expect((await viaHeader('x-app-key', `  ${creds.appKey} `, '8.8.4.4')).statusCode).toBe(200);
      expect((await viaHeader('service-app-key', creds.appKey, '24.48.0.1')).statusCode).toBe(200);
      for (const header of ['x-api-key', 'x-app-key', 'service-app-key']) {
        const limited = await viaHeader(header, creds.appKey, '24.48.0.2');
        expect([limited.statusCode, limited.json().code], header).toEqual([429, '10429']);
      }
    });

    it('does not limit other API calls', async () => {
      ctx = await createTestContext({ LEDGERLINK_AUTH_RATE_LIMIT_PER_IP: '1' });
      const p = await partnerWithToken(ctx);
      for (let i = 0; i < 5; i++) expect((await ctx.app.inject({ method: 'GET', url: ME, headers: p.headers })).statusCode).toBe(200);
    });
  });
});
