import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCatalogue } from '../../src/contract/errors/catalogue.js';
import { hostileQuery, hostileString, invalidBody } from '../helpers/fuzz.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { linkProfile, refresh } from '../helpers/aggregation.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { appOk, generate, linkFor } from '../helpers/connect.js';
import { dashboardClient, dashboardSignIn, SAME_ORIGIN, sessionCookie, type DashboardBrowser } from '../helpers/dashboard.js';

const SECRET = 'Chosen-secret-2026';

/** Authenticates through the partner API; answers the status and error code. */
async function apiAuthenticate(ctx: TestContext, appKey: string, partnerId: string, partnerSecret: string): Promise<{ status: number; code?: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/aggregation/v2/partners/authentication',
    headers: { 'service-app-key': appKey, accept: 'application/json' },
    payload: { partnerId, partnerSecret },
  });
  return { status: res.statusCode, code: res.json().code };
}

async function signUp(ctx: TestContext, name = 'Acme Lending', partnerSecret = SECRET, headers: Record<string, string> = SAME_ORIGIN) {
  return ctx.app.inject({ method: 'POST', url: '/dashboard/api/signup', headers, payload: { name, partnerSecret } });
}

async function partnerCount(ctx: TestContext): Promise<number> {
  const row = await ctx.runtime.database.kysely
    .selectFrom('partners')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('dashboard sign-up, sign-in and sessions', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx?.close());

  it('signs up a Test Drive partner with the chosen secret, usable with the API at once, and sets a strict session cookie', async () => {
    const res = await signUp(ctx);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.partner).toMatchObject({ name: 'Acme Lending', plan: 'testdrive', lockedAt: null });
    expect(body.partner.partnerId).toMatch(/^\d{13}$/);
    expect(body.appKey).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(body)).not.toContain(SECRET);
    const cookie = [res.headers['set-cookie']].flat()[0]!;
    expect(cookie).toMatch(/^ledgerlink_dashboard=[A-Za-z0-9_-]{43}; /);
    const attributes = cookie.split('; ').slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['Path=/dashboard', 'HttpOnly', 'SameSite=Strict', 'Max-Age=28800']));
    expect(attributes).not.toContain('Secure');
    // The session id is stored only hashed.
    const rows = await ctx.runtime.database.kysely.selectFrom('dashboard_sessions').selectAll().where('partner_id', '=', body.partner.partnerId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id_hash).not.toBe(sessionCookie(res));
    expect(rows[0]!.id_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await apiAuthenticate(ctx, body.appKey, body.partner.partnerId, SECRET)).toEqual({ status: 200, code: undefined });
    const session = await dashboardClient(ctx, sessionCookie(res)!, body.csrfToken).call('GET', '/dashboard/api/session');
    expect(session.statusCode).toBe(200);
    expect(session.json().partner.partnerId).toBe(body.partner.partnerId);
    expect(session.headers['cache-control']).toBe('no-store');
  });

  it('refuses a sign-up secret that breaks the secret policy, a blank name, and cross-site sign-ups, creating nobody', async () => {
    const before = await partnerCount(ctx);
    const weak = await signUp(ctx, 'Weak', 'short1');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('24437');
    expect(weak.json().message).toMatch(/12 to 255 characters/);
    expect((await signUp(ctx, 'No digits', 'onlyletterssecret')).json().code).toBe('24437');
    const blank = await signUp(ctx, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().code).toBe('10005');
    const crossSite = await signUp(ctx, 'Evil', SECRET, { origin: 'https://evil.example', accept: 'application/json' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().code).toBe('14103');
    expect(sessionCookie(crossSite)).toBeUndefined();
    expect(await partnerCount(ctx)).toBe(before);
  });

  it('marks the cookie Secure when the dashboard is served over TLS', async () => {
    const tls = await createTestContext({ LEDGERLINK_TRUST_PROXY: 'true' });
    try {
      const res = await tls.app.inject({
        method: 'POST',
        url: '/dashboard/api/signup',
        headers: { 'x-forwarded-proto': 'https', origin: 'https://localhost:80', accept: 'application/json' },
        payload: { name: 'Tls', partnerSecret: SECRET },
      });
      expect(res.statusCode).toBe(200);
      expect([res.headers['set-cookie']].flat()[0]!.split('; ')).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/dashboard']));
    } finally {
      await tls.close();
    }
  });

  it('signs in with partner id and secret; a wrong secret or an unknown id is 401 without a cookie', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Sign-in partner' });
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/signin',
      headers: SAME_ORIGIN,
      payload: { partnerId: creds.partnerId, partnerSecret: 'Wrong-secret-1234' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('10001');
    expect(sessionCookie(wrong)).toBeUndefined();
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/signin',
      headers: SAME_ORIGIN,
      payload: { partnerId: '1234567890123', partnerSecret: creds.partnerSecret },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('10001');
    const browser = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    const session = await browser.call('GET', '/dashboard/api/session');
    expect(session.json().partner).toMatchObject({ partnerId: creds.partnerId, failedAuthentications: 0 });
  });

  it('answers 401 without a session, with a made-up cookie, and refuses cross-site sign-ins (login CSRF)', async () => {
    const none = await ctx.app.inject({ url: '/dashboard/api/session' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('14100');
    const madeUp = await ctx.app.inject({ url: '/dashboard/api/customers', headers: { cookie: `ledgerlink_dashboard=${'A'.repeat(43)}` } });
    expect(madeUp.statusCode).toBe(401);
    expect(madeUp.json().code).toBe('14100');
    const creds = await createPartner(ctx.runtime, { name: 'Login CSRF' });
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, {}]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/dashboard/api/signin',
        headers,
        payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('14103');
    }
  });

  it("refuses state changes without the CSRF token, with another session's token, or from another origin; GETs change nothing", async () => {
    const creds = await createPartner(ctx.runtime, { name: 'CSRF partner' });
    const browser = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    const other = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    expect(other.csrfToken).not.toBe(browser.csrfToken);
    const rotate = (headers: Record<string, string | undefined>) =>
      browser.call('POST', '/dashboard/api/app-key/rotate', undefined, headers as Record<string, string>);
    const refusals: [Record<string, string>, string][] = [
      [{ 'x-csrf-token': '' }, '14102'],
      [{ 'x-csrf-token': other.csrfToken }, '14102'],
      [{ 'x-csrf-token': `${browser.csrfToken.slice(0, -1)}x` }, '14102'],
      [{ origin: 'https://evil.example' }, '14103'],
      [{ origin: 'null' }, '14103'],
      [{ 'sec-fetch-site': 'same-site' }, '14103'],
    ];
    for (const [headers, code] of refusals) {
      const res = await rotate(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().code, JSON.stringify(headers)).toBe(code);
    }
    // Neither Origin nor Sec-Fetch-Site: not a same-origin browser call.
    const bare = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/app-key/rotate',
      headers: { cookie: `ledgerlink_dashboard=${browser.cookie}`, 'x-csrf-token': browser.csrfToken },
    });
    expect(bare.statusCode).toBe(403);
    expect(bare.json().code).toBe('14103');
    // Nothing changed: the original key still works.
    expect((await apiAuthenticate(ctx, creds.appKey, creds.partnerId, creds.partnerSecret)).status).toBe(200);
    // A GET from anywhere changes nothing (and shows the same key).
    const reveal = await browser.call('GET', '/dashboard/api/app-key', undefined, { origin: 'https://evil.example' });
    expect(reveal.json().appKey).toBe(creds.appKey);
    const ok = await rotate({});
    expect(ok.statusCode).toBe(200);
    expect(ok.json().appKey).not.toBe(creds.appKey);
  });

  it('rotating the app key kills the old key at once', async () => {
    const partner = await partnerWithToken(ctx);
    const browser = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
    const before = await ctx.app.inject({ url: '/aggregation/v1/customers', headers: partner.headers });
    expect(before.statusCode).toBe(200);
    const { appKey } = (await browser.call('POST', '/dashboard/api/app-key/rotate')).json();
    const old = await ctx.app.inject({ url: '/aggregation/v1/customers', headers: partner.headers });
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('10020');
    const fresh = await ctx.app.inject({ url: '/aggregation/v1/customers', headers: { ...partner.headers, 'service-app-key': appKey } });
    expect(fresh.statusCode).toBe(200);
    expect((await browser.call('GET', '/dashboard/api/app-key')).json().appKey).toBe(appKey);
  });

  it('signs out: the session is deleted server-side and the cookie cleared', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Sign-out partner' });
    const browser = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    const out = await browser.call('POST', '/dashboard/api/signout');
    expect(out.statusCode).toBe(204);
    expect([out.headers['set-cookie']].flat()[0]).toMatch(/^ledgerlink_dashboard=; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=0/);
    const after = await browser.call('GET', '/dashboard/api/session');
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('14100');
    const rows = await ctx.runtime.database.kysely.selectFrom('dashboard_sessions').select('id_hash').where('partner_id', '=', creds.partnerId).execute();
    expect(rows).toEqual([]);
  });

  it('serves the page with a strict CSP, refuses framing, and serves no file outside its assets', async () => {
    const page = await ctx.app.inject({ url: '/dashboard' });
    expect([200, 503]).toContain(page.statusCode);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'; script-src 'self';.*frame-ancestors 'none'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store');
    for (const url of ['/dashboard/assets/..%2f..%2fpackage.json', '/dashboard/assets/../index.html', '/dashboard/assets/nothing.js']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('expires a session after its lifetime and deletes it', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Expiry partner' });
    const browser = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    ctx.clock.advance((28_800 - 60) * 1000);
    expect((await browser.call('GET', '/dashboard/api/session')).statusCode).toBe(200);
    ctx.clock.advance(60 * 1000);
    const expired = await browser.call('GET', '/dashboard/api/session');
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('14101');
    expect([expired.headers['set-cookie']].flat()[0]).toMatch(/Max-Age=0/);
    expect((await browser.call('POST', '/dashboard/api/app-key/rotate')).json().code).toBe('14100');
    const left = await ctx.runtime.database.kysely.selectFrom('dashboard_sessions').select('id_hash').where('partner_id', '=', creds.partnerId).execute();
    expect(left).toEqual([]);
  });
});

describe('dashboard lock-out and secret', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx?.close());

  // Each test signs in from an address of its own, so the address throttle of one does not reach the others.
  const signIn = (partnerId: string, partnerSecret: string, remoteAddress: string) =>
    ctx.app.inject({ method: 'POST', url: '/dashboard/api/signin', headers: SAME_ORIGIN, remoteAddress, payload: { partnerId, partnerSecret } });

  it('never counts dashboard sign-in failures into the API lock-out: five of them cool the sign-in down, the API still authenticates', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Lock partner' });
    for (let i = 0; i < 3; i++) expect((await apiAuthenticate(ctx, creds.appKey, creds.partnerId, 'Wrong-secret-1234')).code).toBe('10001');
    for (let i = 0; i < 5; i++)
      expect((await signIn(creds.partnerId, 'Wrong-secret-1234', '127.0.0.7')).json()).toEqual({ code: '10001', message: 'Invalid credentials' });
    const cooling = await signIn(creds.partnerId, creds.partnerSecret, '127.0.0.7');
    expect(cooling.statusCode).toBe(429);
    expect(cooling.json().code).toBe('14105');
    expect(cooling.headers['retry-after']).toBe('60');
    expect(await apiAuthenticate(ctx, creds.appKey, creds.partnerId, creds.partnerSecret)).toEqual({ status: 200, code: undefined });
    const row = await ctx.runtime.database.kysely
      .selectFrom('partners')
      .select(['failed_auth_count', 'locked_at'])
      .where('id', '=', creds.partnerId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_auth_count: 0, locked_at: null });
  });

  it('answers a known and an unknown partner id alike, failure after failure and in the cool-down', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Known partner' });
    const answers = async (partnerId: string, address: string) => {
      const out: unknown[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await signIn(partnerId, 'Wrong-secret-1234', address);
        out.push({ status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] });
      }
      return out;
    };
    const known = await answers(creds.partnerId, '127.0.0.8');
    expect(known).toEqual(await answers('9999999999999', '127.0.0.9'));
    expect(known.slice(0, 5)).toEqual(Array(5).fill({ status: 401, body: { code: '10001', message: 'Invalid credentials' }, retryAfter: undefined }));
    expect(known[5]).toMatchObject({ status: 429, retryAfter: '60' });
  });

  it('lifts the cool-down after a minute and doubles it each time it is served again', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Cool-down partner' });
    const fiveWrong = async () => {
      for (let i = 0; i < 5; i++) expect((await signIn(creds.partnerId, 'Wrong-secret-1234', '127.0.0.10')).statusCode).toBe(401);
    };
    await fiveWrong();
    ctx.clock.advance(59_000);
    expect((await signIn(creds.partnerId, creds.partnerSecret, '127.0.0.10')).headers['retry-after']).toBe('1');
    ctx.clock.advance(1_000);
    await fiveWrong();
    expect((await signIn(creds.partnerId, creds.partnerSecret, '127.0.0.10')).headers['retry-after']).toBe('120');
    ctx.clock.advance(120_000);
    expect((await signIn(creds.partnerId, creds.partnerSecret, '127.0.0.10')).statusCode).toBe(200);
  });

  it('throttles one address that tries many partner ids after twenty failures', async () => {
    for (let i = 0; i < 20; i++) expect((await signIn(String(7000000000000 + i), 'Wrong-secret-1234', '127.0.1.50')).statusCode).toBe(401);
    const creds = await createPartner(ctx.runtime, { name: 'Address partner' });
    const refused = await signIn(creds.partnerId, creds.partnerSecret, '127.0.1.50');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('14105');
    expect((await signIn(creds.partnerId, creds.partnerSecret, '127.0.1.51')).statusCode).toBe(200);
  });

  it('a successful dashboard sign-in forgives the failures of its partner id, not of its address', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Reset partner' });
    for (let i = 0; i < 4; i++) await signIn(creds.partnerId, 'Wrong-secret-1234', '127.0.0.11');
    expect((await signIn(creds.partnerId, creds.partnerSecret, '127.0.0.11')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await signIn(creds.partnerId, 'Wrong-secret-1234', '127.0.0.11')).statusCode).toBe(401);
    expect((await signIn(creds.partnerId, creds.partnerSecret, '127.0.0.11')).statusCode).toBe(200);
    const throttle = await ctx.runtime.database.kysely
      .selectFrom('sign_in_throttle')
      .select(['key', 'failures'])
      .where('key', 'in', [`partner:${creds.partnerId}`, 'address:127.0.0.11'])
      .orderBy('key')
      .execute();
    expect(throttle).toEqual([
      { key: 'address:127.0.0.11', failures: 8 },
      { key: `partner:${creds.partnerId}`, failures: 0 },
    ]);
  });

  it('lets a partner whose API is locked sign in, to see the lock and lift it with its secret', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Locked sign-in partner' });
    for (let i = 0; i < 5; i++) await apiAuthenticate(ctx, creds.appKey, creds.partnerId, 'Wrong-secret-1234');
    const browser = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    expect((await browser.call('GET', '/dashboard/api/session')).json().partner.lockedAt).toEqual(expect.any(Number));
    expect((await browser.call('POST', '/dashboard/api/unlock', { partnerSecret: creds.partnerSecret })).statusCode).toBe(204);
    expect((await apiAuthenticate(ctx, creds.appKey, creds.partnerId, creds.partnerSecret)).status).toBe(200);
  });

  it('shows the lock state to a session opened before the lock, and unlocks only with the current secret', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Unlock partner' });
    const browser = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    expect((await browser.call('POST', '/dashboard/api/unlock', { partnerSecret: creds.partnerSecret })).json().code).toBe('14020');
    for (let i = 0; i < 5; i++) await apiAuthenticate(ctx, creds.appKey, creds.partnerId, 'Wrong-secret-1234');
    const state = (await browser.call('GET', '/dashboard/api/session')).json().partner;
    expect(state.lockedAt).toEqual(expect.any(Number));
    expect(state.failedAuthentications).toBe(5);
    const wrong = await browser.call('POST', '/dashboard/api/unlock', { partnerSecret: 'Wrong-secret-1234' });
    expect(wrong.json()).toMatchObject({ code: '10001', message: 'Invalid credentials; the partner stays locked' });
    expect((await browser.call('GET', '/dashboard/api/session')).json().partner.lockedAt).not.toBeNull();
    expect((await browser.call('POST', '/dashboard/api/unlock', { partnerSecret: creds.partnerSecret })).statusCode).toBe(204);
    expect((await browser.call('GET', '/dashboard/api/session')).json().partner).toMatchObject({ lockedAt: null, failedAuthentications: 0 });
    expect((await apiAuthenticate(ctx, creds.appKey, creds.partnerId, creds.partnerSecret)).status).toBe(200);
  });

  it('changes the secret with the current one (a wrong one counts), checks the policy, and ends the other sessions', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Secret partner' });
    const browser = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    const elsewhere = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    const wrong = await browser.call('POST', '/dashboard/api/secret', { partnerSecret: 'Wrong-secret-1234', newPartnerSecret: 'New-secret-98765' });
    expect(wrong.json().code).toBe('10001');
    expect((await browser.call('GET', '/dashboard/api/session')).json().partner.failedAuthentications).toBe(1);
    const weak = await browser.call('POST', '/dashboard/api/secret', { partnerSecret: creds.partnerSecret, newPartnerSecret: 'weak' });
    expect(weak.json().code).toBe('24437');
    const ok = await browser.call('POST', '/dashboard/api/secret', { partnerSecret: creds.partnerSecret, newPartnerSecret: 'New-secret-98765' });
    expect(ok.statusCode).toBe(204);
    expect((await apiAuthenticate(ctx, creds.appKey, creds.partnerId, creds.partnerSecret)).code).toBe('10001');
    expect((await apiAuthenticate(ctx, creds.appKey, creds.partnerId, 'New-secret-98765')).status).toBe(200);
    expect((await browser.call('GET', '/dashboard/api/session')).statusCode).toBe(200);
    expect((await elsewhere.call('GET', '/dashboard/api/session')).json().code).toBe('14100');
  });
});

describe('dashboard data is scoped to the signed-in partner', () => {
  let ctx: TestContext;
  let mine: TestPartner;
  let theirs: TestPartner;
  let browser: DashboardBrowser;
  let myCustomer: string;
  let theirCustomer: string;

  /** A Connect e-mail: one e-mail delivery and, once delivered, one message in the local mailbox. */
  async function sendConnectEmail(partner: TestPartner, customerId: string, to: string): Promise<void> {
    const res = await generate(ctx, partner, 'email', {
      customerId,
      experience: 'default',
      email: {
        to,
        subject: `For ${to}`,
        firstName: 'Pat',
        institutionName: 'Acme',
        institutionAddress: '1 Main St',
        supportPhone: '800-555-0000',
        signature: ['Pat'],
      },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    mine = await partnerWithToken(ctx);
    theirs = await partnerWithToken(ctx);
    myCustomer = await addCustomer(ctx, mine, { username: 'mine-customer', firstName: 'Mina' });
    theirCustomer = await addCustomer(ctx, theirs, { username: 'their-customer', firstName: 'Theo' });
    await sendConnectEmail(mine, myCustomer, 'mine@example.com');
    await sendConnectEmail(theirs, theirCustomer, 'theirs@example.com');
    await drainDeliveries(ctx.runtime);
    for (const [partner, name] of [
      [mine, 'Mine Inc'],
      [theirs, 'Theirs Ltd'],
    ] as const) {
      const b = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
      expect((await b.call('PUT', '/dashboard/api/experiences/default', { appName: name, logoUrl: null, primaryColor: '#112233' })).statusCode).toBe(200);
    }
    await ctx.app.requestLog.flush();
    browser = await dashboardSignIn(ctx, mine.partnerId, mine.partnerSecret);
  });
  afterAll(() => ctx?.close());

  it("lists only the partner's customers and 404s another partner's customer exactly like an unknown one", async () => {
    const list = (await browser.call('GET', '/dashboard/api/customers')).json();
    expect(list.customers.map((c: { id: string }) => c.id)).toEqual([myCustomer]);
    expect((await browser.call('GET', '/dashboard/api/customers?search=their')).json().customers).toEqual([]);
    const own = await browser.call('GET', `/dashboard/api/customers/${myCustomer}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ customer: { id: myCustomer, username: 'mine-customer' }, institutionLogins: [] });
    expect((await browser.call('GET', `/dashboard/api/customers/${myCustomer}/transactions`)).json()).toMatchObject({ aggregated: true, found: 0 });
    const other = await browser.call('GET', `/dashboard/api/customers/${theirCustomer}`);
    const unknown = await browser.call('GET', '/dashboard/api/customers/9999999999');
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(unknown.json());
  });

  it("shows a customer's institution logins, accounts and transactions, once aggregated", async () => {
    await ensureInstitutionCatalog(ctx.runtime.database);
    const linked = await addCustomer(ctx, mine, { username: 'linked-customer', firstName: 'Lin' });
    const accounts = await linkProfile(ctx, mine, linked, 'profile_03');
    const before = (await browser.call('GET', `/dashboard/api/customers/${linked}`)).json();
    expect(before.institutionLogins).toHaveLength(1);
    expect(before.institutionLogins[0]).toMatchObject({ institution: { id: 101732, name: expect.stringMatching(/FinBank/) }, aggregationStatusCode: 0 });
    expect(before.institutionLogins[0].accounts.map((a: { id: string }) => a.id).sort()).toEqual(accounts.map((a) => a.id).sort());
    const transactions = () => browser.call('GET', `/dashboard/api/customers/${linked}/transactions?limit=100`);
    expect((await transactions()).json()).toMatchObject({ aggregated: false, found: 0, transactions: [] });
    await refresh(ctx, mine, linked);
    const after = (await transactions()).json();
    expect(after.aggregated).toBe(true);
    expect(after.found).toBeGreaterThan(0);
    expect(after.transactions.length).toBe(Math.min(100, after.found));
    const accountIds = new Set(accounts.map((a) => String(a.id)));
    expect(after.transactions.every((t: { accountId: number }) => accountIds.has(String(t.accountId)))).toBe(true);
    // The other partner sees none of it.
    const theirView = await dashboardSignIn(ctx, theirs.partnerId, theirs.partnerSecret);
    expect((await theirView.call('GET', `/dashboard/api/customers/${linked}`)).statusCode).toBe(404);
    expect((await theirView.call('GET', `/dashboard/api/customers/${linked}/transactions`)).statusCode).toBe(404);
  });

  it("shows only the partner's deliveries and mail, and 404s redelivering another partner's delivery", async () => {
    const deliveries = (await browser.call('GET', '/dashboard/api/deliveries')).json().deliveries;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ kind: 'email', partnerId: mine.partnerId, status: 'delivered', attempts: [expect.any(Object)] });
    const mail = (await browser.call('GET', '/dashboard/api/mail')).json().messages;
    expect(mail.map((m: { to: string }) => m.to)).toEqual(['mine@example.com']);
    const theirDelivery = await ctx.runtime.database.kysely
      .selectFrom('deliveries')
      .select('id')
      .where('partner_id', '=', theirs.partnerId)
      .executeTakeFirstOrThrow();
    const refused = await browser.call('POST', `/dashboard/api/deliveries/${theirDelivery.id}/redeliver`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('14001');
    const again = await browser.call('POST', `/dashboard/api/deliveries/${deliveries[0].id}/redeliver`);
    expect(again.statusCode).toBe(200);
    expect(again.json().delivery).toMatchObject({ id: deliveries[0].id, status: 'pending' });
    await drainDeliveries(ctx.runtime);
    const after = (await browser.call('GET', '/dashboard/api/deliveries')).json().deliveries;
    expect(after[0].attempts).toHaveLength(2);
  });

  it("shows only the partner's API requests, and new ones after a given id", async () => {
    await ctx.app.requestLog.flush();
    const requests = (await browser.call('GET', '/dashboard/api/requests')).json().requests;
    expect(requests.length).toBeGreaterThan(0);
    const myPaths = requests.map((r: { path: string }) => r.path);
    expect(myPaths.some((p: string) => p.includes(theirCustomer))).toBe(false);
    expect(requests[0]).toMatchObject({ method: expect.any(String), status: expect.any(Number), latencyMs: expect.any(Number) });
    const lastId = requests[0].id;
    await ctx.app.inject({ url: `/aggregation/v1/customers/${theirCustomer}`, headers: mine.headers });
    await ctx.app.inject({ url: `/aggregation/v1/customers/${myCustomer}`, headers: theirs.headers });
    await ctx.app.requestLog.flush();
    const fresh = (await browser.call('GET', `/dashboard/api/requests?afterId=${lastId}`)).json().requests;
    expect(fresh).toEqual([expect.objectContaining({ method: 'GET', path: `/aggregation/v1/customers/${theirCustomer}`, status: 404, errorCode: '14001' })]);
  });

  it("shows and edits only the partner's experiences; the change reaches Connect links", async () => {
    const list = (await browser.call('GET', '/dashboard/api/experiences')).json().experiences;
    expect(list).toEqual([{ name: 'default', appName: 'Mine Inc', logoUrl: null, primaryColor: '#112233' }]);
    const saved = await browser.call('PUT', '/dashboard/api/experiences/branded', {
      appName: 'Branded',
      logoUrl: 'https://example.com/logo.png',
      primaryColor: '#AA5500',
    });
    expect(saved.json().experience).toEqual({ name: 'branded', appName: 'Branded', logoUrl: 'https://example.com/logo.png', primaryColor: '#aa5500' });
    const bad = await browser.call('PUT', '/dashboard/api/experiences/branded', {
      appName: 'Branded',
      logoUrl: 'javascript:alert(1)',
      primaryColor: '#AA5500',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('10010');
    expect((await browser.call('PUT', '/dashboard/api/experiences/default', { appName: 'X', logoUrl: null, primaryColor: 'red' })).json().code).toBe('10010');
    const theirsNow = await ctx.runtime.database.kysely
      .selectFrom('connect_experiences')
      .select(['name', 'app_name'])
      .where('partner_id', '=', theirs.partnerId)
      .execute();
    expect(theirsNow).toEqual([{ name: 'default', app_name: 'Theirs Ltd' }]);
    const link = await linkFor(ctx, mine, 'full', { customerId: myCustomer, experience: 'branded' });
    const session = await appOk(ctx, link, 'POST', '/session');
    expect(session.experience).toMatchObject({ appName: 'Branded', logoUrl: 'https://example.com/logo.png', primaryColor: '#aa5500' });
  });
});

describe('dashboard sandbox controls', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
  });
  afterAll(() => ctx?.close());

  it("drive a customer of the signed-in Test Drive partner, need the CSRF token, and 404 another partner's customer", async () => {
    const mine = await partnerWithToken(ctx);
    const theirs = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, mine);
    const theirCustomer = await addCustomer(ctx, theirs);
    const [account] = await linkProfile(ctx, mine, customerId, 'profile_03');
    const browser = await dashboardSignIn(ctx, mine.partnerId, mine.partnerSecret);
    const base = `/dashboard/api/customers/${customerId}/sandbox`;
    const noToken = await browser.call('POST', `${base}/logins/${account!.institutionLoginId}/error`, { code: 103 }, { 'x-csrf-token': '' });
    expect(noToken.json().code).toBe('14102');
    const set = await browser.call('POST', `${base}/logins/${account!.institutionLoginId}/error`, { code: 103 });
    expect(set.statusCode, set.body).toBe(200);
    expect((await browser.call('GET', `/dashboard/api/customers/${customerId}`)).json().institutionLogins[0].aggregationStatusCode).toBe(103);
    expect((await browser.call('POST', `${base}/logins/${account!.institutionLoginId}/error`, { code: 999 })).json().code).toBe('14091');
    expect((await browser.call('POST', `${base}/logins/${account!.institutionLoginId}/clear`)).statusCode).toBe(200);
    const clock = await browser.call('POST', `${base}/clock`, { days: 2 });
    expect(clock.json()).toMatchObject({ customerId, days: 2, institutionLogins: [{ aggregationStatusCode: 0 }] });
    expect((await browser.call('POST', `${base}/webhook`, { eventType: 'done' })).json().code).toBe('14093');
    const reset = await browser.call('POST', `${base}/reset`);
    expect(reset.json()).toMatchObject({ customerId, institutionLogins: 1 });
    expect((await browser.call('GET', `/dashboard/api/customers/${customerId}`)).json().institutionLogins).toEqual([]);
    for (const path of ['clock', 'reset']) {
      const other = await browser.call('POST', `/dashboard/api/customers/${theirCustomer}/sandbox/${path}`, path === 'clock' ? { days: 1 } : undefined);
      expect(other.statusCode, path).toBe(404);
    }
  });

  it('are refused for a production-plan partner', async () => {
    const production = await partnerWithToken(ctx, 'production');
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const browser = await dashboardSignIn(ctx, production.partnerId, production.partnerSecret);
    const res = await browser.call('POST', `/dashboard/api/customers/${customerId}/sandbox/clock`, { days: 1 });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('14090');
  });
});

describe('dashboard API under hostile input', () => {
  let ctx: TestContext;
  let browser: DashboardBrowser;
  const CODE_STATUS = new Map<string, number>(Object.values(ErrorCatalogue).map((d) => [d.code, d.status]));

  beforeAll(async () => {
    ctx = await createTestContext();
    const partner = await partnerWithToken(ctx);
    browser = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
  });
  afterAll(() => ctx?.close());

  it('answers every dashboard route, signed in with a valid CSRF token, with a documented 4xx or a success, never a 5xx', async () => {
    const routes = ctx.app.registeredRoutes.filter((r) => r.url.startsWith('/dashboard/api/') && r.method !== 'HEAD' && r.url !== '/dashboard/api/signout');
    expect(routes.length).toBeGreaterThanOrEqual(15);
    for (const route of routes) {
      const schema = (route.schema ?? {}) as Record<string, any>;
      const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const path = fc
        .tuple(...names.map(() => hostileString))
        .map((values) => names.reduce((url, name, i) => url.replace(`:${name}`, encodeURIComponent(String(values[i]))), route.url));
      const body =
        route.method === 'GET'
          ? fc.constant(undefined)
          : invalidBody(schema.body ?? { type: 'object', required: ['x'], properties: { x: { type: 'string' } } });
      await fc.assert(
        fc.asyncProperty(path, fc.option(hostileQuery(schema.querystring), { nil: '' }), body, async (url, query, payload) => {
          const res = await browser.call(route.method as 'GET', query ? `${url}?${query}` : url, payload as object | undefined);
          const where = `${route.method} ${url}?${query} [${res.statusCode}] ${res.body.slice(0, 200)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode >= 400) expect(CODE_STATUS.get(res.json().code), where).toBe(res.statusCode);
        }),
        { numRuns: 15 },
      );
    }
  });
});
