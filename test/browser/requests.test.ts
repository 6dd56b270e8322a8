import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, axeViolations, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';

const NEW_SECRET = 'Requests-page-2026';

/**
 * The API request log page in headless Chromium: the calls a newcomer makes first (failed and successful
 * authentication, a refused token, a wrong version, a secret change) are listed with their request ids; a row opens by
 * keyboard to show the request and the response with secrets redacted; the filters narrow the live log and survive a
 * reload; at 375 px nothing scrolls sideways. axe-core finds no WCAG 2.1 A/AA violation at either width.
 */
describe('the request log page in a browser', () => {
  let world: BrowserWorld;
  let context: BrowserContext;
  let page: Page;
  let token = '';
  const ids: Record<string, string> = {};

  async function call(name: string, method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) {
    const res = await world.ctx.app.inject({ method, url, headers: { accept: 'application/json', ...headers }, ...(payload ? { payload } : {}) });
    ids[name] = String(res.headers['x-request-id']);
    return res;
  }

  /** The summary row of a logged call, found by its request id. */
  const row = (name: string) => page.getByRole('row').filter({ hasText: ids[name]! });

  async function noHorizontalOverflow(): Promise<void> {
    const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
  }

  beforeAll(async () => {
    world = await startBrowserWorld();
    const p = world.partner;
    const key = { 'service-app-key': p.appKey };
    expect(
      (await call('failed', 'POST', '/aggregation/v2/partners/authentication', key, { partnerId: p.partnerId, partnerSecret: 'Wrong-secret-1234' })).statusCode,
    ).toBe(401);
    const auth = await call('auth', 'POST', '/aggregation/v2/partners/authentication', key, { partnerId: p.partnerId, partnerSecret: p.partnerSecret });
    token = auth.json().token;
    const headers = { ...key, 'service-app-token': token };
    expect((await call('refused', 'GET', '/aggregation/v1/partners/me', { ...key, 'service-app-token': 'not-a-token' })).json().code).toBe('10022');
    expect((await call('version', 'GET', '/aggregation/v9/partners/me', headers)).statusCode).toBe(404);
    expect((await call('me', 'GET', '/aggregation/v1/partners/me', headers)).statusCode).toBe(200);
    const created = await call('customer', 'POST', '/aggregation/v2/customers/testing', headers, {
      username: 'requests-page-01',
      firstName: 'Rosa',
      lastName: 'Lopez-Fernandez',
    });
    expect(created.statusCode).toBe(201);
    expect(
      (
        await call('secret', 'PUT', '/aggregation/v2/partners/authentication', key, {
          partnerId: p.partnerId,
          partnerSecret: p.partnerSecret,
          newPartnerSecret: NEW_SECRET,
        })
      ).statusCode,
    ).toBe(204);
    await world.ctx.app.requestLog.flush();

    context = await world.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${world.serviceUrl}/dashboard#/signin`);
    await page.getByLabel('Partner ID').fill(p.partnerId);
    await page.getByLabel('Partner secret').fill(NEW_SECRET);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
  });
  afterAll(async () => {
    await context?.close();
    await world?.close();
  });

  it('lists failed and successful authentication, a refused token, a wrong version and a secret change, each with its request id', async () => {
    await page.goto(`${world.serviceUrl}/dashboard#/requests`);
    await page.getByRole('heading', { level: 1, name: 'API requests' }).waitFor();
    for (const [name, text] of [
      ['failed', /POST.*\/aggregation\/v2\/partners\/authentication.*401.*10001/],
      ['auth', /POST.*\/aggregation\/v2\/partners\/authentication.*200/],
      ['refused', /GET.*\/aggregation\/v1\/partners\/me.*401.*10022/],
      ['version', /GET.*\/aggregation\/v9\/partners\/me.*404.*10404/],
      ['me', /GET.*\/aggregation\/v1\/partners\/me.*200/],
      ['secret', /PUT.*\/aggregation\/v2\/partners\/authentication.*204/],
    ] as const) {
      await expect(row(name).textContent(), name).resolves.toMatch(text);
      await expect(row(name).getByRole('cell').last().textContent()).resolves.toBe(ids[name]);
    }
  });

  it('opens a row from the keyboard to show the request and the response, the secret and the token redacted', async () => {
    const toggle = row('auth').getByRole('button', { name: '/aggregation/v2/partners/authentication' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    const request = page.getByRole('region', { name: 'Request' });
    const response = page.getByRole('region', { name: 'Response' });
    await request.getByText('"partnerSecret": "[redacted]"').waitFor();
    await expect(request.textContent()).resolves.toContain(`"partnerId": "${world.partner.partnerId}"`);
    await expect(response.textContent()).resolves.toContain('"token": "[redacted]"');
    await request.getByText('Headers (').click();
    await expect(request.getByRole('definition').filter({ hasText: '[redacted]' }).count()).resolves.toBeGreaterThan(0);
    const text = (await page.locator('body').textContent()) ?? '';
    for (const secret of [world.partner.partnerSecret, token, world.partner.appKey]) expect(text).not.toContain(secret);
    expect(await axeViolations(page)).toEqual([]);
    // Closed again with the keyboard.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect.poll(() => request.count(), { timeout: 10_000 }).toBe(0);
  });

  it('narrows the live log by status, method and path; new matching calls arrive, others do not; a reload keeps the filters', async () => {
    await page.getByLabel('Status', { exact: true }).fill('4xx');
    await page.getByRole('button', { name: 'Apply' }).click();
    await row('me').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('row').filter({ hasText: ids.failed! }).count(), { timeout: 10_000 }).toBe(1);
    await page.getByLabel('Method').selectOption('GET');
    await row('failed').waitFor({ state: 'detached' });
    await page.getByLabel('Path contains').fill('/V1/');
    await page.getByRole('button', { name: 'Apply' }).click();
    await row('version').waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/#\/requests\?status=4xx&method=GET&path=%2FV1%2F$/);
    const rowsNow = await page.locator('tbody.req').count();
    expect(rowsNow).toBe(1);

    const key = { 'service-app-key': world.partner.appKey };
    await call('live-ok', 'GET', '/aggregation/v1/partners/me', { ...key, 'service-app-token': token });
    await call('live-refused', 'GET', '/aggregation/v1/customers?live=1', { ...key, 'service-app-token': 'nope' });
    await world.ctx.app.requestLog.flush();
    await row('live-refused').waitFor();
    await expect.poll(() => row('live-ok').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.locator('tbody.req').count(), { timeout: 10_000 }).toBe(2);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'API requests' }).waitFor();
    await row('live-refused').waitFor();
    await expect(page.getByLabel('Status', { exact: true }).inputValue()).resolves.toBe('4xx');
    await expect(page.getByLabel('Method').inputValue()).resolves.toBe('GET');
    await expect(page.getByLabel('Path contains').inputValue()).resolves.toBe('/V1/');
    await expect.poll(() => page.locator('tbody.req').count(), { timeout: 10_000 }).toBe(2);

    // A status that is none is said at the field, and nothing is asked of the server.
    await page.getByLabel('Status', { exact: true }).fill('4x');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('"4x" is not a status').waitFor();
    await expect(page.getByLabel('Status', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByRole('button', { name: 'Clear' }).click();
    await row('secret').waitFor();
    expect(page.url()).toMatch(/#\/requests$/);
  });

  it('at 1280 px: the log with a row open, accessible', async () => {
    await row('customer').getByRole('button').click();
    await page.getByRole('region', { name: 'Request' }).getByText('"username": "requests-page-01"').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await noHorizontalOverflow();
    // From the top: the header stays at the top of the window, so a full-page picture taken scrolled shows it midway.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, 'requests-1280.png'), fullPage: true });
  });

  it('at 375 px: one card per call, the path on a line of its own, nothing scrolls sideways, accessible', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'API requests' }).waitFor();
    await row('version').waitFor();
    await noHorizontalOverflow();
    // The path is as wide as its card, not a column a few characters wide.
    const pathBox = await row('auth').getByRole('button').boundingBox();
    const cardBox = await page.locator('tbody.req', { hasText: ids.auth! }).boundingBox();
    expect(pathBox!.width).toBeGreaterThan(cardBox!.width * 0.8);
    await row('failed').getByRole('button').click();
    await page.getByRole('region', { name: 'Response' }).getByText('"code": "10001"').waitFor();
    await noHorizontalOverflow();
    expect(await axeViolations(page)).toEqual([]);
    // From the top: the header stays at the top of the window, so a full-page picture taken scrolled shows it midway.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, 'requests-375.png'), fullPage: true });
  });

  it('shows that a body the service could not read was not stored, and none of it, at 375 and 1280 px', async () => {
    const form = await world.ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication?form=1',
      headers: { 'service-app-key': world.partner.appKey, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: `partnerId=${world.partner.partnerId}&partnerSecret=Form-posted-secret-99`,
    });
    expect(form.statusCode).toBe(415);
    ids.form = String(form.headers['x-request-id']);
    await world.ctx.app.requestLog.flush();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'API requests' }).waitFor();
      await row('form').getByRole('button').click();
      const request = page.getByRole('region', { name: 'Request' });
      await request.getByText('[not stored: the body could not be read as JSON or XML]').waitFor();
      await expect(request.textContent()).resolves.not.toContain('Cut:');
      expect((await page.locator('body').textContent()) ?? '').not.toContain('Form-posted-secret-99');
      await noHorizontalOverflow();
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(ARTIFACTS, `requests-not-stored-${width}.png`), fullPage: true });
    }
  });
});
