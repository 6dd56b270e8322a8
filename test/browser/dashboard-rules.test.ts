import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { allTransactions, DAY, linkProfile, nowOf, refresh, type TransactionJson } from '../helpers/aggregation.js';
import { axeViolations, screenshots, dashboardPage, startBrowserWorld, type BrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';

/**
 * The rules page of the dashboard, in headless Chromium at a desktop and a phone width: a rule made from a transaction
 * on the customer's page, its preview before it is saved, saving, editing, applying and deleting, inside the window
 * without sideways scrolling and free of axe violations.
 */
describe('transaction rules on the dashboard', () => {
  let world: BrowserWorld;
  let customerId = '';
  let newest: TransactionJson;
  const screenshot = screenshots('dashboard-rules');

  beforeAll(async () => {
    world = await startBrowserWorld();
    customerId = await addCustomer(world.ctx, world.partner);
    await linkProfile(world.ctx, world.partner, customerId, 'profile_01');
    await refresh(world.ctx, world.partner, customerId);
    const txs = await allTransactions(world.ctx, world.partner, customerId, {
      fromDate: nowOf(world.ctx) - 400 * DAY,
      toDate: nowOf(world.ctx) + DAY,
      sort: 'desc',
    });
    newest = txs[0]!;
  });
  afterAll(async () => {
    await world?.close();
  });

  const openPage = (width: number): Promise<Page> => dashboardPage(world, width);
  const rules = async () =>
    (await world.ctx.app.inject({ url: '/aggregation/v1/partners/rules', headers: world.partner.headers })).json<{ rules: { id: number }[] }>().rules;

  for (const width of [1280, 375]) {
    it(`makes a rule from a transaction, previews, saves, applies, edits and deletes it at ${width} px`, async () => {
      const page = await openPage(width);
      try {
        await page.goto(`${world.serviceUrl}/dashboard#/customers/${customerId}`);
        await page
          .locator(`[data-transaction-id="${newest.id}"]`)
          .getByRole('link', { name: `Make a rule from ${newest.description}` })
          .click();
        await page.getByRole('heading', { level: 1, name: 'Transaction rules' }).waitFor();
        const form = page.getByRole('form', { name: 'New rule' });
        await page.getByRole('heading', { name: 'New rule from a transaction' }).waitFor();
        const first = form.getByRole('group', { name: /^Condition \d+$/ }).first();
        await expect(first.getByLabel('Value').inputValue()).resolves.toBe(newest.description);
        await expect.poll(() => form.getByRole('group', { name: /^Condition \d+$/ }).count(), { timeout: 10_000 }).toBe(2);

        await form.getByLabel('Set category').selectOption('Gift');
        await form.getByLabel('Set memo').fill('made on the dashboard');
        await form.getByRole('button', { name: 'Preview' }).click();
        const summary = form.locator('#rule-preview-summary');
        await summary.waitFor();
        await expect(summary.textContent()).resolves.toMatch(/meet the conditions and [1-9]\d* would change\./);
        await expect(form.getByRole('table', { name: 'Transactions the rule would change' }).locator('tbody tr').first().textContent()).resolves.toContain(
          'Gift',
        );
        expect(await rules()).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `${width}-preview`);

        await form.getByRole('button', { name: 'Create rule' }).click();
        await page.locator('[data-rule-id]').first().waitFor();
        const [saved] = await rules();
        const row = page.locator(`[data-rule-id="${saved!.id}"]`);
        await row.waitFor();
        await expect(row.textContent()).resolves.toContain('category: Gift');

        await page.getByRole('button', { name: 'Apply rules to stored transactions' }).click();
        await page.getByText(/Applied the rules to \d+ transactions: [1-9]\d* changed\./).waitFor();
        const stored = await world.ctx.app.inject({ url: `/aggregation/v2/customers/${customerId}/transactions/${newest.id}`, headers: world.partner.headers });
        expect(stored.json()).toMatchObject({ memo: 'made on the dashboard', categorization: { category: 'Gift' } });

        await row.getByRole('button', { name: `Edit rule ${saved!.id}` }).click();
        const edit = page.getByRole('form', { name: `Rule ${saved!.id}` });
        await expect(edit.getByLabel('Set category').inputValue()).resolves.toBe('Gift');
        await edit.getByLabel('Position').fill('5');
        await edit.getByRole('button', { name: 'Save rule' }).click();
        await page.locator(`[data-rule-id="${saved!.id}"] td`).first().getByText('5').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `${width}-list`);

        await page
          .locator(`[data-rule-id="${saved!.id}"]`)
          .getByRole('button', { name: `Delete rule ${saved!.id}` })
          .click();
        await page.getByRole('button', { name: 'Delete rule', exact: true }).click();
        await page.getByText('No rules yet.').waitFor();
        expect(await rules()).toEqual([]);
        // Back to the source's values for the next width.
        await page.getByRole('button', { name: 'Apply rules to stored transactions' }).click();
        await page.getByText(/Applied the rules to \d+ transactions: [1-9]\d* changed\./).waitFor();
      } finally {
        await page.context().close();
      }
    });
  }

  it('shows why a rule is refused, and saves nothing', async () => {
    const page = await openPage(1280);
    try {
      await page.goto(`${world.serviceUrl}/dashboard#/rules`);
      const form = page.getByRole('form', { name: 'New rule' });
      await form.getByLabel('Value').fill('(a+)+$');
      await form.getByLabel('Operator').selectOption('matches');
      await form.getByLabel('Set category').selectOption('Gift');
      await form.getByRole('button', { name: 'Create rule' }).click();
      await form
        .getByRole('alert')
        .getByText(/exponential time\. \(code 14151\)/)
        .waitFor();
      expect(await rules()).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
