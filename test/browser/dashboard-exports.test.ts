import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountJson, linkProfile, refresh } from '../helpers/aggregation.js';
import { ARTIFACTS, axeViolations, type BrowserWorld, screenshots, signInToDashboard, startBrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';

/**
 * The Export links of a customer's page, in headless Chromium at a desktop and a phone width: every account's
 * transactions as CSV, OFX or QIF, and the chosen account's once the transactions show one; each link saves the file
 * the export API writes, named as it names it. Accessible (axe) and within the window.
 */
describe('exports from the dashboard', () => {
  let world: BrowserWorld;
  let customerId = '';
  let accounts: AccountJson[] = [];
  const screenshot = screenshots('dashboard-exports');

  beforeAll(async () => {
    world = await startBrowserWorld();
    customerId = await addCustomer(world.ctx, world.partner);
    await linkProfile(world.ctx, world.partner, customerId, 'profile_03');
    accounts = await refresh(world.ctx, world.partner, customerId);
  });
  afterAll(async () => {
    await world?.close();
  });

  async function openPage(width: number): Promise<Page> {
    const context = await world.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await signInToDashboard(page, world);
    return page;
  }

  /** Clicks a link and answers the file it saved: its suggested name and text. */
  async function download(page: Page, name: string): Promise<{ filename: string; text: string }> {
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
    const file = await saved.path();
    return { filename: saved.suggestedFilename(), text: readFileSync(file!, 'utf8') };
  }

  for (const width of [1280, 375]) {
    it(`downloads every account's and one account's transactions at ${width} px, accessible and within the window`, async () => {
      const page = await openPage(width);
      try {
        await page.goto(`${world.serviceUrl}/dashboard#/customers/${customerId}`);
        const all = page.getByRole('group', { name: 'Export all accounts' });
        await all.waitFor();
        await expect(all.getByRole('link').allTextContents()).resolves.toEqual(['CSV', 'OFX', 'QIF']);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await all.scrollIntoViewIfNeeded();
        await screenshot(page, `${width}-all`);

        const csv = await download(page, 'CSV of all accounts');
        expect(csv.filename).toBe(`transactions-${customerId}.csv`);
        const rows = csv.text.split('\r\n').filter((l) => l !== '');
        expect(rows[0]).toMatch(/^Date,Posted Date,Account,Account ID,/);
        expect(new Set(rows.slice(1).map((r) => r.split(',')[3]))).toEqual(new Set(accounts.map((a) => a.id)));

        const chosen = accounts.find((a) => a.type === 'checking') ?? accounts[0]!;
        await page.locator('#transactions-account').selectOption(chosen.id);
        const one = page.getByRole('group', { name: 'Export this account' });
        await one.waitFor();
        const ofx = await download(page, `OFX of ${chosen.name} (${chosen.id})`);
        expect(ofx.filename).toBe(`transactions-${customerId}-${chosen.id}.ofx`);
        expect(ofx.text.match(/<STMTRS>|<CCSTMTRS>/g)).toHaveLength(1);
        expect(ofx.text).toContain(`<TRNUID>${chosen.id}</TRNUID>`);
        const qif = await download(page, `QIF of ${chosen.name} (${chosen.id})`);
        expect(qif.text.startsWith(`!Account\nN${chosen.name}\n`)).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await one.scrollIntoViewIfNeeded();
        await screenshot(page, `${width}-account`);
        // The section's heading, filters and links, to look at closely (and for docs/screenshots).
        const top = (await page.locator('section', { has: one }).boundingBox())!;
        const bottom = (await one.boundingBox())!;
        const clip = { x: top.x, y: top.y, width: top.width, height: bottom.y + bottom.height + 12 - top.y };
        const file = path.join(ARTIFACTS, `dashboard-exports-${width}-links.png`);
        await page.screenshot({ path: file, clip });
        copyFileSync(file, path.join('docs', 'screenshots', `exports-${width}.png`));
      } finally {
        await page.context().close();
      }
    });
  }
});
