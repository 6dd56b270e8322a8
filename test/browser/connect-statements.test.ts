import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTestInstitution } from '../../src/connectors/testbank/institutions.js';
import { axeViolations, type BrowserWorld, generateLink, screenshots, startBrowserWorld, webhookTypes } from '../helpers/browser.js';
import { partnerWithToken } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

/** A bank export whose columns the service cannot tell apart by their names. */
const UNKNOWN_LAYOUT = Buffer.from(
  [
    'When,Who,How Much,Left',
    '03/02/2026,COFFEE ROASTERS,-4.50,995.50',
    '03/03/2026,"PAYROLL, ACME CORP",2450.33,3445.83',
    '03/05/2026,CITY WATER DEPARTMENT,-61.20,3384.63',
    '03/07/2026,COFFEE ROASTERS,-4.50,3380.13',
    '03/12/2026,NEIGHBOURHOOD BOOKSHOP,-18.00,3362.13',
    '',
  ].join('\n'),
);

/** A card export of no bank's layout whose amounts are all positive: the file does not tell which way its signs go. */
const CARD_PURCHASES = Buffer.from(
  [
    'Date,Description,Card Number,Amount',
    '03/02/2026,BLUE BOTTLE COFFEE,****4417,6.25',
    '03/14/2026,NEIGHBOURHOOD BOOKSHOP,****4417,18.40',
    '03/19/2026,CITY PARKING,****4417,3.00',
    '',
  ].join('\n'),
);

const OFX = Buffer.from(`OFXHEADER:100
DATA:OFXSGML
VERSION:102

<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>121000248<ACCTID>9988776655<ACCTTYPE>SAVINGS</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260301<DTEND>20260331
<STMTTRN><TRNTYPE>INT<DTPOSTED>20260331<TRNAMT>3.12<FITID>I202603<NAME>INTEREST PAID</STMTTRN>
<STMTTRN><TRNTYPE>XFER<DTPOSTED>20260315<TRNAMT>500.00<FITID>X202603<NAME>TRANSFER FROM CHECKING</STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>8503.12<DTASOF>20260331</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
`);

/**
 * Uploading statement files in the hosted Connect app, in headless Chromium at a desktop and a phone width: the
 * "Upload a statement file instead" path of an institution with a sign-in form, a refused file, the mapping screen of
 * a CSV file of an unknown layout, the success screen and the webhooks; and an institution without a live
 * connection, which leads straight to the upload. Every screen is checked with axe-core and photographed.
 */
describe('statement files in Connect, in a browser', () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  });
  afterAll(() => world?.close());

  /** axe-core's WCAG 2.1 A/AA rules on the current page: no violations. */
  async function expectAccessible(page: Page): Promise<void> {
    expect(await axeViolations(page)).toEqual([]);
  }

  async function accountsOf(headers: Record<string, string>, customerId: string): Promise<{ id: string; name: string; balance: number }[]> {
    const res = await world.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers });
    return res.json().accounts;
  }

  /** Forgets the column mappings the partner's earlier uploads saved, so that a layout is unknown again. */
  async function forgetSavedMappings(): Promise<void> {
    const saved = await world.ctx.app.inject({ url: '/aggregation/v1/statement-mappings', headers: world.partner.headers });
    for (const { fingerprint } of saved.json().mappings as { fingerprint: string }[]) {
      const res = await world.ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/statement-mappings/${fingerprint}`, headers: world.partner.headers });
      expect(res.statusCode).toBe(204);
    }
  }

  it.each([1280, 375])('uploads a CSV file of an unknown layout through the mapping screen at %i px', async (width) => {
    await forgetSavedMappings();
    const customerId = await addCustomer(world.ctx, world.partner);
    const link = await generateLink(world, 'generate', { customerId });
    const page = await world.browser.newPage({ viewport: { width, height: width > 600 ? 900 : 812 } });
    const shot = screenshots(`statement-upload-${width}`);
    await page.goto(link);
    await page.getByLabel('Search for your institution').fill('FinBank');
    await page.getByRole('button', { name: 'FinBank', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to FinBank' }).waitFor();
    await shot(page, 'sign-in');
    await page.getByRole('button', { name: 'Upload a statement file instead' }).click();
    await page.getByRole('heading', { name: 'Upload a statement file' }).waitFor();
    await expectAccessible(page);
    await shot(page, 'choose-file');

    // Uploading nothing, then a PDF: the screen says what is wrong and stays.
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Choose the file you downloaded.');
    await page
      .getByLabel('Statement file', { exact: true })
      .setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n1 0 obj\n') });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'This is a PDF' }).waitFor();
    await expectAccessible(page);
    await shot(page, 'refused-pdf');

    await page.getByLabel('Statement file', { exact: true }).setInputFiles({ name: 'march.csv', mimeType: 'text/csv', buffer: UNKNOWN_LAYOUT });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: 'Which column is which?' }).waitFor();
    const preview = page.getByRole('region', { name: 'The first rows of the file' });
    await expect(preview.getByRole('columnheader').allTextContents()).resolves.toEqual(['When', 'Who', 'How Much', 'Left']);
    await expect.poll(() => preview.getByRole('row').count(), { timeout: 10_000 }).toBe(6);
    // The date and the description are guessed from the rows; the amount is the user's to choose.
    await expect(page.getByLabel('Date', { exact: true }).inputValue()).resolves.toBe('0');
    await expect(page.getByLabel('Description', { exact: true }).inputValue()).resolves.toBe('1');
    await page.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Choose the column for “Amount”.');
    await expectAccessible(page);
    await shot(page, 'mapping');

    // The first rows as they will be stored follow the choices: the sign question flips them, the currency names them.
    await page.getByLabel('Amount', { exact: true }).selectOption({ label: 'How Much' });
    await page.getByLabel('Dates are written').selectOption('mdy');
    const stored = page.getByRole('region', { name: 'The first rows as they will be imported' });
    await stored.getByRole('cell', { name: '-$4.50', exact: true }).first().waitFor();
    await expect(stored.getByRole('row').nth(1).getByRole('cell').allTextContents()).resolves.toEqual(['2026-03-02', 'COFFEE ROASTERS', '-$4.50']);
    await expect
      .poll(() => page.getByText('The first 5 of 5 transactions, as they will be imported into Imported account.').count(), { timeout: 10_000 })
      .toBe(1);
    await page.getByLabel('Purchases/money out are shown as positive amounts in the file').check();
    await stored.getByRole('cell', { name: '-$2,450.33', exact: true }).waitFor();
    await expect(stored.getByRole('row').nth(1).getByRole('cell').allTextContents()).resolves.toEqual(['2026-03-02', 'COFFEE ROASTERS', '$4.50']);
    await page.getByLabel('Currency of the amounts').fill('EUR');
    await stored.getByRole('cell', { name: '-€2,450.33', exact: true }).waitFor();
    await expectAccessible(page);
    await shot(page, 'mapping-preview');
    await page.getByLabel('Purchases/money out are shown as negative amounts in the file').check();
    await page.getByLabel('Currency of the amounts').fill('');
    await stored.getByRole('cell', { name: '$2,450.33', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Statement imported' }).waitFor();
    await expect.poll(() => page.getByText('5 new transactions imported.').count(), { timeout: 10_000 }).toBe(1);
    await expect(page.getByRole('list', { name: 'Connected accounts' }).getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Imported account.*\$0\.00$/),
    ]);
    await expectAccessible(page);
    await shot(page, 'imported');

    // The same file again: read with the columns the first upload saved for its layout, without asking; nothing new.
    await page.getByRole('button', { name: 'Connect another institution' }).click();
    await page.getByLabel('Search for your institution').fill('FinBank');
    await page.getByRole('button', { name: 'FinBank', exact: true }).click();
    await page.getByRole('button', { name: 'Upload a statement file instead' }).click();
    await page.getByLabel('Statement file', { exact: true }).setInputFiles({ name: 'march.csv', mimeType: 'text/csv', buffer: UNKNOWN_LAYOUT });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page
      .getByText('0 new transactions imported; 5 already here from an earlier file. Its columns were read as chosen for an earlier file like it.')
      .waitFor();
    await expectAccessible(page);
    await shot(page, 'imported-again');

    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'All set' }).waitFor();
    const accounts = await accountsOf(world.partner.headers, customerId);
    expect(accounts.map((a) => a.name)).toEqual(['Imported account']);
    const transactions = await world.ctx.app.inject({
      url: `/aggregation/v4/customers/${customerId}/accounts/${accounts[0]!.id}/transactions?fromDate=1767225600&toDate=1798761600`,
      headers: world.partner.headers,
    });
    expect(
      transactions
        .json()
        .transactions.map((t: { amount: number }) => t.amount)
        .sort(),
    ).toEqual([-18, -4.5, -4.5, -61.2, 2450.33].sort());
    expect(await webhookTypes(world, customerId)).toEqual(['started', 'institutionSelected', 'added', 'institutionSelected', 'added', 'done']);
    await page.close();
  });

  it('asks how a card export shows purchases, with its columns chosen, and imports it as answered', async () => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const link = await generateLink(world, 'generate', { customerId });
    const page = await world.browser.newPage({ viewport: { width: 375, height: 812 } });
    const shot = screenshots('statement-sign-375');
    await page.goto(link);
    await page.getByLabel('Search for your institution').fill('FinBank');
    await page.getByRole('button', { name: 'FinBank', exact: true }).click();
    await page.getByRole('button', { name: 'Upload a statement file instead' }).click();
    await page.getByLabel('Statement file', { exact: true }).setInputFiles({ name: 'card.csv', mimeType: 'text/csv', buffer: CARD_PURCHASES });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: 'Which column is which?' }).waitFor();
    // The columns the service recognised are chosen; only the sign is asked, and marked so.
    await expect(page.getByLabel('Date', { exact: true }).inputValue()).resolves.toBe('0');
    await expect(page.getByLabel('Description', { exact: true }).inputValue()).resolves.toBe('1');
    await expect(page.getByLabel('Amount', { exact: true }).inputValue()).resolves.toBe('3');
    const question = page.getByRole('group', { name: 'How does the file show purchases and money out?' });
    await expect(question.getAttribute('class')).resolves.toBe('question asked');
    await page.getByText('Say how the file shows purchases to see the rows as they will be imported.').waitFor();
    await page.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Say how the file shows purchases and money out.');
    await expectAccessible(page);
    await shot(page, 'asked');
    await question.getByLabel('Purchases/money out are shown as positive amounts in the file').check();
    const stored = page.getByRole('region', { name: 'The first rows as they will be imported' });
    await stored.getByRole('cell', { name: '-$6.25', exact: true }).waitFor();
    await expect.poll(() => stored.getByRole('cell', { name: '-$18.40', exact: true }).count(), { timeout: 10_000 }).toBe(1);
    await expectAccessible(page);
    await shot(page, 'answered');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Statement imported' }).waitFor();
    await expect.poll(() => page.getByText('3 new transactions imported.').count(), { timeout: 10_000 }).toBe(1);
    await page.close();
  });

  it('goes straight to the upload for an institution without a live connection, and imports an OFX file', async () => {
    const production = await partnerWithToken(world.ctx, 'production');
    const customerId = await addCustomer(world.ctx, production, { type: 'active' });
    const db = world.ctx.runtime.database.kysely;
    const served = new Set((await db.selectFrom('ofx_servers').select('institution_id').execute()).map((r) => r.institution_id));
    const candidates = await db.selectFrom('institutions').select(['id', 'name']).orderBy('id').limit(2000).execute();
    let target: { id: number; name: string } | undefined;
    for (const c of candidates) {
      if (isTestInstitution(c.id) || served.has(c.id) || /[^A-Za-z0-9 &.,'-]/.test(c.name)) continue;
      if (!(await world.ctx.app.engine.registry.resolve(c.id)).available) {
        target = c;
        break;
      }
    }
    expect(target).toBeDefined();
    const res = await world.ctx.app.inject({
      method: 'POST',
      url: '/connect/v2/generate',
      headers: production.headers,
      payload: { partnerId: production.partnerId, customerId, webhook: world.listener.url },
    });
    const page = await world.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const shot = screenshots('statement-no-connection-1280');
    await page.goto(res.json().link);
    await page.getByLabel('Search for your institution').fill(target!.name);
    const row = page.getByRole('button', { name: `${target!.name} (upload a statement file)` }).first();
    await row.waitFor();
    await shot(page, 'search');
    await row.click();
    await page.getByRole('heading', { name: 'Upload a statement file' }).waitFor();
    await expect.poll(() => page.getByText(`${target!.name} cannot be connected directly.`, { exact: false }).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Upload a statement file instead' }).count(), { timeout: 10_000 }).toBe(0);
    await expectAccessible(page);
    await shot(page, 'choose-file');
    await page.getByLabel('Statement file', { exact: true }).setInputFiles({ name: 'savings.qfx', mimeType: '', buffer: OFX });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: 'Statement imported' }).waitFor();
    await expect.poll(() => page.getByText('2 new transactions imported.').count(), { timeout: 10_000 }).toBe(1);
    await shot(page, 'imported');
    const accounts = await accountsOf(production.headers, customerId);
    expect(accounts).toEqual([expect.objectContaining({ name: 'Savings ...6655', balance: 8503.12, institutionId: String(target!.id) })]);
    await page.close();
  });
});
