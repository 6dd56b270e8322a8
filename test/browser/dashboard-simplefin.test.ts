import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type AccountJson, linkProfile, refresh } from '../helpers/aggregation.js';
import { axeViolations, screenshots, dashboardPage, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';
import { readAccess } from '../helpers/simplefin-server.js';

/**
 * The SimpleFIN section of a customer's page on the dashboard, in headless Chromium at a desktop and a phone width: a
 * setup token for one account shown once with Copy, claimed by a client, the access listed, and revoked after the
 * inline confirmation; inside the window without sideways scrolling and free of axe violations.
 */
describe('SimpleFIN on the dashboard', () => {
  let world: BrowserWorld;
  let customerId = '';
  let accounts: AccountJson[] = [];
  const screenshot = screenshots('dashboard-simplefin');

  beforeAll(async () => {
    world = await startBrowserWorld();
    customerId = await addCustomer(world.ctx, world.partner);
    await linkProfile(world.ctx, world.partner, customerId, 'profile_01');
    accounts = await refresh(world.ctx, world.partner, customerId);
  });
  afterAll(async () => {
    await world?.close();
  });

  const openPage = (width: number): Promise<Page> => dashboardPage(world, width);
  /** The section alone, for docs/dashboard.md. */
  const sectionShot = (page: Page, name: string) =>
    page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'SimpleFIN', exact: true }) })
      // The sticky top bar would cover the section's top once it is scrolled into view.
      .screenshot({ path: `docs/screenshots/simplefin-${name}.png`, style: '.topbar, body > .toasts { visibility: hidden; }' });
  const accessesOf = async () =>
    (await world.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/simplefin/accesses`, headers: world.partner.headers })).json<{
      accesses: { id: string; accountIds?: string[]; revokedDate?: number }[];
    }>().accesses;

  for (const width of [1280, 375]) {
    it(`creates a setup token for one account, shows the access its claim made and revokes it at ${width} px`, async () => {
      const page = await openPage(width);
      try {
        await page.goto(`${world.serviceUrl}/dashboard#/customers/${customerId}`);
        const form = page.getByRole('form', { name: 'Create a SimpleFIN setup token' });
        await form.waitFor();
        const account = accounts[0]!;
        await form.getByLabel(`Only ${account.name} (${account.id})`).check();
        await form.getByRole('button', { name: 'Create setup token' }).click();
        const shown = page.locator('#simplefin-token');
        await shown.waitFor();
        const setupToken = (await shown.textContent())!;
        const claimUrl = Buffer.from(setupToken, 'base64').toString();
        expect(claimUrl.startsWith(`${world.serviceUrl}/simplefin/claim/`)).toBe(true);
        await page.getByRole('button', { name: 'Copy the setup token' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `${width}-token`);
        await sectionShot(page, `${width}-token`);

        // A client claims it and reads once.
        const claimed = await world.ctx.app.inject({ method: 'POST', url: new URL(claimUrl).pathname });
        expect(claimed.statusCode, claimed.body).toBe(200);
        expect((await readAccess(world.ctx, claimed.body, 'accounts')).statusCode).toBe(200);
        const mine = (await accessesOf()).at(-1)!;
        expect(mine.accountIds).toEqual([account.id]);

        await page.reload();
        const revoke = page.getByRole('button', { name: `Revoke access ${mine.id}` });
        await revoke.waitFor();
        const row = page.getByRole('row').filter({ hasText: mine.id });
        await expect(row.textContent()).resolves.toContain('1 (1 of 24 today)');
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `${width}-accesses`);
        await sectionShot(page, `${width}-accesses`);

        await revoke.click();
        await page
          .getByRole('group', { name: `Confirm revoking access ${mine.id}` })
          .getByRole('button', { name: 'Revoke now' })
          .click();
        await page
          .getByRole('row')
          .filter({ hasText: mine.id })
          .getByText(/^revoked /)
          .waitFor();
        expect((await accessesOf()).find((a) => a.id === mine.id)!.revokedDate).toEqual(expect.any(Number));
        expect((await readAccess(world.ctx, claimed.body, 'accounts')).statusCode).toBe(403);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `${width}-revoked`);
      } finally {
        await page.context().close();
      }
    });
  }
});
