import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { appPage } from '../../src/http/connect-app/routes/web.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { saveExperience } from '../../src/modules/connect/experiences.service.js';
import { addCustomer } from '../helpers/customers.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { linkProfile } from '../helpers/aggregation.js';
import { appCall, appOk, generate, linkFor, pathOf, profileForm } from '../helpers/connect.js';
import { startListener, type Listener } from '../helpers/listener.js';

const TWO_HOURS = 2 * 60 * 60 * 1000;

describe('Connect links', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let other: TestPartner;
  let customerId: string;
  let listener: Listener;

  beforeAll(async () => {
    ctx = await createTestContext();
    // Signatures carry the clock's time; standardwebhooks checks it against the real one.
    ctx.clock.set(Date.now());
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
    other = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
    listener = await startListener();
  });
  afterAll(async () => {
    await listener.close();
    await ctx.close();
  });

  const deliveries = async () => (await ctx.runtime.database.kysely.selectFrom('deliveries').select('id').execute()).length;

  it('answers a signed Full link to the hosted app with the ids, timestamp and a ttl two hours later', async () => {
    const res = await generate(ctx, partner, 'full', { customerId, experience: 'default', redirectUri: 'https://partner.example/done' });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().link);
    expect(`${url.origin}${url.pathname}`).toBe(`${ctx.runtime.config.publicUrl}/connect`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      customerId,
      partnerId: partner.partnerId,
      origin: 'url',
      type: 'full',
      experience: 'default',
      redirectUri: 'https://partner.example/done',
    });
    expect(q.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(q.timestamp)).toBe(ctx.clock.now());
    expect(Number(q.ttl) - Number(q.timestamp)).toBe(TWO_HOURS);
    const page = await ctx.app.inject({ url: pathOf(url.toString()) });
    expect(page.statusCode).toBe(appPage() ? 200 : 503);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('answers in XML when asked, and reads XML bodies', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/connect/v2/generate',
      headers: { ...partner.headers, accept: 'application/xml', 'content-type': 'application/xml' },
      payload: `<connect><partnerId>${partner.partnerId}</partnerId><customerId>${customerId}</customerId><singleUseUrl>true</singleUseUrl></connect>`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^<\?xml[^>]*\?><connectUrl><link>http:\/\/[^<]+\/connect\?[^<]*signature=[0-9a-f]{64}[^<]*<\/link><\/connectUrl>$/);
  });

  it('refuses a link whose parameters were changed, with an error page that does nothing', async () => {
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url });
    const neighbour = await addCustomer(ctx, partner);
    const before = await deliveries();
    const tampered = [
      link.replace(`customerId=${customerId}`, `customerId=${neighbour}`),
      link.replace('type=full', 'type=lite'),
      link.replace(/ttl=(\d+)/, (_, t: string) => `ttl=${Number(t) + TWO_HOURS}`),
      link.replace(/signature=[0-9a-f]+/, 'signature=' + '0'.repeat(64)),
      link.replace(/&signature=[0-9a-f]+/, ''),
      `${link}&extra=1`,
      `${link}&customerId=${neighbour}`,
      // Names that mean something to JavaScript objects are parameters like any other.
      `${link}&__proto__=x`,
      `${link}&__proto__[linkId]=x`,
      `${link}&constructor=x`,
      `${link}&toString=x`,
      `${link}&hasOwnProperty=x`,
    ];
    for (const bad of tampered) {
      const page = await ctx.app.inject({ url: pathOf(bad) });
      expect(page.statusCode, bad).toBe(403);
      expect(page.body).toContain('This Connect link is not valid');
      const api = await appCall(ctx, bad, 'POST', '/session');
      expect(api.statusCode).toBe(403);
      expect(api.json().code).toBe('14071');
    }
    expect(await deliveries()).toBe(before);
  });

  it('expires two hours after it was generated (by the service clock)', async () => {
    const link = await linkFor(ctx, partner, 'full', { customerId });
    const start = ctx.clock.now();
    onTestFinished(() => ctx.clock.set(start));
    ctx.clock.advance(TWO_HOURS - 1);
    expect((await appCall(ctx, link, 'POST', '/session')).statusCode).toBe(200);
    ctx.clock.advance(1);
    const page = await ctx.app.inject({ url: pathOf(link) });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('expired');
    expect((await appCall(ctx, link, 'GET', '/institutions?search=finbank')).json().code).toBe('14072');
  });

  it('stops a single-use link once Connect completed, and keeps other links usable', async () => {
    const once = await linkFor(ctx, partner, 'full', { customerId, singleUseUrl: true });
    const reusable = await linkFor(ctx, partner, 'full', { customerId });
    for (const link of [once, reusable]) {
      await appOk(ctx, link, 'POST', '/session');
      expect(await appOk(ctx, link, 'POST', '/done', { reason: 'done' })).toEqual({ redirectUri: null });
    }
    const page = await ctx.app.inject({ url: pathOf(once) });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('already been used');
    expect((await appCall(ctx, once, 'POST', '/done', {})).json().code).toBe('14073');
    expect((await appCall(ctx, reusable, 'POST', '/session')).statusCode).toBe(200);
  });

  it('checks every field when the link is made', async () => {
    const realInstitution = (await ctx.app.inject({ url: '/institution/v2/institutions?search=chase&limit=1', headers: partner.headers })).json()
      .institutions[0].id;
    const neighbourOfOther = await addCustomer(ctx, other);
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['full', { customerId, partnerId: other.partnerId }, 400, '10010'],
      ['full', { customerId: neighbourOfOther }, 404, '14001'],
      ['full', { customerId: 'abc' }, 404, '14001'],
      ['full', { customerId: ' ' }, 400, '10005'],
      ['full', { customerId, experience: 'gold' }, 400, '14070'],
      ['full', { customerId, webhookContentType: 'text/plain' }, 400, '10010'],
      ['full', { customerId, webhook: 'ftp://x.example/hook' }, 400, '10010'],
      ['full', { customerId, webhook: 'https://user:pw@x.example/hook' }, 400, '10010'],
      ['full', { customerId, redirectUri: 'javascript:alert(1)' }, 400, '10010'],
      ['full', { customerId, webhookHeaders: { 'Content-Type': 'text/plain' } }, 400, '10010'],
      ['full', { customerId, webhookHeaders: { 'X-Token': 'a\r\nb' } }, 400, '10010'],
      ['full', { customerId, webhookHeaders: { 'X-Token': 5 } }, 400, '10010'],
      ['lite', { customerId }, 400, '10005'],
      ['lite', { customerId, institutionId: 999999999 }, 404, '14006'],
      ['lite', { customerId, institutionId: realInstitution }, 403, '14061'],
      ['fix', { customerId, institutionLoginId: '6000000000' }, 404, '14001'],
      ['email', { customerId, email: { to: 'not-an-address' } }, 400, '10010'],
      ['email', { customerId }, 400, '10005'],
    ];
    const before = await deliveries();
    const links = async () => (await ctx.runtime.database.kysely.selectFrom('connect_links').select('id').execute()).length;
    const linkCount = await links();
    for (const [variant, body, status, code] of cases) {
      const res = await generate(ctx, partner, variant as 'full', body);
      expect([res.statusCode, res.json().code], `${variant} ${JSON.stringify(body)}: ${res.body}`).toEqual([status, code]);
    }
    expect(await deliveries()).toBe(before);
    expect(await links()).toBe(linkCount);
  });

  it('refuses webhookHeaders HTTP cannot carry or Ledgerlink sets itself when the link is made, and delivers those it accepts', async () => {
    const refused: Record<string, string>[] = [
      { 'X-A': '\u2028' },
      { 'X-A': 'a\u007fb' },
      { 'X-A': 'a\u0001b' },
      { 'X-A': 'a\u0000b' },
      { 'X-A': '\u{1F600}' },
      { 'X-A': 'ok\u0100' },
      { 'X A': '1' },
      { 'X:A': '1' },
      { '': '1' },
      { Ümlaut: '1' },
      { 'X-A\r\nX-B': '1' },
      { Host: 'evil.example' },
      { 'Content-Length': '1' },
      { 'Transfer-Encoding': 'chunked' },
      { Connection: 'close' },
      { 'Keep-Alive': '5' },
      { Trailer: 'X-A' },
      { TE: 'trailers' },
      { Upgrade: 'websocket' },
      { Expect: '100-continue' },
      { 'Webhook-Signature': 'v1,x' },
      { 'webhook-id': 'evt_1' },
    ];
    const before = await deliveries();
    for (const webhookHeaders of refused) {
      const res = await generate(ctx, partner, 'full', { customerId, webhook: listener.url, webhookHeaders });
      expect([res.statusCode, res.json().code], JSON.stringify(webhookHeaders)).toEqual([400, '10010']);
      expect(res.json().message).toMatch(/^Invalid parameter \(webhookHeaders\b/);
    }
    expect(await deliveries()).toBe(before);

    listener.requests.length = 0;
    const accepted = { 'X-Latin1': 'café ÿ', 'X-Tab': 'a\tb', "!#$%&'*+.^_`|~": 'every token character', 'X-Empty': '', 'User-Agent': 'partner-agent/2' };
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url, webhookHeaders: accepted });
    await appOk(ctx, link, 'POST', '/session');
    await drainDeliveries(ctx.runtime);
    expect(listener.requests.map((r) => r.status)).toEqual([200]);
    expect(listener.requests[0]!.headers).toMatchObject({
      'x-latin1': 'café ÿ',
      'x-tab': 'a\tb',
      "!#$%&'*+.^_`|~": 'every token character',
      'x-empty': '',
      'user-agent': 'partner-agent/2',
    });
  });

  it("uses the partner's own experiences, and default always", async () => {
    await saveExperience(
      ctx.runtime.database.kysely,
      partner.partnerId,
      { name: 'gold', appName: 'Gold Lending', logoUrl: 'https://partner.example/logo.png', primaryColor: '#AA7700' },
      1,
    );
    const link = await linkFor(ctx, partner, 'full', { customerId, experience: 'gold' });
    expect((await appOk(ctx, link, 'POST', '/session')).experience).toEqual({
      name: 'gold',
      appName: 'Gold Lending',
      logoUrl: 'https://partner.example/logo.png',
      primaryColor: '#aa7700',
    });
    expect((await appOk(ctx, await linkFor(ctx, partner, 'full', { customerId }), 'POST', '/session')).experience).toMatchObject({
      name: 'default',
      appName: 'Test partner',
    });
    const otherCustomer = await addCustomer(ctx, other);
    expect((await generate(ctx, other, 'full', { customerId: otherCustomer, experience: 'gold' })).json().code).toBe('14070');
  });

  it('makes Lite links for one institution and Fix links for one login', async () => {
    const lite = new URL(
      await linkFor(ctx, partner, 'lite', { customerId, institutionId: 102105, webhook: listener.url, webhookContentType: 'application/json' }),
    );
    expect(Object.fromEntries(lite.searchParams)).toMatchObject({ type: 'lite', institutionId: '102105', webhookContentType: 'application/json' });
    const accounts = await linkProfile(ctx, partner, customerId, 'profile_01');
    const fix = new URL(await linkFor(ctx, partner, 'fix', { customerId, institutionLoginId: String(accounts[0]!.institutionLoginId) }));
    expect(Object.fromEntries(fix.searchParams)).toMatchObject({
      type: 'fix',
      institutionLoginId: String(accounts[0]!.institutionLoginId),
      institutionId: '101732',
    });
    // Another customer of the same partner cannot repair it.
    const neighbour = await addCustomer(ctx, partner);
    expect((await generate(ctx, partner, 'fix', { customerId: neighbour, institutionLoginId: String(accounts[0]!.institutionLoginId) })).statusCode).toBe(404);
  });

  it('sends webhooks of the whole flow in order, with webhookData and webhookHeaders, signed with the partner key', async () => {
    listener.requests.length = 0;
    const customer = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', {
      customerId: customer,
      webhook: listener.url,
      webhookData: { applicationId: 'app-77', nested: { a: 1 } },
      webhookHeaders: { 'X-Partner-Token': 'tok-123' },
    });
    await appOk(ctx, link, 'POST', '/session');
    await appOk(ctx, link, 'POST', '/institutions/101732');
    const wrong = await appOk(ctx, link, 'POST', '/signin', {
      institutionId: 101732,
      credentials: [
        { id: '101732001', value: 'mfa_text' },
        { id: '101732002', value: 'nope' },
      ],
    });
    expect(wrong).toMatchObject({ step: 'failed', code: 103 });
    const mfa = await appOk(ctx, link, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'mfa_text') });
    expect(mfa).toMatchObject({ step: 'mfa', challenges: [{ id: 'pet' }] });
    const accounts = await appOk(ctx, link, 'POST', `/signin/${mfa.sessionId}/mfa`, { answers: [{ id: 'pet', value: 'Rex' }] });
    expect(accounts.step).toBe('accounts');
    const added = await appOk(ctx, link, 'POST', `/signin/${mfa.sessionId}/accounts`, {
      accountRefs: accounts.accounts.slice(0, 2).map((a: { ref: string }) => a.ref),
    });
    expect(added.accounts).toHaveLength(2);
    await appOk(ctx, link, 'POST', '/done', {});
    await drainDeliveries(ctx.runtime);

    const bodies = listener.requests.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.eventType)).toEqual([
      'started',
      'institutionSelected',
      'credentialsSubmitted',
      'invalidCredentials',
      'credentialsSubmitted',
      'mfa',
      'mfaAnswered',
      'discovered',
      'added',
      'done',
    ]);
    const { signingKey } = (await ctx.app.inject({ url: '/connect/v2/webhooks/signingKey', headers: partner.headers })).json();
    for (const [i, r] of listener.requests.entries()) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-partner-token']).toBe('tok-123');
      expect(bodies[i]).toMatchObject({ customerId: customer, eventId: r.headers['webhook-id'], webhookData: { applicationId: 'app-77', nested: { a: 1 } } });
      expect(() => new Webhook(signingKey).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    }
    expect(bodies[8].payload).toEqual({
      institutionId: '101732',
      institutionLoginId: added.institutionLoginId,
      accounts: added.accounts.map((a: { id: string }) => a.id),
    });
    const otherKey = (await ctx.app.inject({ url: '/connect/v2/webhooks/signingKey', headers: other.headers })).json().signingKey;
    expect(() => new Webhook(otherKey).verify(listener.requests[0]!.body, listener.requests[0]!.headers as Record<string, string>)).toThrow();
  });

  it('sends XML webhooks when asked', async () => {
    listener.requests.length = 0;
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url, webhookContentType: 'application/xml', webhookData: { ref: 'r&1' } });
    await appOk(ctx, link, 'POST', '/session');
    await drainDeliveries(ctx.runtime);
    expect(listener.requests).toHaveLength(1);
    expect(listener.requests[0]!.headers['content-type']).toBe('application/xml');
    expect(listener.requests[0]!.body).toMatch(
      new RegExp(
        `^<\\?xml[^>]*\\?><webhook><customerId>${customerId}</customerId><eventType>started</eventType><eventId>evt_\\w+</eventId><payload><type>full</type><experience>default</experience></payload><webhookData><ref>r&amp;1</ref></webhookData></webhook>$`,
      ),
    );
  });
});
