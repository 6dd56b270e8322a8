import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameLocator, Page } from 'playwright-core';
import { addCustomer } from '../helpers/customers.js';
import { waitFor } from '../helpers/listener.js';
import { generateLink, screenshots, sdkEvents, startBrowserWorld, webhookTypes, type BrowserWorld } from '../helpers/browser.js';

/**
 * End to end in headless Chromium: a partner page on its own origin loads a Connect SDK (the published
 * connect-web-sdk package, or ours from {connect_url}/assets/sdk/) and launches a link; the test uses Connect as a
 * person would (labels, buttons), then checks the SDK callbacks, the API and the webhooks.
 */
describe('Connect in a browser', () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  });
  afterAll(() => world?.close());

  async function partnerPage(sdk: 'published' | 'ours'): Promise<Page> {
    const page = await world.browser.newPage({ viewport: { width: 1024, height: 800 } });
    await page.goto(`${world.partnerUrl}/${sdk}.html`);
    return page;
  }

  async function accountsOf(customerId: string): Promise<{ id: string; name: string; institutionLoginId: number }[]> {
    const res = await world.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: world.partner.headers });
    return res.json().accounts;
  }

  /** Search, pick FinBank, sign in with a profile, answer the text question, keep the first two accounts. */
  async function linkWithMfa(connect: FrameLocator | Page, shot: (name: string) => Promise<void>): Promise<void> {
    await connect.getByLabel('Search for your institution').fill('FinBank');
    await connect.getByRole('button', { name: 'FinBank', exact: true }).click();
    await connect.getByRole('heading', { name: 'Sign in to FinBank' }).waitFor();
    await shot('search');
    await connect.getByLabel('User ID').fill('mfa_text');
    await connect.getByLabel('Password').fill('mfa_text');
    await shot('sign-in');
    await connect.getByRole('button', { name: 'Sign in' }).click();
    await connect.getByLabel('What is the name of your first pet?').fill('rex');
    await shot('mfa');
    await connect.getByRole('button', { name: 'Continue' }).click();
    await connect.getByRole('heading', { name: 'Select accounts' }).waitFor();
    await connect.getByRole('checkbox', { name: /FinBank Cash Rewards Visa/ }).uncheck();
    await shot('accounts');
    await connect.getByRole('button', { name: 'Connect accounts' }).click();
    await connect.getByRole('heading', { name: 'Accounts connected' }).waitFor();
    await shot('success');
  }

  it('runs a Full link in an iframe with the published connect-web-sdk: search, sign-in, MFA, accounts, done', async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const link = await generateLink(world, 'generate', { customerId, experience: 'default' });
    const page = await partnerPage('published');
    const shot = screenshots('published-iframe');
    await page.evaluate((l) => (window as any).launchConnect(l), link);
    const connect = page.frameLocator('#connectIframe');
    await linkWithMfa(connect, (n) => shot(page, n));
    await connect.getByRole('button', { name: 'Done' }).click();
    await waitFor('onDone', async () => (await sdkEvents(page)).some((e) => e.name === 'done'));
    const events = await sdkEvents(page);
    expect(events.find((e) => e.name === 'done')!.event).toMatchObject({ code: 200, reason: 'done' });
    expect(events.filter((e) => e.name === 'route').map((e) => e.event.screen)).toEqual(['search', 'signIn', 'mfa', 'accounts', 'success']);
    // The SDK removed the iframe after onDone.
    expect(await page.locator('#connectIframe').count()).toBe(0);
    await shot(page, 'partner-after-done');
    expect((await accountsOf(customerId)).map((a) => a.name)).toEqual(['Everyday Checking', 'High Yield Savings']);
    expect(await webhookTypes(world, customerId)).toEqual(['started', 'institutionSelected', 'credentialsSubmitted', 'mfa', 'mfaAnswered', 'discovered', 'added', 'done']);
    await page.close();
  });
});
