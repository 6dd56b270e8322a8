import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueRefreshes } from '../../src/modules/aggregation/schedule.service.js';
import { syncAllListed } from '../../src/modules/institutions/listed.service.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { allTransactions, DAY, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { appOk, linkFor } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { enableBankingError, startEnableBankingFake, type EnableBankingFake } from '../helpers/enable-banking.js';
import { startListener, type Listener } from '../helpers/listener.js';

/** The test context's manual clock starts here; the fake bank's clock and data follow it. */
const START = Math.floor(Date.UTC(2026, 0, 15, 12, 0, 0) / 1000);
const HOUR = 3600;
const PUBLIC_URL = 'http://127.0.0.1:9';
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156', accept: 'text/html', 'accept-language': 'fi-FI,fi;q=0.9' };

/** Enable Banking end to end against the local fake of its API: catalogue, Connect, refresh, consent, limits. */
describe('Enable Banking', () => {
  let fake: EnableBankingFake;
  let ctx: TestContext;
  let partner: TestPartner;
  let listener: Listener;
  let keyDir: string;
  let aurora: number;
  let fjall: number;

  beforeAll(async () => {
    fake = await startEnableBankingFake({ now: START, redirectUrls: [`${PUBLIC_URL}/connect/oauth/callback`] });
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'll-eb-'));
    ctx = await createTestContext({
      LEDGERLINK_ENABLE_BANKING_APP_ID: fake.appId,
      LEDGERLINK_ENABLE_BANKING_KEY_FILE: fake.writeKeyFile(keyDir),
      LEDGERLINK_ENABLE_BANKING_URL: fake.url,
      LEDGERLINK_PUBLIC_URL: PUBLIC_URL,
    });
    await ensureInstitutionCatalog(ctx.runtime.database);
    await syncAllListed(ctx.runtime.database, ctx.app.engine.registry, START);
    partner = await partnerWithToken(ctx, 'production');
    listener = await startListener();
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
    await listener?.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  const get = (url: string) => ctx.app.inject({ url, headers: { ...partner.headers, accept: 'application/json' } });
  const advance = (seconds: number) => {
    ctx.clock.advance(seconds * 1000);
    fake.advance(seconds);
  };
  /** The partner, with a token valid at the clock's time (tokens last two hours). */
  const fresh = async () => renewToken(ctx, partner);

  async function connectEvents(customerId: string): Promise<string[]> {
    await drainDeliveries(ctx.runtime);
    return listener.requests
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.customerId === customerId)
      .map((b) => b.eventType);
  }

  /** Links the customer at a bank through Connect, approving at the bank; answers the finished step. */
  async function linkThroughConnect(customerId: string, institutionId: number, variant: 'full' | 'fix' = 'full', institutionLoginId?: number) {
    const link = await linkFor(ctx, partner, variant, { customerId, webhook: listener.url, ...(institutionLoginId ? { institutionLoginId } : {}) });
    await appOk(ctx, link, 'POST', '/session');
    if (variant === 'full') expect(await appOk(ctx, link, 'POST', `/institutions/${institutionId}`)).toMatchObject({ oauth: true, loginForm: [] });
    const step = await appOk(ctx, link, 'POST', '/signin', { institutionId, credentials: [] });
    expect(step.step).toBe('oauth');
    expect(step.authorizeUrl.startsWith(fake.url)).toBe(true);
    const back = new URL(fake.approve(step.authorizeUrl));
    expect(back.pathname).toBe('/connect/oauth/callback');
    const before = fake.requests.length;
    const page = await ctx.app.inject({ url: back.pathname + back.search, headers: BROWSER });
    expect(page.body).toContain('Signed in');
    const duringCallback = fake.requests.slice(before);
    const accounts = await appOk(ctx, link, 'GET', `/signin/${step.sessionId}`);
    expect(accounts.step).toBe('accounts');
    return { link, step, accounts, duringCallback, added: await appOk(ctx, link, 'POST', `/signin/${step.sessionId}/accounts`, {}) };
  }

  it('lists every bank as an institution with its country, currency and logo, searchable by name', async () => {
    const search = async (q: string) => (await get(`/institution/v2/institutions?search=${encodeURIComponent(q)}`)).json().institutions;
    const [found] = await search('Aurora Pankki');
    expect(found).toMatchObject({ name: 'Aurora Pankki', currency: 'EUR', address: { country: 'FIN' }, transAgg: true });
    aurora = Number(found.id);
    const [swedish] = await search('Fjäll Sparbank');
    expect(swedish).toMatchObject({ currency: 'SEK', address: { country: 'SWE' } });
    fjall = Number(swedish.id);
    expect(aurora).toBeGreaterThanOrEqual(800_000);
    // A bank added at Enable Banking appears at the next daily synchronisation, one removed is retired; no restart.
    fake.addBank({ ...fake.data.banks[1]!, name: 'Nordlys Bank', country: 'NO', accounts: [] });
    await syncAllListed(ctx.runtime.database, ctx.app.engine.registry, START);
    expect((await search('Nordlys Bank'))[0]).toMatchObject({ name: 'Nordlys Bank', currency: 'NOK' });
    fake.removeBank('Nordlys Bank', 'NO');
    await syncAllListed(ctx.runtime.database, ctx.app.engine.registry, START);
    expect((await search('Nordlys Bank'))[0]).toMatchObject({ name: 'Nordlys Bank', transAgg: false });
  });

  it('links through Connect: the bank page, the callback, the accounts with their consent, the usual webhooks', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const { accounts, added, duringCallback } = await linkThroughConnect(customerId, aurora);
    expect(accounts.accounts.length).toBeGreaterThanOrEqual(2);
    const listed: AccountJson[] = (await get(`/aggregation/v1/customers/${customerId}/accounts`)).json().accounts;
    const card = listed.find((a) => a.type === 'creditCard')!;
    const checking = listed.find((a) => a.type === 'checking' && a.name !== 'Revontuli Oy')!;
    expect(card).toMatchObject({ currency: 'EUR', accountNumberDisplay: '4242', balance: -134.87 });
    expect(checking).toMatchObject({ currency: 'EUR', balance: 2143.57, institutionId: String(aurora) });
    expect(checking).toMatchObject({ authorizationExpires: true, authorizationExpiring: false, authorizationStartDate: START });
    expect(Number(checking.authorizationEndDate)).toBeGreaterThan(START + 170 * DAY);
    expect(Number(added.institutionLoginId)).toBeGreaterThan(0);
    expect(await connectEvents(customerId)).toEqual(['started', 'institutionSelected', 'oauthStarted', 'discovered', 'added']);

    // The consent asked for: the bank, the state bound to the sign-in, Ledgerlink's callback, a personal customer.
    const auth = fake.requests.filter((r) => r.path === '/auth').at(-1)!;
    expect(auth.body).toMatchObject({
      aspsp: { name: 'Aurora Pankki', country: 'FI' },
      psu_type: 'personal',
      redirect_url: `${PUBLIC_URL}/connect/oauth/callback`,
    });
    // Reads while the customer is in Connect are attended: every PSU header the bank requires, from the browser.
    const attended = duringCallback.filter((r) => r.endpoint === 'balances');
    expect(attended.length).toBe(accounts.accounts.length);
    for (const r of attended)
      expect(r).toMatchObject({
        attended: true,
        psuHeaders: expect.objectContaining({ 'Psu-User-Agent': BROWSER['user-agent'], 'Psu-Ip-Address': '127.0.0.1' }),
      });
    // Later reads, without the customer, send none.
    for (const r of fake.requests.slice(fake.requests.indexOf(duringCallback.at(-1)!) + 1)) expect(r.attended).toBe(false);
  });

  it('refreshes every page of transactions with signs, pending items and the account currency, with no duplicates the second time', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    await linkThroughConnect(customerId, aurora);
    partner = await fresh();
    await refresh(ctx, partner, customerId);
    const first = await allTransactions(ctx, partner, customerId, { fromDate: START - 90 * DAY, toDate: START + DAY });
    const checking = fake.account('fi-checking');
    const card = fake.account('fi-card');
    // Every transaction the bank has, pending ones included (no booking date, no entry reference).
    expect(first.length).toBe(checking.transactions.length + card.transactions.length);
    expect(first.filter((t) => t.status === 'pending').length).toBeGreaterThan(0);
    // The purchase made in dollars counts in euros, as the bank booked it: never the instructed amount.
    const amazon = first.find((t) => /amazon/i.test(String(t.description)))!;
    expect(amazon.amount).toBeLessThan(0);
    expect(Math.abs(amazon.amount)).not.toBe(50);
    // Credits positive, debits negative.
    expect(first.some((t) => t.amount > 0) && first.some((t) => t.amount < 0)).toBe(true);
    await refresh(ctx, partner, customerId);
    const second = await allTransactions(ctx, partner, customerId, { fromDate: START - 90 * DAY, toDate: START + DAY });
    expect(second.map((t) => t.id).sort()).toEqual(first.map((t) => t.id).sort());
    // Every request carried the application's JWT.
    for (const r of fake.requests) {
      expect(r.jwtProblem, `${r.method} ${r.path}`).toBeUndefined();
      expect(r.jwt?.header).toMatchObject({ alg: 'RS256', kid: fake.appId });
      expect(r.jwt?.claims).toMatchObject({ iss: 'enablebanking.com', aud: 'api.enablebanking.com' });
    }
  });

  it('puts an expired consent in Fix (945), and a Fix through the bank keeps the accounts and transactions', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const { added } = await linkThroughConnect(customerId, fjall);
    partner = await fresh();
    const before = await refresh(ctx, partner, customerId);
    const transactionsBefore = await allTransactions(ctx, partner, customerId, { fromDate: nowOf(ctx) - 90 * DAY, toDate: nowOf(ctx) + DAY });
    expect(before.map((a) => a.currency)).toEqual(['SEK']);
    // Fjäll Sparbank gives 90 days: warned a week before, then expired.
    advance(84 * DAY);
    partner = await fresh();
    const modifiedEvents = () =>
      ctx.runtime.database.kysely
        .selectFrom('aggregation_events')
        .select('record')
        .where('account_id', '=', Number(before[0]!.id))
        .where('class', '=', 'account')
        .where('type', '=', 'modified')
        .execute();
    const modifiedBefore = (await modifiedEvents()).length;
    // A webhook subscription to the consent's expiry hears of it once, when the warning begins.
    const subscribed = await ctx.app.inject({
      method: 'POST',
      url: '/notification-subscriptions/webhooks',
      headers: partner.headers,
      payload: {
        url: 'https://hooks.example.com/expiry',
        events: [{ name: 'authorization.accesstoken.expiry', condition: { subscribeFor: 'institutionId', includes: [String(fjall)] } }],
      },
    });
    expect(subscribed.statusCode, subscribed.body).toBe(201);
    const expiryNotifications = async () =>
      (await ctx.runtime.database.kysely.selectFrom('deliveries').select('body').where('event_type', '=', 'authorization.accesstoken.expiry').execute()).map(
        (d) => JSON.parse(d.body).payload,
      );
    const warned = await refresh(ctx, partner, customerId);
    expect(warned[0]).toMatchObject({ aggregationStatusCode: 0, authorizationExpiring: true });
    // The warning is an account modification, which subscribers are notified of.
    const modified = await modifiedEvents();
    expect(modified.length).toBe(modifiedBefore + 1);
    expect(JSON.parse(modified.at(-1)!.record)).toMatchObject({ id: before[0]!.id, authorizationExpiring: true });
    const expiry = {
      accountId: before[0]!.id,
      institutionId: String(fjall),
      institutionLoginId: String(added.institutionLoginId),
      authorizationEndDate: expect.any(Number),
    };
    expect(await expiryNotifications()).toEqual([expiry]);
    advance(7 * DAY);
    partner = await fresh();
    const expired = await refresh(ctx, partner, customerId);
    expect(expired.map((a) => a.aggregationStatusCode)).toEqual([945]);
    expect(await expiryNotifications()).toEqual([expiry]);

    const fix = await linkThroughConnect(customerId, fjall, 'fix', added.institutionLoginId);
    expect(fix.accounts.accounts.every((a: { alreadyLinked: boolean }) => a.alreadyLinked)).toBe(true);
    expect(fix.added.institutionLoginId).toBe(added.institutionLoginId);
    partner = await fresh();
    const repaired = await refresh(ctx, partner, customerId);
    expect(repaired.map((a) => a.id)).toEqual(before.map((a) => a.id));
    expect(repaired[0]).toMatchObject({ aggregationStatusCode: 0, authorizationExpiring: false });
    const transactionsAfter = await allTransactions(ctx, partner, customerId, { fromDate: nowOf(ctx) - 200 * DAY, toDate: nowOf(ctx) + DAY });
    for (const t of transactionsBefore) expect(transactionsAfter.map((x) => x.id)).toContain(t.id);
  });

  it('fails the sign-in with its code when Enable Banking refuses to start it', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const link = await linkFor(ctx, partner, 'full', { customerId });
    await appOk(ctx, link, 'POST', '/session');
    fake.fault(enableBankingError('REDIRECT_URI_NOT_ALLOWED'), { path: '/auth', method: 'POST' });
    const step = await appOk(ctx, link, 'POST', '/signin', { institutionId: aurora, credentials: [] });
    expect(step).toMatchObject({ step: 'failed', code: 102, message: expect.stringContaining('REDIRECT_URI_NOT_ALLOWED') });
    expect(await appOk(ctx, link, 'GET', `/signin/${step.sessionId}`)).toMatchObject({ step: 'failed', code: 102 });
  });

  it('ends a refused consent like a cancelled sign-in, with its webhook', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const link = await linkFor(ctx, partner, 'full', { customerId, webhook: listener.url });
    await appOk(ctx, link, 'POST', '/session');
    const step = await appOk(ctx, link, 'POST', '/signin', { institutionId: aurora, credentials: [] });
    const back = new URL(fake.deny(step.authorizeUrl));
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect((await ctx.app.inject({ url: back.pathname + back.search, headers: BROWSER })).body).toContain('declined');
    expect((await connectEvents(customerId)).slice(-2)).toEqual(['oauthStarted', 'error']);
    expect((await get(`/aggregation/v1/customers/${customerId}/accounts`)).json().accounts).toEqual([]);
  });

  it('stays within four unattended reads of an account a day, and takes a rate limit as a temporary failure', async () => {
    // The bank counts reads per account whoever asks: the other tests' reads of the same accounts are forgotten.
    fake.reset();
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const { added } = await linkThroughConnect(customerId, fjall);
    const loginId = Number(added.institutionLoginId);
    const db = ctx.runtime.database.kysely;
    const due = () => db.updateTable('institution_logins').set({ refresh_due_at: 0 }).where('id', '=', loginId).execute();
    // A simulated day, the scheduler asked every hour and the login made due each time: the connector decides.
    fake.advance(DAY - (fake.now % DAY));
    ctx.clock.set(fake.now * 1000);
    for (let hour = 0; hour < 24; hour++) {
      await due();
      await runDueRefreshes(ctx.app.engine, { workerId: 'worker-eb', limit: 10 });
      advance(HOUR);
    }
    for (const endpoint of ['balances', 'transactions'] as const) expect(fake.unattendedReads('se-savings', endpoint)).toBeLessThanOrEqual(4);
    const unattended = fake.requests.filter((r) => r.accountKey === 'se-savings' && r.endpoint === 'transactions' && !r.attended && r.status === 200);
    expect(unattended.length).toBeGreaterThanOrEqual(3);
    expect(fake.requests.filter((r) => r.status === 429).map((r) => `${r.path} ${r.error}`)).toEqual([]);

    // The bank's own limit: a temporary failure, retried later with a backoff.
    fake.fault(enableBankingError('ASPSP_RATE_LIMIT_EXCEEDED'), { path: /\/balances$/ });
    advance(DAY);
    await due();
    const results = await runDueRefreshes(ctx.app.engine, { workerId: 'worker-eb', limit: 10 });
    expect(results.map((r) => r.loginId)).toContain(loginId);
    const login = await db.selectFrom('institution_logins').selectAll().where('id', '=', loginId).executeTakeFirstOrThrow();
    expect(Number(login.aggregation_status_code)).toBe(102);
    expect(Number(login.refresh_failures)).toBe(1);
    expect(Number(login.refresh_due_at)).toBeGreaterThan(nowOf(ctx));
  });
});
