import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceCustomerClock } from '../../src/modules/aggregation/clock.service.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { DAY, refresh } from '../helpers/aggregation.js';
import { appCall, appOk, linkFor, profileForm } from '../helpers/connect.js';
import { startListener, type Listener } from '../helpers/listener.js';

describe('the Connect app API', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let listener: Listener;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
    listener = await startListener();
  });
  afterAll(async () => {
    await listener.close();
    await ctx.close();
  });

  async function eventsOf(customerId: string): Promise<{ eventType: string; payload: Record<string, unknown> }[]> {
    await drainDeliveries(ctx.runtime);
    return listener.requests.map((r) => JSON.parse(r.body)).filter((b) => b.customerId === customerId);
  }

  it('searches the real catalogue and marks where a testing customer can link', async () => {
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId });
    const page = await appOk(ctx, link, 'GET', '/institutions?search=finbank&limit=10');
    expect(page.found).toBeGreaterThanOrEqual(6);
    expect(page.institutions.find((i: { id: number }) => i.id === 101732)).toMatchObject({
      name: 'FinBank',
      available: true,
      oauth: false,
      logo: expect.stringContaining('/institution/assets/101732/'),
    });
    expect(page.institutions.find((i: { id: number }) => i.id === 102168)).toMatchObject({ oauth: true, available: true });
    const real = await appOk(ctx, link, 'GET', '/institutions?search=chase&limit=3');
    expect(real.institutions.length).toBeGreaterThan(0);
    expect(real.institutions.every((i: { available: boolean }) => !i.available)).toBe(true);
    expect((await appCall(ctx, link, 'POST', `/institutions/${real.institutions[0].id}`)).json().code).toBe('14061');
  });

  it('asks choice and image MFA questions and links the chosen accounts', async () => {
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId });
    const form = await appOk(ctx, link, 'POST', '/institutions/101732');
    expect(form).toMatchObject({
      oauth: false,
      loginForm: [
        { id: '101732001', kind: 'text' },
        { id: '101732002', kind: 'password' },
      ],
    });
    for (const [profile, id, answer] of [
      ['mfa_choice', 'street', 'oak'],
      ['mfa_image', 'picture', 'sun'],
    ] as const) {
      const mfa = await appOk(ctx, link, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, profile) });
      expect(mfa.challenges[0]).toMatchObject({ id, kind: profile === 'mfa_image' ? 'image' : 'choice', options: expect.any(Array) });
      if (profile === 'mfa_image') expect(mfa.challenges[0].image).toMatch(/^data:image\/svg\+xml;base64,/);
      const wrong = await appOk(ctx, link, 'POST', `/signin/${mfa.sessionId}/mfa`, { answers: [{ id, value: 'nope' }] });
      expect(wrong).toMatchObject({ step: 'failed', code: 187 });
      const again = await appOk(ctx, link, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, profile) });
      const accounts = await appOk(ctx, link, 'POST', `/signin/${again.sessionId}/mfa`, { answers: [{ id, value: answer }] });
      await appOk(ctx, link, 'POST', `/signin/${again.sessionId}/accounts`, { accountRefs: [accounts.accounts[0].ref] });
    }
    const { logins } = await appOk(ctx, link, 'GET', '/logins');
    expect(logins.map((l: { accounts: unknown[] }) => l.accounts.length)).toEqual([1, 1]);
  });

  it('links an OAuth institution through its sign-in window and the return page', async () => {
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url });
    await appOk(ctx, link, 'POST', '/session');
    expect(await appOk(ctx, link, 'POST', '/institutions/102168')).toMatchObject({ oauth: true, loginForm: [] });
    const step = await appOk(ctx, link, 'POST', '/signin', { institutionId: 102168, credentials: [] });
    expect(step.step).toBe('oauth');
    const authorize = await ctx.app.inject({ url: new URL(step.authorizeUrl).pathname + new URL(step.authorizeUrl).search });
    expect(authorize.statusCode).toBe(200);
    expect(authorize.body).toContain('<label for="profile">');
    const fields = Object.fromEntries(
      [...authorize.body.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]!.replace(/&amp;/g, '&')]),
    );
    const approve = await ctx.app.inject({
      url: `/connect/testbank/oauth/approve?${new URLSearchParams({ ...fields, profile: 'profile_02', decision: 'allow' })}`,
    });
    expect(approve.statusCode).toBe(302);
    const back = new URL(approve.headers.location as string);
    expect(back.pathname).toBe('/connect/oauth/callback');
    expect(await appOk(ctx, link, 'GET', `/signin/${step.sessionId}`)).toMatchObject({ step: 'oauth' });
    const callback = await ctx.app.inject({ url: back.pathname + back.search });
    expect(callback.body).toContain('Signed in');
    const accounts = await appOk(ctx, link, 'GET', `/signin/${step.sessionId}`);
    expect(accounts.step).toBe('accounts');
    // A forged or replayed return does nothing.
    expect((await ctx.app.inject({ url: back.pathname + back.search })).body).toContain('not in progress');
    const added = await appOk(ctx, link, 'POST', `/signin/${step.sessionId}/accounts`, {});
    expect(added.institution).toEqual({ id: 102168, name: expect.any(String) });
    expect((await eventsOf(customerId)).map((e) => e.eventType)).toEqual(['started', 'institutionSelected', 'oauthStarted', 'discovered', 'added']);
  });

  it('reports a declined OAuth authorization', async () => {
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url });
    const step = await appOk(ctx, link, 'POST', '/signin', { institutionId: 102168, credentials: [] });
    const authorize = new URL(step.authorizeUrl);
    const deny = await ctx.app.inject({ url: `/connect/testbank/oauth/approve${authorize.search}&decision=deny` });
    const back = new URL(deny.headers.location as string);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect((await ctx.app.inject({ url: back.pathname + back.search })).body).toContain('declined');
    expect((await eventsOf(customerId)).map((e) => e.eventType)).toEqual(['oauthStarted', 'error']);
  });

  it('keeps Lite to its institution and without account management', async () => {
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'lite', { customerId, institutionId: 102105 });
    expect(await appOk(ctx, link, 'POST', '/session')).toMatchObject({ mode: 'lite', institution: { id: 102105, available: true } });
    for (const [method, path, body] of [
      ['GET', '/institutions?search=finbank'],
      ['GET', '/logins'],
      ['POST', '/institutions/101732'],
      ['POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'profile_01') }],
    ] as const) {
      const res = await appCall(ctx, link, method, path, body);
      expect([res.statusCode, res.json().code], path).toEqual([403, '14074']);
    }
    const step = await appOk(ctx, link, 'POST', '/signin', { institutionId: 102105, credentials: profileForm(102105, 'profile_03') });
    expect((await appOk(ctx, link, 'POST', `/signin/${step.sessionId}/accounts`, {})).accounts.length).toBe(7);
  });

  it('repairs a login with Fix and clears its error', async () => {
    const customerId = await addCustomer(ctx, partner);
    const full = await linkFor(ctx, partner, 'full', { customerId });
    const first = await appOk(ctx, full, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'refresh_103') });
    const added = await appOk(ctx, full, 'POST', `/signin/${first.sessionId}/accounts`, {});
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 2 * DAY);
    expect((await refresh(ctx, partner, customerId)).map((a) => a.aggregationStatusCode)).toEqual([103, 103, 103]);

    const fix = await linkFor(ctx, partner, 'fix', { customerId, institutionLoginId: added.institutionLoginId, webhook: listener.url });
    expect(await appOk(ctx, fix, 'POST', '/session')).toMatchObject({ mode: 'fix', institution: { id: 101732 }, institutionLoginId: added.institutionLoginId });
    const step = await appOk(ctx, fix, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'refresh_103') });
    expect(step.accounts.every((a: { alreadyLinked: boolean }) => a.alreadyLinked)).toBe(true);
    const repaired = await appOk(ctx, fix, 'POST', `/signin/${step.sessionId}/accounts`, {});
    expect(repaired.institutionLoginId).toBe(added.institutionLoginId);
    expect((await refresh(ctx, partner, customerId)).map((a) => a.aggregationStatusCode)).toEqual([0, 0, 0]);
    expect((await appCall(ctx, fix, 'GET', '/logins')).statusCode).toBe(403);
  });

  it('deletes accounts and logins in Full mode, with accountsDeleted and institutionLoginDeleted', async () => {
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url });
    const a = await appOk(ctx, link, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'profile_01') });
    const first = await appOk(ctx, link, 'POST', `/signin/${a.sessionId}/accounts`, {});
    const b = await appOk(ctx, link, 'POST', '/signin', { institutionId: 102105, credentials: profileForm(102105, 'profile_03') });
    const second = await appOk(ctx, link, 'POST', `/signin/${b.sessionId}/accounts`, {});
    await appOk(ctx, link, 'DELETE', `/accounts/${first.accounts[0].id}`);
    await appOk(ctx, link, 'DELETE', `/accounts/${first.accounts[1].id}`);
    await appOk(ctx, link, 'DELETE', `/logins/${second.institutionLoginId}`);
    expect((await appOk(ctx, link, 'GET', '/logins')).logins).toEqual([]);
    const events = (await eventsOf(customerId)).filter((e) => e.eventType.endsWith('Deleted'));
    expect(events).toEqual([
      expect.objectContaining({ eventType: 'accountsDeleted', payload: { accounts: [first.accounts[0].id] } }),
      expect.objectContaining({ eventType: 'accountsDeleted', payload: { accounts: [first.accounts[1].id] } }),
      expect.objectContaining({ eventType: 'institutionLoginDeleted', payload: { institutionLoginId: first.institutionLoginId } }),
      expect.objectContaining({
        eventType: 'institutionLoginDeleted',
        payload: { institutionLoginId: second.institutionLoginId, accounts: second.accounts.map((x: { id: string }) => x.id) },
      }),
    ]);
    const accounts = await ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: partner.headers });
    expect(accounts.json().accounts).toEqual([]);
  });

  it('reports cancelling and answers where to send the browser', async () => {
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url, redirectUri: 'https://partner.example/back' });
    expect(await appOk(ctx, link, 'POST', '/cancel', { reason: 'exit' })).toEqual({ redirectUri: 'https://partner.example/back' });
    expect(await eventsOf(customerId)).toEqual([expect.objectContaining({ eventType: 'cancelled', payload: { reason: 'exit' } })]);
  });
});
