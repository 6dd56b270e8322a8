import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConnectorPosition, ConnectorTransaction } from '../../src/connectors/connector.js';
import {
  accountIdOfRef,
  accountRecordOf,
  accountRefOf,
  bankTransactionsOf,
  investmentTransactionsOf,
  transactionRefOf,
  transactionTypeOf,
} from '../../src/connectors/ofx/map.js';
import {
  decodeOfxBytes,
  type OfxAccountId,
  type OfxBankStatement,
  type OfxInvestmentStatement,
  type OfxResponse,
  readOfxResponse,
} from '../../src/connectors/ofx/parse.js';
import { ofxFileToStatementImport } from '../../src/connectors/statements/ofx.js';
import { MAX_STATEMENT_POSITIONS } from '../../src/connectors/statements/types.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/ofx/${name}`, import.meta.url));
const read = (name: string): OfxResponse => readOfxResponse(decodeOfxBytes(fixture(name)));
const at = (iso: string) => Date.parse(iso) / 1000;
const NOW = at('2025-02-01T12:00:00Z');

function bank(response: OfxResponse, i = 0): OfxBankStatement {
  const s = response.statements[i]?.statement;
  if (!s || s.kind === 'investment') throw new Error('not a bank statement');
  return s;
}

function investment(response: OfxResponse): OfxInvestmentStatement {
  const s = response.statements[0]?.statement;
  if (s?.kind !== 'investment') throw new Error('not an investment statement');
  return s;
}

const transactionsOf = (name: string, i = 0): ConnectorTransaction[] => {
  const s = bank(read(name), i);
  return bankTransactionsOf(accountRefOf(s.account), s);
};

describe('refs', () => {
  it('names accounts by type and the institution ids', () => {
    expect(accountRefOf({ kind: 'bank', bankId: '121000248', acctId: '1234567890', acctType: 'CHECKING' })).toBe('CHECKING:121000248:1234567890');
    expect(accountRefOf({ kind: 'creditCard', acctId: '4111111111114321' })).toBe('CREDITCARD:4111111111114321');
    expect(accountRefOf({ kind: 'investment', brokerId: 'brokerco.com', acctId: 'Z1:2' })).toBe('INVESTMENT:brokerco.com:Z1%3A2');
    expect(transactionRefOf('CREDITCARD:4111', 'a:b/c')).toBe('CREDITCARD:4111:a%3Ab%2Fc');
  });

  it('reads back the account of any ref it makes, and no two accounts share a ref', () => {
    const id = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('1', 'a', ':', '%', '/', ' ', 'é', '-') });
    const account: fc.Arbitrary<OfxAccountId> = fc.oneof(
      fc.record({
        kind: fc.constant('bank' as const),
        bankId: id,
        acctId: id,
        acctType: fc.constantFrom('CHECKING', 'SAVINGS', 'MONEYMRKT', 'CREDITLINE', 'CD'),
      }),
      fc.record({ kind: fc.constant('creditCard' as const), acctId: id }),
      fc.record({ kind: fc.constant('investment' as const), brokerId: id, acctId: id }),
    );
    fc.assert(
      fc.property(account, account, (a, b) => {
        expect(accountIdOfRef(accountRefOf(a))).toEqual(a);
        if (JSON.stringify(a) !== JSON.stringify(b)) expect(accountRefOf(a)).not.toBe(accountRefOf(b));
      }),
    );
  });

  it.each(['', 'CHECKING', 'CHECKING:1', 'CHECKING:1:2:3', 'BROKERAGE:1:2', 'CREDITCARD:', 'CREDITCARD:%E0', 'INVESTMENT:b:', '__proto__:1:2'])(
    'refuses the foreign ref %j',
    (ref) => {
      expect(accountIdOfRef(ref)).toBeUndefined();
    },
  );
});

describe('transaction types', () => {
  it.each([
    ['DEBIT', 'debit'],
    ['CREDIT', 'credit'],
    ['INT', 'interest'],
    ['DIV', 'dividend'],
    ['FEE', 'fee'],
    ['SRVCHG', 'serviceCharge'],
    ['DEP', 'deposit'],
    ['ATM', 'atm'],
    ['POS', 'pointOfSale'],
    ['XFER', 'transfer'],
    ['CHECK', 'check'],
    ['PAYMENT', 'payment'],
    ['CASH', 'cash'],
    ['DIRECTDEP', 'directDeposit'],
    ['DIRECTDEBIT', 'directDebit'],
    ['REPEATPMT', 'repeatPayment'],
    ['OTHER', 'other'],
    ['HOLD', 'other'],
    ['pos', 'pointOfSale'],
  ])('%s is %s', (trntype, type) => {
    expect(transactionTypeOf(trntype, -1)).toBe(type);
  });

  it('reads a type the specification does not name by its sign', () => {
    expect(transactionTypeOf('BONUS', 5)).toBe('credit');
    expect(transactionTypeOf('WITHDRAWAL', -5)).toBe('debit');
    expect(transactionTypeOf('constructor', -5)).toBe('debit');
  });
});

describe('bank and card transactions', () => {
  it('maps every field of an SGML statement, all posted', () => {
    const all = transactionsOf('bank-1.0.2-sgml.ofx');
    expect(all).toHaveLength(7);
    expect(all[0]).toEqual({
      ref: 'CHECKING:121000248:1234567890:202401030001',
      accountRef: 'CHECKING:121000248:1234567890',
      amount: -42.17,
      status: 'active',
      description: 'KROGER #512',
      memo: 'POS PURCHASE COLUMBUS OH',
      institutionTransactionId: '202401030001',
      type: 'pointOfSale',
      transactionDate: at('2024-01-02T12:00:00Z'),
      postedDate: at('2024-01-03T12:00:00Z'),
      categorization: { normalizedPayeeName: 'Kroger', category: 'Groceries', bestRepresentation: 'KROGER POS PURCHASE COLUMBUS OH', country: 'USA' },
    });
    expect(all[1]).toMatchObject({ type: 'check', checkNum: '1042', transactionDate: at('2024-01-05T12:00:00Z'), categorization: { category: 'Check' } });
    expect(all[2]).toMatchObject({ type: 'directDeposit', amount: 2450.33, categorization: { category: 'Paycheck' } });
    expect(all.every((t) => t.status === 'active' && t.postedDate !== undefined)).toBe(true);
    expect(new Set(all.map((t) => t.ref)).size).toBe(7);
  });

  it('describes a transaction without NAME by its payee, or its memo', () => {
    const xml = transactionsOf('bank-2.1.1.xml.ofx');
    expect(xml[1]).toMatchObject({ description: 'Evergreen Property Mgmt', memo: 'Rent April', type: 'payment' });
    const onlyMemo = transactionsOf('missing-optional.ofx');
    expect(onlyMemo[0]).toMatchObject({ description: 'PARKING METER CITY OF SPRINGFIELD', amount: -7.25 });
    expect(onlyMemo[0]?.memo).toBeUndefined();
  });

  it('gives the same FITID in two accounts two refs', () => {
    const a = transactionsOf('fitid-reuse.ofx', 0);
    const b = transactionsOf('fitid-reuse.ofx', 1);
    expect(a.map((t) => t.ref)).toEqual(['CHECKING:121000358:1111:1', 'CHECKING:121000358:1111:2']);
    expect(b.map((t) => t.ref)).toEqual(['SAVINGS:121000358:2222:1', 'SAVINGS:121000358:2222:2']);
    expect(b.map((t) => t.type)).toEqual(['credit', 'interest']);
  });

  it('applies a REPLACE correction under the ref of what it corrects', () => {
    const all = transactionsOf('bank-2.2.xml.ofx');
    expect(all.map((t) => [t.ref.split(':').at(-1), t.amount, t.type])).toEqual([
      ['MM-1', 1000, 'deposit'],
      ['MM-2', -205, 'directDebit'],
      ['MM-4', -50, 'repeatPayment'],
    ]);
    expect(all[1]?.memo).toBe('AMOUNT CORRECTED');
  });

  it('applies a DELETE correction, keeps a replacement of an earlier download, and numbers a repeated FITID', () => {
    const statement: OfxBankStatement = {
      kind: 'bank',
      account: { kind: 'bank', bankId: '1', acctId: '2', acctType: 'CHECKING' },
      currency: 'CAD',
      transactions: [
        { type: 'DEBIT', posted: 100, amount: -1, fitId: 'A', name: 'ONE' },
        { type: 'DEBIT', posted: 200, amount: -2, fitId: 'B', name: 'TWO' },
        { type: 'DEBIT', posted: 200, amount: -2, fitId: 'B', name: 'TWO AGAIN' },
        { type: 'DEBIT', posted: 300, amount: 0, fitId: 'C', correctFitId: 'A', correctAction: 'DELETE' },
        { type: 'DEBIT', posted: 400, amount: -9, fitId: 'D', correctFitId: 'OLD', correctAction: 'REPLACE', name: 'FIXED' },
      ],
    };
    const all = bankTransactionsOf('CHECKING:1:2', statement);
    expect(all.map((t) => [t.ref, t.description])).toEqual([
      ['CHECKING:1:2:B', 'TWO'],
      ['CHECKING:1:2:B%232', 'TWO AGAIN'],
      ['CHECKING:1:2:OLD', 'FIXED'],
    ]);
    expect(all[0]?.categorization.country).toBe('CAN');
  });
});

describe('investment transactions', () => {
  const r = read('brokerage-1.0.2.ofx');
  const s = investment(r);
  const ref = accountRefOf(s.account);
  const all = investmentTransactionsOf(ref, s, r.securities);

  it('maps trades, income, a reinvestment as income and purchase, a transfer and cash', () => {
    expect(all.map((t) => [t.ref.slice(ref.length + 1), t.amount, t.type, t.investmentTransactionType])).toEqual([
      ['B-20240603-1', -1943.55, 'debit', 'purchased'],
      ['S-20240612-1', 2520, 'credit', 'sold'],
      ['I-20240614-1', 2.5, 'dividend', 'dividend'],
      ['R-20240628-1:income', 48, 'dividend', 'dividend'],
      ['R-20240628-1', -48, 'debit', 'dividendReinvest'],
      ['T-20240701-1', 0, 'transfer', 'transfer'],
      ['C-20240602-1', 2000, 'deposit', 'contribution'],
    ]);
    expect(all[0]).toEqual({
      ref: `${ref}:B-20240603-1`,
      accountRef: ref,
      amount: -1943.55,
      status: 'active',
      description: 'Bought Apple Inc. (AAPL)',
      memo: 'BUY AAPL',
      type: 'debit',
      transactionDate: at('2024-06-03T12:00:00Z'),
      postedDate: at('2024-06-03T12:00:00Z'),
      categorization: expect.objectContaining({ country: 'USA' }),
      investmentTransactionType: 'purchased',
      unitQuantity: 10,
      unitValue: 194.35,
      feeAmount: 0.05,
      ticker: 'AAPL',
      securityId: '037833100',
    });
    expect(all[1]).toMatchObject({ description: 'Sold Vanguard 500 Index Fund Admiral (VFIAX)', unitQuantity: -5.25, ticker: 'VFIAX' });
    expect(all[5]).toMatchObject({ description: 'Transfer in US Treasury Note 0.25% 05/31/2025', unitQuantity: 5000 });
    expect(all[5] && 'memo' in all[5]).toBe(false);
    expect(all[6]).toMatchObject({ description: 'ACH DEPOSIT FROM BANK', postedDate: at('2024-06-02T12:00:00Z') });
  });
});

describe('accounts', () => {
  it('maps a checking account with its balances', () => {
    const s = bank(read('bank-1.0.2-sgml.ofx'));
    expect(accountRecordOf({ account: s.account, statement: s, now: NOW, displayPosition: 1 })).toEqual({
      ref: 'CHECKING:121000248:1234567890',
      number: '1234567890',
      accountNumberDisplay: '7890',
      realAccountNumberLast4: '7890',
      // BANKID is a routing number (its check digit holds): with the ACCTID, the account's ACH details.
      routingNumber: '121000248',
      name: 'Checking ...7890',
      accountNickname: 'Checking ...7890',
      currency: 'USD',
      balance: 3310.59,
      balanceDate: at('2024-01-31T17:00:00Z'),
      status: 'active',
      financialinstitutionAccountStatus: 'OPEN',
      marketSegment: 'personal',
      displayPosition: 1,
      type: 'checking',
      detail: { availableBalanceAmount: 3250.59, periodInterestRate: '' },
    });
  });

  it('maps savings, money market and CD accounts as savings, without AVAILBAL as the ledger balance', () => {
    const mm = bank(read('bank-2.2.xml.ofx'));
    expect(
      accountRecordOf({
        account: mm.account,
        statement: mm,
        now: NOW,
        displayPosition: 2,
        info: { account: mm.account, supportsDownload: true, description: 'Premier MM' },
      }),
    ).toMatchObject({
      type: 'savings',
      name: 'Premier MM',
      balance: 15745,
    });
    const missing = bank(read('missing-optional.ofx'));
    expect(accountRecordOf({ account: missing.account, statement: missing, now: NOW, displayPosition: 1 })).toMatchObject({
      detail: { availableBalanceAmount: 402.11 },
    });
    expect(accountRecordOf({ account: { kind: 'bank', bankId: '1', acctId: 'CD-1', acctType: 'CD' }, now: NOW, displayPosition: 1 })).toMatchObject({
      type: 'savings',
      name: 'Certificate of Deposit ...CD1',
      balance: 0,
      balanceDate: NOW,
    });
  });

  it('maps a credit card without detail and a credit line with one', () => {
    const card = bank(read('creditcard-1.0.2.ofx'));
    const record = accountRecordOf({ account: card.account, statement: card, now: NOW, displayPosition: 1 });
    expect(record).toMatchObject({ type: 'creditCard', balance: -1523.87, accountNumberDisplay: '4321', number: 'XXXXXXXXXXXX4321' });
    expect('detail' in record).toBe(false);
    expect('realAccountNumberLast4' in record).toBe(false);
    const line: OfxBankStatement = {
      kind: 'bank',
      account: { kind: 'bank', bankId: '1', acctId: '7000111', acctType: 'CREDITLINE' },
      currency: 'USD',
      transactions: [],
      ledgerBalance: { amount: -12000, asOf: NOW + 3600 },
      availableBalance: { amount: 38000 },
    };
    expect(accountRecordOf({ account: line.account, statement: line, now: NOW, displayPosition: 1 })).toMatchObject({
      type: 'lineOfCredit',
      balance: -12000,
      // A balance date in the future (a server's clock or zone) is not taken beyond now.
      balanceDate: NOW,
      detail: {
        interestRate: '',
        creditAvailableAmount: 38000,
        paymentMinAmount: 0,
        statementCloseBalance: -12000,
        locPrincipalBalance: 12000,
        paymentDueDate: 0,
        statementEndDate: 0,
      },
    });
  });

  it('maps a brokerage account with its positions, cash and securities', () => {
    const r = read('brokerage-1.0.2.ofx');
    const s = investment(r);
    const record = accountRecordOf({ account: s.account, statement: s, securities: r.securities, now: NOW, displayPosition: 1 });
    if (record.type !== 'investment') throw new Error(`type ${record.type}`);
    expect(record.balance).toBe(18741.46);
    expect(record.balanceDate).toBe(at('2024-07-05T20:00:00Z'));
    expect(record.detail).toMatchObject({
      availableCashBalance: 1536.45,
      currentBalance: 18741.46,
      marginBalance: 0,
      marginAllowed: false,
      allowedCheckWriting: 'DENY',
    });
    expect(record.position.map((p) => [p.symbol, p.quantity, p.marketValue, p.type, p.invSecurityType])).toEqual([
      ['AAPL', 10, '2215.50', 'stock', 'STOCKINFO'],
      ['VFIAX', 20.1, '10052.01', 'mutualFund', 'MFINFO'],
      ['912828ZT0', 5000, '4937.50', 'bond', 'DEBTINFO'],
    ]);
    expect(record.position[0]).toMatchObject({
      ref: 'INVESTMENT:brokerco.com:Z12345678:CUSIP:037833100:CASH:LONG',
      fundName: 'Apple Inc.',
      unitPrice: 221.55,
      memo: 'Apple common',
      holdType: 'CASH',
      cashAccount: true,
      securityId: '037833100',
      securitySubType: 'COMMON',
      enterpriseSymbol: 'AAPL',
      costBasis: 0,
      originalPurchaseDate: 0,
    });
    expect(record.position[0]?.expirationDate).toBeUndefined();
    expect(record.position[2]).toMatchObject({ faceValue: 1000, rate: 0.25, expirationDate: at('2025-05-31T12:00:00Z'), securitySubType: 'COUPON' });
  });

  it('names retirement accounts by product type and description', () => {
    const account: OfxAccountId = { kind: 'investment', brokerId: 'b', acctId: '1' };
    const typeOf = (productType?: string, description?: string) =>
      accountRecordOf({ account, info: { account, supportsDownload: true, productType, description }, now: NOW, displayPosition: 1 }).type;
    expect(typeOf('401K')).toBe('investmentTaxDeferred');
    expect(typeOf('IRA')).toBe('investmentTaxDeferred');
    expect(typeOf('IRA', 'Roth IRA')).toBe('roth');
    expect(typeOf('NORMAL')).toBe('investment');
    expect(typeOf()).toBe('investment');
  });
});

describe('ofxFileToStatementImport', () => {
  it('imports a bank statement file, FITIDs as refs', () => {
    const result = ofxFileToStatementImport(fixture('bank-1.0.2-sgml.ofx'));
    expect(result.format).toBe('ofx');
    expect(result.problems).toEqual([]);
    expect(result.accounts).toEqual([
      {
        ref: '1234567890',
        type: 'checking',
        number: '1234567890',
        routingNumber: '121000248',
        name: 'Checking ...7890',
        currency: 'USD',
        balance: 3310.59,
        balanceDate: at('2024-01-31T17:00:00Z'),
        availableBalance: 3250.59,
        closingBalances: [{ balance: 3310.59, date: at('2024-01-31T17:00:00Z') }],
        // The statement's DTSTART and DTEND (a date alone is read as noon UTC).
        statedPeriod: { start: at('2024-01-01T12:00:00Z'), end: at('2024-01-31T12:00:00Z') },
      },
    ]);
    expect(result.transactions).toHaveLength(7);
    expect(result.transactions[0]).toEqual({
      accountRef: '1234567890',
      ref: '202401030001',
      institutionTransactionId: '202401030001',
      amount: -42.17,
      postedDate: at('2024-01-03T12:00:00Z'),
      transactionDate: at('2024-01-02T12:00:00Z'),
      description: 'KROGER #512',
      memo: 'POS PURCHASE COLUMBUS OH',
      type: 'pointOfSale',
      status: 'active',
      categorization: expect.objectContaining({ category: 'Groceries', country: 'USA' }),
    });
    expect(result.transactions[1]).toMatchObject({ checkNum: '1042', type: 'check' });
  });

  it('imports a QFX file and a credit card file, from text or bytes alike', () => {
    const qfx = ofxFileToStatementImport(fixture('quicken.qfx').toString('latin1'));
    expect(qfx.accounts.map((a) => [a.ref, a.type, a.balance])).toEqual([['0055512-S01', 'savings', 1650]]);
    expect(qfx.transactions.map((t) => [t.ref, t.amount, t.type])).toEqual([
      ['0055512-S01-20241216-1', 250, 'deposit'],
      ['0055512-S01-20250102-1', -100, 'transfer'],
    ]);
    const card = ofxFileToStatementImport(fixture('creditcard-1.0.2.ofx'));
    expect(card.accounts[0]).toMatchObject({ ref: 'XXXXXXXXXXXX4321', type: 'creditCard', balance: -1523.87, availableBalance: 8476.13 });
    expect(card.transactions).toHaveLength(4);
  });

  it('keeps the accounts of a reused FITID apart', () => {
    const result = ofxFileToStatementImport(fixture('fitid-reuse.ofx'));
    expect(result.accounts.map((a) => [a.ref, a.type])).toEqual([
      ['1111', 'checking'],
      ['2222', 'savings'],
    ]);
    expect(result.transactions.map((t) => [t.accountRef, t.ref, t.amount])).toEqual([
      ['1111', '1', -20],
      ['1111', '2', -35],
      ['2222', '1', 20],
      ['2222', '2', 1.25],
    ]);
  });

  it('imports what it can of a file with a failing statement and names the rest', () => {
    const result = ofxFileToStatementImport(fixture('multi-statement-one-failing.ofx'));
    expect(result.accounts.map((a) => a.ref)).toEqual(['3001', '3003']);
    expect(result.transactions).toHaveLength(3);
    expect(result.problems.map((p) => p.message)).toEqual([
      'The statement of transaction T2 could not be read (status 2003: Account not found)',
      'The statement of transaction T4 could not be read (status 2000: Card system unavailable)',
    ]);
  });

  it('imports a brokerage file: cash balance and positions, trades as transactions', () => {
    const result = ofxFileToStatementImport(fixture('brokerage-1.0.2.ofx'));
    expect(result.accounts).toEqual([
      {
        ref: 'Z12345678',
        type: 'investment',
        number: 'Z12345678',
        name: 'Brokerage ...5678',
        currency: 'USD',
        balance: 18741.46,
        availableBalance: 1536.45,
        balanceDate: at('2024-07-05T20:00:00Z'),
        positions: expect.any(Array),
        statedPeriod: { start: at('2024-06-01T12:00:00Z'), end: at('2024-07-05T12:00:00Z') },
      },
    ]);
    expect(result.transactions.map((t) => t.ref)).toEqual([
      'B-20240603-1',
      'S-20240612-1',
      'I-20240614-1',
      'R-20240628-1:income',
      'R-20240628-1',
      'T-20240701-1',
      'C-20240602-1',
    ]);
  });

  it('gives a brokerage file’s positions (INVPOSLIST) named from its security list, as a live statement’s', () => {
    const [account] = ofxFileToStatementImport(fixture('brokerage-1.0.2.ofx')).accounts;
    expect(
      account!.positions!.map((p) => ({
        symbol: p.symbol,
        fundName: p.fundName,
        securityId: p.securityId,
        type: p.type,
        units: p.units,
        quantity: p.quantity,
        unitPrice: p.unitPrice,
        marketValue: p.marketValue,
      })),
    ).toEqual([
      { symbol: 'AAPL', fundName: 'Apple Inc.', securityId: '037833100', type: 'stock', units: 10, quantity: 10, unitPrice: 221.55, marketValue: '2215.50' },
      {
        symbol: 'VFIAX',
        fundName: 'Vanguard 500 Index Fund Admiral',
        securityId: '922908710',
        type: 'mutualFund',
        units: 20.1,
        quantity: 20.1,
        unitPrice: 500.1,
        marketValue: '10052.01',
      },
      {
        symbol: '912828ZT0',
        fundName: 'US Treasury Note 0.25% 05/31/2025',
        securityId: '912828ZT0',
        type: 'bond',
        units: 5000,
        quantity: 5000,
        unitPrice: 98.75,
        marketValue: '4937.50',
      },
    ]);
    // The same records the live OFX connector makes of the statement, under the file's account ref.
    const response = read('brokerage-1.0.2.ofx');
    const statement = response.statements[0]!.statement as OfxInvestmentStatement;
    const live = accountRecordOf({
      account: statement.account,
      statement,
      securities: response.securities,
      now: at('2024-07-06T00:00:00Z'),
      displayPosition: 1,
    });
    const refOf = (ref: string) => ref.slice(ref.indexOf(':CUSIP:'));
    expect(account!.positions!.map((p) => ({ ...p, ref: refOf(p.ref), holdingId: '' }))).toEqual(
      (live as { position: ConnectorPosition[] }).position.map((p) => ({ ...p, ref: refOf(p.ref), holdingId: '' })),
    );
    expect(account!.positions!.every((p) => p.ref.startsWith('Z12345678:'))).toBe(true);
  });

  it('keeps the first MAX_STATEMENT_POSITIONS positions of a statement and names the rest', () => {
    const entry = (i: number) =>
      `<POSSTOCK><INVPOS><SECID><UNIQUEID>X${i}<UNIQUEIDTYPE>CUSIP</SECID><HELDINACCT>CASH<POSTYPE>LONG<UNITS>1<UNITPRICE>1<MKTVAL>1</INVPOS></POSSTOCK>`;
    const many = Array.from({ length: MAX_STATEMENT_POSITIONS + 3 }, (_, i) => entry(i)).join('\n');
    const file = fixture('brokerage-1.0.2.ofx').toString('latin1').replace('<INVPOSLIST>', `<INVPOSLIST>\n${many}`);
    const result = ofxFileToStatementImport(file);
    expect(result.accounts[0]!.positions).toHaveLength(MAX_STATEMENT_POSITIONS);
    expect(result.problems).toEqual([{ message: `Account Z12345678 has 6 more positions than the ${MAX_STATEMENT_POSITIONS} kept; they were left out.` }]);
  });

  it('gives no positions for a bank statement file, which states none', () => {
    expect(ofxFileToStatementImport(fixture('bank-1.0.2-sgml.ofx')).accounts.every((a) => a.positions === undefined)).toBe(true);
  });

  it('keeps a transaction without a FITID under a ref made from its date, amount and name, and says so', () => {
    const result = ofxFileToStatementImport(fixture('missing-optional.ofx'));
    expect(result.transactions.map((t) => [t.ref, t.amount])).toEqual([
      ['M-1', -7.25],
      ['M-2', 19.99],
      ['~2024-08-10|-3|no fitid cafe', -3],
    ]);
    expect(result.problems).toEqual([{ message: 'A transaction of account 98765 has no FITID; it was given one from its date, amount and name' }]);
    // The same file again: the same refs, so a re-upload adds nothing.
    expect(ofxFileToStatementImport(fixture('missing-optional.ofx')).transactions.map((t) => t.ref)).toEqual(result.transactions.map((t) => t.ref));
  });

  it('keeps the transactions of a list the bank left unclosed, and says so', () => {
    const closed = fixture('creditcard-1.0.2.ofx').toString('latin1');
    const unclosed = closed.replace('</BANKTRANLIST>', '');
    expect(unclosed).not.toBe(closed);
    const read = ofxFileToStatementImport(unclosed);
    expect(read.transactions).toEqual(ofxFileToStatementImport(closed).transactions);
    expect(read.transactions.length).toBeGreaterThan(0);
    expect(read.problems).toEqual([
      { message: expect.stringMatching(/^The transaction list of .* is not closed; its \d+ transactions were read all the same$/) },
    ]);
  });

  it('keeps a REPLACE correction that names its own FITID as the record it is', () => {
    const file = fixture('creditcard-1.0.2.ofx')
      .toString('latin1')
      .replace(/<FITID>([^<\r\n]+)/, '<FITID>$1\n<CORRECTFITID>$1\n<CORRECTACTION>REPLACE');
    const plain = ofxFileToStatementImport(fixture('creditcard-1.0.2.ofx'));
    expect(ofxFileToStatementImport(file).transactions.map((t) => [t.ref, t.amount])).toEqual(plain.transactions.map((t) => [t.ref, t.amount]));
  });

  it('gives an unreadable file, or one with a refused sign-on, as a problem instead of accounts', () => {
    for (const input of ['not an OFX file', '<html></html>', fixture('signon-error-15500.ofx')]) {
      const result = ofxFileToStatementImport(input);
      expect(result.accounts).toEqual([]);
      expect(result.transactions).toEqual([]);
      expect(result.problems).toHaveLength(1);
    }
    expect(ofxFileToStatementImport(fixture('signon-error-15500.ofx')).problems[0]?.message).toContain('15500');
    expect(ofxFileToStatementImport('OFXHEADER:100\n\n<OFX></OFX>').problems).toEqual([{ message: 'The file holds no statement' }]);
  });
});
