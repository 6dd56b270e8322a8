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

  /**
   * Lays out every section, as each is when on screen. The page lays out only the sections near the screen
   * (content-visibility: auto), and clips what would stick out of one; axe and the width checks measure the whole
   * page at once, and would otherwise see sections whose size is still a guess and miss content too wide for them.
   */
  async function layOutEverySection(page: Page): Promise<void> {
    await page.evaluate(() => {
      const sheet = [...document.styleSheets].find((s) => s.href?.endsWith('/docs.css'));
      if (!sheet) throw new Error('docs.css is not loaded');
      sheet.insertRule('.operation, .schema { content-visibility: visible }', sheet.cssRules.length);
    });
  }

  /** axe's violations on the whole page, or within `within`, every section laid out. */
  async function axe(page: Page, within?: string): Promise<string[]> {
    await layOutEverySection(page);
    return axeViolations(page, within);
  }

  /** How far the page is wider than the window. */
  const excessWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it('at 1280 px names Ledgerlink, lists every operation and error code, loads nothing from elsewhere and passes axe', async () => {
    const { page, requested } = await open(1280);
    await page.getByRole('heading', { level: 1, name: /Ledgerlink API/ }).waitFor();
    await expect(page.title()).resolves.toMatch(/^Ledgerlink API/);
    await expect(page.getByRole('img', { name: 'Ledgerlink' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true);
    await expect(page.locator('main section.operation').count()).resolves.toBe(operationCount);
    await expect(page.locator('#errors .error').count()).resolves.toBe(Object.keys(ErrorCatalogue).length);
    expect(await page.locator('body').textContent()).not.toMatch(/swagger|fastify/i);
    expect(requested.filter((url) => !url.startsWith(serviceUrl))).toEqual([]);
    // On load, the browser skips laying out the content of the sections far below the window.
    const farBelow = page.locator('main section.operation').last().getByRole('heading', { level: 3 });
    await expect(farBelow.evaluate((heading) => heading.checkVisibility({ contentVisibilityAuto: true }))).resolves.toBe(false);
    expect(await axe(page)).toEqual([]);
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
    expect(await axe(page, '#operation-FireSandboxTxPushEvent')).toEqual([]);
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
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-375.png') });
    // Long paths, examples and setting names wrap rather than widen the page, in every section.
    await layOutEverySection(page);
    expect(await excessWidth(page)).toBe(0);
    await expect(page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Error codes' }).isVisible()).resolves.toBe(true);
    await page.goto(`${serviceUrl}/docs#operation-UploadStatementFile`);
    expect(await excessWidth(page)).toBe(0);
    // Every operation is the markup checked whole at 1280 px under the narrow layout's rules, and axe over the whole
    // page again was most of this file's time: here the page's frame (header, contents, overview, error codes) and two
    // operations, in one run: one with a file body, one with parameters, nested JSON fields and an answer whose fields
    // are another answer's.
    expect(await axe(page, 'header.top, nav.toc, #overview, #errors, #operation-UploadStatementFile, #operation-GenerateVOIReport')).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-375-operation.png') });
    await page.context().close();
  });
});
