import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type BrowserWorld, screenshots, startBrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';
import { consumerBody, createConsumer } from '../helpers/consumers.js';

/**
 * A joint borrower link in the hosted app: the primary borrower connects their accounts, then the joint borrower
 * theirs, each under their own customer, at a desktop and a phone width, checked with axe and photographed.
 */
describe('a joint borrower link in Connect, in a browser', () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  });
  afterAll(() => world?.close());

  async function accountNames(customerId: string): Promise<string[]> {
    const res = await world.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: world.partner.headers });
    return res
      .json()
      .accounts.map((a: { name: string }) => a.name)
      .sort();
  }

  it.each([1280, 375])('links both borrowers’ accounts at %i px', async (width) => {
    const primary = await addCustomer(world.ctx, world.partner);
    const joint = await addCustomer(world.ctx, world.partner);
    const borrowers = [
      { customerId: primary, consumerId: await createConsumer(world.ctx, world.partner, primary), type: 'primary' },
      {
        customerId: joint,
        consumerId: await createConsumer(world.ctx, world.partner, joint, { ...consumerBody(), firstName: 'Jenny', lastName: 'Doe' }),
        type: 'jointBorrower',
      },
    ];
    const res = await world.ctx.app.inject({
      method: 'POST',
      url: '/connect/v2/generate/jointBorrower',
      headers: world.partner.headers,
      payload: { partnerId: world.partner.partnerId, borrowers, webhook: world.listener.url },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await world.browser.newPage({ viewport: { width, height: width > 600 ? 900 : 812 } });
    const shot = screenshots(`joint-borrower-${width}`);
    await page.goto(res.json().link);
    await page.getByRole('heading', { name: 'Find your bank' }).waitFor();
    const choice = page.getByRole('group', { name: 'Whose accounts are you connecting?' });
    await expect(choice.getByRole('radio', { name: 'John Doe (primary borrower)' }).isChecked()).resolves.toBe(true);
    await expect(choice.getByRole('radio', { name: 'Jenny Doe (joint borrower)' }).isChecked()).resolves.toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'search');

    const connect = async (profile: string) => {
      await page.getByLabel('Search for your institution').fill('FinBank');
      await page.getByRole('button', { name: 'FinBank', exact: true }).click();
      await page.getByRole('heading', { name: 'Sign in to FinBank' }).waitFor();
      await page.getByLabel('User ID').fill(profile);
      await page.getByLabel('Password').fill(profile);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Connect accounts' }).click();
      await page.getByRole('heading', { name: 'Accounts connected' }).waitFor();
    };
    await connect('profile_01');
    await page.getByText('Connected for John Doe.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'primary-connected');
    const primaryAccounts = await accountNames(primary);
    expect(primaryAccounts.length).toBeGreaterThan(0);
    expect(await accountNames(joint)).toEqual([]);

    await page.getByRole('button', { name: 'Connect Jenny Doe’s accounts' }).click();
    await page.getByRole('heading', { name: 'Find your bank' }).waitFor();
    await expect(page.getByRole('radio', { name: 'Jenny Doe (joint borrower)' }).isChecked()).resolves.toBe(true);
    await connect('profile_02');
    await page.getByText('Connected for Jenny Doe.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'joint-connected');
    const jointAccounts = await accountNames(joint);
    expect(jointAccounts.length).toBeGreaterThan(0);
    expect(await accountNames(primary)).toEqual(primaryAccounts);
    await page.close();
  });
});
