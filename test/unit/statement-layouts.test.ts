import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AccountType } from '../../src/connectors/connector.js';
import { detectLayout } from '../../src/connectors/statements/detect.js';
import { readCsvStatement } from '../../src/connectors/statements/import.js';
import { LAYOUTS, type LayoutName } from '../../src/connectors/statements/layouts.js';

const FIXTURES = new URL('../fixtures/statements/', import.meta.url);
const fixture = (file: string) => readFileSync(new URL(file, FIXTURES));
const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

interface LayoutCase {
  /** Under test/fixtures/statements/: layouts/<layout>.csv, or the older fixtures beside it. */
  file: string;
  layout: LayoutName;
  transactions: number;
  first: { date: string; amount: number; description: string };
  /** A transaction (by description) that took money out: stored negative. */
  debit: string;
  /** One that brought money in: stored positive. */
  credit: string;
  accountType: AccountType;
  currency: string;
  /** Rows named in problems: pending, reverted. */
  problems?: number;
}

const CASES: LayoutCase[] = [
  // United States.
  {
    file: 'chase-checking.csv',
    layout: 'chase-checking',
    transactions: 14,
    first: { date: '2026-10-31', amount: 200, description: 'REMOTE ONLINE DEPOSIT # 1' },
    debit: 'MONTHLY SERVICE FEE',
    credit: 'ACME CORP PAYROLL PPD ID: 1234567890',
    accountType: 'checking',
    currency: 'USD',
  },
  {
    file: 'chase-card.csv',
    layout: 'chase-card',
    transactions: 13,
    first: { date: '2026-10-30', amount: -23.45, description: 'UBER *TRIP' },
    debit: 'SPOTIFY USA',
    credit: 'Payment Thank You-Mobile',
    accountType: 'creditCard',
    currency: 'USD',
  },
  {
    file: 'bank-of-america.csv',
    layout: 'bank-of-america',
    transactions: 13,
    first: { date: '2026-10-01', amount: -48.2, description: 'CHECKCARD 0930 SHELL OIL 57444, BELLEVUE WA' },
    debit: 'Check 2210',
    credit: 'CHECKCARD 1016 REI #11 SEATTLE WA REFUND',
    accountType: 'checking',
    currency: 'USD',
  },
  {
    file: 'layouts/bank-of-america-card.csv',
    layout: 'bank-of-america-card',
    transactions: 5,
    first: { date: '2026-10-28', amount: -64.18, description: 'HARBOR FRESH MARKET #212' },
    debit: 'NORTHWIND AIRLINES',
    credit: 'PAYMENT - THANK YOU',
    accountType: 'creditCard',
    currency: 'USD',
  },
  {
    file: 'wells-fargo.csv',
    layout: 'wells-fargo',
    transactions: 12,
    first: {
      date: '2026-10-31',
      amount: -4.25,
      description: 'PURCHASE AUTHORIZED ON 10/30 BLUE BOTTLE COFFEE OAKLAND CA S386303812345678 CARD 4417',
    },
    debit: 'CHECK # 3071',
    credit: 'ACME CORP PAYROLL 261030 0000112233 RILEY MORGAN',
    accountType: 'checking',
    currency: 'USD',
  },
  {
    file: 'capital-one.csv',
    layout: 'capital-one',
    transactions: 12,
    first: { date: '2026-10-30', amount: -54.32, description: 'TARGET 00012345, RICHMOND VA' },
    debit: 'KROGER #0412',
    credit: 'CAPITAL ONE MOBILE PYMT',
    accountType: 'creditCard',
    currency: 'USD',
  },
  {
    file: 'layouts/capital-one-360.csv',
    layout: 'capital-one-360',
    transactions: 4,
    first: { date: '2026-10-30', amount: 2415.6, description: 'Deposit from LAKESIDE DESIGN CO PAYROLL' },
    debit: 'Debit Card Purchase - CORNER GROCER SALEM OR',
    credit: 'Monthly Interest Paid',
    accountType: 'checking',
    currency: 'USD',
  },
  {
    // The older download: Date, Description, Amount.
    file: 'amex.csv',
    layout: 'amex',
    transactions: 12,
    first: { date: '2026-10-30', amount: -412.6, description: 'DELTA AIR LINES ATLANTA GA' },
    debit: 'ANNUAL MEMBERSHIP FEE',
    credit: 'ONLINE PAYMENT - THANK YOU',
    accountType: 'creditCard',
    currency: 'USD',
  },
  {
    // The current download, with the cardholder columns.
    file: 'layouts/amex.csv',
    layout: 'amex',
    transactions: 5,
    first: { date: '2026-10-29', amount: -142.3, description: 'TIDEWATER OUTFITTERS' },
    debit: 'LANTERN BISTRO',
    credit: 'AUTOPAY PAYMENT - THANK YOU',
    accountType: 'creditCard',
    currency: 'USD',
  },
  {
    file: 'citi.csv',
    layout: 'citi',
    transactions: 12,
    first: { date: '2026-10-30', amount: -143.67, description: 'COSTCO WHSE #0001, ISSAQUAH WA' },
    debit: 'LATE FEE',
    credit: 'ONLINE PAYMENT THANK YOU',
    accountType: 'creditCard',
    currency: 'USD',
    problems: 1,
  },
  {
    file: 'discover.csv',
    layout: 'discover',
    transactions: 12,
    first: { date: '2026-10-02', amount: -11.99, description: 'SPOTIFY USA, NEW YORK NY' },
    debit: 'GIANT EAGLE #6112',
    credit: 'INTERNET PAYMENT - THANK YOU',
    accountType: 'creditCard',
    currency: 'USD',
  },
  {
    file: 'layouts/us-bank.csv',
    layout: 'us-bank',
    transactions: 4,
    first: { date: '2026-10-30', amount: -47.83, description: 'DEBIT PURCHASE -VISA RIVERSIDE MARKET ST PAUL MN' },
    debit: 'WEB AUTHORIZED PMT LAKES POWER',
    credit: 'ELECTRONIC DEPOSIT NORTHSTAR CLINIC',
    accountType: 'checking',
    currency: 'USD',
  },
  {
    file: 'layouts/ally.csv',
    layout: 'ally',
    transactions: 4,
    first: { date: '2026-10-30', amount: -36.2, description: 'MAPLE LEAF PHARMACY' },
    debit: 'RIVERBEND APARTMENTS RENT',
    credit: 'REDWOOD LABS INC DIRECT DEP',
    accountType: 'checking',
    currency: 'USD',
  },
  {
    file: 'layouts/schwab.csv',
    layout: 'schwab',
    transactions: 4,
    first: { date: '2026-10-30', amount: -84.1, description: 'GREENLEAF GROCERY' },
    debit: 'Check Paid #1042',
    credit: 'Transfer from Brokerage -0042',
    accountType: 'checking',
    currency: 'USD',
    problems: 1,
  },
  {
    file: 'layouts/pnc.csv',
    layout: 'pnc',
    transactions: 4,
    first: { date: '2026-10-30', amount: -42.17, description: 'DEBIT CARD PURCHASE XXXXX4821 OAK HOLLOW HARDWARE' },
    debit: 'ACH WEB-SINGLE CITY WATER DEPT',
    credit: 'DIRECT DEPOSIT - BLUE HERON CO PAYROLL',
    accountType: 'checking',
    currency: 'USD',
  },
  {
    file: 'layouts/usaa.csv',
    layout: 'usaa',
    transactions: 4,
    first: { date: '2026-10-29', amount: 3120.45, description: 'Payroll' },
    debit: 'Lone Star Electric',
    credit: 'Transfer From Savings',
    accountType: 'checking',
    currency: 'USD',
    problems: 1,
  },
  {
    file: 'mint.csv',
    layout: 'mint',
    transactions: 13,
    first: { date: '2026-10-30', amount: -5.75, description: 'Starbucks' },
    debit: 'Transfer to Savings',
    credit: 'Acme Corp',
    accountType: 'checking',
    currency: 'USD',
  },
  // United Kingdom and Europe.
  {
    file: 'layouts/monzo.csv',
    layout: 'monzo',
    transactions: 4,
    first: { date: '2026-10-30', amount: -3.8, description: 'Kettle & Crumb' },
    debit: 'Northline Rail',
    credit: 'Brightwell Studio Ltd',
    accountType: 'checking',
    currency: 'GBP',
  },
  {
    file: 'layouts/revolut.csv',
    layout: 'revolut',
    transactions: 4,
    first: { date: '2026-10-30', amount: -18.4, description: 'Lantern Noodle Bar' },
    debit: 'Exchanged to GBP',
    credit: 'Top-up by *4417',
    accountType: 'checking',
    currency: 'EUR',
    problems: 2,
  },
  {
    file: 'layouts/n26.csv',
    layout: 'n26',
    transactions: 4,
    first: { date: '2026-10-29', amount: -6.4, description: 'Bäckerei Sonnenkorn' },
    debit: 'Stadtwerke Nordhafen',
    credit: 'Lindqvist Software GmbH',
    accountType: 'checking',
    currency: 'EUR',
  },
  {
    file: 'layouts/n26-2023.csv',
    layout: 'n26-2023',
    transactions: 5,
    first: { date: '2026-10-30', amount: -3.2, description: 'Kiosk am Park' },
    debit: 'Buchladen Hafenstrasse',
    credit: 'Lindqvist Software GmbH',
    accountType: 'checking',
    currency: 'EUR',
  },
  {
    file: 'layouts/ing-nl.csv',
    layout: 'ing-nl',
    transactions: 4,
    first: { date: '2026-10-30', amount: -7.35, description: 'Bakkerij de Korenbloem' },
    debit: 'Stichting Woonzorg',
    credit: 'Vermeulen Techniek B.V.',
    accountType: 'checking',
    currency: 'EUR',
  },
  {
    file: 'layouts/rabobank.csv',
    layout: 'rabobank',
    transactions: 4,
    first: { date: '2026-10-13', amount: 1250, description: 'Groenhof Advies' },
    debit: 'Woningstichting Polder',
    credit: 'Rabobank',
    accountType: 'checking',
    currency: 'EUR',
  },
  {
    file: 'layouts/sparkasse.csv',
    layout: 'sparkasse',
    transactions: 4,
    first: { date: '2026-10-29', amount: 2875.4, description: 'Holzbau Brenner GmbH' },
    debit: 'Moebelhaus Linde',
    credit: 'Holzbau Brenner GmbH',
    accountType: 'checking',
    currency: 'EUR',
    problems: 1,
  },
  {
    file: 'layouts/bunq.csv',
    layout: 'bunq',
    transactions: 4,
    first: { date: '2026-10-30', amount: -12.75, description: 'Lunchroom Het Hoekje' },
    debit: 'Spaarpot Vakantie',
    credit: 'Studio Veldhuis',
    accountType: 'checking',
    currency: 'EUR',
  },
  {
    file: 'layouts/barclays.csv',
    layout: 'barclays',
    transactions: 4,
    first: { date: '2026-10-30', amount: -18.6, description: 'HOLLYBUSH DELI ON 29 OCT BCC' },
    debit: 'M HARGREAVES RENT NOV',
    credit: 'ASHWORTH & CO LTD SALARY',
    accountType: 'checking',
    currency: 'GBP',
  },
  {
    file: 'layouts/hsbc-uk.csv',
    layout: 'hsbc-uk',
    transactions: 5,
    first: { date: '2026-10-30', amount: -7.45, description: 'CORNER SHOP 24 MANCHESTER' },
    debit: 'COUNCIL TAX DD',
    credit: 'BRIDGEWATER MEDIA LTD SALARY',
    accountType: 'checking',
    currency: 'GBP',
  },
  // Canada.
  {
    file: 'layouts/rbc.csv',
    layout: 'rbc',
    transactions: 4,
    first: { date: '2026-10-30', amount: -56.31, description: 'Interac purchase - 1234 MAPLEVIEW GROCERS' },
    debit: 'Cheque - 104',
    credit: 'Payroll Deposit',
    accountType: 'checking',
    currency: 'CAD',
  },
  {
    file: 'layouts/td.csv',
    layout: 'td',
    transactions: 4,
    first: { date: '2026-10-30', amount: -4.85, description: 'BEACON COFFEE #2211' },
    debit: 'MONTHLY ACCOUNT FEE',
    credit: 'PAYROLL DEP LAURENTIAN GLASS',
    accountType: 'checking',
    currency: 'CAD',
  },
  // Ledgerlink's own export.
  {
    file: 'layouts/ledgerlink.csv',
    layout: 'ledgerlink',
    transactions: 5,
    first: { date: '2026-10-02', amount: 2500, description: 'ACME CORP PAYROLL' },
    debit: '=HYPERLINK("http://example.com")',
    credit: 'REFUND "Books & More"',
    accountType: 'checking',
    currency: 'USD',
  },
];

describe('each built-in layout read from its fixture', () => {
  it.each(CASES)('$file is $layout', (c) => {
    const bytes = fixture(c.file);
    expect(detectLayout(bytes)).toMatchObject({ ok: true, layout: c.layout, ambiguousDates: false });
    const result = readCsvStatement(bytes);
    expect(result.transactions).toHaveLength(c.transactions);
    const [first] = result.transactions;
    expect({ date: isoDay(first!.transactionDate), amount: first!.amount, description: first!.description }).toEqual(c.first);
    const amountOf = (description: string) => result.transactions.find((t) => t.description === description)?.amount;
    expect(amountOf(c.debit), c.debit).toBeLessThan(0);
    expect(amountOf(c.credit), c.credit).toBeGreaterThan(0);
    // A file of several accounts (Mint) may name other kinds than the layout's default for some.
    expect(result.accounts[0]).toMatchObject({ type: c.accountType, currency: c.currency });
    for (const account of result.accounts) expect(account.currency).toBe(c.currency);
    expect(result.problems).toHaveLength(c.problems ?? 0);
  });
});

describe('the layout table', () => {
  it('has a fixture and a case above for every row, and every fixture under layouts/ is read above', () => {
    for (const row of LAYOUTS) {
      const cases = CASES.filter((c) => c.layout === row.layout);
      expect(cases.length, `${row.layout}: no case in CASES`).toBeGreaterThan(0);
      const file = existsSync(new URL(`layouts/${row.layout}.csv`, FIXTURES)) ? `layouts/${row.layout}.csv` : `${row.layout}.csv`;
      expect(existsSync(new URL(file, FIXTURES)), `${row.layout}: no fixture at layouts/${row.layout}.csv`).toBe(true);
      expect(cases.map((c) => c.file)).toContain(file);
    }
    const read = new Set(CASES.map((c) => c.file));
    for (const name of readdirSync(new URL('layouts/', FIXTURES))) expect(read.has(`layouts/${name}`), name).toBe(true);
  });

  it('names each layout once, with columns that fit its sign rule', () => {
    expect(new Set(LAYOUTS.map((r) => r.layout)).size).toBe(LAYOUTS.length);
    for (const row of LAYOUTS) {
      const { columns } = row;
      expect(row.headers !== undefined || row.shape !== undefined, row.layout).toBe(true);
      if (row.sign === 'split') expect(columns.debit !== undefined && columns.credit !== undefined && columns.amount === undefined, row.layout).toBe(true);
      else expect(columns.amount !== undefined && columns.debit === undefined, row.layout).toBe(true);
      if (row.sign === 'type') expect(columns.type, row.layout).toBeDefined();
    }
  });

  it("is the table of docs/connectors.md, and the fixtures' README names each fixture's source", () => {
    const docs = readFileSync(new URL('../../docs/connectors.md', import.meta.url), 'utf8');
    for (const row of LAYOUTS) expect(docs, row.layout).toContain(`| \`${row.layout}\` |`);
    const readme = readFileSync(new URL('README.md', FIXTURES), 'utf8');
    for (const name of readdirSync(new URL('layouts/', FIXTURES))) expect(readme, name).toContain(`| \`layouts/${name}\``);
  });
});

describe('what a layout fixes', () => {
  it('a currency column or a code beside the amounts still wins over the currency a bank always uses', () => {
    const monzo = 'Transaction ID,Date,Time,Type,Name,Emoji,Category,Amount,Currency\ntx_1,30/10/2026,08:14:22,Card payment,Kiosk,,Eating out,-3.80,EUR\n';
    expect(readCsvStatement(monzo).accounts[0]!.currency).toBe('EUR');
    const chase = 'Details,Posting Date,Description,Amount,Type,Balance\nDEBIT,10/30/2026,COFFEE,-4.50 CAD,DEBIT_CARD,100.00\n';
    expect(readCsvStatement(chase).accounts[0]!.currency).toBe('CAD');
  });

  it("the decimal comma of a bank that always writes one, though the file's amounts do not show it", () => {
    const ing =
      '"Datum","Naam / Omschrijving","Rekening","Tegenrekening","Code","Af Bij","Bedrag (EUR)","Mutatiesoort","Mededelingen"\n' +
      '"20261030","Werkgever B.V.","NL11INGB0009876543","","OV","Bij","2.850","Overschrijving","Salaris"\n';
    expect(readCsvStatement(ing).transactions[0]!.amount).toBe(2850);
  });

  it('Capital One 360 whichever order its columns come in, the type column giving the sign', () => {
    const text =
      'Account Number,Transaction Date,Transaction Amount,Transaction Type,Transaction Description,Balance\n' +
      '3174,10/30/26,58.12,Debit,CORNER GROCER,2704.84\n3174,10/29/26,12.00,Credit,REFUND,2762.96\n';
    const result = readCsvStatement(text);
    expect(result.transactions.map((t) => t.amount)).toEqual([-58.12, 12]);
    expect(detectLayout(text)).toMatchObject({ layout: 'capital-one-360' });
  });

  it("Revolut's fee is taken off the amount (what left the account, as the balance shows) and named in the memo", () => {
    const result = readCsvStatement(fixture('layouts/revolut.csv'));
    expect(result.transactions.find((t) => t.description === 'Exchanged to GBP')).toMatchObject({
      amount: -201,
      memo: 'Fee 1.00 included in the amount',
    });
    expect(result.accounts[0]!.balance).toBe(1431.6);
    expect(result.problems.map((p) => p.message)).toEqual([
      'Pending: left out until it posts.',
      'The bank lists it as "REVERTED": it was never booked, so it was left out.',
    ]);
    const unreadable =
      'Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance\n' +
      'TOPUP,Current,2026-10-27 10:05:13,2026-10-27 10:05:13,Top-up,500.00,n/a,EUR,COMPLETED,1450.00\n';
    const kept = readCsvStatement(unreadable);
    expect(kept.transactions[0]!.amount).toBe(500);
    expect(kept.problems).toEqual([{ line: 2, message: 'The fee "n/a" cannot be read: the amount was stored without it.' }]);
  });
});

describe("RBC's CAD$ and USD$ columns", () => {
  const header = '"Account Type","Account Number","Transaction Date","Cheque Number","Description 1","Description 2","CAD$","USD$"\n';

  it('give the account the currency of the column its amounts are in', () => {
    const text = `${header}USD Savings,09876-5432109,10/25/2026,,"Transfer in",,,500.00\nUSD Savings,09876-5432109,10/14/2026,,"Online purchase",,,-18.99\n`;
    expect(detectLayout(text)).toMatchObject({ ok: true, layout: 'rbc', mapping: { amount: 'USD$' } });
    const result = readCsvStatement(text);
    expect(result.accounts).toMatchObject([{ number: '09876-5432109', type: 'savings', currency: 'USD' }]);
    expect(result.transactions.map((t) => t.amount)).toEqual([500, -18.99]);
    expect(result.problems).toEqual([]);
  });

  it('make an account per currency of a file with rows in both, named in problems, and name a row with amounts in both', () => {
    const text =
      header +
      'Chequing,01234-5678901,10/30/2026,,"GROCER",,-56.31,\n' +
      'USD Savings,09876-5432109,10/25/2026,,"Transfer in",,,500.00\n' +
      'Chequing,01234-5678901,10/21/2026,,"Payroll",,2480.00,\n' +
      'Chequing,01234-5678901,10/12/2026,,"Both",,-1.00,-0.75\n';
    const result = readCsvStatement(text);
    expect(result.accounts).toMatchObject([
      { number: '01234-5678901', type: 'checking', currency: 'CAD' },
      { number: '09876-5432109', type: 'savings', currency: 'USD' },
    ]);
    const byAccount = new Map(result.accounts.map((a) => [a.ref, a.currency]));
    expect(result.transactions.map((t) => [t.amount, byAccount.get(t.accountRef)])).toEqual([
      [-56.31, 'CAD'],
      [500, 'USD'],
      [2480, 'CAD'],
    ]);
    expect(result.problems).toEqual([
      { line: 5, message: 'The row has amounts in more than one currency column (CAD$ -1.00, USD$ -0.75): it was left out.' },
      { message: "Amounts are in the CAD$ and USD$ columns: each row was kept in its column's currency, an account per currency." },
    ]);
  });
});
