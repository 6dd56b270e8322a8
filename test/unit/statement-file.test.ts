import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { refused } from '../helpers/statements.js';
import { formatOfMediaType, MAX_STATEMENT_BYTES, readStatementFile, sniffStatementFormat } from '../../src/connectors/statements/file.js';
import { statementAccountRecord } from '../../src/modules/aggregation/statements.rules.js';

const ofx = (name: string) => readFileSync(new URL(`../fixtures/ofx/${name}`, import.meta.url));
const csv = (name: string) => readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url));

describe('telling a statement file’s kind', () => {
  it('reads the media types browsers and clients send', () => {
    expect(formatOfMediaType('application/x-ofx')).toBe('ofx');
    expect(formatOfMediaType('Application/VND.Intu.QFX; charset=windows-1252')).toBe('ofx');
    // Generic XML may be OFX 2.x or camt: told from the first bytes.
    expect(formatOfMediaType('text/xml')).toBe('sniff');
    expect(formatOfMediaType('text/csv; charset=utf-8')).toBe('csv');
    expect(formatOfMediaType('application/vnd.ms-excel')).toBe('csv');
    expect(formatOfMediaType('application/octet-stream')).toBe('sniff');
    expect(formatOfMediaType(undefined)).toBe('sniff');
    expect(formatOfMediaType('application/json')).toBeUndefined();
    expect(formatOfMediaType('application/pdf')).toBeUndefined();
  });

  it('tells OFX from CSV by the first bytes, whatever the header style', () => {
    for (const name of ['bank-1.0.2-sgml.ofx', 'bank-2.1.1.xml.ofx', 'odd-headers.ofx', 'quicken.qfx', 'creditcard-1.0.2.ofx']) {
      expect(sniffStatementFormat(ofx(name)), name).toBe('ofx');
    }
    for (const name of ['chase-checking.csv', 'european.csv', 'wells-fargo.csv', 'bank-of-america.csv'])
      expect(sniffStatementFormat(csv(name)), name).toBe('csv');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Date\tDescription\tAmount\n03/02/2026\tCOFFEE\t-4.50\n', 'utf16le')]);
    expect(sniffStatementFormat(utf16)).toBe('csv');
    expect(sniffStatementFormat(Buffer.from('\uFEFF\r\n  OFXHEADER:100\r\nDATA:OFXSGML\r\n'))).toBe('ofx');
  });

  it('refuses PDFs, workbooks and other binary data with a message saying what to download instead', () => {
    expect(refused(() => sniffStatementFormat(Buffer.from('%PDF-1.4\n'))).message).toMatch(/PDF.*OFX, QFX \(Quicken\), .* or CSV/);
    expect(refused(() => sniffStatementFormat(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]))).message).toMatch(/Save it as CSV/);
    expect(refused(() => sniffStatementFormat(Buffer.from([0x01, 0x00, 0x02, 0x41]))).code).toBe('unsupported_format');
  });

  it('refuses web pages, other XML and JSON as formats it does not read, never as CSV to map', () => {
    for (const [text, what] of [
      ['<!doctype html><html><body>x</body></html>', /web page/],
      ['\uFEFF  <?xml version="1.0"?><invoice/>', /XML document/],
      ['{"transactions": []}', /JSON document/],
    ] as const) {
      const error = refused(() => sniffStatementFormat(Buffer.from(text)));
      expect([error.code, error.message]).toEqual(['unsupported_format', expect.stringMatching(what)]);
      expect(error.details).toEqual({ formats: expect.arrayContaining(['CSV']) });
    }
    // A CSV whose first cell is bracketed is still CSV.
    expect(sniffStatementFormat(Buffer.from('[Date],Amount\n01/02/2026,1\n'))).toBe('csv');
  });
});

describe('reading an uploaded file', () => {
  it('reads OFX and CSV files into the same shape, CSV options applying to CSV only', () => {
    const fromOfx = readStatementFile(ofx('bank-1.0.2-sgml.ofx'), { contentType: 'application/octet-stream', accountName: 'Ignored' });
    expect(fromOfx.format).toBe('ofx');
    expect(fromOfx.accounts.map((a) => [a.ref, a.name === 'Ignored'])).toEqual([['1234567890', false]]);
    const fromCsv = readStatementFile(csv('generic.csv'), { contentType: 'text/csv', accountName: 'Joint', currency: 'usd' });
    expect(fromCsv.format).toBe('csv');
    expect(fromCsv.accounts.map((a) => [a.name, a.currency])).toEqual([['Joint', 'USD']]);
    expect(fromCsv.transactions.length).toBeGreaterThan(5);
  });

  it('refuses what holds nothing to import, and files over the limit', () => {
    expect(refused(() => readStatementFile(Buffer.from(' \r\n\t'), {})).code).toBe('empty');
    expect(refused(() => readStatementFile(Buffer.from('Date,Description,Amount\n'), { contentType: 'text/csv' })).code).toBe('empty');
    const unreadable = refused(() => readStatementFile(Buffer.from('Date,Description,Amount\nsoon,X,lots\n'), { contentType: 'text/csv' }));
    expect([unreadable.code, unreadable.message]).toEqual(['unreadable', expect.stringMatching(/No transaction could be read.*line 2/)]);
    expect(refused(() => readStatementFile(ofx('signon-error-15500.ofx'), { contentType: 'application/x-ofx' })).message).toMatch(/refused sign-on/);
    expect(refused(() => readStatementFile(Buffer.alloc(MAX_STATEMENT_BYTES + 1, 0x41), {})).code).toBe('too_large');
    expect(refused(() => readStatementFile(Buffer.from('x'), { contentType: 'image/png' })).code).toBe('unreadable');
  });
});

describe('statement records in the connector contract', () => {
  it('gives each account type its detail and keeps the balance the engine chose', () => {
    const base = { ref: 'r', number: 'XXXX-1234', name: 'Acct', currency: 'USD' };
    const state = { balance: -250, balanceDate: 1_700_000_000, displayPosition: 2 };
    expect(statementAccountRecord({ ...base, type: 'checking', availableBalance: 90 }, state)).toMatchObject({
      type: 'checking',
      accountNumberDisplay: '1234',
      realAccountNumberLast4: '1234',
      balance: -250,
      displayPosition: 2,
      detail: { availableBalanceAmount: 90 },
    });
    expect(statementAccountRecord({ ...base, type: 'creditCard' }, state)).not.toHaveProperty('detail');
    expect(statementAccountRecord({ ...base, type: 'lineOfCredit' }, state)).toMatchObject({ detail: { locPrincipalBalance: 250 } });
    expect(statementAccountRecord({ ...base, type: 'mortgage' }, state)).toMatchObject({ detail: { principalBalance: 250, firstMortgage: 'N' } });
    expect(statementAccountRecord({ ...base, type: 'roth' }, state)).toMatchObject({ detail: { currentBalance: -250 }, position: [] });
  });

  it('posts and categorises transactions by the account’s currency', () => {
    const file = new TextEncoder().encode('Date,Description,Memo,Amount\n01/02/2026,STARBUCKS 123,card,-4.50\n');
    const read = readStatementFile(file, { format: 'csv', currency: 'CAD' });
    expect(read.transactions).toMatchObject([
      { status: 'active', postedDate: read.transactions[0]!.transactionDate, memo: 'card', categorization: { country: 'CAN' } },
    ]);
  });

  it('keeps what an OFX investment statement says of each trade: units, price, security and its kind', () => {
    const read = readStatementFile(ofx('brokerage-1.0.2.ofx'), { format: 'ofx' });
    const trades = read.transactions.filter((t) => t.investmentTransactionType === 'purchased' || t.investmentTransactionType === 'sold');
    expect(trades.length).toBeGreaterThan(0);
    for (const t of trades) {
      expect(t).toMatchObject({ status: 'active', unitQuantity: expect.any(Number), unitValue: expect.any(Number) });
      expect(t.ticker ?? t.securityId).toBeTruthy();
    }
  });
});
