import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { registerSandboxListener } from '../../src/outbox/listeners.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { epochSeconds } from '../../src/platform/clock.js';
import { ARTIFACTS, axeViolations, signInToDashboard, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { startListener, type Listener } from '../helpers/listener.js';

/**
 * The deliveries page in headless Chromium, with a partner whose receiver is down while `ledgerlink listen` runs:
 * event types, clear states, the last answer, `listen` copies under the delivery they copy, payloads in disclosures,
 * filters that stay while the list refreshes, and redelivery; at 1280 and 375 pixels, checked with axe-core.
 */
describe('the deliveries page in a browser', () => {
  let world: BrowserWorld;
  let context: BrowserContext;
  let page: Page;
  let down: Listener;
  let gone: Listener;
  let customerId: string;

  async function api(method: 'GET' | 'POST', url: string, payload?: object, headers = world.partner.headers) {
    const res = await world.ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  }
  async function openSession(webhook: string, extra: object = {}): Promise<void> {
    const link = (await api('POST', '/connect/v2/generate', { partnerId: world.partner.partnerId, customerId, webhook, ...extra })).json().link as string;
    await api('POST', '/connect/api/session', undefined, { 'connect-link': new URL(link).search, accept: 'application/json' });
  }
  const cards = () => page.getByRole('article');
  const card = (type: string) => cards().filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${type.replace('.', '\\.')} #`) }) });
  /** A full-page screenshot from the top, where the header sits. */
  async function shot(name: string): Promise<void> {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }
  /** The next refresh of the list (the page polls every two seconds). */
  const nextPoll = () => page.waitForResponse((r) => r.url().includes('/dashboard/api/deliveries?') && r.request().method() === 'GET');

  beforeAll(async () => {
    world = await startBrowserWorld();
    down = await startListener(() => ({ status: 500, body: 'receiver down: upstream database unavailable' }));
    gone = await startListener(() => ({ status: 503, body: 'gone fishing' }));
    customerId = (await api('POST', '/aggregation/v2/customers/testing', { username: 'deliveries-page-01', firstName: 'Dee' })).json().id;

    // A session whose receiver never came back: its webhook (in XML) failed after six hours of retries.
    await openSession(gone.url, { webhookContentType: 'application/xml' });
    for (let i = 0; i < 60; i++) {
      await drainDeliveries(world.ctx.runtime, { random: () => 0 });
      const open = await world.ctx.runtime.database.kysely
        .selectFrom('deliveries')
        .select('next_attempt_at')
        .where('status', 'in', ['pending', 'delivering'])
        .executeTakeFirst();
      if (!open) break;
      world.ctx.clock.set(open.next_attempt_at * 1000);
    }
    // Six hours later: a fresh token, `listen --partner` running, and a new session whose receiver is down.
    const auth = await api(
      'POST',
      '/aggregation/v2/partners/authentication',
      { partnerId: world.partner.partnerId, partnerSecret: world.partner.partnerSecret },
      {
        'service-app-key': world.partner.appKey,
        accept: 'application/json',
      },
    );
    world.partner.headers['service-app-token'] = auth.json().token;
    await registerSandboxListener(world.ctx.runtime.database.kysely, world.partner.partnerId, world.listener.url, epochSeconds(world.ctx.clock));
    await openSession(down.url);
    for (const eventType of ['added', 'done']) await api('POST', `/sandbox/v1/customers/${customerId}/webhooks/connect`, { eventType });
    await drainDeliveries(world.ctx.runtime, { random: () => 0 });

    context = await world.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInToDashboard(page, world);
  });
  afterAll(async () => {
    await context?.close();
    await down?.close();
    await gone?.close();
    await world?.close();
  });

  it('shows each event once with its type, state, last answer and listen copy, and the payload on demand', async () => {
    // The listener got every event at once, although the partner's receiver failed the first and holds the rest.
    expect(world.listener.requests.map((r) => JSON.parse(r.body).eventType)).toEqual(['started', 'added', 'done']);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();
    await card('connect.done').waitFor();
    // Four events, not seven rows: the copies are inside their deliveries.
    await expect.poll(() => cards().count(), { timeout: 10_000 }).toBe(4);

    const started = card('connect.started').filter({ hasText: down.url });
    await expect(started.getByText('retrying', { exact: true }).first().isVisible()).resolves.toBe(true);
    await expect(started.getByText(/^Last attempt failed; next attempt /).isVisible()).resolves.toBe(true);
    await expect(started.getByText('receiver down: upstream database unavailable', { exact: true }).isVisible()).resolves.toBe(true);
    const copy = started.getByRole('list', { name: /^Listen copies of delivery/ }).getByRole('listitem');
    await expect(copy.textContent()).resolves.toContain(`Also sent to listen ${new URL(world.listener.url).host}`);
    await expect(copy.getByText('delivered', { exact: true }).isVisible()).resolves.toBe(true);

    const done = card('connect.done');
    await expect(done.getByText('pending', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(
      done.getByText(/^Not attempted yet; next attempt .* Waits for #\d+, an earlier webhook of this Connect session to the same target\.$/).isVisible(),
    ).resolves.toBe(true);
    const failed = card('connect.started').filter({ hasText: gone.url });
    await expect(failed.getByText('failed', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(failed.getByText(/^Gave up .* after \d+ attempts\.$/).isVisible()).resolves.toBe(true);

    // The payload opens from the keyboard, pretty-printed: XML one element per line.
    const summary = failed.getByText(/^Payload \(application\/xml, \d+ bytes\)$/);
    const payload = failed.locator('pre.dl-payload');
    await expect(payload.isVisible()).resolves.toBe(false);
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(payload.isVisible()).resolves.toBe(true);
    await expect(payload.textContent()).resolves.toMatch(/\n {2}<eventType>started<\/eventType>\n/);
    const json = started.locator('details');
    await json.getByText(/^Payload \(application\/json/).click();
    await expect(json.locator('pre').textContent()).resolves.toContain('"eventType": "started"');

    // Every attempt of the failed one is kept, folded away.
    await expect(failed.getByText(/^All \d+ attempts$/).isVisible()).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot('deliveries-1280');
  });

  it('filters by state, event type and target, and keeps the filters and open payloads while the list refreshes', async () => {
    await page.getByLabel('State').selectOption('failed');
    await page.getByText('1 delivery matches these filters.').waitFor();
    await expect.poll(() => cards().count(), { timeout: 10_000 }).toBe(1);
    await page.getByLabel('State').selectOption('pending');
    await page.getByText('2 deliveries match these filters.').waitFor();
    await page.getByLabel('Event type').selectOption('connect.done');
    await page.getByText('1 delivery matches these filters.').waitFor();
    await expect.poll(() => card('connect.done').count(), { timeout: 10_000 }).toBe(1);
    await card('connect.done')
      .getByText(/^Payload/)
      .click();
    await nextPoll();
    await nextPoll();
    await expect(page.getByLabel('State').inputValue()).resolves.toBe('pending');
    await expect(page.getByLabel('Event type').inputValue()).resolves.toBe('connect.done');
    await expect(card('connect.done').locator('details').getAttribute('open')).resolves.toBe('');
    await expect.poll(() => cards().count(), { timeout: 10_000 }).toBe(1);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText('4 deliveries, newest first.').waitFor();
    // The listener's address is a target of its own: filtering by it shows the deliveries it got copies of.
    await page.getByLabel('Target').selectOption(world.listener.url);
    await page.getByText('3 deliveries match these filters.').waitFor();
    await page.getByLabel('Target').selectOption(gone.url);
    await page.getByText('1 delivery matches these filters.').waitFor();
    await page.getByLabel('State').selectOption('delivered');
    await page.getByText('No deliveries match these filters.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText('4 deliveries, newest first.').waitFor();
  });

  it('redelivers a failed delivery with the same event id', async () => {
    gone.setBehaviour(() => ({ status: 200, body: 'welcome back' }));
    const failed = card('connect.started').filter({ hasText: gone.url });
    const before = gone.requests.length;
    await failed.getByRole('button', { name: /^Redeliver delivery \d+$/ }).click();
    await page.getByText(/is queued for redelivery and goes out now/).waitFor();
    await expect(failed.getByText('pending', { exact: true }).isVisible()).resolves.toBe(true);
    await drainDeliveries(world.ctx.runtime, { random: () => 0 });
    await failed.getByText('delivered', { exact: true }).waitFor();
    await expect(failed.getByText('welcome back', { exact: true }).isVisible()).resolves.toBe(true);
    expect(gone.requests).toHaveLength(before + 1);
    expect(gone.requests.at(-1)!.eventId).toBe(gone.requests[0]!.eventId);
  });

  it('fits a 375 pixel screen without sideways scrolling, and stays accessible', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await card('connect.done').waitFor();
    await card('connect.added')
      .getByText(/^Payload/)
      .click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot('deliveries-375');
  });
});
