import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { linkProfile, nowOf } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { dashboardSignIn, type DashboardBrowser } from '../helpers/dashboard.js';

/** A customer's page shows each login's refresh status, and its Refresh button refreshes the login now. */
describe("the dashboard's refresh of an institution login", () => {
  let ctx: TestContext;
  let mine: TestPartner;
  let browser: DashboardBrowser;
  let theirBrowser: DashboardBrowser;
  let customerId: string;
  let loginId: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    mine = await partnerWithToken(ctx);
    const theirs = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, mine);
    loginId = (await linkProfile(ctx, mine, customerId, 'profile_03', 102105))[0]!.institutionLoginId;
    browser = await dashboardSignIn(ctx, mine.partnerId, mine.partnerSecret);
    theirBrowser = await dashboardSignIn(ctx, theirs.partnerId, theirs.partnerSecret);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const refreshUrl = (login: number | string = loginId) => `/dashboard/api/customers/${customerId}/institutionLogins/${login}/refresh`;

  it("shows each login's status on the customer's page, as the API answers it", async () => {
    const page = await browser.call('GET', `/dashboard/api/customers/${customerId}`);
    expect(page.statusCode, page.body).toBe(200);
    const [login] = page.json().institutionLogins;
    const api = await ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v1/customers/${customerId}/institutionLogins/${loginId}/status`,
      headers: mine.headers,
    });
    expect(login.status).toEqual(api.json());
    expect(login.status).toMatchObject({ source: 'testbank', refreshSchedule: 'manual', aggregationStatusCode: 0 });
  });

  it('refreshes the login now and answers its status afterwards, a failure included', async () => {
    ctx.clock.advance(60_000);
    const ok = await browser.call('POST', refreshUrl());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ institutionLoginId: loginId, aggregationStatusCode: 0, aggregationSuccessDate: nowOf(ctx), consecutiveFailures: 0 });

    const set = await browser.call('POST', `/dashboard/api/customers/${customerId}/sandbox/logins/${loginId}/error`, { code: 102 });
    expect(set.statusCode, set.body).toBe(200);
    ctx.clock.advance(60_000);
    const failed = await browser.call('POST', refreshUrl());
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json()).toMatchObject({ aggregationStatusCode: 102, aggregationAttemptDate: nowOf(ctx), consecutiveFailures: 1 });
    expect(failed.json().aggregationSuccessDate).toBeLessThan(nowOf(ctx));
  });

  it("needs the CSRF token, and answers 404 for another partner's login as for an unknown one", async () => {
    const noToken = await browser.call('POST', refreshUrl(), undefined, { 'x-csrf-token': 'wrong' });
    expect(noToken.statusCode).toBe(403);
    const foreign = await theirBrowser.call('POST', refreshUrl());
    const unknown = await browser.call('POST', refreshUrl(999_999_999));
    expect(foreign.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json().code).toBe(unknown.json().code);
  });
});
