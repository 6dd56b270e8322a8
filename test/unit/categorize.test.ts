import { describe, expect, it } from 'vitest';
import { TRANSACTION_CATEGORIES } from '../../src/connectors/categories.js';
import { bestRepresentation, categorize, categoryOf, payeeName } from '../../src/connectors/categorize.js';

describe('categorising transactions from real sources', () => {
  it('picks a category from whole words of the description and memo', () => {
    expect(categoryOf('STARBUCKS STORE 01234 SEATTLE WA', undefined, 'pointOfSale')).toBe('Coffee Shops');
    expect(categoryOf("MCDONALD'S F1234", undefined, 'pointOfSale')).toBe('Fast Food');
    expect(categoryOf('ACME CORP PAYROLL', 'PPD ID: 1234', 'directDeposit')).toBe('Paycheck');
    expect(categoryOf('ONLINE TRANSFER TO SAV 9876', undefined, 'debit')).toBe('Transfer');
    // "RENT" must be a word of its own, not the middle of CURRENT or PARENTS.
    expect(categoryOf('CURRENT ACCOUNT ADJUSTMENT', undefined, 'credit')).toBe('Uncategorized');
  });

  it('falls back on the transaction type, then on Uncategorized', () => {
    expect(categoryOf('W/D 0042 MAIN ST', undefined, 'atm')).toBe('Cash & ATM');
    expect(categoryOf('ZQX 77', undefined, 'debit')).toBe('Uncategorized');
  });

  it('only ever answers a category the interface names', () => {
    const known = new Set<string>(TRANSACTION_CATEGORIES);
    for (const d of ['SHELL OIL 5744', 'NETFLIX.COM', 'IRS USATAXPYMT', 'CHECK 1042', 'MONTHLY SERVICE FEE', 'x'])
      expect(known.has(categorize(d, undefined, 'debit').category), d).toBe(true);
  });

  it('names the payee without numbers and codes, and keeps the best representation stable', () => {
    expect(payeeName('SHELL OIL 57442311 HOUSTON TX')).toBe('Shell Oil Houston Tx');
    expect(bestRepresentation('POS 1234 COFFEE COFFEE HOUSE', 'REF#99')).toBe('POS COFFEE HOUSE REF');
    expect(categorize('NETFLIX.COM', undefined, 'debit', 'CAN')).toEqual({
      normalizedPayeeName: 'Netflix Com',
      category: 'Streaming Services',
      bestRepresentation: 'NETFLIX COM',
      country: 'CAN',
    });
  });
});
