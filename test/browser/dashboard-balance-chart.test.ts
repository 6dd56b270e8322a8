import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { advanceCustomerClock } from '../../src/modules/aggregation/clock.service.js';
import { DAY, linkProfile, refresh, type AccountJson } from '../helpers/aggregation.js';
import { ARTIFACTS, axeViolations, screenshots, dashboardPage, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';

/**
 * The balance history chart on a customer's page, in headless Chromium at a desktop and a phone width: shown for
 * the account the transactions are filtered by, named and described for assistive technology, with the balances as
 * a table behind a disclosure, inside the window without sideways scrolling, and free of axe violations.
 */
describe('the balance history chart on the dashboard', () => {
  let world: BrowserWorld;
  let customerId = '';
  let checking: AccountJson;
  let days = 0;
  const screenshot = screenshots('dashboard-balance-chart');

  beforeAll(async () => {
    world = await startBrowserWorld();
    customerId = await addCustomer(world.ctx, world.partner);
    await linkProfile(world.ctx, world.partner, customerId, 'profile_01');
    await refresh(world.ctx, world.partner, customerId);
    // A second refresh three days on: two observed balances, the days between them derived.
    await advanceCustomerClock(world.ctx.app.engine, world.partner.partnerId, customerId, 3 * DAY);
    const accounts = await refresh(world.ctx, world.partner, customerId);
    checking = accounts.find((a) => a.type === 'checking')!;
    const history = await world.ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v1/customers/${customerId}/accounts/${checking.id}/balances/history`,
      headers: world.partner.headers,
    });
    days = history.json().balances.length;
  });
  afterAll(async () => {
    await world?.close();
  });

  const openPage = (width: number): Promise<Page> => dashboardPage(world, width);

  for (const width of [1280, 375]) {
    it(`shows the chosen account's daily balances at ${width} px, accessible and within the window`, async () => {
      const page = await openPage(width);
      try {
        await page.goto(`${world.serviceUrl}/dashboard#/customers/${customerId}?account=${checking.id}`);
        const chart = page.getByRole('group', { name: `Balance history: ${checking.name}` });
        await chart.waitFor();
        const image = chart.getByRole('img', { name: `Daily balance of ${checking.name}` });
        await expect(image.getAttribute('aria-labelledby')).resolves.toMatch(/-title .*-desc$/);
        await expect(chart.locator('svg desc').textContent()).resolves.toMatch(
          new RegExp(`^${days} days from .* lowest .* highest .*derived from transactions\\.$`),
        );
        await expect.poll(() => chart.locator('circle.dot.refresh').count(), { timeout: 10_000 }).toBe(2);
        const svgBox = await image.boundingBox();
        expect(svgBox!.width).toBeLessThanOrEqual(width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

        await screenshot(page, `${width}-chart`);
        // The chart alone, to look at closely.
        await chart.screenshot({ path: path.join(ARTIFACTS, `dashboard-balance-chart-${width}-alone.png`) });
        await chart.getByText('Show the balances as a table').click();
        const rows = chart.getByRole('table', { name: `Daily balances of ${checking.name}, newest first` }).locator('tbody tr');
        await expect(rows.count()).resolves.toBe(days);
        await expect(rows.first().textContent()).resolves.toContain('Read by a refresh');
        await expect(rows.nth(1).textContent()).resolves.toContain('Derived from transactions');
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `${width}-table`);
      } finally {
        await page.context().close();
      }
    });
  }

  it('follows the account filter: no chart for every account, the chart of the account chosen', async () => {
    const page = await openPage(1280);
    try {
      await page.goto(`${world.serviceUrl}/dashboard#/customers/${customerId}`);
      await page.getByRole('heading', { name: 'Transactions' }).waitFor();
      await expect.poll(() => page.locator('.balance-chart').count(), { timeout: 10_000 }).toBe(0);
      await page.locator('#transactions-account').selectOption(checking.id);
      await page.getByRole('group', { name: `Balance history: ${checking.name}` }).waitFor();
      await page.locator('#transactions-account').selectOption('');
      await page.locator('.balance-chart').waitFor({ state: 'detached' });
    } finally {
      await page.context().close();
    }
  });
});
