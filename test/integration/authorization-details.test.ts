import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { testbank } from '../../src/connectors/testbank/index.js';
import { completeLinkOAuth, finishLink, startLink } from '../../src/modules/aggregation/linking.service.js';
import { syncAllListed } from '../../src/modules/institutions/listed.service.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { type AccountJson, linkProfile, loginForm, nowOf } from '../helpers/aggregation.js';
import { appOk, linkFor } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { type EnableBankingFake, startEnableBankingFake } from '../helpers/enable-banking.js';
import { demoAccounts, type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';

/** The test context's manual clock starts here; the fake bank's clock follows it. */
const START = Math.floor(Date.UTC(2026, 0, 15, 12, 0, 0) / 1000);
const PUBLIC_URL = 'http://127.0.0.1:9';
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156', accept: 'text/html', 'accept-language': 'fi-FI,fi;q=0.9' };
type Res = { statusCode: number; body: string; json: <T = any>() => T };

const referenceDate = (epoch: number) => `${new Date(epoch * 1000).toISOString().slice(0, 19).replace('T', ' ')}.000000+00:00`;

/** Customer authorization details, computed from each kind of login: a PSD2 consent, grants without end, credentials. */
describe('customer authorization details', () => {
  let fake: EnableBankingFake;
  let bridge: SimplefinBridge;
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let keyDir: string;
  let aurora: number;

  beforeAll(async () => {
    fake = await startEnableBankingFake({ now: START, redirectUrls: [`${PUBLIC_URL}/connect/oauth/callback`] });
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'll-auth-'));
    ctx = await createTestContext({
      LEDGERLINK_ENABLE_BANKING_APP_ID: fake.appId,
      LEDGERLINK_ENABLE_BANKING_KEY_FILE: fake.writeKeyFile(keyDir),
      LEDGERLINK_ENABLE_BANKING_URL: fake.url,
      LEDGERLINK_PUBLIC_URL: PUBLIC_URL,
    });
    ctx.clock.set(START * 1000);
    await ensureInstitutionCatalog(ctx.runtime.database);
    await syncAllListed(ctx.runtime.database, ctx.app.engine.registry, START);
    partner = await partnerWithToken(ctx, 'production');
    stranger = await partnerWithToken(ctx, 'production');
    bridge = await startSimplefinBridge({ now: () => nowOf(ctx) });
    const found = await ctx.app.inject({ url: '/institution/v2/institutions?search=Aurora%20Pankki', headers: partner.headers });
    aurora = Number(found.json().institutions[0].id);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
    await bridge?.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  const details = (who: TestPartner, loginId: number | string, accept = 'application/json'): Promise<Res> =>
    ctx.app.inject({ url: `/customers/institution-logins/${loginId}/authorization-details`, headers: { ...who.headers, accept } }) as Promise<Res>;
  const codeOf = (res: Res) => [res.statusCode, String(res.json<{ code: string }>().code)];

  /** Links the customer at an Enable Banking bank through Connect, approving at the bank; answers the login id. */
  async function linkEnableBanking(customerId: string): Promise<number> {
    const link = await linkFor(ctx, partner, 'full', { customerId });
    await appOk(ctx, link, 'POST', '/session');
    await appOk(ctx, link, 'POST', `/institutions/${aurora}`);
    const step = await appOk(ctx, link, 'POST', '/signin', { institutionId: aurora, credentials: [] });
    const back = new URL(fake.approve(step.authorizeUrl));
    await ctx.app.inject({ url: back.pathname + back.search, headers: BROWSER });
    expect((await appOk(ctx, link, 'GET', `/signin/${step.sessionId}`)).step).toBe('accounts');
    const added = await appOk(ctx, link, 'POST', `/signin/${step.sessionId}/accounts`, {});
    return Number(added.institutionLoginId);
  }

  it("answers an Enable Banking consent's start and end, as its accounts hold them", async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const loginId = await linkEnableBanking(customerId);
    const accounts: AccountJson[] = (
      await ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/institutionLogins/${loginId}/accounts`, headers: partner.headers })
    ).json().accounts;
    const ends = accounts.map((a) => Number(a.authorizationEndDate));
    expect(ends.every((e) => e > START)).toBe(true);

    const res = await details(partner, loginId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      institutionLoginId: loginId,
      authorizationStartDate: referenceDate(START),
      authorizationEndDate: referenceDate(Math.min(...ends)),
    });
    const xml = await details(partner, loginId, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(new XMLParser({ parseTagValue: false }).parse(xml.body).authorizationDetails).toMatchObject({
      institutionLoginId: String(loginId),
      authorizationStartDate: referenceDate(START),
    });
    // Another partner's login reads as an unknown one.
    expect(codeOf(await details(stranger, loginId))).toEqual([404, '16530']);
  });

  it('has no details for grants without an end date: the test bank OAuth institution and SimpleFIN', async () => {
    const customerId = await addCustomer(ctx, partner);
    const engine = ctx.app.engine;
    const step = await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 102168, redirectUri: 'https://partner.example/done' });
    if (step.step !== 'oauth') throw new Error(`expected the oauth step, got ${step.step}`);
    const pages = engine.registry.opened(testbank).oauthPages;
    const request = pages.parseAuthorizeRequest(Object.fromEntries(new URL(step.authorizeUrl).searchParams));
    if (!request.ok) throw new Error(request.error);
    const code = pages.issueAuthorizationCode(request.request, 'profile_01', nowOf(ctx));
    const accounts = await completeLinkOAuth(engine, { partnerId: partner.partnerId, sessionId: step.sessionId, code });
    if (accounts.step !== 'accounts') throw new Error(`expected the accounts step, got ${accounts.step}`);
    const oauthLogin = (await finishLink(engine, { partnerId: partner.partnerId, sessionId: accounts.sessionId })).institutionLoginId;
    expect(codeOf(await details(partner, oauthLogin))).toEqual([404, '16531']);

    const active = await addCustomer(ctx, partner, { type: 'active' });
    const token = bridge.createSetupToken({ accounts: demoAccounts(nowOf(ctx)) });
    const linked = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${active}/institutions/${SIMPLEFIN_INSTITUTION_ID}/accounts/addall`,
      headers: partner.headers,
      payload: loginForm(SIMPLEFIN_INSTITUTION_ID, token),
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const simplefinLogin = linked.json<{ accounts: AccountJson[] }>().accounts[0]!.institutionLoginId;
    expect(codeOf(await details(partner, simplefinLogin))).toEqual([404, '16531']);
  });

  it('answers 404 for logins signed in with credentials, and for unknown ones', async () => {
    const customerId = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, customerId, 'profile_01');
    expect(codeOf(await details(partner, account!.institutionLoginId))).toEqual([404, '16530']);
    expect(codeOf(await details(partner, 6999999999))).toEqual([404, '16530']);
    expect(codeOf(await details(partner, 'abc'))).toEqual([404, '16530']);
    const xml = await details(partner, 6999999999, 'application/xml');
    expect(xml.statusCode).toBe(404);
    expect(xml.body).toContain('<code>16530</code>');
  });
});
