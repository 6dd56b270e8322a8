import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, screenshots, dashboardPage, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { createConsumer } from '../helpers/consumers.js';
import { addCustomer } from '../helpers/customers.js';

/**
 * The Consumer section of a customer's page on the dashboard, in headless Chromium at a desktop and a phone width: the
 * consumer the API created, read-only, its SSN as the last four digits; a customer without one says how to create it.
 * Inside the window without sideways scrolling and free of axe violations.
 */
describe('the consumer on the dashboard', () => {
  let world: BrowserWorld;
  let withConsumer = '';
  let without = '';
  let consumerId = '';
  const screenshot = screenshots('dashboard-consumer');

  beforeAll(async () => {
    world = await startBrowserWorld();
    withConsumer = await addCustomer(world.ctx, world.partner);
    consumerId = await createConsumer(world.ctx, world.partner, withConsumer);
    without = await addCustomer(world.ctx, world.partner);
  });
  afterAll(async () => {
    await world?.close();
  });

  const openPage = (width: number): Promise<Page> => dashboardPage(world, width);
  const consumerSection = (page: Page) => page.locator('section').filter({ has: page.getByRole('heading', { name: 'Consumer', exact: true }) });

  for (const width of [1280, 375]) {
    it(`shows the customer's consumer, and how to create one where there is none, at ${width} px`, async () => {
      const page = await openPage(width);
      try {
        await page.goto(`${world.serviceUrl}/dashboard#/customers/${withConsumer}`);
        const details = page.locator('#consumer-details');
        await details.waitFor();
        const text = (await details.textContent())!;
        for (const shown of [
          consumerId,
          'John Doe PhD',
          '434 W Ascension Way, Murray, UT 84123',
          '1-801-984-4200',
          'someone@example.com',
          'ending 8989',
          '1989-12-13',
          'Acme Lending',
        ]) {
          expect(text, shown).toContain(shown);
        }
        expect(text).not.toContain('989898989');
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `${width}-consumer`);

        await page.goto(`${world.serviceUrl}/dashboard#/customers/${without}`);
        await consumerSection(page).getByText('No consumer yet.').waitFor();
        await expect(consumerSection(page).textContent()).resolves.toContain(`POST /decisioning/v1/customers/${without}/consumer`);
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      } finally {
        await page.context().close();
      }
    });
  }
});
