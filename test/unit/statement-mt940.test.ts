import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refused } from '../helpers/statements.js';
import { StatementFileError } from '../../src/connectors/statements/csv.js';
import { formatOfMediaType, readStatementFile, sniffStatementFormat } from '../../src/connectors/statements/file.js';
import { accountIdOf, looksLikeMt940, readInformation, readMt940Statement } from '../../src/connectors/statements/mt940.js';
import type { StatementImport } from '../../src/connectors/statements/types.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/mt940/${name}`, import.meta.url));
const ofxFixture = (name: string) => readFileSync(new URL(`../fixtures/ofx/${name}`, import.meta.url));
const csvFixture = (name: string) => readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url));
const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;
const iso = (epoch: number | undefined) => (epoch === undefined ? undefined : new Date(epoch * 1000).toISOString().slice(0, 10));

/** The transactions in a comparable form: ISO dates, without categories or status. */
function lines(result: StatementImport) {
  return result.transactions.map((t) => ({
    account: t.accountRef,
    ref: t.ref,
    amount: t.amount,
    posted: iso(t.postedDate),
    value: iso(t.transactionDate),
    type: t.type,
    description: t.description,
    ...(t.memo !== undefined ? { memo: t.memo } : {}),
    ...(t.checkNum !== undefined ? { checkNum: t.checkNum } : {}),
  }));
}

/** A one-message statement around the given field lines. */
const statement = (body: string[], { account = 'DE89370400440532013000', opening = 'C260101EUR100,00', closing = 'C260131EUR100,00' } = {}) =>
  [':20:REF', `:25:${account}`, ':28C:1/1', `:60F:${opening}`, ...body, `:62F:${closing}`, '-', ''].join('\r\n');

describe('reading MT940 files', () => {
  it('header lines before the first message are left out', () => {
    const result = readMt940Statement(fixture('german-subfields.sta'));
    expect(result.problems).toEqual([]);
    expect(result.format).toBe('mt940');
    expect(result.accounts).toEqual([
      {
        ref: '50010517/0648489890 EUR',
        type: 'checking',
        number: '50010517/0648489890',
        name: 'Account XXXXXXXX/XXXXXX9890 (EUR)',
        currency: 'EUR',
        balance: 4792.28,
        balanceDate: day('2026-01-02'),
        closingBalances: [{ date: day('2026-01-02'), balance: 4792.28 }],
      },
    ]);
    expect(result.transactions).toHaveLength(4);
  });

  it('messages in {1:}{2:}{4: blocks ending -} (a block 5 after it) are read', () => {
    const result = readMt940Statement(fixture('swift-blocks.sta'));
    expect(result.problems).toEqual([]);
    expect(result.accounts.map((a) => a.ref)).toEqual(['NL91ABNA0417164300 EUR', 'NL91ABNA0417164300 USD']);
    expect(lines(result).map((t) => [t.account, t.amount])).toEqual([
      ['NL91ABNA0417164300 EUR', -250],
      ['NL91ABNA0417164300 EUR', 1200.5],
      ['NL91ABNA0417164300 EUR', -4.95],
      ['NL91ABNA0417164300 USD', 75.25],
    ]);
    // A block header and the text on one line, the end on the last.
    const oneLine = readMt940Statement(
      `{1:F01BANKDEFFXXXX0000000000}{2:O940BANKDEFFXXXX}{4::20:X\n:25:DE1\n:60F:C260101EUR0,\n:61:260102C5,NTRF\n:62F:C260102EUR5,\n-}`,
    );
    expect([oneLine.problems, lines(oneLine).map((t) => t.amount)]).toEqual([[], [5]]);
  });

  it('- lines end messages, and a new :20: without one starts the next message', () => {
    const result = readMt940Statement(fixture('two-accounts.sta'));
    expect(result.problems).toEqual([]);
    expect(result.accounts.map((a) => [a.ref, a.balance])).toEqual([
      ['CH9300762011623852957 CHF', 5856.2],
      ['BANKCHZZ/123456789 CHF', 0],
    ]);
    const unterminated = readMt940Statement(
      [
        ':20:A',
        ':25:111',
        ':60F:C260101EUR0,',
        ':61:260102C1,NTRF',
        ':62F:C260102EUR1,',
        ':20:B',
        ':25:222',
        ':60F:C260101EUR0,',
        ':61:260102D2,NTRF',
        ':62F:D260102EUR2,',
      ].join('\n'),
    );
    expect(unterminated.problems).toEqual([]);
    expect(lines(unterminated).map((t) => [t.account, t.amount])).toEqual([
      ['111 EUR', 1],
      ['222 EUR', -2],
    ]);
    expect(unterminated.accounts.map((a) => a.balance)).toEqual([1, -2]);
  });

  it(':25: is an IBAN or a bank code and account, a currency after it read off (an IBAN ending in its currency kept whole)', () => {
    expect(accountIdOf('DE89370400440532013000')).toEqual({ id: 'DE89370400440532013000' });
    expect(accountIdOf('10020030/1234567890')).toEqual({ id: '10020030/1234567890' });
    expect(accountIdOf('NL91ABNA0417164300EUR')).toEqual({ id: 'NL91ABNA0417164300', currency: 'EUR' });
    expect(accountIdOf('123456789 USD')).toEqual({ id: '123456789', currency: 'USD' });
    expect(accountIdOf('10020030/1234567890/CHF')).toEqual({ id: '10020030/1234567890', currency: 'CHF' });
    expect(accountIdOf('MU17BOMM0101101030300200000MUR')).toEqual({ id: 'MU17BOMM0101101030300200000MUR' });
    // Letters after the number that name no currency are the account's.
    expect(accountIdOf('12345ABC')).toEqual({ id: '12345ABC' });
  });

  it(':28C: names the statement in what is said about it', () => {
    const result = readMt940Statement(statement([':61:260105D10,NMSC', ':86:Shop'], { closing: 'C260131EUR80,' }).replace(':28C:1/1', ':28C:00042/002'));
    expect(result.problems).toEqual([
      { line: 7, message: expect.stringMatching(/^In statement 00042\/002 of account X+3000, the statement lines add up to -10\.00 EUR/) },
    ]);
  });

  it(':60M: and :62M: pages: each page checked against its balances, the last page closing the account', () => {
    const result = readMt940Statement(fixture('swift-blocks.sta'));
    const eur = result.accounts[0]!;
    expect([eur.balance, iso(eur.balanceDate), eur.availableBalance]).toEqual([1945.55, '2026-01-04', 1900]);
    // Pages in any order: the later closing date wins.
    const pages = readMt940Statement(
      [
        ':20:P2',
        ':25:111',
        ':28C:1/2',
        ':60M:C260103EUR10,',
        ':61:260104C1,NTRF',
        ':62F:C260104EUR11,',
        '-',
        ':20:P1',
        ':25:111',
        ':28C:1/1',
        ':60F:C260102EUR0,',
        ':61:260103C10,NTRF',
        ':62M:C260103EUR10,',
        '-',
      ].join('\n'),
    );
    expect(pages.problems).toEqual([]);
    expect([pages.accounts[0]!.balance, iso(pages.accounts[0]!.balanceDate)]).toEqual([11, '2026-01-04']);
  });

  it(':61: the value date is the transaction date, the entry date the posted date, across the year end', () => {
    const read = lines(readMt940Statement(fixture('german-subfields.sta')));
    expect(read.map((t) => [t.value, t.posted])).toEqual([
      ['2025-12-30', '2025-12-30'],
      ['2025-12-31', '2026-01-02'],
      ['2026-01-02', '2026-01-02'],
      ['2026-01-02', '2026-01-02'],
    ]);
    const back = lines(readMt940Statement(statement([':61:2601021231D1,NMSC'], { closing: 'C260131EUR99,' })));
    expect(back.map((t) => [t.value, t.posted])).toEqual([['2026-01-02', '2025-12-31']]);
    // Without an entry date, the value date is both.
    const without = lines(readMt940Statement(statement([':61:260102D1,NMSC'], { closing: 'C260131EUR99,' })));
    expect(without.map((t) => [t.value, t.posted])).toEqual([['2026-01-02', '2026-01-02']]);
  });

  it('D and C give the sign; RC, the reversal of a credit, is a debit and RD, the reversal of a debit, a credit', () => {
    const result = readMt940Statement(
      statement([':61:260102C10,NTRF', ':61:260102D3,NTRF', ':61:260102RC2,NTRF', ':61:260102RD1,NTRF'], { closing: 'C260131EUR106,' }),
    );
    expect(result.problems).toEqual([]);
    expect(lines(result).map((t) => t.amount)).toEqual([10, -3, -2, 1]);
  });

  it("categorises by the country of the account's IBAN, by its currency when the account is no IBAN", () => {
    const country = (account: string, currency = 'EUR') =>
      readMt940Statement(
        statement([':61:260102D3,NTRF'], { account, opening: `C260101${currency}100,00`, closing: `C260131${currency}97,00` }),
      ).transactions.map((t) => t.categorization.country);
    expect(country('DE89370400440532013000')).toEqual(['DEU']);
    expect(country('FR1420041010050500013M02606')).toEqual(['FRA']);
    expect(country('NL91ABNA0417164300EUR')).toEqual(['NLD']);
    // A bank code and account names no country: the currency's, the United States for the euro as for any other.
    expect(country('10020030/1234567890', 'CHF')).toEqual(['CHE']);
    // A wrong check digit is no IBAN.
    expect(country('DE88370400440532013000', 'GBP')).toEqual(['GBR']);
  });

  it('a funds-code letter after the mark is passed over', () => {
    const result = readMt940Statement(
      statement([':61:2601020102DR45,90NMSCNONREF', ':61:2601020102CR5,00NMSCNONREF', ':61:2601020102RDR1,00NMSC'], { closing: 'C260131EUR60,1' }),
    );
    expect(result.problems).toEqual([]);
    expect(lines(result).map((t) => t.amount)).toEqual([-45.9, 5, 1]);
  });

  it('amounts with a decimal comma, with nothing after it (100,)', () => {
    const result = readMt940Statement(statement([':61:260102C100,NTRF', ':61:260102D0,5NTRF', ':61:260102D,25NTRF'], { closing: 'C260131EUR199,25' }));
    expect(result.problems).toEqual([]);
    expect(lines(result).map((t) => t.amount)).toEqual([100, -0.5, -0.25]);
    expect(readMt940Statement(fixture('german-subfields.sta')).transactions[1]!.amount).toBe(2500);
  });

  it('transaction type codes (NTRF, NCHK, NCHG, NDDT, NSTO, NINT, S103, NMSC) and German transaction codes give the type', () => {
    const result = readMt940Statement(
      statement(
        [
          ':61:260102D1,NTRF',
          ':61:260102D1,NCHK000123//C1',
          ':61:260102D1,NCHG',
          ':61:260102D1,NDDT',
          ':61:260102D1,NSTO',
          ':61:260102C1,NINT',
          ':61:260102C1,S103',
          ':61:260102D1,NMSC',
          ':61:260102C1,NMSC',
          ':61:260102C1,N153',
          ':86:153?00GEHALT?32Arbeitgeber AG',
        ],
        { closing: 'C260131EUR98,' },
      ),
    );
    expect(result.problems).toEqual([]);
    expect(lines(result).map((t) => [t.type, t.checkNum])).toEqual([
      ['transfer', undefined],
      ['check', '000123'],
      ['fee', undefined],
      ['directDebit', undefined],
      ['repeatPayment', undefined],
      ['interest', undefined],
      ['transfer', undefined],
      ['debit', undefined],
      ['credit', undefined],
      ['directDeposit', undefined],
    ]);
  });

  it('the customer reference, the bank reference after // and the supplementary line', () => {
    const result = readMt940Statement(fixture('swift-blocks.sta'));
    expect(lines(result)[3]).toEqual({
      account: 'NL91ABNA0417164300 USD',
      ref: '//2601050003|2026-01-05',
      amount: 75.25,
      posted: '2026-01-05',
      value: '2026-01-05',
      type: 'transfer',
      description: 'Acme Supplies Inc.',
      memo: 'RF18539007547034',
    });
    // Without a :86:, the supplementary line describes the line, else the customer reference, else its type code.
    const bare = lines(
      readMt940Statement(
        statement([':61:260102D1,NTRFPO-77//B1', 'CARD PURCHASE 0102', ':61:260102D1,NTRFPO-78//B2', ':61:260102D1,NTRFNONREF//B3'], {
          closing: 'C260131EUR97,',
        }),
      ),
    );
    expect(bare.map((t) => [t.description, t.ref])).toEqual([
      ['CARD PURCHASE 0102', '//B1|2026-01-02'],
      ['PO-78', '//B2|2026-01-02'],
      ['NTRF', '//B3|2026-01-02'],
    ]);
  });

  it(':86: over several lines: joined with a space, without one where a full line of 65 cut a word', () => {
    const read = lines(readMt940Statement(fixture('two-accounts.sta')));
    expect(read[5]!.description).toBe('Uebertrag vom Sparkonto, Januar 2026');
    const long = `${'x'.repeat(58)}Paymentt`;
    expect(`:86:${long.slice(0, 61)}`).toHaveLength(65);
    expect(readInformation([long.slice(0, 61), `${long.slice(61)} to Jane`]).description).toBe(`${'x'.repeat(58)}Paymentt to Jane`);
    expect(readInformation(['Rent', 'March']).description).toBe('Rent March');
  });

  it(':86: German ?00-?63 subfields: the name, the SEPA purpose after SVWZ+ and the booking text', () => {
    const read = lines(readMt940Statement(fixture('german-subfields.sta')));
    expect(read[0]).toEqual({
      account: '50010517/0648489890 EUR',
      ref: '2025-12-30|-45.9|stadtwerke müllheim gmbh|1',
      amount: -45.9,
      posted: '2025-12-30',
      value: '2025-12-30',
      type: 'debit',
      description: 'Stadtwerke Müllheim GmbH',
      memo: 'Abschlag Strom Dezember 2025 Kundennr. 4711',
    });
    expect(read[1]).toMatchObject({ description: 'Bäckerei Schröder KG', memo: 'Gehalt Dezember 2025', type: 'directDeposit' });
    // No name: the purpose describes it, the booking text is the memo; another separator than ?.
    expect(readInformation(['116>00UEBERWEISUNG>20Miete Januar>21Wohnung 3'])).toEqual({
      description: 'Miete Januar Wohnung 3',
      memo: 'UEBERWEISUNG',
      gvc: '116',
    });
    expect(readInformation(['166?00GUTSCHRIFT?20EREF+X1?21KREF+Y2'])).toEqual({ description: 'GUTSCHRIFT', memo: '', gvc: '166' });
  });

  it(':86: /TRTP/ /NAME/ /REMI/ codes: the name, the remittance information and the kind of transfer', () => {
    const read = lines(readMt940Statement(fixture('swift-blocks.sta')));
    expect(read.map((t) => [t.description, t.memo])).toEqual([
      ['Verhuur B.V.', 'Huur januari 2026'],
      ['Werkgever N.V.', 'Salaris december'],
      ['Kosten betaalpakket', 'KOSTEN'],
      ['Acme Supplies Inc.', 'RF18539007547034'],
    ]);
    expect(lines(readMt940Statement(fixture('two-accounts.sta')))[6]).toMatchObject({ description: 'Anna Muster', memo: 'Ausgleich' });
  });

  it(':64: is the available balance and :65: forward balances are read over', () => {
    const result = readMt940Statement(fixture('swift-blocks.sta'));
    expect(result.accounts[0]).toMatchObject({ balance: 1945.55, availableBalance: 1900 });
    expect(result.accounts[1]).not.toHaveProperty('availableBalance');
  });

  it(':86: after :62F: belongs to the statement, not to the last transaction', () => {
    const read = lines(readMt940Statement(fixture('german-subfields.sta')));
    expect(read[3]).toMatchObject({ description: 'Verlag Nord', memo: 'Rückgabe Lastschrift Zeitschrift Abo', amount: 12.5 });
    expect(JSON.stringify(read)).not.toContain('Saldo');
  });

  it('several messages for several accounts and currencies: one account per account id and currency', () => {
    const result = readMt940Statement(fixture('swift-blocks.sta'));
    expect(result.accounts.map((a) => [a.ref, a.number, a.currency, a.name])).toEqual([
      ['NL91ABNA0417164300 EUR', 'NL91ABNA0417164300', 'EUR', 'Account XXXXXXXXXXXXXX4300 (EUR)'],
      ['NL91ABNA0417164300 USD', 'NL91ABNA0417164300', 'USD', 'Account XXXXXXXXXXXXXX4300 (USD)'],
    ]);
    expect(result.accounts[1]).toMatchObject({ balance: 575.25, balanceDate: day('2026-01-05') });
  });

  it('Latin-1 text and CRLF line ends read as UTF-8 with LF does', () => {
    const latin1 = fixture('german-subfields.sta');
    expect(latin1.includes(Buffer.from('Müllheim', 'utf8'))).toBe(false);
    expect(latin1.includes(Buffer.from('\r\n'))).toBe(true);
    const utf8 = Buffer.from(latin1.toString('latin1').replaceAll('\r\n', '\n'), 'utf8');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]);
    const read = readMt940Statement(latin1);
    expect(read.transactions[0]!.description).toBe('Stadtwerke Müllheim GmbH');
    expect(readMt940Statement(utf8)).toEqual(read);
    expect(readMt940Statement(bom)).toEqual(read);
  });

  it('the currency comes from the balance fields, checked against ISO 4217', () => {
    expect(readMt940Statement(fixture('two-accounts.sta')).accounts.map((a) => a.currency)).toEqual(['CHF', 'CHF']);
    const bogus = readMt940Statement(statement([':61:260102C1,NTRF'], { opening: 'C260101EUX0,', closing: 'C260131EUX1,' }));
    expect(bogus.accounts.map((a) => [a.ref, a.currency])).toEqual([['DE89370400440532013000 XXX', 'XXX']]);
    expect(bogus.problems).toEqual([
      { line: 1, message: expect.stringContaining('"EUX" of statement 1/1 (account XXXXXXXXXXXXXXXXXX3000) is not an ISO 4217 code') },
    ]);
    expect(bogus.transactions[0]!.amount).toBe(1);
    // Balances that disagree: the opening one's currency, and a word about it.
    const mixed = readMt940Statement(statement([], { opening: 'C260101EUR0,', closing: 'C260131USD0,' }));
    expect([mixed.accounts[0]!.currency, mixed.problems[0]?.message]).toEqual(['EUR', expect.stringContaining('name EUR and USD')]);
    // No balance at all: the currency written after the account, else none.
    const suffixed = readMt940Statement(':20:X\n:25:123456 GBP\n:61:260102C1,NTRF\n-\n');
    expect([suffixed.accounts[0]!.currency, suffixed.problems]).toEqual(['GBP', []]);
    const none = readMt940Statement(':20:X\n:25:123456\n:61:260102C1,NTRF\n-\n');
    expect([none.accounts[0]!.currency, none.problems[0]?.message]).toEqual(['XXX', expect.stringContaining('name no currency')]);
  });

  it('MT942 interim reports: the currency of :34F:, expected entries named, the :90D: and :90C: totals checked', () => {
    const result = readMt940Statement(fixture('interim-942.sta'));
    expect(result.accounts).toEqual([
      { ref: 'DE89370400440532013000 EUR', type: 'checking', number: 'DE89370400440532013000', name: 'Account XXXXXXXXXXXXXXXXXX3000 (EUR)', currency: 'EUR' },
    ]);
    expect(lines(result).map((t) => [t.amount, t.type, t.description])).toEqual([
      [-60, 'directDebit', 'Versicherung AG Beitrag Januar'],
      [30, 'transfer', 'Rueckzahlung Kollege'],
    ]);
    expect(result.problems).toEqual([{ line: 11, message: expect.stringContaining('an expected credit (EC), not booked yet') }]);
    const wrongTotals = readMt940Statement(
      [':20:I', ':25:DE89370400440532013000', ':34F:EURD0,', ':61:260106D60,NDDT', ':61:260106D1,NDDT', ':90D:1EUR60,', ':90C:0EUR0,', '-'].join('\n'),
    );
    expect(wrongTotals.problems).toEqual([{ line: 6, message: expect.stringContaining('2 debits add up to 61.00 EUR, but :90D: states 1 of 60.00') }]);
  });
});

describe('MT940 transaction refs', () => {
  it('the bank reference (with the value date) when unique in the account, else date, amount, description and occurrence', () => {
    const read = lines(readMt940Statement(fixture('two-accounts.sta')));
    expect(read.map((t) => t.ref)).toEqual([
      '//REF0001|2026-01-15',
      // REF0002 twice: not the bank's reference for either.
      '2026-01-16|-8.4|kaffeebar bahnhof|1',
      '2026-01-16|-8.4|kaffeebar bahnhof|2',
      '2026-01-20|-3.5|parkhaus zentrum|1',
      '2026-01-20|-3.5|parkhaus zentrum|2',
      '//REF0003|2026-01-25',
      '//REF0004|2026-01-28',
    ]);
    // NONREF is no reference; the booking date goes into a derived key.
    const derived = lines(readMt940Statement(statement([':61:2601020105D1,NTRFNONREF//NONREF', ':86:Shop'], { closing: 'C260131EUR99,' })));
    expect(derived.map((t) => t.ref)).toEqual(['2026-01-05|-1|shop|1']);
  });

  it('reading the same file again, or an overlapping one, gives the same refs', () => {
    for (const name of ['german-subfields.sta', 'swift-blocks.sta', 'two-accounts.sta', 'interim-942.sta']) {
      const first = readMt940Statement(fixture(name));
      expect(readMt940Statement(fixture(name)), name).toEqual(first);
    }
    const day1 = [':61:260102D8,40NMSC', ':86:Kaffee', ':61:260102D8,40NMSC', ':86:Kaffee', ':61:260102C5,NTRF//B7', ':86:Refund'];
    const day2 = [':61:260103D2,NMSC', ':86:Kiosk'];
    const january = readMt940Statement(statement(day1, { closing: 'C260131EUR88,2' }));
    const overlapping = readMt940Statement(statement([...day1, ...day2], { closing: 'C260131EUR86,2' }));
    expect(overlapping.transactions.slice(0, 3).map((t) => t.ref)).toEqual(january.transactions.map((t) => t.ref));
    expect(new Set(overlapping.transactions.map((t) => t.ref)).size).toBe(4);
  });
});

describe('what cannot be read in an MT940 file', () => {
  it('statement lines whose date, mark or amount cannot be read are named with their line, the rest imported', () => {
    const result = readMt940Statement(
      statement([':61:261302D1,NMSC', ':61:260102X1,NMSC', ':61:260102DNMSC', ':61:2601021340D2,NMSC', ':61:260103D3,NMSC', ':86:Kept'], {
        closing: 'C260131EUR95,',
      }),
    );
    expect(result.problems).toEqual([
      { line: 5, message: 'The statement line :61:261302D1,NMSC cannot be read: its value date (YYMMDD) is not a date. It was left out.' },
      { line: 6, message: 'The statement line :61:260102X1,NMSC cannot be read: its mark is none of C, D, RC, RD. It was left out.' },
      { line: 7, message: 'The statement line :61:260102DNMSC cannot be read: its amount is not a number such as 1234,56. It was left out.' },
      { line: 8, message: 'The entry date 1340 of the statement line is not a date (MMDD): its value date was taken as its booking date.' },
    ]);
    expect(lines(result).map((t) => [t.amount, t.posted, t.description])).toEqual([
      [-2, '2026-01-02', 'NMSC'],
      [-3, '2026-01-03', 'Kept'],
    ]);
  });

  it('statement lines that do not add up to the closing less the opening balance are named, their amounts kept', () => {
    const result = readMt940Statement(statement([':61:260102D10,NMSC', ':61:260103C2,5NMSC'], { opening: 'C260101EUR100,', closing: 'C260131EUR90,' }));
    expect(result.problems).toEqual([
      {
        line: 7,
        message:
          'In statement 1/1 of account XXXXXXXXXXXXXXXXXX3000, the statement lines add up to -7.50 EUR, but the closing balance less the opening one is -10.00 EUR: the lines were stored as the file gives them.',
      },
    ]);
    expect(result.transactions.map((t) => t.amount)).toEqual([-10, 2.5]);
    expect(result.accounts[0]!.balance).toBe(90);
    // A debit opening balance counts as negative.
    expect(readMt940Statement(statement([':61:260102C10,NMSC'], { opening: 'D260101EUR10,', closing: 'C260131EUR0,' })).problems).toEqual([]);
  });

  it('a message without an account names the statement lines it loses; a balance that cannot be read is named', () => {
    const result = readMt940Statement(
      [':20:A', ':28C:1/1', ':61:260102C1,NTRF', ':61:260102C1,NTRF', '-', ':20:B', ':25:111', ':60F:C2601EUR', ':62F:C260102EUR1,', '-'].join('\n'),
    );
    expect(result.problems).toEqual([
      { line: 1, message: 'The message names no account (no :25: field): its 2 statement lines were left out.' },
      { line: 8, message: expect.stringMatching(/^The balance :60F:C2601EUR cannot be read/) },
    ]);
    expect(result.accounts.map((a) => [a.ref, a.balance])).toEqual([['111 EUR', 1]]);
  });

  it('a file holding no statement is refused with why', () => {
    const noAccount = refused(() => readStatementFile(Buffer.from(':20:A\n:61:260102C1,NTRF\n-\n'), { format: 'mt940' }));
    expect([noAccount.code, noAccount.message]).toEqual(['unreadable', expect.stringContaining('line 1: The message names no account')]);
    expect(refused(() => readStatementFile(Buffer.from('{1:F01X}{2:O940X}{4:\n-}\n'), { format: 'mt940' })).code).toBe('empty');
  });

  it('names a bounded number of problems however many lines are broken', () => {
    const result = readMt940Statement(statement(Array.from({ length: 2000 }, () => ':61:999999C1,NTRF')));
    expect(result.problems).toHaveLength(501);
    expect(result.problems.at(-1)).toEqual({ message: '1500 more problems were found.' });
  });
});

describe('telling MT940 files apart', () => {
  it('the documented media type and its aliases are MT940', () => {
    for (const type of ['application/x-mt940', 'text/x-mt940', 'application/mt940; charset=iso-8859-1']) expect(formatOfMediaType(type), type).toBe('mt940');
  });

  it('MT940 and MT942 files are told from their first bytes, header lines and blocks or not', () => {
    for (const name of ['german-subfields.sta', 'swift-blocks.sta', 'two-accounts.sta', 'interim-942.sta'])
      expect(sniffStatementFormat(fixture(name)), name).toBe('mt940');
    expect(looksLikeMt940('{1:F01BANKDEFFXXXX0000000000}{2:O9421200260106BANKDEFFXXXX}')).toBe(true);
    expect(readStatementFile(fixture('swift-blocks.sta'), { contentType: 'application/octet-stream' }).format).toBe('mt940');
    expect(readStatementFile(fixture('two-accounts.sta'), {}).accounts).toHaveLength(2);
  });

  it('OFX, CSV, QIF and camt files are not told as MT940', () => {
    for (const name of ['bank-1.0.2-sgml.ofx', 'bank-2.1.1.xml.ofx', 'quicken.qfx']) expect(sniffStatementFormat(ofxFixture(name)), name).toBe('ofx');
    for (const name of ['chase-checking.csv', 'european.csv', 'wells-fargo.csv', 'bank-of-america.csv', 'mint.csv'])
      expect(sniffStatementFormat(csvFixture(name)), name).toBe('csv');
    const others = [
      '!Type:Bank\nD01/02/2026\nT-8.40\nPKaffee :20: shop\n^\n',
      '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>:20:</Id></Stmt></BkToCstmrStmt></Document>\n',
      'Date,Description,Amount\n:20:,":25:",1\n',
      'Reference;Account\n:20:X;1\n:25 :Y;2\n',
    ];
    for (const text of others) {
      expect(looksLikeMt940(text), text).toBe(false);
      // Another format, or refused as one Ledgerlink does not read: either way not MT940.
      let told: string;
      try {
        told = sniffStatementFormat(Buffer.from(text));
      } catch (error) {
        if (!(error instanceof StatementFileError)) throw error;
        told = error.code;
      }
      expect(told, text).not.toBe('mt940');
    }
  });
});

describe('reading back generated MT940 statements', () => {
  const word = fc
    .tuple(
      fc.constantFrom('a', 'B', 'ü', 'É', 'z', 'Q'),
      fc.string({ unit: fc.constantFrom('a', 'B', '7', 'é', 'ß', '.', ',', '&', '(', ')', '+', "'"), maxLength: 12 }),
    )
    .map(([first, rest]) => first + rest);
  const text = fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));
  const DAY = 86_400;
  const entry = fc.record({
    day: fc.integer({ min: Date.UTC(1970, 0, 6) / 86_400_000, max: Date.UTC(2069, 11, 26) / 86_400_000 }),
    bookingOffset: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
    cents: fc.integer({ min: 0, max: 1e12 }),
    mark: fc.constantFrom('C', 'D', 'RC', 'RD'),
    fundsCode: fc.boolean(),
    description: text,
    bankRef: fc.boolean(),
  });
  const account = fc.record({
    id: fc.oneof(
      fc.stringMatching(/^DE\d{20}$/),
      fc.tuple(fc.stringMatching(/^\d{8}$/), fc.stringMatching(/^\d{6,10}$/)).map(([bank, number]) => `${bank}/${number}`),
    ),
    currency: fc.constantFrom('EUR', 'USD', 'CHF', 'GBP', 'SEK', 'JPY'),
    suffix: fc.boolean(),
    openingCents: fc.integer({ min: -1e9, max: 1e9 }),
    statements: fc.array(fc.array(entry, { maxLength: 6 }), { minLength: 1, maxLength: 3 }),
  });

  const ymd = (epoch: number) => new Date(epoch * 1000).toISOString().slice(2, 10).replaceAll('-', '');
  const swiftAmount = (cents: number) => `${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`.replace(/,00$/, ',');
  const balance = (cents: number, date: number, currency: string) => `${cents < 0 ? 'D' : 'C'}${ymd(date)}${currency}${swiftAmount(cents)}`;
  const signed = (e: { cents: number; mark: string }) => (e.mark === 'D' || e.mark === 'RC' ? -e.cents : e.cents);
  /** SWIFT's 65-character lines: a field's text cut at the width, the tag counted on its first line. */
  const wrap = (tag: string, value: string) => {
    const full = `:${tag}:${value}`;
    const out: string[] = [];
    for (let i = 0; i < full.length; i += 65) out.push(full.slice(i, i + 65));
    return out;
  };

  it('gives back the accounts, currencies, balances, amounts with their signs, dates and descriptions', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(account, { minLength: 1, maxLength: 3, selector: (a) => `${a.id} ${a.currency}` }),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom('dashes', 'blocks'),
        fc.constantFrom('utf8', 'latin1'),
        (accounts, newline, wrapping, encoding) => {
          const out: string[] = ['BANK EXPORT', ''];
          const expected: { ref: string; amount: number; posted: number; value: number; description: string }[] = [];
          const balances: { ref: string; currency: string; balance: number; balanceDate: number }[] = [];
          accounts.forEach((a, n) => {
            let cents = a.openingCents;
            let date = Date.UTC(1970, 0, 5, 12) / 1000 + n * DAY;
            const ref = `${a.id} ${a.currency}`;
            a.statements.forEach((entries, s) => {
              const sorted = [...entries].sort((x, y) => x.day - y.day);
              const opening = cents;
              const closingDate = Math.max(date, ...sorted.map((e) => e.day * DAY + 43_200));
              out.push(wrapping === 'blocks' ? '{1:F01BANKDEFFXXXX0000000000}{2:O9401200BANKDEFFXXXXN}{4:' : '');
              out.push(`:20:STMT${n}-${s}`, `:25:${a.id}${a.suffix ? a.currency : ''}`, `:28C:${s + 1}/1`, `:60F:${balance(opening, date, a.currency)}`);
              sorted.forEach((e, i) => {
                const value = e.day * DAY + 43_200;
                const posted = value + (e.bookingOffset ?? 0) * DAY;
                const entryDate = e.bookingOffset === undefined ? '' : ymd(posted).slice(2);
                const bankRef = e.bankRef ? `//R${n}x${s}x${i}` : '';
                out.push(`:61:${ymd(value)}${entryDate}${e.mark}${e.fundsCode ? a.currency[2] : ''}${swiftAmount(e.cents)}NMSCNONREF${bankRef}`);
                out.push(...wrap('86', e.description));
                cents += signed(e);
                expected.push({ ref, amount: signed(e) / 100, posted, value, description: e.description });
              });
              out.push(`:62F:${balance(cents, closingDate, a.currency)}`, wrapping === 'blocks' ? '-}' : '-');
              date = closingDate + DAY;
              balances[n] = { ref, currency: a.currency, balance: cents / 100, balanceDate: closingDate };
            });
          });
          const file = out.join(newline) + newline;
          const result = readMt940Statement(Buffer.from(file, encoding));
          expect(result.problems).toEqual([]);
          expect(result.accounts.map((a) => ({ ref: a.ref, currency: a.currency, balance: a.balance, balanceDate: a.balanceDate }))).toEqual(balances);
          expect(
            result.transactions.map((t) => ({
              ref: t.accountRef,
              amount: t.amount,
              posted: t.postedDate,
              value: t.transactionDate,
              description: t.description,
            })),
          ).toEqual(expected.map((e) => ({ ...e, amount: e.amount || 0 })));
          for (const a of result.accounts) {
            const refs = result.transactions.filter((t) => t.accountRef === a.ref).map((t) => t.ref);
            expect(new Set(refs).size).toBe(refs.length);
          }
          expect(readMt940Statement(Buffer.from(file, encoding)).transactions.map((t) => t.ref)).toEqual(result.transactions.map((t) => t.ref));
        },
      ),
      { numRuns: 200 },
    );
  });
});
