import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { allTransactions, DAY, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { axeViolations, type BrowserWorld, screenshots, startBrowserWorld } from '../helpers/browser.js';
import { partnerWithToken, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { type OfxServer, type OfxServerUser, startOfxServer } from '../helpers/ofx-server.js';
import { type BridgeAccount, type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';

/**
 * Real institution protocols end to end in headless Chromium: a production-plan partner's active customer links
 * accounts at SimpleFIN Bridge (a setup token from a local bridge) and at an OFX Direct Connect institution (user id
 * and password against a local OFX server) through the hosted Connect app, and the partner reads through the API
 * exactly the accounts and transactions the two servers served. The service runs in sandbox mode, whose outbound
 * policy lets its connectors call plain-http servers on this machine.
 */
describe('Connect links real institutions in a browser', () => {
  let world: BrowserWorld;
  let partner: TestPartner;
  let ofx: OfxServer;
  let bridge: SimplefinBridge;
  let ofxInstitution: number;
  let now: number;
  const OFX_NAME = 'Harbor Test Credit Union';

  function ofxUsers(): OfxServerUser[] {
    return [
      {
        userId: 'alice',
        password: 'harbor-pw-1',
        accounts: [
          {
            kind: 'bank',
            bankId: '121000358',
            acctId: '000123456',
            acctType: 'CHECKING',
            description: 'Share Draft Checking',
            balance: 1520.75,
            available: 1490.75,
            transactions: [
              { fitId: 'F1', type: 'DIRECTDEP', posted: now - 20 * DAY, amount: 2500, name: 'ACME CORP PAYROLL' },
              { fitId: 'F2', type: 'POS', posted: now - 3 * DAY, amount: -4.75, name: 'HARBOR COFFEE' },
            ],
          },
          {
            kind: 'creditCard',
            acctId: '4111XXXXXXXX1111',
            description: 'Harbor Visa',
            balance: -250.5,
            transactions: [{ fitId: 'F1', type: 'DEBIT', posted: now - 5 * DAY, amount: -250.5, name: 'DELTA AIR LINES' }],
          },
        ],
      },
    ];
  }

  function bridgeAccounts(): BridgeAccount[] {
    return [
      {
        id: 'ACT-checking',
        name: 'Everyday Checking (1234)',
        balance: '830.10',
        'available-balance': '800.10',
        'balance-date': now - 3600,
        org: { name: 'First Example Bank', domain: 'first.example' },
        transactions: [
          { id: 'TRN-1', posted: now - 12 * DAY, amount: '1800.00', description: 'EMPLOYER PAYROLL' },
          { id: 'TRN-2', posted: now - 2 * DAY, amount: '-82.10', description: 'KROGER 0042' },
        ],
      },
      {
        id: 'ACT-card',
        name: 'Platinum Card',
        balance: '-120.00',
        'balance-date': now - 3600,
        org: { name: 'Second Example Card Co', domain: 'second.example' },
        transactions: [{ id: 'TRN-1', posted: now - 6 * DAY, amount: '-120.00', description: 'AMAZON MKTPLACE' }],
      },
    ];
  }

  beforeAll(async () => {
    world = await startBrowserWorld();
    expect(world.ctx.runtime.config.mode).toBe('sandbox');
    partner = await partnerWithToken(world.ctx, 'production');
    now = nowOf(world.ctx);
    ofx = await startOfxServer({ format: 'sgml', users: ofxUsers() });
    ofxInstitution = await addOfxInstitution(
      world.ctx.runtime.database,
      world.ctx.runtime.config.mode,
      { name: OFX_NAME, url: ofx.url, fid: '1234', org: 'HTCU' },
      now,
    );
    bridge = await startSimplefinBridge({ now: () => nowOf(world.ctx) });
  });
  afterAll(async () => {
    await ofx?.close();
    await bridge?.close();
    await world?.close();
  });

  /** axe-core's WCAG 2.1 A/AA rules on the current page: no violations. */
  async function expectAccessible(page: Page): Promise<void> {
    expect(await axeViolations(page)).toEqual([]);
  }

  /** Screenshots of the current screen at desktop (1280 px) and phone (375 px) widths. */
  async function bothWidths(page: Page, shot: (page: Page, name: string) => Promise<void>, name: string): Promise<void> {
    await shot(page, `${name}-1280`);
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, `${name}-375`);
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function generateLink(customerId: string): Promise<string> {
    const res = await world.ctx.app.inject({
      method: 'POST',
      url: '/connect/v2/generate',
      headers: partner.headers,
      payload: { partnerId: partner.partnerId, customerId, webhook: world.listener.url },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ link: string }>().link;
  }

  async function choose(page: Page, search: string, name: string): Promise<void> {
    await page.getByLabel('Search for your institution').fill(search);
    await page.getByRole('button', { name, exact: true }).click();
    await page.getByRole('heading', { name: `Sign in to ${name}` }).waitFor();
  }

  async function connectAll(page: Page): Promise<void> {
    await page.getByRole('heading', { name: 'Select accounts' }).waitFor();
    await page.getByRole('button', { name: 'Connect accounts' }).click();
    await page.getByRole('heading', { name: 'Accounts connected' }).waitFor();
  }

  it('links SimpleFIN Bridge with a setup token and an OFX institution with user id and password, and the API serves what they sent', async () => {
    const customerId = await addCustomer(world.ctx, partner, { type: 'active' });
    const link = await generateLink(customerId);
    const page = await world.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const shot = screenshots('real-institutions');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Find your bank' }).waitFor();

    // SimpleFIN Bridge: one field, the setup token, with help saying where to make one.
    await choose(page, 'simplefin', 'SimpleFIN Bridge');
    const token = bridge.createSetupToken({ accounts: bridgeAccounts() });
    await bothWidths(page, shot, 'simplefin-sign-in');
    const tokenField = page.getByLabel('Setup token', { exact: true });
    // The help is tied to the field, and password managers are not invited to keep the token.
    const hintId = await tokenField.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${hintId}"]`).textContent()).toMatch(/New app connection/);
    expect(await tokenField.getAttribute('autocomplete')).toBe('off');
    await tokenField.fill(token);
    await shot(page, 'simplefin-token-pasted');
    await page.getByRole('button', { name: 'Continue' }).click();
    await connectAll(page);
    await shot(page, 'simplefin-connected');

    // The OFX institution the operator added for the local server: user id and password, with its hint.
    await page.getByRole('button', { name: 'Connect another institution' }).click();
    await choose(page, 'Harbor Test', OFX_NAME);
    await bothWidths(page, shot, 'ofx-sign-in');
    const userHint = await page.getByLabel('User ID', { exact: true }).getAttribute('aria-describedby');
    expect(await page.locator(`[id="${userHint}"]`).textContent()).toMatch(/Quicken/);
    await page.getByLabel('User ID').fill('alice');
    await page.getByLabel('Password').fill('harbor-pw-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await connectAll(page);
    await shot(page, 'ofx-connected');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'All set' }).waitFor();
    await page.close();

    // The partner's view: both logins' accounts, with the balances the servers reported.
    // Transactions are read after a refresh, as the API asks of every newly linked customer (14064 before).
    await refresh(world.ctx, partner, customerId);
    const res = await world.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: partner.headers });
    expect(res.statusCode, res.body).toBe(200);
    const accounts = res.json<{ accounts: (AccountJson & { institutionId: string; detail?: { institutionName?: string } })[] }>().accounts;
    const summary = accounts.map((a) => [String(a.institutionId), a.type, a.balance, a.detail?.institutionName ?? null]).sort();
    expect(summary).toEqual(
      [
        ['590000', 'checking', 830.1, 'First Example Bank'],
        ['590000', 'creditCard', -120, 'Second Example Card Co'],
        [String(ofxInstitution), 'checking', 1520.75, null],
        [String(ofxInstitution), 'creditCard', -250.5, null],
      ].sort(),
    );

    // Every transaction either server served, once, on the account it belongs to.
    const transactions = await allTransactions(world.ctx, partner, customerId, { fromDate: now - 30 * DAY, toDate: now + DAY });
    const typeOf = new Map(accounts.map((a) => [String(a.id), `${a.institutionId}:${a.type}`]));
    expect(transactions.map((t) => [typeOf.get(String(t.accountId)), t.amount, t.description]).sort()).toEqual(
      [
        ['590000:checking', 1800, 'EMPLOYER PAYROLL'],
        ['590000:checking', -82.1, 'KROGER 0042'],
        ['590000:creditCard', -120, 'AMAZON MKTPLACE'],
        [`${ofxInstitution}:checking`, 2500, 'ACME CORP PAYROLL'],
        [`${ofxInstitution}:checking`, -4.75, 'HARBOR COFFEE'],
        [`${ofxInstitution}:creditCard`, -250.5, 'DELTA AIR LINES'],
      ].sort(),
    );
    expect(ofx.requests.some((r) => r.signon?.userId === 'alice')).toBe(true);
    expect(bridge.accountRequests(bridge.userOf(token)).length).toBeGreaterThan(0);
  });
});
