import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { axeViolations, screenshots, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { loginForm } from '../helpers/aggregation.js';

const SECRET = 'Dashboard-secret-2026';

/**
 * The developer dashboard in headless Chromium, used as a developer would (labels, buttons, links): sign-up,
 * sign-out and sign-in, key rotation checked against the API, the delivery log with redelivery, and experience
 * editing seen in the Connect app. Every page visited is checked with axe-core.
 */
describe('the dashboard in a browser', () => {
  let world: BrowserWorld;
  let context: BrowserContext;
  let page: Page;
  const shot = screenshots('dashboard');
  const partner = { partnerId: '', appKey: '', linkedCustomerId: '' };

  beforeAll(async () => {
    world = await startBrowserWorld();
    context = await world.browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await world?.close();
  });

  /** axe-core's WCAG 2.1 A/AA rules on the current page: no violations. */
  async function expectAccessible(): Promise<void> {
    expect(await axeViolations(page)).toEqual([]);
  }

  async function api(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) {
    return world.ctx.app.inject({ method, url, headers: { accept: 'application/json', ...headers }, ...(payload ? { payload } : {}) });
  }

  async function token(appKey: string): Promise<string> {
    const res = await api(
      'POST',
      '/aggregation/v2/partners/authentication',
      { 'service-app-key': appKey },
      { partnerId: partner.partnerId, partnerSecret: SECRET },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token;
  }

  async function go(hash: string, heading: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: heading }).click();
    await page.waitForURL(`**/dashboard#${hash}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  }

  it('signs up a Test Drive partner: the secret policy is explained, then the credentials are shown', async () => {
    const served = await page.goto(`${world.serviceUrl}/dashboard#/signup`);
    expect(served?.headers()['content-security-policy']).toMatch(/script-src 'self'.*frame-ancestors 'none'/);
    await page.getByRole('heading', { name: 'Create a Test Drive partner' }).waitFor();
    await expectAccessible();
    await page.getByLabel('Partner name').fill('Acme Lending');
    await page.getByLabel('Partner secret', { exact: true }).fill('short');
    await page.getByLabel('Confirm partner secret').fill('short');
    await page.getByRole('button', { name: 'Create partner' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/12 to 255 characters long \(code 24437\)/);
    await shot(page, 'signup-policy');
    await page.getByLabel('Partner secret', { exact: true }).fill(SECRET);
    await page.getByLabel('Confirm partner secret').fill(SECRET);
    await page.getByRole('button', { name: 'Create partner' }).click();
    await page.getByRole('heading', { name: 'Your partner is ready' }).waitFor();
    partner.partnerId = (await page.getByTestId('partner-id').textContent())!;
    partner.appKey = (await page.getByTestId('app-key').textContent())!;
    expect(partner.partnerId).toMatch(/^\d{13}$/);
    expect(partner.appKey).toMatch(/^[0-9a-f]{32}$/);
    await expectAccessible();
    await shot(page, 'signup-credentials');
    // The new partner works with the API at once, on the Test Drive plan.
    const res = await api('GET', '/aggregation/v1/partners/me', { 'service-app-key': partner.appKey, 'service-app-token': await token(partner.appKey) });
    expect(res.json()).toMatchObject({ partnerId: partner.partnerId, name: 'Acme Lending', plan: 'testdrive' });
    await page.getByRole('button', { name: 'Go to the dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'ledgerlink_dashboard');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard', secure: false });
  });

  it('signs out, refuses a wrong secret, and signs in with partner id and secret', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await context.cookies()).find((c) => c.name === 'ledgerlink_dashboard')).toBeUndefined();
    await page.getByLabel('Partner ID').fill(partner.partnerId);
    await page.getByLabel('Partner secret').fill('Wrong-secret-9999');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^Invalid credentials( \(code 10001\))?$/);
    await expectAccessible();
    await shot(page, 'signin-wrong-secret');
    await page.getByLabel('Partner secret').fill(SECRET);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
    // The successful sign-in reset the failure count.
    await expect(page.getByText('No failed authentications since the last success.').isVisible()).resolves.toBe(true);
    await expectAccessible();
    await shot(page, 'credentials');
  });

  it('rotates the app key: the old key is refused by the API at once, the new one works', async () => {
    const oldToken = await token(partner.appKey);
    await page.getByRole('button', { name: 'Reveal' }).click();
    // The key is fetched when asked for: wait until it is shown instead of the dots.
    await page.getByTestId('app-key').filter({ hasText: partner.appKey }).waitFor();
    await expect(page.getByTestId('app-key').textContent()).resolves.toBe(partner.appKey);
    await page.getByRole('button', { name: 'Rotate app key' }).click();
    await page.getByRole('button', { name: 'Rotate now' }).click();
    await page.getByText('The previous key is refused from now on').waitFor();
    await page
      .getByTestId('app-key')
      .filter({ hasText: /^[0-9a-f]{32}$/ })
      .filter({ hasNotText: partner.appKey })
      .waitFor();
    const newKey = (await page.getByTestId('app-key').textContent())!;
    expect(newKey).toMatch(/^[0-9a-f]{32}$/);
    expect(newKey).not.toBe(partner.appKey);
    await shot(page, 'key-rotated');
    const old = await api('GET', '/aggregation/v1/customers', { 'service-app-key': partner.appKey, 'service-app-token': oldToken });
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('10020');
    const fresh = await api('GET', '/aggregation/v1/customers', { 'service-app-key': newKey, 'service-app-token': oldToken });
    expect(fresh.statusCode).toBe(200);
    partner.appKey = newKey;
  });

  // Security review (issue 17, item 15): tokens could not be revoked.
  it('revokes every API token after a confirmation: each is refused by the API at once, a new one works', async () => {
    const tokens = [await token(partner.appKey), await token(partner.appKey)];
    await page.getByRole('button', { name: 'Revoke all tokens' }).click();
    await page.getByRole('button', { name: 'Revoke now' }).click();
    await expect(page.getByTestId('tokens-revoked').textContent()).resolves.toMatch(/^\d+ tokens revoked\./);
    await expectAccessible();
    for (const t of tokens) {
      const refused = await api('GET', '/aggregation/v1/customers', { 'service-app-key': partner.appKey, 'service-app-token': t });
      expect(refused.json().code).toBe('10022');
    }
    const fresh = await api('GET', '/aggregation/v1/customers', { 'service-app-key': partner.appKey, 'service-app-token': await token(partner.appKey) });
    expect(fresh.statusCode).toBe(200);
  });

  it('shows API requests live, customers, and a Connect webhook delivery that it redelivers with a new attempt', async () => {
    const headers = { 'service-app-key': partner.appKey, 'service-app-token': await token(partner.appKey) };
    await go('/requests', 'API requests');
    const added = await api('POST', '/aggregation/v2/customers/testing', headers, { username: 'dash-customer-01', firstName: 'Dana', lastName: 'Ash' });
    expect(added.statusCode).toBe(201);
    const customerId = added.json().id as string;
    partner.linkedCustomerId = customerId;
    await page.getByRole('cell', { name: '/aggregation/v2/customers/testing' }).waitFor();
    await api('GET', '/aggregation/v1/customers/9999999999', headers);
    await page.getByRole('cell', { name: '/aggregation/v1/customers/9999999999' }).waitFor();
    await expect(page.getByRole('row', { name: /customers\/9999999999/ }).textContent()).resolves.toMatch(/GET.*404.*14001/);
    await expectAccessible();
    await shot(page, 'requests-live');

    await go('/customers', 'Customers');
    await page.getByRole('link', { name: customerId }).click();
    await page.getByRole('heading', { level: 1, name: 'Dana Ash' }).waitFor();
    await expect(page.getByText('No institution logins yet.').isVisible()).resolves.toBe(true);
    // Linked and aggregated through the API: the page shows the login, its accounts and the transactions.
    const linked = await api('POST', `/aggregation/v1/customers/${customerId}/institutions/101732/accounts/addall`, headers, loginForm(101732, 'profile_03'));
    expect(linked.statusCode, linked.body).toBe(200);
    expect((await api('POST', `/aggregation/v1/customers/${customerId}/accounts`, headers, {})).statusCode).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 3, name: /FinBank/ }).waitFor();
    const accountName = linked.json().accounts[0].name as string;
    await expect(
      page
        .getByRole('cell', { name: new RegExp(accountName) })
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByRole('region', { name: 'Transactions' }).getByRole('status').textContent()).resolves.toMatch(/^1–25 of \d+, page 1 of \d+$/);
    await expectAccessible();
    await shot(page, 'customer');

    // A Connect link with a webhook to the local listener; opening the session sends `started`.
    const generated = await api('POST', '/connect/v2/generate', headers, { partnerId: partner.partnerId, customerId, webhook: world.listener.url });
    expect(generated.statusCode, generated.body).toBe(200);
    const opened = await world.ctx.app.inject({
      method: 'POST',
      url: '/connect/api/session',
      headers: { 'connect-link': new URL(generated.json().link).search, accept: 'application/json' },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    await drainDeliveries(world.ctx.runtime);
    const delivered = world.listener.requests.filter((r) => JSON.parse(r.body).customerId === customerId);
    expect(delivered).toHaveLength(1);

    await go('/deliveries', 'Deliveries');
    const card = page.getByRole('article').filter({ hasText: 'Connect webhook' });
    await expect(card.getByText('1 attempt', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(card.getByText('delivered', { exact: true }).isVisible()).resolves.toBe(true);
    await expectAccessible();
    await shot(page, 'deliveries');
    await card.getByRole('button', { name: /^Redeliver delivery/ }).click();
    await page.getByText(/queued for redelivery/).waitFor();
    await drainDeliveries(world.ctx.runtime);
    await card.getByText('2 attempts', { exact: true }).waitFor();
    await expect(
      card
        .getByRole('list', { name: /Attempts of delivery/ })
        .getByRole('listitem')
        .count(),
    ).resolves.toBe(2);
    const again = world.listener.requests.filter((r) => JSON.parse(r.body).customerId === customerId);
    expect(again).toHaveLength(2);
    expect(again[1]!.headers['webhook-id']).toBe(again[0]!.headers['webhook-id']);
    await shot(page, 'redelivered');
  });

  it('drives the sandbox controls from the customer page: error state, clear, clock, a Connect webhook on demand', async () => {
    await page.goto(`${world.serviceUrl}/dashboard#/customers/${partner.linkedCustomerId}`);
    const sandbox = page.getByRole('region', { name: 'Sandbox controls' });
    await sandbox.waitFor();
    const loginForm = sandbox.getByRole('form', { name: /into an error state/ });
    await loginForm.getByLabel(/Error state for/).selectOption('103');
    await loginForm.getByRole('button', { name: 'Set error state' }).click();
    await page.getByText(/now fails with 103/).waitFor();
    await page.getByRole('region', { name: 'Institution logins' }).getByText('Credentials wrong (103)').first().waitFor();
    const login = await world.ctx.runtime.database.kysely
      .selectFrom('institution_logins')
      .select('aggregation_status_code')
      .where('customer_id', '=', Number(partner.linkedCustomerId))
      .executeTakeFirstOrThrow();
    expect(Number(login.aggregation_status_code)).toBe(103);
    await expectAccessible();
    await shot(page, 'sandbox-error-state');
    await page.getByRole('region', { name: 'Sandbox controls' }).getByRole('button', { name: 'Clear error (103)' }).click();
    await page.getByText(/is healthy again/).waitFor();
    await page.getByRole('region', { name: 'Sandbox controls' }).getByLabel('Days ahead').fill('3');
    await page.getByRole('region', { name: 'Sandbox controls' }).getByRole('button', { name: 'Advance clock' }).click();
    await page.getByText(/Clock moved 3 days ahead; 1 institution login refreshed/).waitFor();
    await page.getByText('(3 days ahead)').waitFor();
    const before = world.listener.requests.length;
    await page.getByRole('region', { name: 'Sandbox controls' }).getByLabel('Connect webhook event').selectOption('done');
    await page.getByRole('region', { name: 'Sandbox controls' }).getByRole('button', { name: 'Fire webhook' }).click();
    await page.getByText(/Connect webhook “done” queued/).waitFor();
    await drainDeliveries(world.ctx.runtime);
    const fired = world.listener.requests.slice(before).map((r) => JSON.parse(r.body));
    expect(fired).toEqual([expect.objectContaining({ eventType: 'done', customerId: partner.linkedCustomerId })]);
    await shot(page, 'sandbox-fired');
  });

  it('edits the default Connect experience; the Connect app shows the new name and colour', async () => {
    await go('/experiences', 'Connect experiences');
    const form = page.getByRole('form', { name: 'Experience default' });
    await form.getByLabel('Application name').fill('Acme Lending App');
    await form.getByLabel('Brand colour', { exact: true }).fill('#0b6e4f');
    await expectAccessible();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Experience “default” saved.').waitFor();
    await shot(page, 'experience-saved');

    const headers = { 'service-app-key': partner.appKey, 'service-app-token': await token(partner.appKey) };
    const customer = await api('POST', '/aggregation/v2/customers/testing', headers, { username: 'dash-customer-02' });
    const generated = await api('POST', '/connect/v2/generate', headers, { partnerId: partner.partnerId, customerId: customer.json().id });
    const connect = await context.newPage();
    await connect.goto(generated.json().link);
    await connect.locator('.brand-name').getByText('Acme Lending App').waitFor();
    const brand = await connect.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim());
    expect(brand).toBe('#0b6e4f');
    await shot(connect, 'experience-in-connect');
    await connect.close();
  });

  it('shows a Connect e-mail from the local mailbox', async () => {
    const headers = { 'service-app-key': partner.appKey, 'service-app-token': await token(partner.appKey) };
    const customer = await api('POST', '/aggregation/v2/customers/testing', headers, { username: 'dash-customer-03' });
    const email = {
      to: 'dana@example.com',
      subject: 'Verify your income',
      firstName: 'Dana',
      institutionName: 'Acme Lending',
      institutionAddress: '1 Main St',
      supportPhone: '800-555-0100',
      signature: ['Pat Lee'],
    };
    const sent = await api('POST', '/connect/v2/send/email', headers, {
      partnerId: partner.partnerId,
      customerId: customer.json().id,
      experience: 'default',
      email,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await drainDeliveries(world.ctx.runtime);
    await go('/mail', 'E-mails');
    await page.getByText('Verify your income').click();
    await page.getByText(/Dana/).first().waitFor();
    await expect(page.locator('.mail-body').textContent()).resolves.toContain(new URL(sent.json().link).pathname);
    await expectAccessible();
    await shot(page, 'mail');
  });

  it('shows a lock-out caused through the API and lifts it with the current secret', async () => {
    for (let i = 0; i < 5; i++) {
      await api(
        'POST',
        '/aggregation/v2/partners/authentication',
        { 'service-app-key': partner.appKey },
        { partnerId: partner.partnerId, partnerSecret: 'Guessed-secret-1' },
      );
    }
    await go('/credentials', 'Credentials');
    const lock = page.getByRole('region', { name: 'Lock state' });
    await expect(lock.getByText('Locked', { exact: true }).isVisible()).resolves.toBe(true);
    await lock.getByLabel('Current partner secret').fill('Guessed-secret-2');
    await lock.getByRole('button', { name: 'Unlock partner' }).click();
    await expect(lock.getByRole('alert').textContent()).resolves.toMatch(/Invalid credentials; the partner stays locked/);
    await expectAccessible();
    await shot(page, 'locked');
    await lock.getByLabel('Current partner secret').fill(SECRET);
    await lock.getByRole('button', { name: 'Unlock partner' }).click();
    await page.getByText('Partner unlocked.').waitFor();
    await page.getByRole('region', { name: 'Lock state' }).getByText('Active', { exact: true }).waitFor();
    expect(await token(partner.appKey)).toMatch(/\S+/);
  });

  it("keeps another partner's customer out of sight: its id is not found", async () => {
    const other = world.partner;
    const theirs = await api('POST', '/aggregation/v2/customers/testing', other.headers, { username: 'someone-elses-01' });
    await page.goto(`${world.serviceUrl}/dashboard#/customers/${theirs.json().id}`);
    await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Customer not found/);
    await go('/customers', 'Customers');
    await expect.poll(() => page.getByText('someone-elses-01').count(), { timeout: 10_000 }).toBe(0);
  });
});
