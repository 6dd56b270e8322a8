import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectLayout } from '../../src/connectors/statements/detect.js';
import { readCsvStatement } from '../../src/connectors/statements/import.js';
import { validateMapping } from '../../src/connectors/statements/mapping.js';
import { headerCurrency, parseAmount, parseDate } from '../../src/connectors/statements/values.js';
import { isIso4217 } from '../../src/platform/currency.js';
import type { StatementImport } from '../../src/connectors/statements/types.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url));
const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;
const NO_CURRENCY = /^The file names no currency .*stored as USD/;

function brief(result: StatementImport) {
  return result.transactions.map((t) => ({
    date: new Date(t.transactionDate * 1000).toISOString().slice(0, 10),
    amount: t.amount,
    description: t.description,
    ...(t.memo !== undefined ? { memo: t.memo } : {}),
  }));
}

describe('the currency of a CSV export, read where banks put it', () => {
  it('a currency column (Waehrung) gives a German export its currency, with day-first two-digit-year dates and decimal commas', () => {
    const result = readCsvStatement(fixture('sparkasse-de.csv'));
    expect(result.problems).toEqual([]);
    expect(result.accounts).toMatchObject([{ currency: 'EUR', number: 'DE12500105170648489890' }]);
    expect(brief(result)).toEqual([
      { date: '2026-10-30', amount: 3120, description: 'ACME GMBH', memo: 'GEHALT 10/2026' },
      { date: '2026-10-28', amount: -72, description: 'VATTENFALL EUROPE SALES GMBH', memo: 'Strom Abschlag Oktober' },
      { date: '2026-10-26', amount: -54.38, description: 'REWE Markt GmbH', memo: 'REWE SAGT DANKE 4711' },
      { date: '2026-10-15', amount: -1150, description: 'Hausverwaltung Schmidt', memo: 'Miete Wohnung 3. OG' },
      { date: '2026-10-01', amount: -4.95, description: 'Kontofuehrung 09/2026', memo: 'Kontofuehrung 09/2026' },
    ]);
    // Booked on the Buchungstag, done on the Valutadatum.
    expect(result.transactions[2]!.postedDate).toBe(day('2026-10-27'));
  });

  it('a header such as "Bedrag (EUR)" names the currency; the Af Bij column gives the sign', () => {
    const result = readCsvStatement(fixture('ing-nl.csv'));
    expect(result.problems).toEqual([]);
    expect(result.accounts).toMatchObject([{ currency: 'EUR' }]);
    expect(brief(result)).toEqual([
      { date: '2026-10-30', amount: -23.47, description: 'ALBERT HEIJN 1403 AMSTERDAM', memo: 'Pasvolgnr: 003 30-10-2026 17:41' },
      { date: '2026-10-28', amount: 2850, description: 'Werkgever B.V.', memo: 'Salaris oktober' },
      { date: '2026-10-25', amount: -1104.12, description: 'Energie Direct', memo: 'Jaarafrekening 2026' },
      { date: '2026-10-20', amount: -250, description: 'ING Spaarrekening', memo: 'Naar Oranje spaarrekening' },
    ]);
  });

  it('headers such as "Debit GBP" and "Credit GBP" name the currency of split columns', () => {
    const result = readCsvStatement(fixture('uk-gbp.csv'));
    expect(result.problems).toEqual([]);
    expect(result.accounts).toMatchObject([{ currency: 'GBP', balance: 2104.55, balanceDate: day('2026-10-30') }]);
    expect(result.transactions.map((t) => t.amount)).toEqual([-1024.18, 2850, -38.5, -7.2]);
  });

  it.each([
    ['Amount (EUR)', 'EUR'],
    ['Betrag (EUR)', 'EUR'],
    ['Withdrawals (SGD)', 'SGD'],
    ['Debit GBP', 'GBP'],
    ['EUR Amount', 'EUR'],
    ['Amount [CHF]', 'CHF'],
    ['Amount (€)', 'EUR'],
    ['Kwota (zł)', 'PLN'],
    ['Amount (S$)', 'SGD'],
    ['Amount', undefined],
    ['Amount ($)', undefined],
    ['Net Amount', undefined],
    ['ALL AMOUNTS', undefined],
    ['AMOUNT (EUR)', 'EUR'],
    ['DEBIT GBP', 'GBP'],
    ['Amount (EUR/USD)', undefined],
    ['Amount (QQQ)', undefined],
  ])('the header %j names %s', (header, currency) => {
    expect(headerCurrency(header, isIso4217)).toBe(currency);
  });

  it('a "Währung;CHF" line above the table names the currency', () => {
    const result = readCsvStatement(fixture('balance-lines-chf.csv'));
    expect(result.problems).toEqual([]);
    expect(result.accounts).toMatchObject([{ currency: 'CHF', balance: 1915.65, balanceDate: day('2026-10-31') }]);
    expect(result.transactions.map((t) => [t.amount, t.description])).toEqual([
      [-84.35, 'Migros Zürich'],
      [6400, 'Lohn Oktober'],
      [-2150, 'Miete'],
    ]);
  });

  it('the closing balance line below the table names the currency', () => {
    const result = readCsvStatement(fixture('closing-balance-sgd.csv'));
    expect(result.problems).toEqual([]);
    expect(result.accounts).toMatchObject([{ currency: 'SGD' }]);
    expect(result.transactions.map((t) => t.amount)).toEqual([-85.4, 5200]);
  });

  it.each([
    ['EUR 12,50', ',', { value: 12.5, currency: 'EUR' }],
    ['12,50 €', ',', { value: 12.5, currency: 'EUR' }],
    ['-1.234,56 €', ',', { value: -1234.56, currency: 'EUR' }],
    ['£1,024.18', '.', { value: 1024.18, currency: 'GBP' }],
    ["CHF 1'234.50", '.', { value: 1234.5, currency: 'CHF' }],
    ['Fr. 12.50', '.', { value: 12.5, currency: 'CHF' }],
    ['12.50 Fr.', '.', { value: 12.5, currency: 'CHF' }],
    ['1.234 Ft', ',', { value: 1234, currency: 'HUF' }],
    ['-12,50 zł', ',', { value: -12.5, currency: 'PLN' }],
    ['S$ 12.50', '.', { value: 12.5, currency: 'SGD' }],
    ['R$ 1.234,56', ',', { value: 1234.56, currency: 'BRL' }],
    ['A$12.50', '.', { value: 12.5, currency: 'AUD' }],
    ['C$12.50', '.', { value: 12.5, currency: 'CAD' }],
    // Kronor and dollars of several countries name no currency on their own.
    ['12,50 kr', ',', { value: 12.5 }],
    ['kr 12,50', ',', { value: 12.5 }],
    ['$12.50', '.', { value: 12.5 }],
  ] as const)('the amount %j reads as %j', (text, decimal, expected) => {
    expect(parseAmount(text, decimal)).toEqual(expected);
  });

  it('amounts that name a currency by code or symbol give the account that currency; kr and $ give none', () => {
    expect(readCsvStatement('Date;Description;Amount\n30.10.2026;COOP;-12,50 zł\n29.10.2026;PENSJA;4.000,00 zł\n').accounts[0]!.currency).toBe('PLN');
    expect(readCsvStatement('Date,Description,Amount\n2026-10-30,COFFEE,S$4.50\n').accounts[0]!.currency).toBe('SGD');
    const kronor = readCsvStatement('Datum;Beskrivning;Belopp\n2026-10-30;ICA;-12,50 kr\n');
    expect(kronor.accounts[0]!.currency).toBe('USD');
    expect(kronor.problems).toEqual([{ message: expect.stringMatching(NO_CURRENCY) }]);
  });

  it('the upload option wins over what the file names; amounts are never converted', () => {
    const result = readCsvStatement(fixture('sparkasse-de.csv'), { currency: 'chf' });
    expect(result.accounts[0]!.currency).toBe('CHF');
    expect(result.transactions[0]!.amount).toBe(3120);
    expect(result.problems).toEqual([{ message: "Amounts name EUR, but the account's currency is CHF as asked: they were kept as the file gives them." }]);
    expect(readCsvStatement(fixture('uk-gbp.csv'), { currency: 'EUR' }).accounts[0]!.currency).toBe('EUR');
  });

  it('a file that names no currency stays USD, named in problems when it reads as one from outside the US', () => {
    const european = readCsvStatement('Datum;Omschrijving;Bedrag\n30.10.2026;ALBERT HEIJN;-23,47\n');
    expect(european.accounts[0]!.currency).toBe('USD');
    expect(european.problems).toEqual([{ message: expect.stringMatching(NO_CURRENCY) }]);
    const dayFirst = readCsvStatement('Date,Description,Amount\n30/10/2026,TESCO,-23.47\n');
    expect(dayFirst.problems).toEqual([{ message: expect.stringMatching(NO_CURRENCY) }]);
    // A US-looking file, or a US bank's layout, is a dollar account without a word.
    expect(readCsvStatement('Date,Description,Amount\n10/30/2026,COFFEE,-4.50\n').problems).toEqual([]);
    expect(readCsvStatement(fixture('chase-checking.csv')).problems).toEqual([]);
  });

  it('a currency column of several currencies, or of a text that is no code, keeps the amounts under XXX', () => {
    const mixed = readCsvStatement('Date,Description,Amount,Currency\n2026-10-30,A,-1.00,EUR\n2026-10-29,B,-2.00,GBP\n');
    expect(mixed.accounts[0]!.currency).toBe('XXX');
    expect(mixed.problems).toEqual([{ message: expect.stringMatching(/^The amounts name several currencies \(EUR, GBP\)/) }]);
    const invalid = readCsvStatement('Date,Description,Amount,Ccy\n2026-10-30,A,-1.00,Euro\n');
    expect(invalid.accounts[0]!.currency).toBe('XXX');
    expect(readCsvStatement('Date,Description,Amount,Devise\n2026-10-30,A,-1.00,eur\n').accounts[0]!.currency).toBe('EUR');
  });

  it('the column mapping takes a currency column, by name or position', () => {
    const text = 'When,Who,How Much,Money\n2026-10-30,A,-1.00,HUF\n';
    expect(readCsvStatement(text, { mapping: { date: 'When', description: 'Who', amount: 'How Much', currency: 'Money' } }).accounts[0]!.currency).toBe('HUF');
    expect(readCsvStatement(text, { mapping: { date: 0, description: 1, amount: 2, currency: 3 } }).accounts[0]!.currency).toBe('HUF');
    expect(validateMapping({ date: 0, description: 1, amount: 2, currency: 'Kurs' }, ['When', 'Who', 'How Much', 'Money'])).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^currency: no column is named "Kurs"/)],
    });
    expect(detectLayout('Date,Description,Amount,Währung\n2026-10-30,A,-1.00,EUR\n')).toMatchObject({ ok: true, mapping: { currency: 'Währung' } });
    // A German `Valuta` column of dates is no currency column.
    const valuta = readCsvStatement('Buchungstag;Valuta;Buchungstext;Betrag\n30.10.2026;29.10.2026;REWE;-1,00 EUR\n');
    expect([valuta.accounts[0]!.currency, valuta.problems]).toEqual(['EUR', []]);
  });
});

describe('descriptions, dates and amounts under the names other banks and languages give them', () => {
  it('a "desc" column is the description, and an empty notes column is never promoted over it', () => {
    const result = readCsvStatement(fixture('desc-empty-notes.csv'));
    expect(brief(result)).toEqual([
      { date: '2026-10-30', amount: -4.5, description: 'COFFEE ROASTERS' },
      { date: '2026-10-29', amount: -18, description: 'BOOKSHOP' },
      { date: '2026-10-28', amount: 2450.33, description: 'PAYROLL ACME CORP', memo: 'October' },
    ]);
  });

  it.each([
    ['desc', 'Amount', 'Date'],
    ['Verwendungszweck', 'Betrag', 'Buchungstag'],
    ['Buchungstext', 'Betrag', 'Valutadatum'],
    ['Beschreibung', 'Betrag', 'Datum'],
    ['Beguenstigter/Zahlungspflichtiger', 'Betrag', 'Buchungstag'],
    ['Omschrijving', 'Bedrag', 'Datum'],
    ['Naam / Omschrijving', 'Bedrag', 'Datum'],
    ['Mededelingen', 'Bedrag', 'Datum'],
    ['Libellé', 'Montant', 'Date'],
    ['Concepto', 'Importe', 'Fecha'],
    ['Descrizione', 'Importo', 'Data'],
    ['Payee', 'Amount', 'Date'],
    ['Merchant', 'Amount', 'Date'],
    ['Details', 'Amount', 'Date'],
    ['Narrative', 'Amount', 'Date'],
    ['Transaction Details', 'Amount', 'Date'],
    ['Reference', 'Amount', 'Date'],
  ])('%s, %s and %s are recognised', (description, amount, date) => {
    const detected = detectLayout(`${date};${description};${amount}\n30.10.2026;REWE MARKT;-54,38\n`);
    expect(detected).toMatchObject({ ok: true, mapping: { date, description, amount } });
    expect(brief(readCsvStatement(`${date};${description};${amount}\n30.10.2026;REWE MARKT;-54,38\n`))).toEqual([
      { date: '2026-10-30', amount: -54.38, description: 'REWE MARKT' },
    ]);
  });

  it('a Soll/Haben column gives the sign of unsigned amounts', () => {
    const result = readCsvStatement('Buchungstag;Buchungstext;Umsatz;Soll/Haben;Währung\n30.10.2026;REWE;54,38;S;EUR\n29.10.2026;GEHALT;3.120,00;H;EUR\n');
    expect(result.accounts[0]!.currency).toBe('EUR');
    expect(result.transactions.map((t) => t.amount)).toEqual([-54.38, 3120]);
  });

  it('a header cell that reads as an amount (VWZ1) does not make the header row unrecognised', () => {
    const result = readCsvStatement(fixture('vwz-header.csv'));
    expect(result.problems).toEqual([{ message: expect.stringMatching(NO_CURRENCY) }]);
    expect(brief(result)).toEqual([
      { date: '2026-10-30', amount: -12.5, description: 'Bäckerei Müller' },
      { date: '2026-10-29', amount: -99, description: 'HUK-Coburg' },
    ]);
    // Without names the row is still no header.
    expect(detectLayout('Foo;VWZ1;VWZ2\n30.10.2026;A;-1,00\n')).toMatchObject({ ok: false });
  });

  it.each([
    ['31.12.2025', '2025-12-31'],
    ['31.12.25', '2025-12-31'],
    ['01.02.26', '2026-02-01'],
  ])('the European date %s reads as %s', (text, iso) => {
    expect(parseDate(text, 'dmy')).toBe(day(iso));
  });

  it.each([
    ['1.234,56', 1234.56],
    ['-1.234.567,89', -1234567.89],
    ['12,5', 12.5],
  ])('the European amount %s reads as %d', (text, value) => {
    expect(parseAmount(text, ',')).toEqual({ value });
  });
});
