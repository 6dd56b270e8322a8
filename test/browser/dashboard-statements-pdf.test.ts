import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountJson, linkProfile, refresh } from '../helpers/aggregation.js';
import { ARTIFACTS, axeViolations, type BrowserWorld, screenshots, signInToDashboard, startBrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';

/**
 * The statement links of a customer's page, in headless Chromium at a desktop and a phone width: each account's
 * latest statement saved as the PDF file Get Customer Account Statement answers. Accessible (axe) and within the window.
 */
describe('statements from the dashboard', () => {
  let world: BrowserWorld;
  let customerId = '';
  let accounts: AccountJson[] = [];
  const screenshot = screenshots('dashboard-statements-pdf');

  beforeAll(async () => {
    world = await startBrowserWorld();
    customerId = await addCustomer(world.ctx, world.partner);
    await linkProfile(world.ctx, world.partner, customerId, 'profile_03');
    accounts = await refresh(world.ctx, world.partner, customerId);
  });
  afterAll(async () => {
    await world?.close();
  });

  for (const width of [1280, 375]) {
    it(`downloads an account's latest statement at ${width} px, accessible and within the window`, async () => {
      const context = await world.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
      const page = await context.newPage();
      try {
        await signInToDashboard(page, world);
        await page.goto(`${world.serviceUrl}/dashboard#/customers/${customerId}`);
        const chosen = accounts.find((a) => a.type === 'checking') ?? accounts[0]!;
        const link = page.getByRole('link', { name: `Latest statement of ${chosen.name} (${chosen.id}), PDF` });
        await link.waitFor();
        expect(await page.getByRole('link', { name: /^Latest statement of / }).count()).toBe(accounts.length);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await link.scrollIntoViewIfNeeded();
        await screenshot(page, `${width}`);
        // The login's accounts with their links, to look at closely (and for docs/screenshots).
        const file = path.join(ARTIFACTS, `dashboard-statements-pdf-${width}-links.png`);
        await page.locator('article.login', { has: link }).screenshot({ path: file });
        copyFileSync(file, path.join('docs', 'screenshots', `statements-${width}.png`));
        const [saved] = await Promise.all([page.waitForEvent('download'), link.click()]);
        expect(saved.suggestedFilename()).toMatch(new RegExp(`^statement-${chosen.id}-\\d{8}-\\d{8}\\.pdf$`));
        expect(
          readFileSync((await saved.path())!)
            .subarray(0, 5)
            .toString(),
        ).toBe('%PDF-');
      } finally {
        await context.close();
      }
    });
  }
});
