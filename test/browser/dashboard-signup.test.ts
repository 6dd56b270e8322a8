import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../helpers/browser.js';
import { createTestContext, type TestContext } from '../helpers/context.js';

/** The dashboard of a server whose operator left sign-up off (production mode's default): nothing offers it. */
describe('the dashboard with sign-up off', () => {
  let ctx: TestContext;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    ctx = await createTestContext({ LEDGERLINK_MODE: 'production' });
    url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('shows sign-in without a sign-up link, and sign-in with a notice instead of the sign-up page', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Create a Test Drive partner' }).count(), { timeout: 10_000 }).toBe(0);
    await page.goto(`${url}/dashboard#/signup`);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Sign-up is turned off on this server' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Create partner' }).count(), { timeout: 10_000 }).toBe(0);
  });
});
