import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRoutingNumber } from '../../src/connectors/testbank/institutions.js';
import { testAmounts } from '../../src/modules/microentries/amounts.rules.js';
import { axeViolations, type BrowserWorld, generateLink, screenshots, startBrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';

/**
 * Connect's micro entry verification page (VerifyMicroEntryMicrodeposit): the customer enters the two deposits found
 * on the account, at a desktop and a phone width, checked with axe and photographed. A wrong pair says how many
 * attempts are left; the right one verifies the account and ends with Done.
 */
describe('micro entry verification in Connect, in a browser', () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  });
  afterAll(() => world?.close());

  it.each([1280, 375])('verifies the deposits at %i px', async (width) => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const accountNumber = `12345${width}0`.slice(0, 10);
    const started = await world.ctx.app.inject({
      method: 'POST',
      url: `/microentry/v1/customers/${customerId}`,
      headers: world.partner.headers,
      payload: { receiver: { routingNumber: testRoutingNumber(101732), accountNumber, accountType: 'personalChecking', name: 'Jane Smith' } },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { accountId } = started.json<{ accountId: string }>();
    const page = await world.browser.newPage({ viewport: { width, height: width > 600 ? 900 : 812 } });
    const shot = screenshots(`micro-entries-${width}`);

    // Before the deposits land, the page says they are on their way.
    await page.goto(await generateLink(world, 'generate/microentry/verify', { customerId, accountId }));
    await page.getByRole('heading', { name: 'Deposits on their way' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'pending');

    // A day later on the customer's clock, the deposits have landed.
    const later = await world.ctx.app.inject({
      method: 'POST',
      url: `/sandbox/v1/customers/${customerId}/clock`,
      headers: world.partner.headers,
      payload: { days: 1 },
    });
    expect(later.statusCode, later.body).toBe(200);
    await page.goto(await generateLink(world, 'generate/microentry/verify', { customerId, accountId }));
    await page.getByRole('heading', { name: 'Verify your account' }).waitFor();
    await page.getByLabel('First deposit (USD)').fill('0.01');
    await page.getByLabel('Second deposit (USD)').fill('0.02');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('2 attempts left');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'wrong');

    const [a, b] = testAmounts(accountNumber).map((c) => (c / 100).toFixed(2));
    await page.getByLabel('First deposit (USD)').fill(b!);
    await page.getByLabel('Second deposit (USD)').fill(a!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Account verified' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'verified');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'All set' }).waitFor();
    const details = await world.ctx.app.inject({ url: `/microentry/v1/customers/${customerId}/accounts/${accountId}`, headers: world.partner.headers });
    expect(details.json()).toMatchObject({ status: 'Verified' });
    await page.close();
  });
});
