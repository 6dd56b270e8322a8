import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { linkProfile, refresh } from '../helpers/aggregation.js';
import { ARTIFACTS, axeViolations, signInToDashboard, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';

/** Every page of the dashboard: hash, the level-1 heading it shows, and the name of its screenshot. */
const PAGES = (customerId: string): { hash: string; heading: string | RegExp; name: string }[] => [
  { hash: '/credentials', heading: 'Credentials', name: 'credentials' },
  { hash: '/customers', heading: 'Customers', name: 'customers' },
  { hash: `/customers/${customerId}`, heading: 'Wide Screen', name: 'customer' },
  { hash: '/requests', heading: 'API requests', name: 'requests' },
  { hash: '/deliveries', heading: 'Deliveries', name: 'deliveries' },
  { hash: '/mail', heading: 'E-mails', name: 'mail' },
  { hash: '/experiences', heading: 'Connect experiences', name: 'experiences' },
  { hash: '/apps', heading: 'App registrations', name: 'apps' },
];

/**
 * The dashboard's layout at a phone's width (375 px) and a laptop's (1280 px): no page scrolls sideways, every page
 * passes axe-core's WCAG 2.1 A/AA rules, Sign out stays on screen, and on the phone the navigation folds behind a
 * menu button. Screenshots: test-artifacts/browser/dashboard-<page>-<width>.png.
 */
describe('the dashboard at 375 px and 1280 px', () => {
  let world: BrowserWorld;
  let customerId: string;

  beforeAll(async () => {
    world = await startBrowserWorld();
    // A customer with a linked, aggregated profile: the widest page there is (accounts, transactions, sandbox controls).
    customerId = await addCustomer(world.ctx, world.partner, { username: 'layout-customer-01', firstName: 'Wide', lastName: 'Screen' });
    await linkProfile(world.ctx, world.partner, customerId, 'profile_03');
    await refresh(world.ctx, world.partner, customerId);
  });
  afterAll(async () => {
    await world?.close();
  });

  /** The page's width as laid out: more than the viewport means the page scrolls sideways. */
  const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
  const shot = async (page: Page, name: string, width: number) => {
    // From the top: the header stays at the top of the window, which a full-page capture of a scrolled page shows mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, `dashboard-${name}-${width}.png`), fullPage: true });
  };

  for (const width of [375, 1280]) {
    it(`fits every page into ${width} px, accessibly, with Sign out on screen`, async () => {
      const context = await world.browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      try {
        for (const [hash, heading, name] of [
          ['/signin', 'Sign in', 'signin'],
          ['/signup', 'Create a Test Drive partner', 'signup'],
        ] as const) {
          await page.goto(`${world.serviceUrl}/dashboard#${hash}`);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          expect(await scrollWidth(page), name).toBeLessThanOrEqual(width);
          expect(await axeViolations(page), name).toEqual([]);
          await shot(page, name, width);
        }
        await page.goto(`${world.serviceUrl}/dashboard#/signin`);
        await page.getByLabel('Partner ID').fill(world.partner.partnerId);
        await page.getByLabel('Partner secret').fill(world.partner.partnerSecret);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();

        for (const p of PAGES(customerId)) {
          await page.goto(`${world.serviceUrl}/dashboard#${p.hash}`);
          await page.getByRole('heading', { level: 1, name: p.heading }).waitFor();
          if (p.name === 'customer') await page.getByRole('region', { name: 'Transactions' }).getByRole('table').waitFor();
          expect(await scrollWidth(page), p.name).toBeLessThanOrEqual(width);
          expect(await axeViolations(page), p.name).toEqual([]);
          const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
          expect(signOut, p.name).not.toBeNull();
          expect(signOut!.x, p.name).toBeGreaterThanOrEqual(0);
          expect(signOut!.x + signOut!.width, p.name).toBeLessThanOrEqual(width);
          await shot(page, p.name, width);
        }
        expect(dialogs).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('keeps a message until the next replaces it or the user dismisses it: no timer takes it away', async () => {
    const context = await world.browser.newContext({ viewport: { width: 375, height: 800 } });
    // The page's own timers run only when this test moves its clock.
    await context.clock.install();
    const page = await context.newPage();
    try {
      await signInToDashboard(page, world);
      const toasts = page.locator('#toasts .toast');
      await toasts.filter({ hasText: 'Signed in as' }).waitFor();
      // A minute of the page's time: every timer due by then has fired.
      await context.clock.runFor(60_000);
      await expect(toasts.allTextContents()).resolves.toEqual([expect.stringContaining('Signed in as')]);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'toast', 375);
      const dismiss = page.getByRole('button', { name: 'Dismiss message' });
      await dismiss.focus();
      await page.keyboard.press('Enter');
      await expect(toasts.count()).resolves.toBe(0);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    } finally {
      await context.close();
    }
  });

  it('folds the navigation behind a menu button at 375 px; a link closes it again', async () => {
    const context = await world.browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    try {
      await signInToDashboard(page, world);
      const nav = page.getByRole('navigation', { name: 'Dashboard' });
      const menu = page.getByRole('button', { name: 'Menu' });
      expect(await nav.isVisible()).toBe(false);
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await nav.getByRole('link', { name: 'Customers' }).waitFor();
      // The plan badge, hidden from the narrow header, is in the menu.
      expect(await nav.getByText('Test Drive', { exact: true }).isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
      await shot(page, 'menu', 375);
      await nav.getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
      expect(await nav.isVisible()).toBe(false);
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      // Escape closes it too, and gives focus back to the button.
      await menu.click();
      await nav.getByRole('link', { name: 'Credentials' }).focus();
      await page.keyboard.press('Escape');
      expect(await nav.isVisible()).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');
      // On a wide screen there is no menu button: the navigation is always there.
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await menu.isVisible()).toBe(false);
      expect(await nav.isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
