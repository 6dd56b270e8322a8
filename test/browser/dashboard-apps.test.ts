import { appRegistration } from '../helpers/apps.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { decideApp, SANDBOX_APPROVAL_SECONDS } from '../../src/modules/apps/service.js';
import { axeViolations, dashboardPage, screenshots, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';

/**
 * The App registrations page of the dashboard, in headless Chromium at a desktop and a phone width: an approved app
 * with its application id and its customer, a pending one saying when the sandbox approves it, a rejected one with
 * the operator's note. Inside the window without sideways scrolling and free of axe violations.
 */
describe('the app registrations page', () => {
  let world: BrowserWorld;
  let applicationId = '';
  const screenshot = screenshots('dashboard-apps');

  async function register(appName: string): Promise<number> {
    const res = await world.ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v1/partners/applications',
      headers: world.partner.headers,
      payload: appRegistration(appName),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ preAppId: number }>().preAppId;
  }

  beforeAll(async () => {
    world = await startBrowserWorld();
    const approved = await register('Approved Budget');
    world.ctx.clock.advance(SANDBOX_APPROVAL_SECONDS * 1000);
    const status = await world.ctx.app.inject({ url: `/aggregation/v2/partners/applications?preAppId=${approved}`, headers: world.partner.headers });
    applicationId = status.json().applications[0].applicationId;
    const customerId = await addCustomer(world.ctx, world.partner);
    const assigned = await world.ctx.app.inject({
      method: 'PUT',
      url: `/aggregation/v1/customers/${customerId}/applications/${applicationId}`,
      headers: world.partner.headers,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    await register('Pending Budget');
    await decideApp(world.ctx.runtime, String(await register('Rejected Budget')), 'R', 'The app URL does not answer.');
  });
  afterAll(async () => {
    await world?.close();
  });

  const openPage = (width: number): Promise<Page> => dashboardPage(world, width);

  for (const width of [1280, 375]) {
    it(`lists the partner's apps with their status, application id and customers at ${width} px`, async () => {
      const page = await openPage(width);
      try {
        await page.goto(`${world.serviceUrl}/dashboard#/apps`);
        await page.getByRole('heading', { name: 'App registrations', level: 1 }).waitFor();
        const rows = page.locator('table tbody tr');
        await rows.first().waitFor();
        await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
        const approved = (await rows.nth(0).textContent())!;
        expect(approved).toContain('Approved Budget');
        expect(approved).toContain('Approved');
        expect(approved).toContain(applicationId);
        const pending = (await rows.nth(1).textContent())!;
        expect(pending).toContain('Pending Budget');
        expect(pending).toMatch(/Pending.*Approved by itself at .* \(sandbox\)/);
        const rejected = (await rows.nth(2).textContent())!;
        expect(rejected).toContain('Rejected');
        expect(rejected).toContain('The app URL does not answer.');
        // The approved app's customer and logins.
        const cells = await rows.nth(0).locator('td').allTextContents();
        expect(cells.slice(-2)).toEqual(['1', '0']);
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `${width}-apps`);
      } finally {
        await page.context().close();
      }
    });
  }
});
