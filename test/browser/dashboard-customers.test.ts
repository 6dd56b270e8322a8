import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { linkProfile, refresh } from '../helpers/aggregation.js';
import { ARTIFACTS, axeViolations, screenshots, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { startPushListener } from '../helpers/txpush.js';

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * A customer's life on the dashboard, in headless Chromium: created from the customers page, a Connect link made
 * and opened in a new tab, accounts linked, transactions paged newest first by posted date and filtered by account,
 * TxPUSH listeners added and removed, and the sandbox controls (choices kept, toasts clear of the status badge, the
 * reset confirmed in place). No browser dialog may open at any point.
 */
describe('customers on the dashboard', () => {
  let world: BrowserWorld;
  let push: Awaited<ReturnType<typeof startPushListener>>;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const screenshot = screenshots('dashboard-customer-flow');
  /** A full-page screenshot from the top (the header stays at the top of the window while the page scrolls). */
  const shot = async (p: Page, name: string) => {
    await p.evaluate(() => window.scrollTo(0, 0));
    await screenshot(p, name);
  };
  let customerId = '';

  beforeAll(async () => {
    push = await startPushListener();
    world = await startBrowserWorld({ LEDGERLINK_PUSH_EXTRA_PORTS: String(push.port) });
    context = await world.browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(`${world.serviceUrl}/dashboard#/signin`);
    await page.getByLabel('Partner ID').fill(world.partner.partnerId);
    await page.getByLabel('Partner secret').fill(world.partner.partnerSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
  });
  afterAll(async () => {
    expect(dialogs).toEqual([]);
    await context?.close();
    await world?.close();
    await push?.close();
  });

  async function expectAccessible(): Promise<void> {
    expect(await axeViolations(page)).toEqual([]);
  }

  /** Dismisses the message shown, if any: the next message waited for is then the next action's own. */
  async function dismissMessage(): Promise<void> {
    if ((await page.locator('#toasts .toast').count()) > 0) await page.getByRole('button', { name: 'Dismiss message' }).click();
    await expect(page.locator('#toasts .toast').count()).resolves.toBe(0);
  }

  /**
   * Holds the browser's next request whose URL `matches` until released; `came` resolves once it is held. Matched by
   * the URL rather than a glob, since a glob misses a URL that carries a query.
   */
  async function holdNext(matches: (url: URL) => boolean): Promise<{ came: Promise<void>; release: () => void }> {
    let arrived!: () => void;
    let release!: () => void;
    const came = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      matches,
      async (route) => {
        arrived();
        await released;
        await route.continue();
      },
      { times: 1 },
    );
    return { came, release };
  }

  /** The customer's transaction ids in the order the dashboard promises, from the table itself. */
  async function expectedOrder(accountId?: string): Promise<number[]> {
    let q = world.ctx.runtime.database.kysely
      .selectFrom('transactions')
      .select(['id', 'posted_date', 'effective_date'])
      .where('customer_id', '=', Number(customerId));
    if (accountId) q = q.where('account_id', '=', Number(accountId));
    const key = (r: { posted_date: number | null; effective_date: number }) => Number(r.posted_date ?? r.effective_date);
    return (await q.execute()).sort((a, b) => key(b) - key(a) || Number(b.id) - Number(a.id)).map((r) => Number(r.id));
  }

  const shownIds = (region: Locator) =>
    region.locator('tr[data-transaction-id]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-transaction-id'))));

  it('creates a testing customer from the empty list, refusing a bad username first', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Customers' }).click();
    await page.getByText('No customers yet.').waitFor();
    await page.locator('.empty').getByRole('button', { name: 'Create customer' }).click();
    const form = page.getByRole('form', { name: 'New testing customer' });
    await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe('username');
    await form.getByLabel('Username').fill('abc');
    await form.getByRole('button', { name: 'Add customer' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toMatch(/6 to 255 characters.*\(code 110039\)/);
    await expectAccessible();
    await shot(page, 'create-refused');
    await form.getByLabel('Username').fill('ui_customer_01');
    await form.getByLabel('First name').fill('Uma');
    await form.getByLabel('Last name').fill('Ives');
    await form.getByRole('button', { name: 'Add customer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Uma Ives' }).waitFor();
    customerId = /#\/customers\/(\d+)$/.exec(page.url())![1]!;
    const viaApi = await world.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}`, headers: world.partner.headers });
    expect(viaApi.json()).toMatchObject({ id: customerId, username: 'ui_customer_01', firstName: 'Uma', lastName: 'Ives', type: 'testing' });
  });

  it('generates a Connect link that opens Connect in a new tab, and a Lite link; Fix needs a login first', async () => {
    const links = page.getByRole('region', { name: 'Connect links' });
    await links.getByRole('button', { name: 'Fix link' }).click();
    await links.getByText('no institution login to fix yet').waitFor();
    await links.getByRole('button', { name: 'Connect link' }).click();
    const form = links.getByRole('form', { name: 'New Connect link (Full)' });
    await form.getByLabel('Experience').selectOption('default');
    await form.getByRole('button', { name: 'Generate Connect link' }).click();
    const url = links.getByLabel('Connect link (Full) URL');
    await url.waitFor();
    const link = await url.inputValue();
    expect(Object.fromEntries(new URL(link).searchParams)).toMatchObject({ customerId, partnerId: world.partner.partnerId, type: 'full' });
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('connect-link-url');
    const open = links.getByRole('link', { name: 'Open in a new tab' });
    expect(await open.getAttribute('href')).toBe(link);
    expect(await open.getAttribute('target')).toBe('_blank');
    expect(await open.getAttribute('rel')).toMatch(/\bnoopener\b/);
    await links.getByRole('button', { name: 'Copy the Connect link (Full)' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    await expectAccessible();
    await shot(page, 'connect-link');
    const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await tab.getByLabel('Search for your institution').waitFor();
    expect(tab.url()).toBe(link);
    await tab.close();

    await links.getByRole('button', { name: 'Lite link' }).click();
    const lite = links.getByRole('form', { name: 'New Lite link' });
    expect(await lite.getByLabel('Institution ID').inputValue()).toBe('101732');
    await lite.getByRole('button', { name: 'Generate Lite link' }).click();
    const liteUrl = await links.getByLabel('Lite link URL').inputValue();
    expect(Object.fromEntries(new URL(liteUrl).searchParams)).toMatchObject({ customerId, type: 'lite', institutionId: '101732' });
  });

  it('pages transactions newest first by posted date, by account and page size, kept in the address', async () => {
    const accounts = await linkProfile(world.ctx, world.partner, customerId, 'profile_03');
    await refresh(world.ctx, world.partner, customerId);
    await page.reload();
    const region = page.getByRole('region', { name: 'Transactions' });
    await region.getByRole('table').waitFor();
    const expected = await expectedOrder();
    expect(expected.length).toBeGreaterThan(100);
    const pages = Math.ceil(expected.length / 25);
    await expect(region.getByRole('status').textContent()).resolves.toBe(`1–25 of ${expected.length}, page 1 of ${pages}`);
    expect(await shownIds(region)).toEqual(expected.slice(0, 25));
    expect(await region.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await expectAccessible();
    await shot(page, 'transactions');

    await region.getByRole('button', { name: 'Next' }).click();
    await region
      .getByRole('status')
      .filter({ hasText: `26–50 of ${expected.length}` })
      .waitFor();
    expect(await shownIds(region)).toEqual(expected.slice(25, 50));
    expect(page.url()).toMatch(new RegExp(`#/customers/${customerId}\\?page=2$`));
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Next');

    await region.getByLabel('Per page').selectOption('100');
    await region
      .getByRole('status')
      .filter({ hasText: `1–100 of ${expected.length}` })
      .waitFor();
    expect(await shownIds(region)).toEqual(expected.slice(0, 100));

    const checking = accounts.find((a) => a.type === 'checking')!;
    const forAccount = await expectedOrder(checking.id);
    await region.getByLabel('Account', { exact: true }).selectOption(checking.id);
    await region
      .getByRole('status')
      .filter({ hasText: ` of ${forAccount.length},` })
      .waitFor();
    expect(await shownIds(region)).toEqual(forAccount.slice(0, 100));
    const accountCells = await region.locator('tbody td[data-label=Account]').allTextContents();
    expect(new Set(accountCells)).toEqual(new Set([checking.name]));

    // The address keeps the account and the page size: a reload shows the same.
    expect(page.url()).toMatch(new RegExp(`\\?account=${checking.id}&limit=100$`));
    await page.reload();
    await page.getByRole('region', { name: 'Transactions' }).getByRole('table').waitFor();
    expect(await page.getByRole('region', { name: 'Transactions' }).getByLabel('Account', { exact: true }).inputValue()).toBe(checking.id);
    expect(await shownIds(page.getByRole('region', { name: 'Transactions' }))).toEqual(forAccount.slice(0, 100));
  });

  it('adds a verified TxPUSH listener to an account, shows its keys once, and deletes a subscription after an inline confirmation', async () => {
    const region = page.getByRole('region', { name: 'TxPUSH subscriptions' });
    const account = (await region.getByLabel('Account', { exact: true }).locator('option').nth(1).getAttribute('value'))!;
    await region.getByLabel('Account', { exact: true }).selectOption(account);
    await region.getByText('No subscriptions for this account.').waitFor();
    await region.getByLabel('Callback URL').fill('http://127.0.0.1:9/refused');
    await region.getByRole('button', { name: 'Add listener' }).click();
    await expect(region.getByRole('alert').textContent()).resolves.toMatch(/\(code 14082\)$/);
    const verificationsBefore = push.requests.filter((r) => r.method === 'GET').length;
    await region.getByLabel('Callback URL').fill(push.url);
    await region.getByLabel('Notification format').selectOption('xml');
    await region.getByRole('button', { name: 'Add listener' }).click();
    await region.getByText('Listener verified and subscribed.').waitFor();
    expect(push.requests.filter((r) => r.method === 'GET').length).toBe(verificationsBefore + 1);
    await expect(region.locator('.notice code').allTextContents()).resolves.toEqual([expect.stringMatching(/^whsec_/), expect.stringMatching(/^whsec_/)]);
    const stored = await world.ctx.runtime.database.kysely
      .selectFrom('txpush_subscriptions')
      .select(['id', 'class', 'format'])
      .where('account_id', '=', Number(account))
      .orderBy('id')
      .execute();
    expect(stored.map((s) => [s.class, s.format])).toEqual([
      ['account', 'xml'],
      ['transaction', 'xml'],
    ]);
    // The table renders after the message: wait for it rather than count once.
    await expect.poll(() => region.locator('tbody tr').count(), { timeout: 10_000 }).toBe(2);
    await expectAccessible();
    await shot(page, 'txpush');

    const transactionSub = stored.find((s) => s.class === 'transaction')!;
    await region.getByRole('button', { name: `Delete transaction subscription ${transactionSub.id}` }).click();
    const confirm = region.getByRole('group', { name: `Confirm deleting subscription ${transactionSub.id}` });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirm.count(), { timeout: 10_000 }).toBe(0);
    await region.getByRole('button', { name: `Delete transaction subscription ${transactionSub.id}` }).click();
    await confirm.getByRole('button', { name: 'Delete now' }).click();
    await page.getByText(`Subscription ${transactionSub.id} deleted.`).waitFor();
    await expect.poll(() => region.locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    const left = await world.ctx.runtime.database.kysely.selectFrom('txpush_subscriptions').select('class').where('account_id', '=', Number(account)).execute();
    expect(left).toEqual([{ class: 'account' }]);
  });

  it('keeps the sandbox choices after each action and shows toasts clear of the status badge, at 1280 px and 375 px', async () => {
    // A link to copy: its copy button gives a toast without redrawing the page.
    const links = page.getByRole('region', { name: 'Connect links' });
    await links.getByRole('button', { name: 'Connect link' }).click();
    await links.getByRole('button', { name: 'Generate Connect link' }).click();
    await links.getByLabel('Connect link (Full) URL').waitFor();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const sandbox = page.getByRole('region', { name: 'Sandbox controls' });
      const loginForm = sandbox.getByRole('form', { name: /into an error state/ });
      const code = width === 1280 ? '185' : '109';
      await loginForm.getByLabel(/Error state for/).selectOption(code);
      await sandbox.getByLabel('TxPUSH event', { exact: true }).selectOption('transaction.modified');
      await sandbox.getByLabel('Connect webhook event', { exact: true }).selectOption('done');
      await loginForm.getByRole('button', { name: 'Set error state' }).click();
      await page
        .locator('#toasts .toast')
        .filter({ hasText: `now fails with ${code}` })
        .waitFor();
      // The page redrew (the login's badge says the new state) and every choice is as it was left.
      const badge = page
        .getByRole('region', { name: 'Institution logins' })
        .locator('.login-head .badge')
        .filter({ hasText: `(${code})` });
      await badge.waitFor();
      expect(
        await sandbox
          .getByRole('form', { name: /into an error state/ })
          .getByLabel(/Error state for/)
          .inputValue(),
      ).toBe(code);
      expect(await sandbox.getByLabel('TxPUSH event', { exact: true }).inputValue()).toBe('transaction.modified');
      expect(await sandbox.getByLabel('Connect webhook event', { exact: true }).inputValue()).toBe('done');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Set error state');

      // Wherever the badge is in the window (below the header, in the middle, at the bottom), no toast covers it, nor
      // any other badge in view (the header's plan badge included). Copying the link makes a fresh toast without
      // moving the page.
      const measure = () =>
        badge.evaluate((el) => {
          const box = (e: Element) => {
            const r = e.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
          };
          const r = el.getBoundingClientRect();
          return {
            onTop: el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)),
            toasts: [...document.querySelectorAll('#toasts .toast')].map(box),
            badges: [...document.querySelectorAll('.badge')].filter((b) => b.checkVisibility()).map((b) => ({ text: b.textContent, ...box(b) })),
          };
        });
      const uncovered = async (where: string, place?: () => Promise<void>) => {
        // The header grows for the copy's message, not only swaps one message for another.
        await dismissMessage();
        await links.getByRole('button', { name: 'Copy the Connect link (Full)' }).dispatchEvent('click');
        await page.locator('#toasts .toast').first().waitFor();
        await place?.();
        const seen = await measure();
        expect(seen.toasts.length, `${width}, ${where}: a toast is shown`).toBe(1);
        expect(seen.onTop, `${width}, ${where}: something covers the badge`).toBe(true);
        for (const t of seen.toasts) for (const b of seen.badges) expect(intersects(t, b), `${width}, ${where}: toast over “${b.text}”`).toBe(false);
      };
      for (const block of ['start', 'center', 'end'] as const) await uncovered(block, () => badge.evaluate((el, b) => el.scrollIntoView({ block: b }), block));
      // A toast that appears while the badge sits right below the header pushes the page down instead of covering it.
      await badge.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await uncovered('right below the header when a toast appears');
      // What the window shows: the toast in the header band, the badge below it.
      await page.screenshot({ path: path.join(ARTIFACTS, `dashboard-customer-flow-toast-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('shows an action’s message only once the page has redrawn, and a redraw that ends late never covers the page navigated to', async () => {
    const sandbox = page.getByRole('region', { name: 'Sandbox controls' });
    const toasts = page.locator('#toasts .toast');
    const reportsUrl = `/dashboard/api/customers/${customerId}/reports`;
    /** Holds the next request for the customer's reports, the last of a redraw's requests. */
    const holdNextRedraw = () => holdNext((url) => url.pathname === reportsUrl);
    await dismissMessage();

    // The error state is set, and the redraw after it waits: no message yet. Released, the message and the new
    // state show together.
    const first = await holdNextRedraw();
    const loginForm = sandbox.getByRole('form', { name: /into an error state/ });
    await loginForm.getByLabel(/Error state for/).selectOption('108');
    await loginForm.getByRole('button', { name: 'Set error state' }).click();
    await first.came;
    expect(await toasts.count()).toBe(0);
    first.release();
    await toasts.filter({ hasText: 'now fails with 108' }).waitFor();
    const badges = page.getByRole('region', { name: 'Institution logins' }).locator('.login-head .badge');
    await expect(badges.filter({ hasText: '(108)' }).count()).resolves.toBeGreaterThan(0);

    // A days count typed into the field, still focused, survives a redraw of the page.
    await sandbox.getByLabel('Days ahead').selectText();
    await page.keyboard.type('5');
    await page.evaluate((id) => {
      location.hash = `#/customers/${id}?size=25`;
    }, customerId);
    await page.waitForFunction(() => location.hash.endsWith('?size=25'));
    await expect.poll(() => sandbox.getByLabel('Days ahead').inputValue()).toBe('5');

    // The error is cleared and its redraw held while the user goes to Deliveries. Released, that redraw finds the
    // page has moved on and draws nothing; its message still shows.
    const second = await holdNextRedraw();
    await sandbox.getByRole('button', { name: 'Clear error (108)' }).click();
    await second.came;
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();
    const finished = page.waitForEvent('requestfinished', (r) => new URL(r.url()).pathname === reportsUrl);
    second.release();
    await finished;
    await toasts.filter({ hasText: 'is healthy again' }).waitFor();
    // Two frames and a task later the held redraw has run to its end.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));
    await expect(page.getByRole('heading', { level: 1 }).allTextContents()).resolves.toEqual(['Deliveries']);

    await page.goto(`${world.serviceUrl}/dashboard#/customers/${customerId}`);
    await sandbox.waitFor();
  });

  it('resets the customer after the same inline confirmation as key rotation, never a browser dialog', async () => {
    const sandbox = page.getByRole('region', { name: 'Sandbox controls' });
    await sandbox.getByRole('button', { name: 'Reset customer' }).click();
    const confirm = sandbox.getByRole('group', { name: 'Confirm reset' });
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Reset now');
    await expectAccessible();
    await shot(page, 'reset-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirm.count(), { timeout: 10_000 }).toBe(0);
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Reset customer');
    await expect
      .poll(() => page.getByRole('region', { name: 'Institution logins' }).getByText('No institution logins yet.').count(), { timeout: 10_000 })
      .toBe(0);
    await sandbox.getByRole('button', { name: 'Reset customer' }).click();
    await confirm.getByRole('button', { name: 'Reset now' }).click();
    await page.getByText(/Customer reset: 1 login and \d+ accounts removed\./).waitFor();
    await page.getByRole('region', { name: 'Institution logins' }).getByText('No institution logins yet.').waitFor();
    const logins = await world.ctx.runtime.database.kysely
      .selectFrom('institution_logins')
      .select('id')
      .where('customer_id', '=', Number(customerId))
      .execute();
    expect(logins).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('uploads statement files from the customer page: refusals with their codes, progress, then the accounts, counts and problems', async () => {
    const region = page.getByRole('region', { name: 'Upload a statement file' });
    const form = region.getByRole('form', { name: 'Statement file to upload' });
    const file = form.getByLabel('Statement file', { exact: true });
    const alert = form.getByRole('alert');
    // Every format the service reads is offered, by its file names and in words.
    const accept = (await file.getAttribute('accept'))!.split(',');
    expect(accept).toEqual(expect.arrayContaining(['.ofx', '.qif', '.sta', '.mt940', '.xml', '.camt', '.csv']));
    await expect(form.locator('#statement-file-hint').textContent()).resolves.toMatch(/MT940.*QIF.*camt\.053.*CSV, up to 10 MB\./);

    // A testing customer is offered the test institutions; a search picks its best match.
    const institution = form.getByLabel('Institution', { exact: true });
    await expect(institution.locator('option').allTextContents()).resolves.toEqual(expect.arrayContaining(['FinBank (101732)', 'FinBank MFA (102175)']));
    const find = async (text: string, found: RegExp) => {
      await region.getByLabel('Find an institution').fill(text);
      await region.getByRole('button', { name: 'Search' }).click();
      await region.locator('#statement-search-found').filter({ hasText: found }).waitFor();
    };
    await find('MFA', /^1 institution found: choose under Institution\.$/);
    expect(await institution.inputValue()).toBe('102175');
    await find('FinBank', /^\d+ institutions found/);
    expect(await institution.inputValue()).toBe('101732');

    await form.getByRole('button', { name: 'Upload' }).click();
    await expect(alert.textContent()).resolves.toBe('Choose the statement file.');
    await file.setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n1 0 obj\n') });
    await form.getByRole('button', { name: 'Upload' }).click();
    await alert.filter({ hasText: '(code 14114)' }).waitFor();
    await file.setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from('When,Who,How Much\n2026-03-02,COFFEE,-4.50\n') });
    await form.getByRole('button', { name: 'Upload' }).click();
    await alert.filter({ hasText: '(code 14112)' }).waitFor();
    await expect(alert.textContent()).resolves.toMatch(
      /Columns found: When, Who, How Much\. Upload it in Connect .*or through the API with a mapping parameter\. \(code 14112\)$/,
    );
    await expectAccessible();
    await shot(page, 'statement-refused');

    // A file with a row that cannot be read. The answer is held until the busy state has been seen.
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const csv = ['Date,Description,Amount', `${day(9)},COFFEE ROASTERS,-4.50`, `${day(8)},BROKEN ROW,12.3.4`, `${day(7)},PAYROLL ACME,1200.00`, ''].join('\n');
    await file.setInputFiles({ name: 'checking.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await form.getByLabel('Account name (optional)').fill('Everyday Checking');
    // By its path: the upload's URL carries the account name as a query.
    const upload = await holdNext((url) => url.pathname.endsWith('/statements'));
    await form.getByRole('button', { name: 'Upload' }).click();
    // The upload is held at the browser: what follows is the page while it is on its way.
    await upload.came;
    const busy = form.locator('#statement-upload');
    await expect(busy.getAttribute('aria-busy')).resolves.toBe('true');
    expect(await busy.isDisabled()).toBe(true);
    await expect(busy.textContent()).resolves.toBe('Uploading…');
    await expect(form.locator('#statement-progress').textContent()).resolves.toMatch(/^Uploading checking\.csv \(\d+ bytes\): /);
    upload.release();
    const result = page.getByRole('group', { name: /^Uploaded to FinBank, login \d+$/ });
    await result.waitFor();
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('statement-result');
    await expect(result.locator('#statement-counts').textContent()).resolves.toBe(
      '2 new transactions added, 0 transactions already present from an earlier file.',
    );
    const accounts = result.getByRole('table', { name: 'Accounts in the file (1)' });
    await expect(accounts.locator('tbody td[data-label=Account]').allTextContents()).resolves.toEqual([expect.stringMatching(/^Everyday Checking/)]);
    const problems = result.getByRole('table', { name: 'Problems in the file (1)' });
    await expect(problems.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)))).resolves.toEqual(
      [['3', 'The amount "12.3.4" cannot be read.']],
    );
    // The page redrew with the statement-file login, offered first for the next upload.
    await page
      .getByRole('region', { name: 'Institution logins' })
      .getByText(/· statement files$/)
      .waitFor();
    expect(await page.locator('#statement-institution optgroup').first().getAttribute('label')).toBe('Statement files uploaded before');
    const stored = await world.ctx.runtime.database.kysely
      .selectFrom('transactions')
      .select('description')
      .where('customer_id', '=', Number(customerId))
      .orderBy('description')
      .execute();
    expect(stored.map((t) => t.description)).toEqual(['COFFEE ROASTERS', 'PAYROLL ACME']);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 860 });
      await result.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await expectAccessible();
      await page.screenshot({ path: path.join(ARTIFACTS, `dashboard-customer-flow-statement-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(dialogs).toEqual([]);
  });
});
