import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type BrowserWorld, generateLink, screenshots, startBrowserWorld } from '../helpers/browser.js';
import { addCustomer } from '../helpers/customers.js';
import { FINBANK, uploadStatement } from '../helpers/statement-uploads.js';

/** A checking account's March, as its bank's QFX download gives it (with its number). */
const QFX = `OFXHEADER:100
DATA:OFXSGML
VERSION:102

<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>121000248<ACCTID>000123452632<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260301<DTEND>20260331
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260303<TRNAMT>-54.20<FITID>M1<NAME>KROGER 512</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260306<TRNAMT>2450.33<FITID>M2<NAME>ACME CORP PAYROLL</STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260311<TRNAMT>-15.49<FITID>M3<NAME>NETFLIX.COM</STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260318<TRNAMT>-61.20<FITID>M4<NAME>CITY WATER</STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>1520.33<DTASOF>20260331</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
`;

/** The same month as a CSV export, which states no account number: the service cannot be sure, so it asks. */
const CSV = Buffer.from(
  [
    'Date,Description,Amount',
    '2026-03-03,KROGER 512,-54.20',
    '2026-03-06,ACME CORP PAYROLL,2450.33',
    '2026-03-11,NETFLIX.COM,-15.49',
    '2026-03-18,CITY WATER,-61.20',
    '',
  ].join('\n'),
);

/**
 * Connect's question when a statement file's account may be one the customer already has (409, 14115): "Is this the
 * same account as ...?", answered in the browser, at a desktop and a phone width, checked with axe and photographed.
 * Answered yes, the file's transactions are recognised and not stored twice; answered no, the file gets an account
 * of its own.
 */
describe('the same account question in Connect, in a browser', () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  });
  afterAll(() => world?.close());

  async function accountsOf(customerId: string): Promise<{ id: string; name: string }[]> {
    const res = await world.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: world.partner.headers });
    return res.json().accounts;
  }

  async function transactionCount(customerId: string): Promise<number> {
    const res = await world.ctx.app.inject({
      url: `/aggregation/v3/customers/${customerId}/transactions?fromDate=1767225600&toDate=1798761600&limit=100`,
      headers: world.partner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().found;
  }

  async function uploadInConnect(page: Page, link: string): Promise<void> {
    await page.goto(link);
    await page.getByLabel('Search for your institution').fill('FinBank');
    await page.getByRole('button', { name: 'FinBank', exact: true }).click();
    await page.getByRole('button', { name: 'Upload a statement file instead' }).click();
    await page.getByLabel('Statement file', { exact: true }).setInputFiles({ name: 'march.csv', mimeType: 'text/csv', buffer: CSV });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: 'Is this an account you already connected?' }).waitFor();
  }

  it.each([
    [1280, 'yes'],
    [375, 'no'],
  ] as const)('asks at %i px and stores what the answer (%s) says', async (width, answer) => {
    const customerId = await addCustomer(world.ctx, world.partner);
    const first = await uploadStatement(world.ctx, world.partner, customerId, QFX, { type: 'application/vnd.intu.qfx', institutionId: FINBANK });
    expect(first.statusCode, first.body).toBe(200);
    const [existing] = await accountsOf(customerId);
    expect(await transactionCount(customerId)).toBe(4);

    const link = await generateLink(world, 'generate', { customerId });
    const page = await world.browser.newPage({ viewport: { width, height: width > 600 ? 900 : 812 } });
    const shot = screenshots(`same-account-${width}`);
    await uploadInConnect(page, link);
    const question = page.getByRole('group');
    await expect.poll(() => question.getByRole('radio').count(), { timeout: 10_000 }).toBe(2);
    await expect(page.locator('legend').textContent()).resolves.toMatch(/^Is Imported account the same account as Checking \.\.\.2632 at FinBank\?$/);
    // Continuing without an answer: the screen says so and stays.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Say for each account whether it is one you already connected.');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'question');

    await page.getByRole('radio', { name: answer === 'yes' ? 'Yes, it is Checking ...2632 at FinBank' : 'No, it is another account' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Statement imported' }).waitFor();
    if (answer === 'yes') {
      await page.getByText('0 new transactions imported; 4 transactions already here from another source, not counted twice.').waitFor();
      expect((await accountsOf(customerId)).map((a) => a.id)).toEqual([existing!.id]);
      expect(await transactionCount(customerId)).toBe(4);
    } else {
      await page.getByText('4 new transactions imported.').waitFor();
      expect(await accountsOf(customerId)).toHaveLength(2);
      expect(await transactionCount(customerId)).toBe(8);
    }
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'imported');
    await page.close();
  });
});
