import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeEntities } from '../../src/connectors/ofx/markup.js';
import {
  decodeOfxBytes,
  MAX_OFX_CHARS,
  MAX_OFX_DEPTH,
  MAX_OFX_ELEMENTS,
  MAX_OFX_VALUE_CHARS,
  type OfxBankStatement,
  type OfxElement,
  type OfxInvestmentStatement,
  OfxParseError,
  type OfxResponse,
  parseOfxAmount,
  parseOfxDocument,
  readOfxResponse,
} from '../../src/connectors/ofx/parse.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/ofx/${name}`, import.meta.url));
const read = (name: string): OfxResponse => readOfxResponse(decodeOfxBytes(fixture(name)));
const at = (iso: string) => Date.parse(iso) / 1000;

function bank(response: OfxResponse, i = 0): OfxBankStatement {
  const s = response.statements[i]?.statement;
  if (!s || s.kind === 'investment') throw new Error(`statement ${i} is not a bank statement`);
  return s;
}

function investment(response: OfxResponse, i = 0): OfxInvestmentStatement {
  const s = response.statements[i]?.statement;
  if (s?.kind !== 'investment') throw new Error(`statement ${i} is not an investment statement`);
  return s;
}

describe('the fixture corpus', () => {
  it('bank-1.0.2-sgml.ofx: an SGML statement without closing tags', () => {
    const r = read('bank-1.0.2-sgml.ofx');
    expect(r.header).toMatchObject({ syntax: 'sgml', version: 102 });
    expect(r.header.fields).toMatchObject({ OFXHEADER: '100', DATA: 'OFXSGML', ENCODING: 'USASCII', CHARSET: '1252' });
    expect(r.signon).toEqual({
      status: { code: 0, severity: 'INFO' },
      serverDate: at('2024-01-31T17:00:00Z'),
      language: 'ENG',
      org: 'FirstPrairie',
      fid: '10898',
    });
    expect(r.statements).toHaveLength(1);
    expect(r.statements[0]).toMatchObject({ kind: 'bank', trnuid: '1001', status: { code: 0, severity: 'INFO' } });
    const s = bank(r);
    expect(s.account).toEqual({ kind: 'bank', bankId: '121000248', acctId: '1234567890', acctType: 'CHECKING' });
    expect(s.currency).toBe('USD');
    expect(s.start).toBe(at('2024-01-01T12:00:00Z'));
    expect(s.end).toBe(at('2024-01-31T12:00:00Z'));
    expect(s.ledgerBalance).toEqual({ amount: 3310.59, asOf: at('2024-01-31T17:00:00Z') });
    expect(s.availableBalance).toEqual({ amount: 3250.59, asOf: at('2024-01-31T17:00:00Z') });
    expect(s.transactions.map((t) => t.fitId)).toEqual([
      '202401030001',
      '202401050001',
      '202401120001',
      '202401150001',
      '202401200001',
      '202401310001',
      '202401310002',
    ]);
    expect(s.transactions.map((t) => t.type)).toEqual(['POS', 'CHECK', 'DIRECTDEP', 'ATM', 'DEBIT', 'SRVCHG', 'INT']);
    expect(s.transactions.map((t) => t.amount)).toEqual([-42.17, -1200, 2450.33, -60, -89.99, -5, 0.42]);
    expect(s.transactions[0]).toEqual({
      type: 'POS',
      posted: at('2024-01-03T12:00:00Z'),
      user: at('2024-01-02T12:00:00Z'),
      amount: -42.17,
      fitId: '202401030001',
      name: 'KROGER #512',
      memo: 'POS PURCHASE COLUMBUS OH',
    });
    expect(s.transactions[1]).toMatchObject({ checkNum: '1042', name: 'CHECK 1042' });
    expect(s.transactions[1]?.memo).toBeUndefined();
    // A bare & (common in SGML files) stays; a reference is resolved.
    expect(s.transactions[3]?.name).toBe('ATM WITHDRAWAL 5TH & MAIN');
    expect(s.transactions[4]).toMatchObject({ name: 'AT&T *BILL PAYMENT', memo: 'WEB PMT & AUTOPAY' });
    expect(r.problems).toEqual([]);
  });

  it('bank-1.6-mixed-closing.ofx: leaves closed on some elements only, tab indentation', () => {
    const r = read('bank-1.6-mixed-closing.ofx');
    expect(r.header.version).toBe(160);
    expect(r.signon?.serverDate).toBe(at('2024-03-01T08:00:00Z'));
    const s = bank(r);
    expect(s.account).toEqual({ kind: 'bank', bankId: '011000138', acctId: '555000123', acctType: 'SAVINGS' });
    expect(s.transactions).toEqual([
      {
        type: 'XFER',
        posted: at('2024-02-05T12:00:00Z'),
        user: at('2024-02-04T12:00:00Z'),
        amount: 500,
        fitId: 'SAV-0205-A',
        name: 'TRANSFER FROM CHECKING',
        memo: 'ONLINE TRANSFER REF 7781',
      },
      { type: 'DEP', posted: at('2024-02-14T12:00:00Z'), amount: 125.5, fitId: 'SAV-0214-A', name: 'MOBILE DEPOSIT' },
      { type: 'INT', posted: at('2024-02-29T12:00:00Z'), amount: 3.17, fitId: 'SAV-0229-I', name: 'INTEREST EARNED' },
    ]);
    expect(s.ledgerBalance).toEqual({ amount: 10628.67, asOf: at('2024-02-29T23:59:59Z') });
    expect(s.availableBalance).toEqual({ amount: 10628.67, asOf: at('2024-02-29T23:59:59Z') });
  });

  it('bank-2.1.1.xml.ofx: XML with entities, UTF-8 text and a PAYEE aggregate', () => {
    const r = read('bank-2.1.1.xml.ofx');
    expect(r.header).toMatchObject({ syntax: 'xml', version: 211 });
    expect(r.header.fields).toMatchObject({ OFXHEADER: '200', SECURITY: 'NONE', XMLENCODING: 'UTF-8' });
    expect(r.signon?.status).toEqual({ code: 0, severity: 'INFO', message: 'Login successful' });
    expect(r.signon?.serverDate).toBe(at('2024-04-15T16:33:24Z'));
    expect(r.statements[0]?.trnuid).toBe('6f2a1c3e-0d9b-4f4e-9a51-2c7b9e0d1a22');
    const s = bank(r);
    expect(s.transactions).toHaveLength(3);
    expect(s.transactions[0]).toEqual({
      type: 'DEBIT',
      posted: at('2024-04-02T19:00:00Z'),
      amount: -4.75,
      fitId: '3000124040201',
      name: "Café L'Étoile",
      memo: 'Card 1234 <contactless>',
    });
    expect(s.transactions[1]).toEqual({
      type: 'PAYMENT',
      posted: at('2024-04-08T19:00:00Z'),
      amount: -1875,
      fitId: '3000124040801',
      payee: 'Evergreen Property Mgmt',
      memo: 'Rent April',
    });
    expect(s.transactions[2]?.name).toBe('Refund Online Store & Co');
    expect(s.ledgerBalance?.amount).toBe(2204.81);
    expect(s.availableBalance?.amount).toBe(2150);
  });

  it('bank-2.2.xml.ofx: XML on one line, a money market account, a correction', () => {
    const r = read('bank-2.2.xml.ofx');
    expect(r.header).toMatchObject({ syntax: 'xml', version: 220 });
    const s = bank(r);
    expect(s.account).toEqual({ kind: 'bank', bankId: '091000019', acctId: '77001234', acctType: 'MONEYMRKT' });
    expect(s.transactions.map((t) => [t.fitId, t.type, t.amount])).toEqual([
      ['MM-1', 'DEP', 1000],
      ['MM-2', 'DIRECTDEBIT', -250],
      ['MM-3', 'DIRECTDEBIT', -205],
      ['MM-4', 'REPEATPMT', -50],
    ]);
    expect(s.transactions[0]).toMatchObject({ posted: at('2024-05-03T15:00:00Z'), available: at('2024-05-04T15:00:00Z'), name: 'DEPOSIT BRANCH 12' });
    expect(s.transactions[2]).toMatchObject({ correctFitId: 'MM-2', correctAction: 'REPLACE', memo: 'AMOUNT CORRECTED' });
    expect(s.ledgerBalance).toEqual({ amount: 15745, asOf: at('2024-05-20T10:10:10Z') });
  });

  it('creditcard-1.0.2.ofx: a credit card statement with a masked number', () => {
    const r = read('creditcard-1.0.2.ofx');
    expect(r.statements[0]?.kind).toBe('creditCard');
    const s = bank(r);
    expect(s.kind).toBe('creditCard');
    expect(s.account).toEqual({ kind: 'creditCard', acctId: 'XXXXXXXXXXXX4321' });
    expect(s.transactions.map((t) => t.amount)).toEqual([-64.1, -15.49, 812.44, -39]);
    expect(s.transactions[0]).toEqual({
      type: 'DEBIT',
      posted: at('2024-05-03T12:00:00Z'),
      user: at('2024-05-02T12:00:00Z'),
      amount: -64.1,
      fitId: '2024050324692164',
      sic: '5411',
      name: 'WHOLE FOODS MARKET #10',
    });
    expect(s.ledgerBalance?.amount).toBe(-1523.87);
    expect(s.availableBalance?.amount).toBe(8476.13);
  });

  it('brokerage-1.0.2.ofx: positions, trades, income, reinvestment, a transfer, cash and the security list', () => {
    const r = read('brokerage-1.0.2.ofx');
    const s = investment(r);
    expect(s.account).toEqual({ kind: 'investment', brokerId: 'brokerco.com', acctId: 'Z12345678' });
    expect(s.asOf).toBe(at('2024-07-05T20:00:00Z'));
    expect(s.transactions.map((t) => [t.kind, t.fitId, t.total])).toEqual([
      ['BUYSTOCK', 'B-20240603-1', -1943.55],
      ['SELLMF', 'S-20240612-1', 2520],
      ['INCOME', 'I-20240614-1', 2.5],
      ['REINVEST', 'R-20240628-1', -48],
      ['TRANSFER', 'T-20240701-1', undefined],
      ['INVBANKTRAN', 'C-20240602-1', 2000],
    ]);
    expect(s.transactions[0]).toEqual({
      kind: 'BUYSTOCK',
      fitId: 'B-20240603-1',
      tradeDate: at('2024-06-03T12:00:00Z'),
      settleDate: at('2024-06-04T12:00:00Z'),
      memo: 'BUY AAPL',
      security: { uniqueId: '037833100', uniqueIdType: 'CUSIP' },
      units: 10,
      unitPrice: 194.35,
      total: -1943.55,
      commission: 0,
      fees: 0.05,
      action: 'BUY',
      subAccount: 'CASH',
    });
    expect(s.transactions[1]).toMatchObject({ units: -5.25, unitPrice: 480, action: 'SELL', security: { uniqueId: '922908710' } });
    expect(s.transactions[2]).toMatchObject({ incomeType: 'DIV', memo: 'DIVIDEND RECEIVED' });
    expect(s.transactions[3]).toMatchObject({ incomeType: 'DIV', units: 0.1, unitPrice: 480 });
    expect(s.transactions[4]).toMatchObject({ action: 'IN', units: 5000, security: { uniqueId: '912828ZT0' } });
    expect(s.transactions[5]?.bank).toEqual({
      type: 'DEP',
      posted: at('2024-06-02T12:00:00Z'),
      amount: 2000,
      fitId: 'C-20240602-1',
      name: 'ACH DEPOSIT FROM BANK',
    });
    expect(s.positions).toEqual([
      {
        kind: 'POSSTOCK',
        security: { uniqueId: '037833100', uniqueIdType: 'CUSIP' },
        heldIn: 'CASH',
        positionType: 'LONG',
        units: 10,
        unitPrice: 221.55,
        marketValue: 2215.5,
        priceAsOf: at('2024-07-05T20:00:00Z'),
        memo: 'Apple common',
        reinvestDividends: false,
      },
      {
        kind: 'POSMF',
        security: { uniqueId: '922908710', uniqueIdType: 'CUSIP' },
        heldIn: 'CASH',
        positionType: 'LONG',
        units: 20.1,
        unitPrice: 500.1,
        marketValue: 10052.01,
        priceAsOf: at('2024-07-05T20:00:00Z'),
        reinvestDividends: true,
        reinvestCapitalGains: true,
      },
      {
        kind: 'POSDEBT',
        security: { uniqueId: '912828ZT0', uniqueIdType: 'CUSIP' },
        heldIn: 'CASH',
        positionType: 'LONG',
        units: 5000,
        unitPrice: 98.75,
        marketValue: 4937.5,
        priceAsOf: at('2024-07-05T20:00:00Z'),
      },
    ]);
    expect(s.balance).toEqual({ availableCash: 1536.45, marginBalance: 0, shortBalance: 0, buyingPower: 1536.45 });
    expect(r.securities.map((x) => [x.kind, x.id.uniqueId, x.name, x.ticker])).toEqual([
      ['STOCKINFO', '037833100', 'Apple Inc.', 'AAPL'],
      ['MFINFO', '922908710', 'Vanguard 500 Index Fund Admiral', 'VFIAX'],
      ['DEBTINFO', '912828ZT0', 'US Treasury Note 0.25% 05/31/2025', undefined],
    ]);
    expect(r.securities[1]).toMatchObject({ subType: 'OPENEND', yield: 1.29, unitPrice: 500.1 });
    expect(r.securities[2]).toMatchObject({ subType: 'COUPON', parValue: 1000, couponRate: 0.25, maturityDate: at('2025-05-31T12:00:00Z') });
  });

  it('odd-headers.ofx: BOM, CRLF, blank lines, lower-case and spaced keys', () => {
    const bytes = fixture('odd-headers.ofx');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const r = read('odd-headers.ofx');
    expect(r.header.fields).toMatchObject({ OFXHEADER: '100', DATA: 'OFXSGML', VERSION: '102', CHARSET: '1252', NEWFILEUID: 'NONE' });
    expect(r.header.version).toBe(102);
    // The text with the BOM still in it (a caller that decoded it itself) reads the same.
    expect(readOfxResponse(`\ufeff${bytes.subarray(3).toString('latin1')}`).statements).toEqual(r.statements);
    const s = bank(r);
    expect(s.transactions).toEqual([{ type: 'DEBIT', posted: at('2024-07-15T12:00:00Z'), amount: -12.34, fitId: 'ODD-1', name: 'CORNER STORE' }]);
    expect(s.ledgerBalance?.amount).toBe(987.66);
  });

  it('missing-optional.ofx: only MEMO, an empty NAME, no AVAILBAL, a comma decimal mark, no FITID', () => {
    const r = read('missing-optional.ofx');
    const s = bank(r);
    expect(s.transactions).toEqual([
      { type: 'DEBIT', posted: at('2024-08-02T12:00:00Z'), amount: -7.25, fitId: 'M-1', memo: 'PARKING METER CITY OF SPRINGFIELD' },
      { type: 'CREDIT', posted: at('2024-08-09T12:00:00Z'), amount: 19.99, fitId: 'M-2', memo: 'RETURNED ITEM CREDIT' },
      { type: 'DEBIT', posted: at('2024-08-10T12:00:00Z'), amount: -3, fitId: '~2024-08-10|-3|no fitid cafe', name: 'NO FITID CAFE' },
    ]);
    expect(s.availableBalance).toBeUndefined();
    expect(s.ledgerBalance?.amount).toBe(402.11);
    expect(r.problems).toEqual(['A transaction of account 98765 has no FITID; it was given one from its date, amount and name']);
  });

  it('date-forms.ofx: DTPOSTED in every date form', () => {
    const s = bank(read('date-forms.ofx'));
    const expected: Record<string, string> = {
      'D-1': '2024-10-01T12:00:00Z',
      'D-2': '2024-10-01T12:30:00Z',
      'D-3': '2024-10-01T12:30:45Z',
      'D-4': '2024-10-01T12:30:45Z',
      'D-5': '2024-10-01T17:30:45Z',
      'D-6': '2024-10-01T17:30:45Z',
      'D-7': '2024-10-01T06:30:00Z',
      'D-8': '2024-10-01T06:30:00Z',
      'D-9': '2024-10-01T00:00:00Z',
      'D-10': '2024-10-01T19:30:45Z',
      'D-11': '2024-10-01T03:30:45Z',
      'D-12': '2024-10-01T15:30:00Z',
      'D-13': '2024-10-01T16:00:00Z',
      'D-14': '2024-10-01T12:00:00Z',
    };
    expect(s.transactions).toHaveLength(Object.keys(expected).length);
    for (const t of s.transactions) expect([t.fitId, t.posted]).toEqual([t.fitId, at(expected[t.fitId]!)]);
  });

  it('fitid-reuse.ofx: the same FITIDs in two accounts of one response', () => {
    const r = read('fitid-reuse.ofx');
    expect(r.statements).toHaveLength(2);
    const [a, b] = [bank(r, 0), bank(r, 1)];
    expect([a.account.acctId, b.account.acctId]).toEqual(['1111', '2222']);
    expect(a.transactions.map((t) => t.fitId)).toEqual(['1', '2']);
    expect(b.transactions.map((t) => t.fitId)).toEqual(['1', '2']);
    expect(a.transactions.map((t) => t.name)).toEqual(['GROCERY OUTLET', 'GAS STATION 77']);
    expect(b.transactions.map((t) => [t.name, t.amount])).toEqual([
      ['ROUND UP TRANSFER', 20],
      ['INTEREST', 1.25],
    ]);
  });

  it('multi-statement-one-failing.ofx: each statement with its own status', () => {
    const r = read('multi-statement-one-failing.ofx');
    expect(r.statements.map((s) => [s.kind, s.trnuid, s.status.code, s.statement?.account.acctId])).toEqual([
      ['bank', 'T1', 0, '3001'],
      ['bank', 'T2', 2003, undefined],
      ['bank', 'T3', 0, '3003'],
      ['creditCard', 'T4', 2000, undefined],
    ]);
    expect(r.statements[1]?.status).toEqual({ code: 2003, severity: 'ERROR', message: 'Account not found' });
    expect(bank(r, 0).transactions.map((t) => [t.fitId, t.amount, t.name])).toEqual([
      ['F-1', -8.4, 'BAGEL SHOP'],
      ['F-2', 300, 'BRANCH DEPOSIT'],
    ]);
    expect(bank(r, 2).transactions.map((t) => [t.fitId, t.amount])).toEqual([['F-1', 2.1]]);
  });

  it('signon-error-15500.ofx: a refused sign-on', () => {
    const r = read('signon-error-15500.ofx');
    expect(r.signon).toEqual({
      status: { code: 15500, severity: 'ERROR', message: 'Invalid user ID or password' },
      serverDate: at('2024-12-15T16:15:00Z'),
      language: 'ENG',
    });
    expect(r.statements).toEqual([]);
    expect(r.accountInfo).toBeUndefined();
  });

  it('quicken.qfx: Intuit elements beside the standard ones', () => {
    const r = read('quicken.qfx');
    expect(r.signon).toMatchObject({ intuBid: '3001', org: 'Lakeside CU', fid: '3001', serverDate: at('2025-01-10T12:00:00Z') });
    const s = bank(r);
    expect(s.account).toEqual({ kind: 'bank', bankId: '271070801', acctId: '0055512-S01', acctType: 'SAVINGS' });
    expect(s.transactions).toEqual([
      { type: 'DEP', posted: at('2024-12-16T12:00:00Z'), amount: 250, fitId: '0055512-S01-20241216-1', name: 'HOLIDAY BONUS DEPOSIT' },
      { type: 'XFER', posted: at('2025-01-02T12:00:00Z'), amount: -100, fitId: '0055512-S01-20250102-1', name: 'TRANSFER TO SHARE DRAFT' },
    ]);
  });

  it('acctinfo-1.0.2.ofx: the account list', () => {
    const r = read('acctinfo-1.0.2.ofx');
    expect(r.accountInfo?.status.code).toBe(0);
    expect(r.accountInfo?.trnuid).toBe('9');
    expect(r.accountInfo?.accounts).toEqual([
      {
        account: { kind: 'bank', bankId: '121000248', acctId: '1234567890', acctType: 'CHECKING' },
        description: 'Everyday Checking',
        phone: '8005550100',
        serviceStatus: 'ACTIVE',
        supportsDownload: true,
      },
      {
        account: { kind: 'bank', bankId: '121000248', acctId: '7000111', acctType: 'CREDITLINE' },
        description: 'Home Equity Line',
        serviceStatus: 'ACTIVE',
        supportsDownload: true,
      },
      { account: { kind: 'creditCard', acctId: '4111111111114321' }, description: 'Rewards Visa', serviceStatus: 'ACTIVE', supportsDownload: true },
      {
        account: { kind: 'investment', brokerId: 'brokerco.com', acctId: 'Z12345678' },
        description: 'Roth IRA',
        serviceStatus: 'ACTIVE',
        supportsDownload: true,
        productType: 'IRA',
        checkWriting: false,
        optionLevel: 'NONE',
      },
      {
        account: { kind: 'bank', bankId: '121000248', acctId: '1234500000', acctType: 'SAVINGS' },
        description: 'New Savings',
        serviceStatus: 'PEND',
        supportsDownload: false,
      },
    ]);
  });
});

type Plain = { name: string; value?: string; children?: Plain[] };
const plain = (e: OfxElement): Plain => (e.value !== undefined ? { name: e.name, value: e.value } : { name: e.name, children: e.children.map(plain) });
const tree = (text: string) => plain(parseOfxDocument(text).root);
const SGML = 'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n';

describe('the markup reader', () => {
  it('reads leaves closed, unclosed and closed after white space alike', () => {
    const expected = {
      name: 'OFX',
      children: [
        {
          name: 'A',
          children: [
            { name: 'B', value: 'x y' },
            { name: 'C', value: '1' },
          ],
        },
      ],
    };
    expect(tree(`${SGML}<OFX><A><B>x y<C>1</A></OFX>`)).toEqual(expected);
    expect(tree(`${SGML}<OFX><A><B>x y</B><C>1</C></A></OFX>`)).toEqual(expected);
    expect(tree(`${SGML}<OFX>\n <A>\n  <B>x y\n  </B>\n  <C>1\n</A>\n</OFX>`)).toEqual(expected);
    expect(tree('<?xml version="1.0"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n<OFX><A><B>x y</B><C>1</C></A></OFX>')).toEqual(expected);
  });

  it('takes an element left open when its parent closes as an empty leaf, and moves what followed it up', () => {
    expect(tree(`${SGML}<OFX><T><NAME><MEMO>m<FITID>1</T><U>2</OFX>`)).toEqual({
      name: 'OFX',
      children: [
        {
          name: 'T',
          children: [
            { name: 'NAME', value: '' },
            { name: 'MEMO', value: 'm' },
            { name: 'FITID', value: '1' },
          ],
        },
        { name: 'U', value: '2' },
      ],
    });
    expect(tree(`${SGML}<OFX><A><E1><E2><E3><L>v</A></OFX>`)).toEqual({
      name: 'OFX',
      children: [
        {
          name: 'A',
          children: [
            { name: 'E1', value: '' },
            { name: 'E2', value: '' },
            { name: 'E3', value: '' },
            { name: 'L', value: 'v' },
          ],
        },
      ],
    });
  });

  it('reads empty and self-closed elements, comments, CDATA and processing instructions', () => {
    expect(tree('<?xml version="1.0"?><?OFX OFXHEADER="200"?><OFX><!-- note --><A></A><B/><C><![CDATA[a<b&c]]></C><?pi x?><D>d</D></OFX>')).toEqual({
      name: 'OFX',
      children: [
        { name: 'A', value: '' },
        { name: 'B', value: '' },
        { name: 'C', value: 'a<b&c' },
        { name: 'D', value: 'd' },
      ],
    });
  });

  it('resolves entity references and keeps a bare & or < in text', () => {
    expect(tree(`${SGML}<OFX><A>&lt;&amp;&gt;&quot;&apos;&#65;&#x42;&nbsp;&bogus; & < 5</OFX>`)).toEqual({
      name: 'OFX',
      children: [{ name: 'A', value: `<&>"'AB\u00a0&bogus; & < 5` }],
    });
  });

  it('upper-cases names, so lower-case servers read the same', () => {
    expect(tree('ofxheader:100\n\n<ofx><stmttrn><fitid>1</stmttrn></OFX>')).toEqual({
      name: 'OFX',
      children: [{ name: 'STMTTRN', children: [{ name: 'FITID', value: '1' }] }],
    });
  });

  it('reads a document without a header, and ignores what follows </OFX>', () => {
    expect(tree('<OFX><A>1</A></OFX>trailing <junk')).toEqual({ name: 'OFX', children: [{ name: 'A', value: '1' }] });
  });

  it.each([
    ['an empty body', ''],
    ['a header without a body', `${SGML}`],
    ['an HTML page', '<html><body>Service unavailable</body></html>'],
    ['text that is not a header', 'Internal Server Error\n<html></html>'],
    ['a header line without a name', 'OFXHEADER:100\nthis is not a header\n\n<OFX></OFX>'],
    ['a header without OFXHEADER', 'DATA:OFXSGML\n\n<OFX></OFX>'],
    ['a truncated body', `${SGML}<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0`],
    ['an unterminated tag', `${SGML}<OFX><A`],
    ['a tag broken by another', `${SGML}<OFX><A <B>1</OFX>`],
    ['an unterminated comment', `${SGML}<OFX><!-- never ends</OFX>`],
    ['an unterminated CDATA section', '<OFX><A><![CDATA[x</A></OFX>'],
    ['an unterminated processing instruction', '<?xml version="1.0"'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseOfxDocument(text)).toThrow(OfxParseError);
  });

  const nest = (levels: number) => `<OFX>${'<A>'.repeat(levels - 2)}<L>1${'</A>'.repeat(levels - 2)}</OFX>`;
  const many = (n: number) => `<OFX>${'<A>1'.repeat(n - 1)}</OFX>`;

  it(`refuses nesting deeper than ${MAX_OFX_DEPTH} and reads ${MAX_OFX_DEPTH}`, () => {
    expect(() => parseOfxDocument(nest(MAX_OFX_DEPTH))).not.toThrow();
    expect(() => parseOfxDocument(nest(MAX_OFX_DEPTH + 1))).toThrow(/nests deeper/);
  });

  it('counts nesting the same whether leaves are closed or not', () => {
    const closedLeaf = `<OFX>${'<A>'.repeat(MAX_OFX_DEPTH - 2)}<L>1</L>${'</A>'.repeat(MAX_OFX_DEPTH - 2)}</OFX>`;
    expect(() => parseOfxDocument(closedLeaf)).not.toThrow();
    expect(() => parseOfxDocument(closedLeaf.replace('<L>1</L>', '<A><L>1</L></A>'))).toThrow(/nests deeper/);
  });

  it('refuses more elements than the limit', () => {
    expect(MAX_OFX_ELEMENTS).toBeGreaterThanOrEqual(100_000);
    expect(() => parseOfxDocument(many(1000), { maxElements: 1000 })).not.toThrow();
    expect(() => parseOfxDocument(many(1001), { maxElements: 1000 })).toThrow(/more than 1000 elements/);
  });

  it(`refuses a value longer than ${MAX_OFX_VALUE_CHARS} characters and a body longer than the limit`, () => {
    expect(parseOfxDocument(`<OFX><A>${'x'.repeat(MAX_OFX_VALUE_CHARS)}</OFX>`).root.children[0]?.value).toHaveLength(MAX_OFX_VALUE_CHARS);
    expect(() => parseOfxDocument(`<OFX><A>${'x'.repeat(MAX_OFX_VALUE_CHARS + 1)}</OFX>`)).toThrow(/longer than/);
    // A value growing piece by piece (text, comment, text) is held to the same limit.
    expect(() => parseOfxDocument(`<OFX><A>x<!---->${'x'.repeat(MAX_OFX_VALUE_CHARS)}</OFX>`)).toThrow(/longer than/);
    expect(() => parseOfxDocument(`<OFX>${' '.repeat(MAX_OFX_CHARS)}</OFX>`)).toThrow(/larger than/);
    expect(() => parseOfxDocument(many(100), { maxChars: 100 })).toThrow(/larger than 100/);
  });

  it('reads any tree back the same, written as SGML (leaves unclosed, closed or mixed) or as XML', () => {
    const text = fc
      .string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'Z', '9', ' ', '&', '.', '-', "'", '"', '>', 'é', '€') })
      .map((s) => s.trim());
    const value = text.filter((s) => s.length > 0);
    const leafName = fc.constantFrom('NAME', 'MEMO', 'TRNAMT', 'FITID', 'INTU.BID');
    const node = fc.letrec<{ tree: Plain }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.record({ name: leafName, value }),
        fc.record({ name: fc.constantFrom('STMTTRN', 'STATUS', 'BANKACCTFROM'), children: fc.array(tie('tree'), { minLength: 1, maxLength: 4 }) }),
      ),
    })).tree;
    // Aggregates never hold an aggregate of their own name, as in OFX.
    const sound = (p: Plain, parent?: string): boolean => p.name !== parent && (p.children ?? []).every((c) => sound(c, p.name));
    fc.assert(
      fc.property(
        fc.array(node, { minLength: 1, maxLength: 5 }).filter((children) => children.every((c) => sound(c, 'OFX'))),
        fc.constantFrom('unclosed', 'closed', 'mixed', 'xml'),
        fc.constantFrom('', '\n', '\r\n  '),
        (children, style, gap) => {
          let i = 0;
          const write = (p: Plain): string => {
            if (p.value !== undefined) {
              const close = style === 'closed' || style === 'xml' || (style === 'mixed' && i++ % 2 === 0);
              return `<${p.name}>${encodeEntities(p.value)}${close ? `</${p.name}>` : ''}${gap}`;
            }
            return `<${p.name}>${gap}${(p.children ?? []).map(write).join('')}</${p.name}>${gap}`;
          };
          const body = `<OFX>${gap}${children.map(write).join('')}</OFX>`;
          const doc = style === 'xml' ? `<?xml version="1.0"?><?OFX OFXHEADER="200" VERSION="220"?>${body}` : `${SGML}${body}`;
          expect(tree(doc)).toEqual({ name: 'OFX', children });
        },
      ),
    );
  });
});

describe('parseOfxAmount', () => {
  it.each([
    ['-42.17', -42.17],
    ['+5', 5],
    ['0', 0],
    ['.5', 0.5],
    ['12.', 12],
    ['19,99', 19.99],
    ['-1,5', -1.5],
    ['1,234.56', 1234.56],
    ['1.234,56', 1234.56],
    ['1,234,567', 1234567],
    [' 7.25 ', 7.25],
  ])('reads %j as %d', (text, value) => {
    expect(parseOfxAmount(text)).toBe(value);
  });

  it.each(['', 'abc', '1e5', '--1', 'NaN', 'Infinity', '1.2.3', '$5.00', '9'.repeat(41)])('refuses %j', (text) => {
    expect(parseOfxAmount(text)).toBeUndefined();
  });
});

describe('decodeOfxBytes', () => {
  const sgml = (charset: string, bytes: number[]) =>
    Buffer.concat([Buffer.from(`OFXHEADER:100\r\nENCODING:USASCII\r\nCHARSET:${charset}\r\n\r\n<OFX><A>`), Buffer.from(bytes)]);

  it('reads single-byte text by the character set the header names, windows-1252 unless it names ISO-8859-1', () => {
    expect(decodeOfxBytes(sgml('1252', [0x80, 0xe9, 0x99]))).toMatch(/<A>€é™$/);
    expect(decodeOfxBytes(sgml('NONE', [0x93, 0x94]))).toMatch(/<A>“”$/);
    expect(decodeOfxBytes(sgml('ISO-8859-1', [0xe9, 0x80]))).toMatch(/<A>é$/);
    expect(decodeOfxBytes(Buffer.from([...Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><OFX><A>'), 0xe9]))).toMatch(/<A>é$/);
  });

  it('reads UTF-8 as UTF-8 whatever the header says, and drops a byte order mark', () => {
    expect(decodeOfxBytes(sgml('1252', [...Buffer.from('é€')]))).toMatch(/<A>é€$/);
    expect(decodeOfxBytes(Buffer.from('OFXHEADER:100\r\nENCODING:UTF-8\r\nCHARSET:NONE\r\n\r\n<OFX><A>é€'))).toMatch(/<A>é€$/);
    expect(decodeOfxBytes(Buffer.from('\ufeff<?xml version="1.0" encoding="UTF-8"?><OFX><A>é€</A></OFX>'))).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><OFX><A>é€</A></OFX>',
    );
  });
});

describe('statuses', () => {
  it('reads a wrapper without a readable status as the general error, never as success', () => {
    const r = readOfxResponse(`${SGML}<OFX><SIGNONMSGSRSV1><SONRS><DTSERVER>20240101</SONRS></SIGNONMSGSRSV1></OFX>`);
    expect(r.signon?.status).toMatchObject({ code: 2000, severity: 'ERROR' });
  });

  it('reads a bare statement without its transaction wrapper (some exporters write those)', () => {
    const r = readOfxResponse(
      `${SGML}<OFX><BANKMSGSRSV1><STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>SAVINGS</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20240101<TRNAMT>1<FITID>x</STMTTRN></BANKTRANLIST></STMTRS></BANKMSGSRSV1></OFX>`,
    );
    expect(r.statements).toHaveLength(1);
    expect(r.statements[0]?.status.code).toBe(0);
    expect(bank(r).currency).toBe('EUR');
    expect(bank(r).transactions.map((t) => t.fitId)).toEqual(['x']);
  });
});
