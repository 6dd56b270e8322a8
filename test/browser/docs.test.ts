import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ErrorCatalogue } from '../../src/contract/errors/catalogue.js';
import { ARTIFACTS, axeViolations, CHROMIUM } from '../helpers/browser.js';
import { createTestContext, type TestContext } from '../helpers/context.js';

/**
 * The API reference at /docs in headless Chromium, at a desktop and a phone width: accessible (axe, WCAG 2.1 A/AA),
 * named Ledgerlink, everything from the service itself, and navigable from its contents to operations and error codes.
 */
describe('the API reference page', () => {
  let ctx: TestContext;
  let browser: Browser;
  let serviceUrl: string;
  let operationCount: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    serviceUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    operationCount = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).filter((k) => k !== 'parameters').length, 0);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  /** A page at the given width that records every URL it requests. */
  async function open(width: number): Promise<{ page: Page; requested: string[] }> {
    const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const res = await page.goto(`${serviceUrl}/docs`);
    expect(res?.status()).toBe(200);
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline|https?:/);
    return { page, requested };
  }

  it('at 1280 px names Ledgerlink, lists every operation and error code, loads nothing from elsewhere and passes axe', async () => {
    const { page, requested } = await open(1280);
    await page.getByRole('heading', { level: 1, name: /Ledgerlink API/ }).waitFor();
    await expect(page.title()).resolves.toMatch(/^Ledgerlink API/);
    await expect(page.getByRole('img', { name: 'Ledgerlink' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true);
    await expect(page.locator('main section.operation').count()).resolves.toBe(operationCount);
    await expect(page.locator('#errors .error').count()).resolves.toBe(Object.keys(ErrorCatalogue).length);
    expect(await page.locator('body').textContent()).not.toMatch(/swagger|fastify/i);
    expect(requested.filter((url) => !url.startsWith(serviceUrl))).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-1280.png') });
    await page.context().close();
  });

  it('at 1280 px leads from the contents to an operation, its fields, and the error codes it names', async () => {
    const { page } = await open(1280);
    await page
      .getByRole('navigation', { name: 'Contents' })
      .getByRole('link', { name: /Fire a TxPush event/ })
      .click();
    await page.waitForURL('**/docs#operation-FireSandboxTxPushEvent');
    const operation = page.locator('#operation-FireSandboxTxPushEvent');
    await expect(operation.getByRole('heading', { level: 3 }).textContent()).resolves.toMatch(/POST\s+Fire a TxPush event/);
    await expect(operation.locator('.path').textContent()).resolves.toBe('/sandbox/v1/customers/{customerId}/accounts/{accountId}/txpush/events');
    await operation.getByText('Fields of the 202 answer').click();
    await expect(operation.locator('code.field', { hasText: 'notifications' }).isVisible()).resolves.toBe(true);
    // The whole page passed in the first test; what changed here is the opened operation.
    expect(await axeViolations(page, '#operation-FireSandboxTxPushEvent')).toEqual([]);
    // The description names code 14094: it links to that code's entry.
    await operation.getByRole('link', { name: '14094', exact: true }).first().click();
    await page.waitForURL('**/docs#error-14094');
    await expect(page.locator('#error-14094').textContent()).resolves.toContain('SandboxNotSubscribed');
    // Error answers lead to the error codes.
    await page.goBack();
    await operation.getByRole('link', { name: 'error codes' }).first().click();
    await page.waitForURL('**/docs#errors');
    await page.context().close();
  });

  it('at 375 px fits the width, keeps the contents reachable and passes axe', async () => {
    const { page } = await open(375);
    await page.getByRole('heading', { level: 1, name: /Ledgerlink API/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await expect(page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Error codes' }).isVisible()).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-375.png') });
    // Long paths, examples and setting names wrap rather than widen the page.
    await page.goto(`${serviceUrl}/docs#operation-UploadStatementFile`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    // The same page as above, scrolled: the operation is checked again at this width, not the whole page twice.
    expect(await axeViolations(page, '#operation-UploadStatementFile')).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-375-operation.png') });
    await page.context().close();
  });
});
