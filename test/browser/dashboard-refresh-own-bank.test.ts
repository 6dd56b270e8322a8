import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { linkProfile, refresh } from '../helpers/aggregation.js';
import { axeViolations, screenshots, signInToDashboard, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { partnerWithToken, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { uploadStatementOk } from '../helpers/statement-uploads.js';

/**
 * A login's refresh status and Refresh button on a customer's page, and the "Your own bank data" page, in headless
 * Chromium at a desktop and a phone width: what they say, within the window, and free of axe violations.
 */
describe('refresh status and the own bank data page on the dashboard', () => {
  let world: BrowserWorld;
  let production: TestPartner;
  let customerId = '';
  let loginId = 0;
  const screenshot = screenshots('dashboard-refresh-own-bank');

  beforeAll(async () => {
    world = await startBrowserWorld();
    customerId = await addCustomer(world.ctx, world.partner);
    loginId = (await linkProfile(world.ctx, world.partner, customerId, 'profile_03', 102105))[0]!.institutionLoginId;
    await refresh(world.ctx, world.partner, customerId);
    production = await partnerWithToken(world.ctx, 'production');
    const me = await addCustomer(world.ctx, production, { type: 'active', firstName: 'Me' });
    await uploadStatementOk(world.ctx, production, me, 'Date,Description,Amount\n2026-01-10,CORNER CAFE,-4.75\n', { type: 'text/csv' });
  });
  afterAll(async () => {
    await world?.close();
  });

  async function openPage(width: number, as: TestPartner = world.partner): Promise<Page> {
    const context = await world.browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await signInToDashboard(page, { ...world, partner: as });
    return page;
  }

  const fitsWidth = (page: Page, width: number) => expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);

  for (const width of [1280, 375]) {
    it(`shows each login's refresh status with a working Refresh button at ${width} px`, async () => {
      const page = await openPage(width);
      try {
        await page.goto(`${world.serviceUrl}/dashboard#/customers/${customerId}`);
        const panel = page.getByRole('group', { name: `Refresh of login ${loginId}` });
        await panel.waitFor();
        await expect(panel.textContent()).resolves.toMatch(/SourceTest bank.*Last success.*Next refreshNone: refreshed when asked.*Failures in a row0/);
        await screenshot(page, `${width}-customer`);
        expect(await axeViolations(page)).toEqual([]);
        await fitsWidth(page, width);

        await panel.getByRole('button', { name: 'Refresh now' }).click();
        await page.getByText(`Login ${loginId} refreshed.`).waitFor();
        // The page redraws (after the toast) with focus back on the button.
        await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 15_000 }).toBe(`refresh-${loginId}`);
        await screenshot(page, `${width}-refreshed`);
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await page.context().close();
      }
    });

    it(`walks a Test Drive partner and a production partner through their own bank data at ${width} px`, async () => {
      const sandbox = await openPage(width);
      try {
        await sandbox.goto(`${world.serviceUrl}/dashboard#/own-bank`);
        await sandbox.getByRole('heading', { level: 1, name: 'Your own bank data' }).waitFor();
        await expect(sandbox.getByRole('listitem').filter({ hasText: '1. A production partner' }).textContent()).resolves.toMatch(
          /To do.*code 14060.*partner create --plan production/,
        );
        await screenshot(sandbox, `${width}-own-bank-testdrive`);
        expect(await axeViolations(sandbox)).toEqual([]);
        await fitsWidth(sandbox, width);
      } finally {
        await sandbox.context().close();
      }
      const page = await openPage(width, production);
      try {
        await page.goto(`${world.serviceUrl}/dashboard#/own-bank`);
        await page.getByRole('heading', { level: 1, name: 'Your own bank data' }).waitFor();
        for (const n of [1, 2, 3, 4]) await expect(page.locator(`#own-step-${n}`).locator('..').locator('..').textContent()).resolves.toContain('Done');
        await page.getByText('1 institution login · 1 account').waitFor();
        await page.getByRole('button', { name: 'Open Connect' }).waitFor();
        await screenshot(page, `${width}-own-bank-production`);
        expect(await axeViolations(page)).toEqual([]);
        await fitsWidth(page, width);
      } finally {
        await page.context().close();
      }
    });
  }
});
