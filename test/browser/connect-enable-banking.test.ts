import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncAllListed } from '../../src/modules/institutions/listed.service.js';
import { axeViolations, screenshots, startBrowserWorld, webhookTypes, type BrowserWorld } from '../helpers/browser.js';
import { partnerWithToken, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startEnableBankingFake, type EnableBankingFake } from '../helpers/enable-banking.js';

/**
 * A European bank linked through Connect in headless Chromium, as a person would: Connect's search, the bank's own
 * page (the local fake of Enable Banking's) in a window of its own, back to Connect's accounts, at a desktop's and a
 * phone's width, with axe on every screen.
 */
describe('Enable Banking through Connect in a browser', () => {
  let fake: EnableBankingFake;
  let world: BrowserWorld;
  let owner: TestPartner;
  let keyDir: string;

  beforeAll(async () => {
    fake = await startEnableBankingFake();
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'll-eb-browser-'));
    world = await startBrowserWorld({
      LEDGERLINK_ENABLE_BANKING_APP_ID: fake.appId,
      LEDGERLINK_ENABLE_BANKING_KEY_FILE: fake.writeKeyFile(keyDir),
      LEDGERLINK_ENABLE_BANKING_URL: fake.url,
    });
    fake.redirectUrls = [`${world.serviceUrl}/connect/oauth/callback`];
    await syncAllListed(world.ctx.runtime.database, world.ctx.app.engine.registry, fake.now);
    owner = await partnerWithToken(world.ctx, 'production');
  });
  afterAll(async () => {
    await world?.close();
    await fake?.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  for (const width of [1280, 375]) {
    it(`links the accounts of a bank at ${width} px`, async () => {
      const customerId = await addCustomer(world.ctx, owner, { type: 'active' });
      const generated = await world.ctx.app.inject({
        method: 'POST',
        url: '/connect/v2/generate',
        headers: owner.headers,
        payload: { partnerId: owner.partnerId, customerId, webhook: world.listener.url },
      });
      expect(generated.statusCode).toBe(200);
      const shot = screenshots(`enable-banking-${width}`);
      const page = await world.browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(generated.json().link);
      await page.getByLabel('Search for your institution').fill('Aurora Pankki');
      await page.getByRole('button', { name: 'Aurora Pankki', exact: true }).click();
      await page.getByRole('heading', { name: 'Sign in to Aurora Pankki' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'sign-in');

      const [bank] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Continue to Aurora Pankki' }).click()]);
      await bank.setViewportSize({ width, height: 800 });
      await bank.getByRole('button', { name: 'Allow' }).waitFor();
      expect(await axeViolations(bank)).toEqual([]);
      await shot(bank, 'bank-page');
      await bank.getByRole('button', { name: 'Allow' }).click();

      await page.getByRole('heading', { name: 'Select accounts' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'accounts');
      await page.getByRole('button', { name: 'Connect accounts' }).click();
      await page.getByRole('heading', { name: 'Accounts connected' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, 'connected');
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      const accounts = (await world.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: owner.headers })).json().accounts;
      expect(accounts.map((a: { currency: string }) => a.currency)).toEqual(['EUR', 'EUR']);
      expect(await webhookTypes(world, customerId)).toEqual(['started', 'institutionSelected', 'oauthStarted', 'discovered', 'added']);
      await page.close();
    });
  }
});
