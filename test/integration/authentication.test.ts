import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { rotateAppKey, unlockPartner } from '../../src/modules/partners/service.js';
import { createTestContext, type TestContext } from '../helpers/context.js';

const AUTH = '/aggregation/v2/partners/authentication';
const ME = '/aggregation/v1/partners/me';

describe('partner authentication', () => {
  let ctx: TestContext;
  let creds: PartnerCredentials;

  beforeEach(async () => {
    ctx = await createTestContext();
    creds = await createPartner(ctx.runtime, { name: 'Acme' });
  });
  afterEach(() => ctx.close());

  const authenticate = (secret = creds.partnerSecret, appKey = creds.appKey, partnerId = creds.partnerId) =>
    ctx.app.inject({ method: 'POST', url: AUTH, headers: { 'service-app-key': appKey }, payload: { partnerId, partnerSecret: secret } });

  it('answers 200 with a token for the right credentials', async () => {
    const res = await authenticate();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().token).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('stores neither the secret nor the token in clear', async () => {
    const { token } = (await authenticate()).json();
    const partner = await ctx.runtime.database.kysely.selectFrom('partners').selectAll().executeTakeFirstOrThrow();
    const tokens = await ctx.runtime.database.kysely.selectFrom('partner_tokens').selectAll().execute();
    const stored = JSON.stringify([partner, tokens]);
    expect(stored).not.toContain(creds.partnerSecret);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(creds.appKey);
    expect(partner.secret_hash).toMatch(/^scrypt\$/);
  });

  it('lets several tokens be active at once', async () => {
    const a = (await authenticate()).json().token;
    const b = (await authenticate()).json().token;
    expect(a).not.toBe(b);
    for (const token of [a, b]) {
      const res = await ctx.app.inject({ method: 'GET', url: ME, headers: { 'service-app-key': creds.appKey, 'service-app-token': token } });
      expect(res.statusCode).toBe(200);
    }
  });

  it('refuses a wrong secret with 401 code 10001', async () => {
    const res = await authenticate('wrong-secret-123');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: '10001' });
  });

  it('refuses an unknown app key with 401 code 10020 and a missing one with 10026', async () => {
    expect((await authenticate(undefined, 'f'.repeat(32))).json()).toMatchObject({ code: '10020' });
    const res = await ctx.app.inject({ method: 'POST', url: AUTH, payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: '10026' });
  });

  it('locks the partner after five consecutive failures, refuses even the right secret, and unlocks', async () => {
    for (let i = 0; i < 5; i++) expect((await authenticate('wrong-secret-123')).json().code).toBe('10001');
    const locked = await authenticate();
    expect(locked.statusCode).toBe(401);
    expect(locked.json().code).toBe('10027');
    await unlockPartner(ctx.runtime, creds.partnerId);
    expect((await authenticate()).statusCode).toBe(200);
  });

  it('refuses the right secret of a locked partner even after it authenticated with it before (a remembered secret does not bypass the lock)', async () => {
    expect((await authenticate()).statusCode).toBe(200);
    expect((await authenticate()).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await authenticate('wrong-secret-123')).json().code).toBe('10001');
    expect((await authenticate()).json().code).toBe('10027');
    // And a right secret presented with another partner id still counts as a failure.
    await unlockPartner(ctx.runtime, creds.partnerId);
    expect((await authenticate(undefined, undefined, '9999999999999')).json().code).toBe('10001');
    const row = await ctx.runtime.database.kysely.selectFrom('partners').select('failed_auth_count').executeTakeFirstOrThrow();
    expect(row.failed_auth_count).toBe(1);
  });

  it('resets the failure count on success', async () => {
    for (let i = 0; i < 4; i++) await authenticate('wrong-secret-123');
    expect((await authenticate()).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await authenticate('wrong-secret-123');
    expect((await authenticate()).statusCode).toBe(200);
  });

  it('counts a right secret for another partner id as a failure', async () => {
    const res = await authenticate(undefined, undefined, '9999999999999');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('10001');
    const row = await ctx.runtime.database.kysely.selectFrom('partners').select('failed_auth_count').executeTakeFirstOrThrow();
    expect(row.failed_auth_count).toBe(1);
  });

  it('expires tokens after two hours with 401 code 10023', async () => {
    const { token } = (await authenticate()).json();
    const call = () => ctx.app.inject({ method: 'GET', url: ME, headers: { 'service-app-key': creds.appKey, 'service-app-token': token } });
    ctx.clock.advance(2 * 3600 * 1000 - 1000);
    expect((await call()).json().code).not.toBe('10023');
    ctx.clock.advance(1000);
    const res = await call();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: '10023', message: 'Expired (Service-App-Token)' });
  });

  it('requires both headers and a token of the same partner on protected routes', async () => {
    const { token } = (await authenticate()).json();
    const other = await createPartner(ctx.runtime, { name: 'Other' });
    const call = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: ME, headers });
    expect((await call({ 'service-app-token': token })).json().code).toBe('10026');
    expect((await call({ 'service-app-key': creds.appKey })).json().code).toBe('10024');
    expect((await call({ 'service-app-key': creds.appKey, 'service-app-token': 'nope' })).json().code).toBe('10022');
    const mixed = await call({ 'service-app-key': other.appKey, 'service-app-token': token });
    expect(mixed.statusCode).toBe(401);
    expect(mixed.json().code).toBe('10021');
  });

  it('stops accepting the old app key at once after rotation, and keeps tokens valid with the new key', async () => {
    const { token } = (await authenticate()).json();
    const newKey = await rotateAppKey(ctx.runtime, creds.partnerId);
    const old = await ctx.app.inject({ method: 'GET', url: ME, headers: { 'service-app-key': creds.appKey, 'service-app-token': token } });
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('10020');
    expect((await authenticate(undefined, creds.appKey)).json().code).toBe('10020');
    expect((await authenticate(undefined, newKey)).statusCode).toBe(200);
    const withNew = await ctx.app.inject({ method: 'GET', url: ME, headers: { 'service-app-key': newKey, 'service-app-token': token } });
    expect(withNew.statusCode).toBe(200);
  });

  describe('modify partner secret', () => {
    const modify = (body: Record<string, unknown>, appKey = creds.appKey) =>
      ctx.app.inject({ method: 'PUT', url: AUTH, headers: { 'service-app-key': appKey }, payload: body });

    it('changes the secret (204): the new one works, the old one fails', async () => {
      const res = await modify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret, newPartnerSecret: 'Brand-New-Secret-42' });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await authenticate()).statusCode).toBe(401);
      expect((await authenticate('Brand-New-Secret-42')).statusCode).toBe(200);
    });

    it.each([
      ['too short', 'Short1!abc'],
      ['no digit', 'OnlyLettersHere!'],
      ['no letter', '1234567890123'],
      ['a space', 'Has Space 12345'],
      ['non-ASCII', 'Sécret12345678'],
      ['256 characters', 'a1'.repeat(128)],
    ])('refuses a new secret with %s (400 code 24437)', async (_why, newPartnerSecret) => {
      const res = await modify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret, newPartnerSecret });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('24437');
      expect((await authenticate()).statusCode).toBe(200);
    });

    it('accepts the longest and all allowed special characters', async () => {
      const secret = '!@#$%&*_-+aZ9'.padEnd(255, 'x');
      expect((await modify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret, newPartnerSecret: secret })).statusCode).toBe(204);
      expect((await authenticate(secret)).statusCode).toBe(200);
    });

    it('refuses the same secret again', async () => {
      const res = await modify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret, newPartnerSecret: creds.partnerSecret });
      expect(res.json().code).toBe('24437');
    });

    it('counts a wrong current secret as a failed authentication', async () => {
      const res = await modify({ partnerId: creds.partnerId, partnerSecret: 'wrong-secret-123', newPartnerSecret: 'Brand-New-Secret-42' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('10001');
    });

    it('names a missing field (400 code 10005)', async () => {
      const res = await modify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: '10005', message: 'Missing parameter (newPartnerSecret)' });
    });
  });
});

describe('alternative header names', () => {
  let ctx: TestContext;
  afterEach(() => ctx.close());

  it('accepts configured brand-named headers in place of Service-App-Key and Service-App-Token', async () => {
    ctx = await createTestContext({ LEDGERLINK_APP_KEY_HEADERS: 'Acme-App-Key', LEDGERLINK_APP_TOKEN_HEADERS: 'Acme-App-Token' });
    const creds = await createPartner(ctx.runtime, { name: 'Acme' });
    const auth = await ctx.app.inject({
      method: 'POST',
      url: AUTH,
      headers: { 'acme-app-key': creds.appKey },
      payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret },
    });
    expect(auth.statusCode).toBe(200);
    const me = await ctx.app.inject({ method: 'GET', url: ME, headers: { 'acme-app-key': creds.appKey, 'acme-app-token': auth.json().token } });
    expect(me.statusCode).toBe(200);
    expect(me.json().partnerId).toBe(creds.partnerId);
  });

  it('ignores brand-named headers unless configured', async () => {
    ctx = await createTestContext();
    const creds = await createPartner(ctx.runtime, { name: 'Acme' });
    const auth = await ctx.app.inject({
      method: 'POST',
      url: AUTH,
      headers: { 'acme-app-key': creds.appKey },
      payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret },
    });
    expect(auth.statusCode).toBe(401);
    expect(auth.json().code).toBe('10026');
  });
});
