import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createTestContext, partnerWithToken, type TestContext } from '../helpers/context.js';
import { dashboardSignIn, type DashboardBrowser } from '../helpers/dashboard.js';
import { uniqueUsername } from '../helpers/customers.js';
import { uploadStatementOk } from '../helpers/statement-uploads.js';

/** The "Your own bank data" page's checks: the partner's plan, its active customers and what they have linked. */
describe("the dashboard's own bank data page", () => {
  let ctx: TestContext;
  let testDrive: DashboardBrowser;
  let production: DashboardBrowser;
  let other: DashboardBrowser;
  let productionPartner: Awaited<ReturnType<typeof partnerWithToken>>;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    const t = await partnerWithToken(ctx);
    productionPartner = await partnerWithToken(ctx, 'production');
    const o = await partnerWithToken(ctx, 'production');
    testDrive = await dashboardSignIn(ctx, t.partnerId, t.partnerSecret);
    production = await dashboardSignIn(ctx, productionPartner.partnerId, productionPartner.partnerSecret);
    other = await dashboardSignIn(ctx, o.partnerId, o.partnerSecret);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('tells a Test Drive partner it cannot add an active customer (14060)', async () => {
    const overview = await testDrive.call('GET', '/dashboard/api/own-bank');
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json()).toEqual({ plan: 'testdrive', serviceMode: 'sandbox', activeCustomers: { found: 0, customers: [] } });
    const refused = await testDrive.call('POST', '/dashboard/api/own-bank/customers', { username: uniqueUsername() });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('14060');
  });

  it("adds a production partner's active customer and counts what a statement file brought, its own customers only", async () => {
    const username = uniqueUsername('me');
    const created = await production.call('POST', '/dashboard/api/own-bank/customers', { username, firstName: 'Me' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ username, firstName: 'Me', type: 'active' });
    const empty = (await production.call('GET', '/dashboard/api/own-bank')).json();
    expect(empty).toMatchObject({ plan: 'production', activeCustomers: { found: 1, customers: [{ username, institutionLogins: 0, accounts: 0 }] } });

    await uploadStatementOk(ctx, productionPartner, created.json().id, 'Date,Description,Amount\n2026-01-10,CORNER CAFE,-4.75\n', { type: 'text/csv' });
    const linked = (await production.call('GET', '/dashboard/api/own-bank')).json();
    expect(linked.activeCustomers.customers).toEqual([expect.objectContaining({ username, institutionLogins: 1, accounts: 1 })]);
    expect((await other.call('GET', '/dashboard/api/own-bank')).json().activeCustomers).toEqual({ found: 0, customers: [] });
    // The same username again: the rules of Add Customer.
    expect((await production.call('POST', '/dashboard/api/own-bank/customers', { username })).statusCode).toBe(409);
  });
});
