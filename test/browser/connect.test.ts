import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameLocator, Page } from 'playwright-core';
import { advanceCustomerClock } from '../../src/modules/aggregation/clock.service.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { DAY, linkProfile, refresh } from '../helpers/aggregation.js';
import { addCustomer } from '../helpers/customers.js';
import { waitFor } from '../helpers/listener.js';
import { axeViolations, generateLink, screenshots, sdkEvents, startBrowserWorld, webhookTypes, type BrowserWorld } from '../helpers/browser.js';

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

  /** Fills an institution's sign-in form (the test bank's labels) and sends it. */
  async function signIn(view: FrameLocator | Page, user: string, password = user): Promise<void> {
    await view.getByLabel('User ID').fill(user);
    await view.getByLabel('Password').fill(password);
    await view.getByRole('button', { name: 'Sign in' }).click();
  }

  /** Presses a button and waits for the screen it leads to. */
  async function go(view: FrameLocator | Page, button: string, heading: string): Promise<void> {
    await view.getByRole('button', { name: button }).click();
    await view.getByRole('heading', { name: heading }).waitFor();
  }

  /** Presses Done and waits until the partner page's onDone ran. */
  async function pressDone(view: FrameLocator | Page, page: Page): Promise<void> {
    await view.getByRole('button', { name: 'Done' }).click();
    await waitFor('onDone', async () => (await sdkEvents(page)).some((e) => e.name === 'done'));
  }

  /** axe-core's WCAG 2.1 A/AA rules on the current page: no violations. */
  async function expectAccessible(page: Page): Promise<void> {
    expect(await axeViolations(page)).toEqual([]);
  }

  const linkProfileAt = (customerId: string, profile: string, institutionId = 101732) =>
    linkProfile(world.ctx, world.partner, customerId, profile, institutionId);
  const refreshed = (customerId: string) => refresh(world.ctx, world.partner, customerId);

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
    await go(connect, 'Continue', 'Select accounts');
    await connect.getByRole('checkbox', { name: /FinBank Cash Rewards Visa/ }).uncheck();
    await shot('accounts');
    await go(connect, 'Connect accounts', 'Accounts connected');
    await shot('success');
  }

  it('runs a Full link in an iframe with the published connect-web-sdk: search, sign-in, MFA, accounts, done', async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const link = await generateLink(world, 'generate', { customerId, experience: 'default', redirectUri: `${world.partnerUrl}/back` });
    const page = await partnerPage('published');
    const shot = screenshots('published-iframe');
    await page.evaluate((l) => (window as any).launchConnect(l), link);
    const connect = page.frameLocator('#connectIframe');
    await linkWithMfa(connect, (n) => shot(page, n));
    await pressDone(connect, page);
    const events = await sdkEvents(page);
    expect(events.find((e) => e.name === 'done')!.event).toMatchObject({ code: 200, reason: 'done' });
    expect(events.filter((e) => e.name === 'route').map((e) => e.event.screen)).toEqual(['search', 'signIn', 'mfa', 'accounts', 'success', 'done']);
    // The SDK removed the iframe after onDone; inside an iframe the redirect URI is refused, so the page stayed.
    await expect.poll(() => page.locator('#connectIframe').count(), { timeout: 10_000 }).toBe(0);
    expect(events.some((e) => e.name === 'user' && e.event.action === 'redirectRefused')).toBe(true);
    expect(page.url()).toBe(`${world.partnerUrl}/published.html`);
    await shot(page, 'partner-after-done');
    expect((await accountsOf(customerId)).map((a) => a.name)).toEqual(['Everyday Checking', 'High Yield Savings']);
    expect(await webhookTypes(world, customerId)).toEqual([
      'started',
      'institutionSelected',
      'credentialsSubmitted',
      'mfa',
      'mfaAnswered',
      'discovered',
      'added',
      'done',
    ]);
    await page.close();
  });

  it('runs an OAuth institution in a popup with our SDK, and closes the popup on done', async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const link = await generateLink(world, 'generate', { customerId });
    const page = await partnerPage('ours');
    const shot = screenshots('ours-popup-oauth');
    const [connect] = await Promise.all([page.waitForEvent('popup'), page.evaluate((l) => (window as any).launchConnect(l, { popup: true }), link)]);
    await connect.setViewportSize({ width: 480, height: 760 });
    await connect.getByLabel('Search for your institution').fill('FinBank OAuth');
    await connect.getByRole('button', { name: 'FinBank OAuth', exact: true }).click();
    await connect.getByRole('heading', { name: 'Sign in to FinBank OAuth' }).waitFor();
    await shot(connect, 'oauth-start');
    const [bank] = await Promise.all([connect.waitForEvent('popup'), connect.getByRole('button', { name: 'Continue to FinBank OAuth' }).click()]);
    await bank.getByLabel('Sign in as').selectOption('profile_02');
    await shot(bank, 'institution-page');
    await bank.getByRole('button', { name: 'Allow access' }).click();
    await connect.getByRole('heading', { name: 'Select accounts' }).waitFor();
    await shot(connect, 'accounts');
    await go(connect, 'Connect accounts', 'Accounts connected');
    await shot(connect, 'success');
    await pressDone(connect, page);
    await waitFor('the popup to close', () => connect.isClosed());
    expect((await accountsOf(customerId)).length).toBeGreaterThan(3);
    expect(await webhookTypes(world, customerId)).toEqual(['started', 'institutionSelected', 'oauthStarted', 'discovered', 'added', 'done']);
    await page.close();
  });

  it('runs a Lite link with our SDK in an iframe: straight to the institution, no search', async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const link = await generateLink(world, 'generate/lite', { customerId, institutionId: 102105 });
    const page = await partnerPage('ours');
    const shot = screenshots('ours-lite');
    await page.evaluate((l) => (window as any).launchConnect(l), link);
    const connect = page.frameLocator('#connectIframe');
    await connect.getByRole('heading', { name: 'Sign in to FinBank Profiles - A' }).waitFor();
    await expect.poll(() => connect.getByLabel('Search for your institution').count(), { timeout: 10_000 }).toBe(0);
    await signIn(connect, 'profile_03', 'wrong');
    await connect.getByRole('alert').filter({ hasText: 'incorrect' }).waitFor();
    await shot(page, 'wrong-password');
    await connect.getByLabel('Password').fill('profile_03');
    await connect.getByRole('button', { name: 'Sign in' }).click();
    await go(connect, 'Connect accounts', 'Accounts connected');
    await shot(page, 'success');
    await expect.poll(() => connect.getByRole('button', { name: 'Connect another institution' }).count(), { timeout: 10_000 }).toBe(0);
    await pressDone(connect, page);
    expect((await accountsOf(customerId)).length).toBe(7);
    expect(await webhookTypes(world, customerId)).toEqual([
      'started',
      'institutionSelected',
      'credentialsSubmitted',
      'invalidCredentials',
      'credentialsSubmitted',
      'discovered',
      'added',
      'done',
    ]);
    await page.close();
  });

  it('repairs a login with a Fix link and clears its error', async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const [first] = await linkProfileAt(customerId, 'refresh_108');
    await advanceCustomerClock(world.ctx.app.engine, world.partner.partnerId, customerId, 2 * DAY);
    expect((await refreshed(customerId)).every((a) => a.aggregationStatusCode === 108)).toBe(true);
    const link = await generateLink(world, 'generate/fix', { customerId, institutionLoginId: String(first!.institutionLoginId) });
    const page = await partnerPage('published');
    const shot = screenshots('published-fix');
    await page.evaluate((l) => (window as any).launchConnect(l), link);
    const connect = page.frameLocator('#connectIframe');
    await connect.getByRole('heading', { name: 'Sign in again to FinBank' }).waitFor();
    await shot(page, 'sign-in-again');
    await connect.getByLabel('User ID').fill('refresh_108');
    await connect.getByLabel('Password').fill('refresh_108');
    await go(connect, 'Sign in', 'Your accounts');
    await shot(page, 'accounts');
    await go(connect, 'Save', 'Connection repaired');
    await shot(page, 'repaired');
    await pressDone(connect, page);
    expect((await refreshed(customerId)).map((a) => a.aggregationStatusCode)).toEqual([0, 0, 0]);
    await page.close();
  });

  it('deletes an account and a whole login from account management, with the webhooks', async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const atFinBank = await linkProfileAt(customerId, 'profile_01');
    const atProfilesA = await linkProfileAt(customerId, 'student', 102105);
    const link = await generateLink(world, 'generate', { customerId });
    const page = await partnerPage('ours');
    const shot = screenshots('ours-manage');
    await page.evaluate((l) => (window as any).launchConnect(l), link);
    const connect = page.frameLocator('#connectIframe');
    await go(connect, 'Manage connected accounts', 'Connected accounts');
    await shot(page, 'manage');
    await connect.getByRole('button', { name: `Remove ${atFinBank[0]!.name}` }).click();
    await shot(page, 'confirm');
    await connect.getByRole('button', { name: `Yes, remove ${atFinBank[0]!.name}` }).click();
    await connect.getByRole('region', { name: 'FinBank Profiles - A' }).getByRole('button', { name: 'Remove all accounts at FinBank Profiles - A' }).click();
    await connect.getByRole('button', { name: 'Yes, remove all accounts at FinBank Profiles - A' }).click();
    await connect.getByRole('region', { name: 'FinBank Profiles - A' }).waitFor({ state: 'detached' });
    await shot(page, 'after-removal');
    expect((await accountsOf(customerId)).map((a) => a.id)).toEqual(atFinBank.slice(1).map((a) => a.id));
    await connect.getByRole('button', { name: 'Exit Connect' }).click();
    await waitFor('onCancel', async () => (await sdkEvents(page)).some((e) => e.name === 'cancel'));
    await drainDeliveries(world.ctx.runtime);
    const bodies = world.listener.requests.map((r) => JSON.parse(r.body)).filter((b) => b.customerId === customerId);
    expect(bodies.map((b) => b.eventType)).toEqual(['started', 'accountsDeleted', 'institutionLoginDeleted', 'cancelled']);
    expect(bodies[1].payload).toEqual({ accounts: [atFinBank[0]!.id] });
    expect(bodies[2].payload).toEqual({ institutionLoginId: String(atProfilesA[0]!.institutionLoginId), accounts: atProfilesA.map((a) => a.id) });
    await page.close();
  });

  it('honours the redirect URI when Connect is opened on its own, and refuses a tampered link', async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const link = await generateLink(world, 'generate', { customerId, redirectUri: `${world.partnerUrl}/back` });
    const page = await world.browser.newPage({ viewport: { width: 390, height: 844 } });
    const shot = screenshots('standalone');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Find your bank' }).waitFor();
    await shot(page, 'mobile-search');
    // Keyboard only: Escape leaves Connect.
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/back\?/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ code: '100', reason: 'exit' });
    await page.goto(link.replace(`customerId=${customerId}`, 'customerId=1'));
    await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    await shot(page, 'tampered');
    await page.close();
  });

  it("shows the test credentials under a test institution's sign-in form (sandbox), at desktop and phone widths", async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const link = await generateLink(world, 'generate/lite', { customerId, institutionId: 101732 });
    const shot = screenshots('test-credentials');
    for (const [width, height, name] of [
      [1280, 800, 'desktop'],
      [375, 812, 'mobile'],
    ] as const) {
      const page = await world.browser.newPage({ viewport: { width, height } });
      await page.goto(link);
      await page.getByRole('heading', { name: 'Sign in to FinBank' }).waitFor();
      const hint = page.getByRole('complementary', { name: 'Test credentials' });
      await hint.waitFor();
      expect(await hint.isVisible()).toBe(true);
      const text = (await hint.textContent()) ?? '';
      expect(text).toContain('profile_01');
      expect(text).toMatch(/password is the user ID/);
      // The hint fits the width: nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page);
      await shot(page, name);
      // The hint works: its first user signs in.
      await page.getByLabel('User ID').fill('profile_01');
      await page.getByLabel('Password').fill('profile_01');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: /accounts/i }).waitFor();
      await page.close();
    }
  });
});
