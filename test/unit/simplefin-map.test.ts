import { describe, expect, it } from 'vitest';
import type { AccountType } from '../../src/connectors/connector.js';
import { type AccountFacts, accountTypeOf, currencyOf, factsOf, institutionNameOf, mapAccount, mapTransaction } from '../../src/connectors/simplefin/map.js';
import type { SimplefinAccount, SimplefinTransaction } from '../../src/connectors/simplefin/wire.js';

const NOW = 1_790_000_000;

function facts(overrides: Partial<AccountFacts> = {}): AccountFacts {
  return { id: 'ACT-1', name: 'Account', currency: 'USD', balance: '100.00', balanceDate: NOW, ...overrides };
}

function tx(overrides: Partial<SimplefinTransaction> = {}): SimplefinTransaction {
  return { id: 'TRN-1', posted: NOW - 86_400, amount: '-12.34', description: 'STARBUCKS #1234', pending: false, ...overrides };
}

describe('account types', () => {
  it.each<[string, string | undefined, number, AccountType]>([
    ['Sapphire Preferred Visa', 'Chase', -500, 'creditCard'],
    ['Platinum Card', 'American Express', 0, 'creditCard'],
    ['Freedom Mastercard', undefined, 10, 'creditCard'],
    ['Gold', 'American Express', -20, 'creditCard'],
    ['Blue Cash', 'Amex', -1, 'creditCard'],
    ['It Card', 'Discover', -99, 'creditCard'],
    ['Home Mortgage', 'Rocket', -250000, 'mortgage'],
    ['Mortgage Loan 4411', undefined, -1, 'mortgage'],
    ['Auto Loan', undefined, -18000, 'loan'],
    ['Student loan', undefined, -1, 'loan'],
    ['AUTO', 'Credit Union', -5, 'loan'],
    ['Home Equity Line of Credit', undefined, -5000, 'lineOfCredit'],
    ['HELOC 8812', undefined, -5000, 'lineOfCredit'],
    ['Online Savings', 'Discover Bank', 5000, 'savings'],
    ['Money Market', undefined, 5000, 'savings'],
    ['12 Month CD', undefined, 5000, 'savings'],
    ['Brokerage', 'Fidelity', 12000, 'investment'],
    ['Individual Investment Account', undefined, 12000, 'investment'],
    ['Traditional IRA', undefined, 40000, 'investmentTaxDeferred'],
    ['Acme 401(k) Plan', undefined, 40000, 'investmentTaxDeferred'],
    ['401k', undefined, 40000, 'investmentTaxDeferred'],
    ['403b', undefined, 40000, 'investmentTaxDeferred'],
    ['Roth IRA', undefined, 8000, 'roth'],
    ['Everyday Checking', 'Wells Fargo', 1500, 'checking'],
    ['Overdrawn Checking', undefined, -40, 'checking'],
    ['Cashback Debit', 'Discover Bank', 1200, 'checking'],
    ['Visa Debit Card', undefined, 300, 'checking'],
    ['Primary', 'Discover', 800, 'checking'],
    ['Primary', 'First Example Bank', 800, 'checking'],
    ['Primary', 'First Example Bank', -800, 'creditCard'],
    ['Primary', 'Example Investments', 800, 'investment'],
    ['Primary', 'Example Mortgage Co', -800, 'mortgage'],
    ['Scheduled transfers', 'Discovery Credit Union', 100, 'checking'],
  ])('%s at %s with balance %d is %s', (name, institution, balance, type) => {
    expect(accountTypeOf(name, institution, balance)).toBe(type);
  });
});

describe('accounts', () => {
  it('maps a checking account, with the available balance and the last four digits of its name', () => {
    expect(mapAccount(facts({ name: 'Everyday Checking (1234)', balance: '1520.75', availableBalance: '1490.75', institution: 'First Bank' }), 1)).toEqual({
      ref: 'ACT-1',
      number: 'xxxx1234',
      accountNumberDisplay: '1234',
      name: 'Everyday Checking (1234)',
      accountNickname: 'Everyday Checking (1234)',
      currency: 'USD',
      balance: 1520.75,
      balanceDate: NOW,
      status: 'active',
      financialinstitutionAccountStatus: 'OPEN',
      marketSegment: 'personal',
      displayPosition: 1,
      institutionName: 'First Bank',
      type: 'checking',
      detail: { availableBalanceAmount: 1490.75, periodInterestRate: '' },
    });
  });

  it('takes the balance as available where the bridge leaves available-balance out', () => {
    expect(mapAccount(facts({ name: 'Savings', balance: '10.50' }), 2)).toMatchObject({ type: 'savings', detail: { availableBalanceAmount: 10.5 } });
  });

  it('fills every detail field of loans, lines of credit and investments, zero or empty where SimpleFIN has nothing', () => {
    const loan = mapAccount(facts({ name: 'Auto Loan', balance: '-18000.00' }), 1);
    expect(loan).toMatchObject({ type: 'loan', balance: -18000, detail: { principalBalance: 18000, payoffAmount: 0, interestRate: '', autoPayEnrolled: 'N' } });
    if (loan.type !== 'loan') throw new Error('not a loan');
    expect(Object.keys(loan.detail)).toHaveLength(26);
    const loc = mapAccount(facts({ name: 'Line of Credit', balance: '-500', availableBalance: '4500' }), 1);
    expect(loc).toMatchObject({ type: 'lineOfCredit', detail: { creditAvailableAmount: 4500, locPrincipalBalance: 500, interestRate: '' } });
    const ira = mapAccount(facts({ name: 'Roth IRA', balance: '8000.25' }), 1);
    expect(ira).toMatchObject({ type: 'roth', position: [], detail: { currentBalance: 8000.25, availableCashBalance: 0, allowedCheckWriting: 'DENY' } });
    const card = mapAccount(facts({ name: 'Visa Signature', balance: '-20' }), 1);
    expect(card.type).toBe('creditCard');
    expect('detail' in card).toBe(false);
  });

  it('strips control and bidi characters from names, and names a nameless account', () => {
    const account = mapAccount(facts({ name: 'Check\u0000ing\u202e\n(9876)', institution: 'Bank\u0007 of\tTests' }), 1);
    expect(account.name).toBe('Check ing (9876)');
    expect(account.institutionName).toBe('Bank of Tests');
    expect(mapAccount(facts({ name: '  \u0001 ' }), 1).name).toBe('SimpleFIN account');
  });

  it('marks business accounts', () => {
    expect(mapAccount(facts({ name: 'Business Checking' }), 1).marketSegment).toBe('business');
  });

  it.each([
    ['USD', 'USD'],
    ['eur', 'EUR'],
    [' CAD ', 'CAD'],
    ['https://www.example.com/flight-miles', 'XXX'],
    ['points', 'XXX'],
    // Three letters are not enough: only codes of ISO 4217 are stored.
    ['ABC', 'XXX'],
    ['usdollar', 'XXX'],
    ['U S D', 'XXX'],
  ])('reads the currency %j as %s', (currency, code) => {
    expect(mapAccount(facts({ currency }), 1).currency).toBe(code);
  });

  it('keeps the URL of a custom currency beside its code', () => {
    expect(currencyOf('https://www.example.com/flight-miles')).toEqual({ code: 'XXX', customUrl: 'https://www.example.com/flight-miles' });
    expect(currencyOf('javascript:alert(1)')).toEqual({ code: 'XXX' });
    expect(currencyOf('U'.repeat(3000))).toEqual({ code: 'XXX' });
  });

  it('names the institution from the v1 organisation or the v2 connection', () => {
    const base: SimplefinAccount = { id: 'A', name: 'Checking', currency: 'USD', balance: '1', balanceDate: NOW, transactions: [] };
    expect(institutionNameOf({ ...base, org: { name: 'My Bank', domain: 'mybank.com' } }, [])).toBe('My Bank');
    expect(institutionNameOf({ ...base, org: { domain: 'mybank.com' } }, [])).toBe('mybank.com');
    const connections = [
      { connId: 'C1', name: 'My Bank - Jeff', orgId: 'O1', orgName: 'My Bank' },
      { connId: 'C2', name: 'Other Bank - Jill', orgId: 'O2' },
    ];
    expect(institutionNameOf({ ...base, connId: 'C1' }, connections)).toBe('My Bank');
    expect(institutionNameOf({ ...base, connId: 'C2' }, connections)).toBe('Other Bank - Jill');
    expect(institutionNameOf({ ...base, connId: 'C3', connName: 'Third Bank' }, connections)).toBe('Third Bank');
    expect(institutionNameOf(base, connections)).toBeUndefined();
    expect(factsOf({ ...base, availableBalance: '0.5', connId: 'C1' }, connections)).toEqual({
      id: 'A',
      name: 'Checking',
      currency: 'USD',
      balance: '1',
      availableBalance: '0.5',
      balanceDate: NOW,
      institution: 'My Bank',
    });
  });
});

describe('transactions', () => {
  const account = { id: 'ACT-1', currency: 'USD', balanceDate: NOW };

  it('maps a posted debit with a ref naming its account', () => {
    expect(mapTransaction(account, tx())).toEqual({
      ref: 'ACT-1:TRN-1',
      accountRef: 'ACT-1',
      amount: -12.34,
      status: 'active',
      description: 'STARBUCKS #1234',
      type: 'debit',
      transactionDate: NOW - 86_400,
      postedDate: NOW - 86_400,
      categorization: { normalizedPayeeName: 'Starbucks', category: 'Coffee Shops', bestRepresentation: 'STARBUCKS', country: 'USA' },
    });
  });

  it('gives the same transaction id in two accounts two refs', () => {
    expect(mapTransaction({ ...account, id: 'ACT-2' }, tx()).ref).not.toBe(mapTransaction(account, tx()).ref);
  });

  it('dates a transaction by transacted_at, and maps credits', () => {
    const t = mapTransaction(account, tx({ amount: '2500.00', description: 'ACME PAYROLL', transactedAt: NOW - 3 * 86_400 }));
    expect(t).toMatchObject({ amount: 2500, type: 'credit', transactionDate: NOW - 3 * 86_400, postedDate: NOW - 86_400 });
    expect(t.categorization.category).toBe('Paycheck');
  });

  it('maps pending transactions without a posted date, flagged or posted 0', () => {
    const flagged = mapTransaction(account, tx({ pending: true, transactedAt: NOW - 600 }));
    expect(flagged).toMatchObject({ status: 'pending', transactionDate: NOW - 600 });
    expect(flagged.postedDate).toBeUndefined();
    const unposted = mapTransaction(account, tx({ posted: 0 }));
    expect(unposted).toMatchObject({ status: 'pending', transactionDate: NOW });
    expect(unposted.postedDate).toBeUndefined();
  });

  it('keeps the ref when a pending transaction posts', () => {
    expect(mapTransaction(account, tx({ posted: 0, pending: true })).ref).toBe(mapTransaction(account, tx()).ref);
  });

  it('describes a transaction by its payee when the bridge gives one, and keeps the memo', () => {
    const t = mapTransaction(account, tx({ description: 'SQ *BLUE BOTTLE 0042 OAKLAND', payee: 'Blue Bottle Coffee', memo: 'card 1234' }));
    expect(t).toMatchObject({ description: 'Blue Bottle Coffee', memo: 'card 1234' });
    expect(t.categorization).toMatchObject({
      normalizedPayeeName: 'Blue Bottle Coffee',
      category: 'Coffee Shops',
      bestRepresentation: 'BLUE BOTTLE COFFEE CARD',
    });
    expect(mapTransaction(account, tx({ payee: '  ' })).description).toBe('STARBUCKS #1234');
    expect(mapTransaction(account, tx()).memo).toBeUndefined();
  });

  it('sanitises the texts and names an empty description by its direction', () => {
    const t = mapTransaction(account, tx({ description: 'Kroger\u0000\u001b[31m\u202e', memo: '\u0007' }));
    expect(t.description).toBe('Kroger [31m');
    expect(t.memo).toBeUndefined();
    expect(mapTransaction(account, tx({ description: '' })).description).toBe('Debit');
    expect(mapTransaction(account, tx({ description: '', amount: '1' })).description).toBe('Credit');
  });

  it('keeps amounts of custom currencies as given, and the country of the currency', () => {
    expect(mapTransaction({ ...account, currency: 'https://www.example.com/flight-miles' }, tx({ amount: '1500', description: 'Miles earned' }))).toMatchObject(
      {
        amount: 1500,
        type: 'credit',
        categorization: { country: 'USA' },
      },
    );
    expect(mapTransaction({ ...account, currency: 'CAD' }, tx()).categorization.country).toBe('CAN');
  });
});
