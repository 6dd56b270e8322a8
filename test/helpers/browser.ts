import fs from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Frame, type FrameLocator, type Page } from 'playwright-core';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { ROOT } from './cli.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from './context.js';
import { reservePort, startListener, type Listener } from './listener.js';

/** Debian's chromium; browser tests never download a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'browser');

/** The published connect-web-sdk bundle (served to the partner page from node_modules, no CDN). */
const PUBLISHED_SDK = path.join(ROOT, 'node_modules', 'connect-web-sdk', 'dist', 'mastercard-connect-iife.min.js');

/**
 * A partner's page on its own origin: loads an SDK (the published one, or ours from the service) and exposes
 * `launchConnect(link, options)`; every SDK callback is recorded in `window.sdkEvents`.
 */
function partnerPage(sdkSrc: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner app</title><script src="${sdkSrc}"></script></head>
<body><h1>Partner app</h1><div id="connect-here"></div><script>
window.sdkEvents = [];
const sdk = window.Connect && window.Connect.launch ? window.Connect : window.Connect.Connect;
const record = (name) => (e) => window.sdkEvents.push({ name, event: e === undefined ? null : JSON.parse(JSON.stringify(e)) });
window.launchConnect = (link, options) => sdk.launch(link, {
  onDone: record('done'), onCancel: record('cancel'), onError: record('error'), onRoute: record('route'), onUser: record('user'), onLoad: record('load'),
}, options || {});
</script></body></html>`;
}

export interface BrowserWorld {
  ctx: TestContext;
  partner: TestPartner;
  /** The service's base URL (Connect at /connect). */
  serviceUrl: string;
  /** The partner page's origin. */
  partnerUrl: string;
  listener: Listener;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * The service listening on a real port (SQLite, real time), a partner site, a webhook receiver and headless Chromium.
 * `env` adds settings (LEDGERLINK_PUSH_EXTRA_PORTS for a local TxPUSH listener, say).
 */
export async function startBrowserWorld(env: Record<string, string> = {}): Promise<BrowserWorld> {
  // The port is held until the service binds it: building the service takes a while, and another process could
  // take a port only checked free at the start.
  const reserved = await reservePort();
  const serviceUrl = `http://127.0.0.1:${reserved.port}`;
  const ctx = await createTestContext({ ...env, LEDGERLINK_PUBLIC_URL: serviceUrl });
  ctx.clock.set(Date.now());
  await ensureInstitutionCatalog(ctx.runtime.database);
  await reserved.release();
  await ctx.app.listen({ port: reserved.port, host: '127.0.0.1' });
  const partner = await partnerWithToken(ctx);
  const site = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://partner');
    if (url.pathname === '/published-sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(fs.readFileSync(PUBLISHED_SDK));
    }
    if (url.pathname === '/published.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(partnerPage('/published-sdk.js'));
    if (url.pathname === '/ours.html')
      return res.writeHead(200, { 'content-type': 'text/html' }).end(partnerPage(`${serviceUrl}/connect/assets/sdk/connect.js`));
    if (url.pathname === '/back')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Back at the partner</title><h1>Back at the partner</h1>');
    res.writeHead(404).end();
  });
  // "localhost" rather than 127.0.0.1: another origin than the service, as a partner site would be.
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const partnerUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
  const listener = await startListener();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return {
    ctx,
    partner,
    serviceUrl,
    partnerUrl,
    listener,
    browser,
    close: async () => {
      await browser.close();
      await listener.close();
      site.closeAllConnections();
      await new Promise<void>((resolve) => site.close(() => resolve()));
      await ctx.close();
    },
  };
}

/** Generates a link through the API. */
export async function generateLink(
  world: BrowserWorld,
  variant: 'generate' | 'generate/lite' | 'generate/fix' | 'generate/microentry/verify',
  body: Record<string, unknown>,
): Promise<string> {
  const res = await world.ctx.app.inject({
    method: 'POST',
    url: `/connect/v2/${variant}`,
    headers: world.partner.headers,
    payload: { partnerId: world.partner.partnerId, webhook: world.listener.url, ...body },
  });
  if (res.statusCode !== 200) throw new Error(`generate failed: ${res.statusCode} ${res.body}`);
  return res.json().link as string;
}

/** Saves a screenshot of a screen as test-artifacts/browser/<flow>-<nn>-<name>.png. */
export function screenshots(flow: string) {
  let n = 0;
  return async (page: Page, name: string): Promise<void> => {
    n += 1;
    await page.screenshot({ path: path.join(ARTIFACTS, `${flow}-${String(n).padStart(2, '0')}-${name}.png`), fullPage: true });
  };
}

/** The SDK events the partner page recorded. */
export function sdkEvents(page: Page): Promise<{ name: string; event: any }[]> {
  return page.evaluate(() => (window as unknown as { sdkEvents: { name: string; event: unknown }[] }).sdkEvents);
}

/** Webhook event types the receiver got for a customer, after delivering everything due. */
export async function webhookTypes(world: BrowserWorld, customerId: string): Promise<string[]> {
  await drainDeliveries(world.ctx.runtime);
  return world.listener.requests
    .map((r) => JSON.parse(r.body))
    .filter((b) => b.customerId === customerId)
    .map((b) => b.eventType);
}

/** Where Connect runs: the iframe (FrameLocator) or a popup page. */
export type ConnectView = FrameLocator | Page | Frame;

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's WCAG 2.1 A/AA rules on the page as it is now (or on the elements `within` selects): its violations, one
 * line each (none when accessible).
 * axe is evaluated through the DevTools protocol, so the page's CSP (script-src 'self') stays in force for the app.
 */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async (selector) => {
    const result = await (window as any).axe.run(selector ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v: any) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`);
  }, within);
}

/** Signs the world's partner in to the dashboard through its sign-in page; resolves on the first page after it. */
export async function signInToDashboard(page: Page, world: BrowserWorld): Promise<void> {
  await page.goto(`${world.serviceUrl}/dashboard#/signin`);
  await page.getByLabel('Partner ID').fill(world.partner.partnerId);
  await page.getByLabel('Partner secret').fill(world.partner.partnerSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
}

/** A new browser context of this width, the world's partner signed in to the dashboard in it. */
export async function dashboardPage(world: BrowserWorld, width: number): Promise<Page> {
  const context = await world.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signInToDashboard(page, world);
  return page;
}
