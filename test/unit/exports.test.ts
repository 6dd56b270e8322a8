import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsvStatement } from '../../src/connectors/statements/import.js';
import { ofxFileToStatementImport } from '../../src/connectors/statements/ofx.js';
import { readQifStatement } from '../../src/connectors/statements/qif.js';
import type { StatementImport } from '../../src/connectors/statements/types.js';
import type { ExportFormat } from '../../src/contract/schemas/exports.js';
import { csvTextCell } from '../../src/modules/exports/csv.js';
import { EXPORT_PAGE_SIZE, inExportOrder, parseExportDate, writeExport } from '../../src/modules/exports/service.js';
import { type ExportAccount, type ExportTransaction, plainText } from '../../src/modules/exports/writer.js';
import { amountText } from '../../src/platform/amount-text.js';

interface Fixture {
  accounts: ExportAccount[];
  transactions: Map<number, ExportTransaction[]>;
}

/** The whole file of a format for these accounts and transactions (the transactions in date order, as stored). */
async function exportText(format: ExportFormat, fixture: Fixture, window: { fromDate?: number; toDate?: number } = {}): Promise<string> {
  const accounts = inExportOrder(format, fixture.accounts);
  const pieces: Buffer[] = [];
  const readPage = async (accountId: number, after: { effectiveDate: number; id: number } | undefined) => {
    const all = fixture.transactions.get(accountId) ?? [];
    const start = after ? all.findIndex((t) => t.effectiveDate > after.effectiveDate || (t.effectiveDate === after.effectiveDate && t.id > after.id)) : 0;
    return start === -1 ? [] : all.slice(start, start + EXPORT_PAGE_SIZE);
  };
  for await (const piece of writeExport(format, { accounts, fromDate: window.fromDate, toDate: window.toDate, now: 1_795_000_000 }, readPage))
    pieces.push(piece);
  return Buffer.concat(pieces).toString('utf8');
}

function readBack(format: ExportFormat, text: string, fixture: Fixture): StatementImport {
  if (format === 'csv') return readCsvStatement(text);
  if (format === 'ofx') return ofxFileToStatementImport(text);
  // QIF names no currency: the one of the accounts when they share it, as a user uploading it would say.
  const currencies = new Set(fixture.accounts.map((a) => a.currency));
  return readQifStatement(text, currencies.size === 1 ? { currency: [...currencies][0]! } : {});
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** What a transaction must read back as: its day, amount, description and memo as the formats write them. */
function expected(t: ExportTransaction) {
  const description = plainText(t.description);
  const memo = plainText(t.memo ?? '');
  return { day: day(t.effectiveDate), amount: t.amount, description, memo: memo !== '' && memo !== description ? memo : undefined };
}

/** Each account's transactions as read back, in the file's order, and the account's currency. */
function accountsReadBack(result: StatementImport) {
  return result.accounts.map((a) => ({
    currency: a.currency,
    transactions: result.transactions
      .filter((t) => t.accountRef === a.ref)
      .map((t) => ({ day: day(t.transactionDate ?? t.postedDate!), amount: t.amount, description: t.description, memo: t.memo })),
  }));
}

function expectSameTransactions(format: ExportFormat, fixture: Fixture, result: StatementImport): void {
  const accounts = inExportOrder(format, fixture.accounts).filter((a) => (fixture.transactions.get(a.id) ?? []).length > 0);
  const read = accountsReadBack(result).filter((a) => a.transactions.length > 0);
  const sameCurrency = new Set(fixture.accounts.map((a) => a.currency)).size === 1;
  expect(read).toEqual(
    accounts.map((a) => ({
      // QIF carries no currency: the file's accounts are in the one the upload names.
      currency: format === 'qif' && !sameCurrency ? 'USD' : a.currency,
      transactions: fixture.transactions.get(a.id)!.map(expected),
    })),
  );
}

// Texts a file must carry through: quotes, separators, line breaks, markup, non-ASCII, spreadsheet formula starts.
const HOSTILE_PIECES = [
  '"',
  "'",
  ',',
  ';',
  '\n',
  '\r\n',
  '\t',
  '<',
  '>',
  '&',
  '&amp;',
  ']]>',
  '=',
  '+',
  '-',
  '@',
  '^',
  '!',
  'é',
  'ß',
  '東京',
  '😀',
  ' ',
  'CAFÉ',
  'x',
  '12',
  '="1"',
];
const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string({ minLength: 1, maxLength: 6 })), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join('').slice(0, 90))
  .filter((text) => plainText(text) !== '');

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD'];
const TYPES = ['checking', 'savings', 'creditCard', 'lineOfCredit'];
const DAY = 86_400;
const START = Date.UTC(2025, 0, 1) / 1000;

const fixtures = fc
  .array(
    fc.record({
      name: hostileText,
      currency: fc.constantFrom(...CURRENCIES),
      type: fc.constantFrom(...TYPES),
      transactions: fc.array(
        fc.record({
          cents: fc.integer({ min: -50_000_000, max: 50_000_000 }).filter((c) => c !== 0),
          day: fc.integer({ min: 0, max: 700 }),
          second: fc.integer({ min: 0, max: DAY - 1 }),
          description: hostileText,
          memo: fc.option(hostileText, { nil: null }),
          checkNum: fc.option(fc.integer({ min: 100, max: 99999 }).map(String), { nil: null }),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((list): Fixture => {
    let id = 20_000_000_000;
    const accounts = list.map((a, i) => ({
      id: 5_011_000_000 + i,
      name: a.name,
      number: `XXXXXX${1000 + i}`,
      type: a.type,
      currency: a.currency,
      balance: 100,
      balanceDate: START + 800 * DAY,
      institutionId: 101732,
    }));
    const transactions = new Map(
      list.map((a, i) => [
        accounts[i]!.id,
        a.transactions
          .map((t) => {
            const date = START + t.day * DAY + t.second;
            return {
              id: id++,
              amount: t.cents / 100,
              description: t.description,
              memo: t.memo,
              checkNum: t.checkNum,
              type: t.cents < 0 ? 'debit' : 'credit',
              transactionDate: date,
              postedDate: date,
              effectiveDate: date,
            };
          })
          .sort((x, y) => x.effectiveDate - y.effectiveDate || x.id - y.id),
      ]),
    );
    return { accounts, transactions };
  });

describe('every export reads back through the statement readers to the same transactions', () => {
  for (const format of ['csv', 'ofx', 'qif'] as const) {
    it(`${format}: hostile texts, both signs, several accounts and currencies`, async () => {
      await fc.assert(
        fc.asyncProperty(fixtures, async (fixture) => {
          const text = await exportText(format, fixture);
          expectSameTransactions(format, fixture, readBack(format, text, fixture));
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe('CSV cells a spreadsheet would take for formulas', () => {
  it.each([
    ['=SUM(A1:A9)', `"'=SUM(A1:A9)"`],
    ['+1 555 0100', `"'+1 555 0100"`],
    ['-refund', `"'-refund"`],
    ['@cmd', `"'@cmd"`],
    ['\tTAB', `"'\tTAB"`],
    ['\rCR', `"'\rCR"`],
    ["'=already quoted", `"''=already quoted"`],
    ['say "hi", then =go', `"say ""hi"", then =go"`],
    ["'tis plain", `"'tis plain"`],
  ])('%j is written %s', (text, cell) => {
    expect(csvTextCell(text)).toBe(cell);
  });

  it('keeps amounts as plain numbers that read back: negatives are not neutralised', async () => {
    const fixture: Fixture = {
      accounts: [{ id: 1, name: 'Checking', number: 'XXXX1234', type: 'checking', currency: 'EUR', balance: 0, balanceDate: START, institutionId: 101732 }],
      transactions: new Map([
        [
          1,
          [
            {
              id: 10,
              amount: -1234.5,
              description: '=HYPERLINK("http://evil.example","x")',
              memo: '-5',
              checkNum: null,
              type: 'debit',
              transactionDate: START,
              postedDate: START,
              effectiveDate: START,
            },
            {
              id: 11,
              amount: 0.07,
              description: '@SUM(1+1)',
              memo: null,
              checkNum: '1042',
              type: 'credit',
              transactionDate: START,
              postedDate: START,
              effectiveDate: START,
            },
          ],
        ],
      ]),
    };
    const text = await exportText('csv', fixture);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('Date,Posted Date,Account,Account ID,Account Number,Account Type,Currency,Amount,Description,Memo,Check Number,Type,Transaction ID');
    expect(lines[1]).toBe(`2025-01-01,2025-01-01,"Checking",1,"XXXX1234",checking,EUR,-1234.50,"'=HYPERLINK(""http://evil.example"",""x"")","'-5","",debit,10`);
    expect(lines[2]).toContain(`,0.07,"'@SUM(1+1)","","1042",credit,11`);
    const read = readCsvStatement(text);
    expect(read.transactions.map((t) => [t.amount, t.description, t.memo, t.checkNum])).toEqual([
      [-1234.5, '=HYPERLINK("http://evil.example","x")', '-5', undefined],
      [0.07, '@SUM(1+1)', undefined, '1042'],
    ]);
    expect(read.accounts).toMatchObject([{ currency: 'EUR', name: 'Checking' }]);
  });
});

describe('OFX structure', () => {
  const fixture: Fixture = {
    accounts: [
      {
        id: 2,
        name: 'Card',
        number: 'XXXXXXXXXXXX9876',
        type: 'creditCard',
        currency: 'USD',
        balance: -250.4,
        balanceDate: START + DAY,
        institutionId: 101732,
      },
      { id: 1, name: 'Checking', number: 'XXXX1234', type: 'checking', currency: 'CAD', balance: 1500, balanceDate: START + DAY, institutionId: 101732 },
    ],
    transactions: new Map([
      [
        1,
        [
          {
            id: 7,
            amount: -20,
            description: 'A description well over thirty-two characters long & <marked>',
            memo: 'memo',
            checkNum: '1001',
            type: 'check',
            transactionDate: START,
            postedDate: START + DAY,
            effectiveDate: START,
          },
        ],
      ],
      [
        2,
        [
          {
            id: 8,
            amount: -9.99,
            description: 'Streaming',
            memo: null,
            checkNum: null,
            type: 'debit',
            transactionDate: null,
            postedDate: START,
            effectiveDate: START,
          },
        ],
      ],
    ]),
  };

  it('writes one statement per account, bank before card, with currency, window, NAME within 32 characters and the ledger balance', async () => {
    const text = await exportText('ofx', fixture, { fromDate: START - DAY, toDate: START + 2 * DAY });
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220"')).toBe(true);
    expect(text.indexOf('<BANKMSGSRSV1>')).toBeLessThan(text.indexOf('<CREDITCARDMSGSRSV1>'));
    expect(text).toContain(
      '<STMTRS><CURDEF>CAD</CURDEF><BANKACCTFROM><BANKID>101732</BANKID><ACCTID>XXXX1234</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>',
    );
    expect(text).toContain('<CCSTMTRS><CURDEF>USD</CURDEF><CCACCTFROM><ACCTID>XXXXXXXXXXXX9876</ACCTID></CCACCTFROM>');
    expect(text).toContain('<DTSTART>20241231000000.000[0:GMT]</DTSTART><DTEND>20250103000000.000[0:GMT]</DTEND>');
    expect(text).toContain(
      '<STMTTRN><TRNTYPE>CHECK</TRNTYPE><DTPOSTED>20250102000000.000[0:GMT]</DTPOSTED><DTUSER>20250101000000.000[0:GMT]</DTUSER><TRNAMT>-20.00</TRNAMT><FITID>7</FITID><CHECKNUM>1001</CHECKNUM><NAME>A description well over thirty-t</NAME><EXTDNAME>A description well over thirty-two characters long &amp; &lt;marked&gt;</EXTDNAME><MEMO>memo</MEMO></STMTTRN>',
    );
    expect(text).toContain(
      '<LEDGERBAL><BALAMT>-250.40</BALAMT><DTASOF>20250102000000.000[0:GMT]</DTASOF></LEDGERBAL></CCSTMTRS></CCSTMTTRNRS>\n</CREDITCARDMSGSRSV1>\n</OFX>\n',
    );
    for (const name of text.matchAll(/<NAME>([^<]*)<\/NAME>/g)) expect(name[1]!.length).toBeLessThanOrEqual(32);
    const read = ofxFileToStatementImport(text);
    expect(read.problems).toEqual([]);
    expect(read.accounts.map((a) => [a.type, a.currency, a.balance])).toEqual([
      ['checking', 'CAD', 1500],
      ['creditCard', 'USD', -250.4],
    ]);
    expect(read.transactions[0]).toMatchObject({
      description: 'A description well over thirty-two characters long & <marked>',
      checkNum: '1001',
      type: 'check',
    });
  });
});

describe('the request', () => {
  it('reads dates as epoch seconds or UTC days, the whole last day for toDate', () => {
    expect(parseExportDate('1767225600', 'fromDate')).toBe(1_767_225_600);
    expect(parseExportDate('2026-01-01', 'fromDate')).toBe(Date.UTC(2026, 0, 1) / 1000);
    expect(parseExportDate('2026-01-01', 'toDate')).toBe(Date.UTC(2026, 0, 2) / 1000 - 1);
    expect(parseExportDate(undefined, 'toDate')).toBeUndefined();
    for (const bad of ['2026-02-30', '01/02/2026', 'yesterday', '-5', '2026-1-1']) expect(() => parseExportDate(bad, 'fromDate'), bad).toThrow(/fromDate/);
  });

  it('writes amounts as plain numbers with a point, never an exponent', () => {
    expect([-0.5, 3, 1234567.891, -0, 1e-7, 12.3].map(amountText)).toEqual(['-0.50', '3.00', '1234567.891', '0.00', '0.0000001', '12.30']);
  });

  it('writes every decimal an amount has, however many, and never a bare point', () => {
    const cases: [number, string][] = [
      [-12.345, '-12.345'],
      [850.125, '850.125'],
      [-0.125, '-0.125'],
      [-0.004, '-0.004'],
      [5.000000004, '5.000000004'],
      [1e-9, '0.000000001'],
      [-1.5e-8, '-0.000000015'],
      [123.4567891234, '123.4567891234'],
      [1.5e21, '1500000000000000000000.00'],
    ];
    expect(cases.map(([amount]) => amountText(amount))).toEqual(cases.map(([, text]) => text));
    for (const [amount, text] of cases) expect(Number(text), text).toBe(amount);
    // What is within a billionth of a cent's amount is arithmetic's noise, not a decimal of the amount.
    expect([0.1 + 0.2, -1.5e-10].map(amountText)).toEqual(['0.30', '0.00']);
  });

  it('writes U+FFFE and U+FFFF, which are no characters, as U+FFFD', () => {
    expect(plainText('REFUND \uFFFF 42 \uFFFE')).toBe('REFUND \uFFFD 42 \uFFFD');
  });
});
