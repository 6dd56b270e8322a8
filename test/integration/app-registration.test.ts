import { appRegistration } from '../helpers/apps.js';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testbank } from '../../src/connectors/testbank/index.js';
import { completeLinkOAuth, finishLink, startLink } from '../../src/modules/aggregation/linking.service.js';
import { decideApp, SANDBOX_APPROVAL_SECONDS } from '../../src/modules/apps/service.js';
import { linkProfile, nowOf } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { dashboardSignIn } from '../helpers/dashboard.js';

const OAUTH_BANK = 102168;

const registration = appRegistration;

type Res = { statusCode: number; body: string; json: <T = any>() => T; headers: Record<string, unknown> };

/** App registration: registering, the sandbox's and the operator's approvals, the lists, customers and their logins. */
describe('app registration', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
  }, 60_000);
  afterAll(async () => ctx?.close());

  const call = (who: TestPartner, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, accept = 'application/json'): Promise<Res> =>
    ctx.app.inject({ method, url, headers: { ...who.headers, accept }, ...(payload ? { payload } : {}) }) as Promise<Res>;
  const codeOf = (res: Res) => [res.statusCode, String(res.json<{ code: string }>().code)];
  const register = (who: TestPartner, name: string, extra: Record<string, unknown> = {}) =>
    call(who, 'POST', '/aggregation/v1/partners/applications', registration(name, extra));
  /** Moves the service clock on, with fresh tokens for both partners (tokens last two hours). */
  const advance = async (seconds: number) => {
    ctx.clock.advance(seconds * 1000);
    partner = await renewToken(ctx, partner);
    stranger = await renewToken(ctx, stranger);
  };
  const statusOf = async (who: TestPartner, preAppId: number) =>
    (await call(who, 'GET', `/aggregation/v2/partners/applications?preAppId=${preAppId}`)).json<{
      applications: { status: string; applicationId?: string }[];
    }>().applications[0]!;
  /** Registers an app and lets the sandbox approve it; answers its ids. */
  async function approvedApp(who: TestPartner, name: string): Promise<{ preAppId: number; applicationId: string }> {
    const { preAppId } = (await register(who, name)).json<{ preAppId: number }>();
    await advance(SANDBOX_APPROVAL_SECONDS);
    const status = await statusOf(who, preAppId);
    expect(status.status).toBe('A');
    return { preAppId, applicationId: status.applicationId! };
  }
  /** Links the test bank's OAuth institution for the customer, through its authorize page; answers the login id. */
  async function linkOAuth(who: TestPartner, customerId: string): Promise<number> {
    const engine = ctx.app.engine;
    const step = await startLink(engine, { partnerId: who.partnerId, customerId, institutionId: OAUTH_BANK, redirectUri: 'https://partner.example/done' });
    if (step.step !== 'oauth') throw new Error(`expected the oauth step, got ${step.step}`);
    const pages = engine.registry.opened(testbank).oauthPages;
    const request = pages.parseAuthorizeRequest(Object.fromEntries(new URL(step.authorizeUrl).searchParams));
    if (!request.ok) throw new Error(request.error);
    const code = pages.issueAuthorizationCode(request.request, 'profile_01', nowOf(ctx));
    const accounts = await completeLinkOAuth(engine, { partnerId: who.partnerId, sessionId: step.sessionId, code });
    if (accounts.step !== 'accounts') throw new Error(`expected the accounts step, got ${accounts.step}`);
    return (await finishLink(engine, { partnerId: who.partnerId, sessionId: accounts.sessionId })).institutionLoginId;
  }

  it('registers an app pending, approved by itself after the sandbox delay with an application id', async () => {
    const res = await register(partner, 'Pending Budget');
    expect(res.statusCode, res.body).toBe(201);
    const { preAppId, status } = res.json<{ preAppId: number; status: string }>();
    expect(status).toBe('P');
    expect(preAppId).toBeGreaterThanOrEqual(2000);

    await advance(SANDBOX_APPROVAL_SECONDS - 1);
    expect(await statusOf(partner, preAppId)).toMatchObject({ status: 'P' });
    expect((await statusOf(partner, preAppId)).applicationId).toBeUndefined();
    const submitted = nowOf(ctx) - (SANDBOX_APPROVAL_SECONDS - 1);
    await advance(1);
    const approved = (await call(partner, 'GET', `/applications?pre_app_id=${preAppId}`)).json<{ found: number; applications: any[] }>();
    expect(approved.found).toBe(1);
    const [app] = approved.applications;
    expect(app).toMatchObject({ preAppId, status: 'A', name: 'Pending Budget', scopes: 'Account Info', note: 'Approved automatically (sandbox)' });
    expect(app.applicationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(app.submittedDate).toBe(`${new Date(submitted * 1000).toISOString().slice(0, 19).replace('T', ' ')}+00:00`);
    // Approved at the moment it became due, whenever it was read.
    expect(app.modifiedDate).toBe(`${new Date((submitted + SANDBOX_APPROVAL_SECONDS) * 1000).toISOString().slice(0, 19).replace('T', ' ')}+00:00`);
  });

  it('refuses registrations with a missing field, a bad URL or an image that is not a small SVG', async () => {
    const { appName: _n, ...noName } = registration('x');
    expect(codeOf(await call(partner, 'POST', '/aggregation/v1/partners/applications', noName))).toEqual([400, '10005']);
    expect(codeOf(await register(partner, '   '))).toEqual([400, '10005']);
    expect(codeOf(await register(partner, 'Bad URL', { appUrl: 'ftp://budget.example/' }))).toEqual([400, '10010']);
    expect(codeOf(await register(partner, 'Bad URL', { appUrl: 'not a url' }))).toEqual([400, '10010']);
    expect(codeOf(await register(partner, 'Bad image', { image: 'not base64!' }))).toEqual([400, '16512']);
    expect(codeOf(await register(partner, 'Bad image', { image: Buffer.from('<html></html>').toString('base64') }))).toEqual([400, '16512']);
    const big = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(13_000)}</svg>`).toString('base64');
    expect(codeOf(await register(partner, 'Big image', { image: big }))).toEqual([400, '16512']);
  });

  it('modifies a registration: pending again with its application id, approved again later; 404 for others', async () => {
    const { preAppId, applicationId } = await approvedApp(partner, 'Modified Budget');
    const res = await call(partner, 'PUT', `/aggregation/v1/partners/applications/${preAppId}`, registration('Modified Budget 2'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ preAppId, status: 'P' });
    expect(await statusOf(partner, preAppId)).toMatchObject({ status: 'P', applicationId, appName: 'Modified Budget 2' });
    await advance(SANDBOX_APPROVAL_SECONDS);
    expect(await statusOf(partner, preAppId)).toMatchObject({ status: 'A', applicationId });

    expect(codeOf(await call(stranger, 'PUT', `/aggregation/v1/partners/applications/${preAppId}`, registration('Theirs')))).toEqual([404, '16500']);
    expect(codeOf(await call(partner, 'PUT', '/aggregation/v1/partners/applications/99999999', registration('Nobody')))).toEqual([404, '16500']);
    expect(codeOf(await call(partner, 'PUT', '/aggregation/v1/partners/applications/abc', registration('Nobody')))).toEqual([404, '16500']);
    expect(codeOf(await call(partner, 'PUT', `/aggregation/v1/partners/applications/${preAppId}`, registration('Bad', { image: 'x' })))).toEqual([
      400,
      '16512',
    ]);
  });

  it('lists statuses (v2) by filters and pages, and refuses bad values', async () => {
    const fresh = await partnerWithToken(ctx);
    const ids: number[] = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) ids.push((await register(fresh, name)).json<{ preAppId: number }>().preAppId);
    const list = (query: string) => call(fresh, 'GET', `/aggregation/v2/partners/applications${query}`);
    const first = (await list('')).json();
    expect(first).toMatchObject({ totalRecords: 3, totalPages: 3, pageNumber: 1, numberOfRecordsPerPage: 1 });
    expect(first.applications).toEqual([
      expect.objectContaining({ partnerId: fresh.partnerId, preAppId: String(ids[0]), appName: 'Alpha', status: 'P', scopes: 'Account Info' }),
    ]);
    expect((await list('?page=2&pageSize=2')).json().applications.map((a: { appName: string }) => a.appName)).toEqual(['Gamma']);
    expect((await list('?appName=Beta&pageSize=10')).json().applications.map((a: { preAppId: string }) => a.preAppId)).toEqual([String(ids[1])]);
    expect((await list('?status=A&pageSize=10')).json().totalRecords).toBe(0);
    expect((await list(`?submittedDate=${nowOf(ctx) + 1}&pageSize=10`)).json().totalRecords).toBe(0);
    expect((await list(`?modifiedDate=${nowOf(ctx)}&pageSize=10`)).json().totalRecords).toBe(3);
    expect(codeOf(await list('?page=0'))).toEqual([400, '16503']);
    expect(codeOf(await list('?pageSize=0'))).toEqual([400, '16504']);
    expect(codeOf(await list('?pageSize=101'))).toEqual([400, '16505']);
    expect(codeOf(await list('?status=X'))).toEqual([400, '16507']);
    expect(codeOf(await list('?preAppId=abc'))).toEqual([400, '16507']);
    expect(codeOf(await list('?submittedDate=yesterday'))).toEqual([400, '10010']);
    expect(codeOf(await list('?preAppId=99999999'))).toEqual([404, '16500']);
    expect(codeOf(await list('?applicationId=00000000-0000-0000-0000-000000000000'))).toEqual([404, '16501']);
    // Another partner's registrations are not there at all.
    expect(codeOf(await call(partner, 'GET', `/aggregation/v2/partners/applications?preAppId=${ids[0]}`))).toEqual([404, '16500']);
    expect((await call(partner, 'GET', '/aggregation/v2/partners/applications?appName=Alpha')).json().totalRecords).toBe(0);
  });

  it('lists details by start and limit, and refuses unknown parameters and bad values', async () => {
    const fresh = await partnerWithToken(ctx);
    for (const name of ['One', 'Two', 'Three']) await register(fresh, name);
    const list = (query: string) => call(fresh, 'GET', `/applications${query}`);
    const page = (await list('?start=1&limit=2')).json();
    expect(page).toMatchObject({ found: 3, displaying: 2, moreAvailable: true });
    expect(page.applications.map((a: { name: string }) => a.name)).toEqual(['One', 'Two']);
    expect((await list('?start=2&limit=2')).json()).toMatchObject({ found: 3, displaying: 1, moreAvailable: false });
    expect((await list('?name=Two')).json().applications.map((a: { name: string }) => a.name)).toEqual(['Two']);
    expect((await list('?status=P')).json().found).toBe(3);
    expect((await list('?status=D')).json().found).toBe(0);
    expect(codeOf(await list('?start=0'))).toEqual([400, '16503']);
    expect(codeOf(await list('?limit=abc'))).toEqual([400, '16504']);
    expect(codeOf(await list('?limit=101'))).toEqual([400, '16505']);
    expect(codeOf(await list('?color=blue'))).toEqual([400, '16506']);
    expect(codeOf(await list('?status=Q'))).toEqual([400, '16507']);
    expect(codeOf(await list('?pre_app_id=x'))).toEqual([400, '16507']);
    expect((await call(stranger, 'GET', '/applications?name=One')).json().found).toBe(0);
  });

  it('lists the OAuth institutions an app covers, and 404s for unknown apps and institutions', async () => {
    const { applicationId } = await approvedApp(partner, 'Institutions Budget');
    const list = (query = '', who = partner, id = applicationId) => call(who, 'GET', `/applications/${id}/institutions${query}`);
    const all = (await list('?limit=1000')).json<{ found: number; displaying: number; institutions: { institutionId: number; status: boolean }[] }>();
    expect(all.found).toBe(all.displaying);
    const ids = all.institutions.map((i) => i.institutionId);
    expect(ids).toContain(OAUTH_BANK);
    expect(ids).not.toContain(101732);
    expect(all.institutions.every((i) => i.status)).toBe(true);
    // Exactly the catalogue's OAuth institutions.
    const oauth = await ctx.runtime.database.kysely.selectFrom('institutions').select('id').where('oauth_enabled', '=', 1).orderBy('id').execute();
    expect(ids).toEqual(oauth.map((r) => Number(r.id)));
    const one = (await list(`?institution_id=${OAUTH_BANK}`)).json();
    expect(one).toMatchObject({
      found: 1,
      displaying: 1,
      moreAvailable: false,
      institutions: [{ institutionId: OAUTH_BANK, institutionName: 'FinBank OAuth', status: true }],
    });
    expect((await list('?limit=1&start=2')).json()).toMatchObject({ displaying: 1, moreAvailable: all.found > 2 });
    expect(codeOf(await list('?institution_id=101732'))).toEqual([404, '16502']);
    expect(codeOf(await list('?start=0'))).toEqual([400, '16503']);
    expect(codeOf(await list('?limit=0'))).toEqual([400, '16504']);
    expect(codeOf(await list('?limit=1001'))).toEqual([400, '16505']);
    expect(codeOf(await list('', partner, '00000000-0000-0000-0000-000000000000'))).toEqual([404, '16501']);
    expect(codeOf(await list('', stranger))).toEqual([404, '16501']);
  });

  it('keeps registrations pending in production mode until the operator approves or rejects them', async () => {
    const prod = await createTestContext({ LEDGERLINK_MODE: 'production' });
    try {
      const who = await partnerWithToken(prod, 'production');
      const post = (name: string) =>
        prod.app.inject({ method: 'POST', url: '/aggregation/v1/partners/applications', headers: who.headers, payload: registration(name) });
      const status = async (preAppId: number) =>
        (await prod.app.inject({ url: `/aggregation/v2/partners/applications?preAppId=${preAppId}`, headers: who.headers })).json().applications[0];
      const kept = (await post('Production Budget')).json<{ preAppId: number }>().preAppId;
      const refused = (await post('Refused Budget')).json<{ preAppId: number }>().preAppId;
      prod.clock.advance(30 * 86_400 * 1000);
      await renewToken(prod, who);
      expect(await status(kept)).toMatchObject({ status: 'P' });

      const approved = await decideApp(prod.runtime, String(kept), 'A');
      expect(approved).toMatchObject({ preAppId: kept, partnerId: who.partnerId, status: 'A', note: 'Approved' });
      expect(await status(kept)).toMatchObject({ status: 'A', applicationId: approved.applicationId, note: 'Approved' });
      await decideApp(prod.runtime, String(refused), 'R', 'The app URL does not answer.');
      expect(await status(refused)).toMatchObject({ status: 'R', note: 'The app URL does not answer.' });
      expect((await status(refused)).applicationId).toBeUndefined();
      await expect(decideApp(prod.runtime, '99999999', 'A')).rejects.toMatchObject({ code: '16500' });
    } finally {
      await prod.close();
    }
  });

  it("assigns customers to an approved app, once, and answers the customer with its app's data", async () => {
    const fresh = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, fresh, { firstName: 'Ada' });
    const withApp = () => call(fresh, 'GET', `/aggregation/v1/customers/${customerId}/application`);
    expect(codeOf(await withApp())).toEqual([404, '16510']);
    const { applicationId, preAppId } = await approvedApp(fresh, 'Customer Budget');
    const other = await approvedApp(fresh, 'Second Budget');
    expect(codeOf(await withApp())).toEqual([404, '16511']);

    const set = (id: string, cust = customerId, who = fresh) => call(who, 'PUT', `/aggregation/v1/customers/${cust}/applications/${id}`);
    const res = await set(applicationId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    expect((await call(fresh, 'GET', `/aggregation/v1/customers/${customerId}`)).json()).toMatchObject({ applicationId });
    expect((await set(applicationId)).statusCode).toBe(200);
    expect(codeOf(await set(other.applicationId))).toEqual([400, '16509']);
    expect(codeOf(await set('00000000-0000-0000-0000-000000000000'))).toEqual([404, '16501']);
    expect(codeOf(await set(applicationId, '999999999'))).toEqual([404, '14001']);
    expect(codeOf(await set(applicationId, customerId, stranger))).toEqual([404, '14001']);
    const theirs = await addCustomer(ctx, stranger);
    expect(codeOf(await set(applicationId, theirs, stranger))).toEqual([404, '16501']);

    // A modified (pending again) app takes no new customers.
    await call(fresh, 'PUT', `/aggregation/v1/partners/applications/${other.preAppId}`, registration('Second Budget v2'));
    const next = await addCustomer(ctx, fresh);
    expect(codeOf(await set(other.applicationId, next))).toEqual([400, '16508']);

    const data = await withApp();
    expect(data.statusCode, data.body).toBe(200);
    expect(data.json()).toMatchObject({ id: customerId, firstName: 'Ada', lastName: '', type: 'testing', applicationId, applicationName: 'Customer Budget' });
    expect(typeof data.json().createdDate).toBe('string');
    const xml = await call(fresh, 'GET', `/aggregation/v1/customers/${customerId}/application`, undefined, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(new XMLParser({ parseTagValue: false }).parse(xml.body).customer).toMatchObject({ applicationId, applicationName: 'Customer Budget' });
    expect(codeOf(await call(stranger, 'GET', `/aggregation/v1/customers/${customerId}/application`))).toEqual([404, '14001']);
    expect(preAppId).toBeGreaterThan(0);
  });

  it("migrates an OAuth login under the customer's app: the login records it and its accounts are the answer", async () => {
    const fresh = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, fresh);
    const loginId = await linkOAuth(fresh, customerId);
    const migrate = (login: number | string, cust = customerId, who = fresh) =>
      call(who, 'PUT', `/aggregation/v2/customers/${cust}/institutionLogins/${login}/migration`);
    expect(codeOf(await migrate(loginId))).toEqual([404, '16510']);
    const { applicationId, preAppId } = await approvedApp(fresh, 'Migration Budget');
    expect(codeOf(await migrate(loginId))).toEqual([404, '16511']);
    await call(fresh, 'PUT', `/aggregation/v1/customers/${customerId}/applications/${applicationId}`);

    const before = (await call(fresh, 'GET', `/aggregation/v1/customers/${customerId}/institutionLogins/${loginId}/accounts`)).json().accounts;
    const res = await migrate(loginId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().accounts).toEqual(before);
    expect(before.length).toBeGreaterThan(0);
    const row = await ctx.runtime.database.kysely.selectFrom('institution_logins').select('application_id').where('id', '=', loginId).executeTakeFirstOrThrow();
    expect(row.application_id).toBe(applicationId);
    const xml = await call(fresh, 'PUT', `/aggregation/v2/customers/${customerId}/institutionLogins/${loginId}/migration`, undefined, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain(`<institutionLoginId>${loginId}</institutionLoginId>`);

    // A credentials login is at an institution the app does not cover.
    const [legacy] = await linkProfile(ctx, fresh, customerId, 'profile_01');
    expect(codeOf(await migrate(legacy!.institutionLoginId))).toEqual([400, '16513']);
    expect(codeOf(await migrate('6999999999'))).toEqual([404, '14001']);
    expect(codeOf(await migrate(loginId, customerId, stranger))).toEqual([404, '14001']);

    // The dashboard counts the app's customers and logins.
    const browser = await dashboardSignIn(ctx, fresh.partnerId, fresh.partnerSecret);
    const apps = (await browser.call('GET', '/dashboard/api/apps')).json().apps;
    expect(apps).toEqual([expect.objectContaining({ preAppId, applicationId, status: 'A', customers: 1, institutionLogins: 1, approvesAt: null })]);

    // Modified, the app is pending again: no migration until it is approved again.
    await call(fresh, 'PUT', `/aggregation/v1/partners/applications/${preAppId}`, registration('Migration Budget v2'));
    expect(codeOf(await migrate(loginId))).toEqual([400, '16508']);
  });

  it('answers registrations and their lists in XML, and takes an XML registration', async () => {
    const xmlHeaders = { ...partner.headers, accept: 'application/xml', 'content-type': 'application/xml' };
    const body = Object.entries(registration('XML Budget', { ownerAddressLine2: 'Suite 200' }))
      .map(([k, v]) => `<${k}>${v}</${k}>`)
      .join('');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v1/partners/applications',
      headers: xmlHeaders,
      payload: `<application>${body}</application>`,
    });
    expect(res.statusCode, res.body).toBe(201);
    const parsed = new XMLParser({ parseTagValue: false }).parse(res.body).application;
    expect(parsed.status).toBe('P');
    const preAppId = parsed.preAppId;
    const status = await call(partner, 'GET', `/aggregation/v2/partners/applications?preAppId=${preAppId}`, undefined, 'application/xml');
    expect(status.statusCode).toBe(200);
    expect(status.body).toContain('<appName>XML Budget</appName>');
    const details = await call(partner, 'GET', `/applications?pre_app_id=${preAppId}`, undefined, 'application/xml');
    expect(details.statusCode).toBe(200);
    expect(details.body).toContain('<name>XML Budget</name>');
    const modified = await ctx.app.inject({
      method: 'PUT',
      url: `/aggregation/v1/partners/applications/${preAppId}`,
      headers: xmlHeaders,
      payload: `<application>${body}</application>`,
    });
    expect(modified.statusCode, modified.body).toBe(200);
    expect(modified.body).toContain('<status>P</status>');
    await advance(SANDBOX_APPROVAL_SECONDS);
    const applicationId = (await statusOf(partner, Number(preAppId))).applicationId!;
    const institutions = await call(partner, 'GET', `/applications/${applicationId}/institutions?institution_id=${OAUTH_BANK}`, undefined, 'application/xml');
    expect(institutions.statusCode).toBe(200);
    expect(institutions.body).toContain(`<institutionId>${OAUTH_BANK}</institutionId>`);
    const refused = await call(partner, 'GET', '/applications?limit=0', undefined, 'application/xml');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('<code>16504</code>');
  });
});
