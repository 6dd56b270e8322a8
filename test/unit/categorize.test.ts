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
    expect(payeeName('SHELL OIL 57442311 HOUSTON TX')).toBe('Shell');
    expect(bestRepresentation('POS 1234 COFFEE COFFEE HOUSE', 'REF#99')).toBe('POS COFFEE HOUSE REF');
    expect(categorize('NETFLIX.COM', undefined, 'debit', 'CAN')).toEqual({
      normalizedPayeeName: 'Netflix',
      category: 'Streaming Services',
      bestRepresentation: 'NETFLIX COM',
      country: 'CAN',
    });
  });

  it('reads card lines as a person does (issue 35: what payees and categories were before)', () => {
    const card = categorize('CHECKCARD 0915 CAFÉ AMÉLIE', undefined, 'pointOfSale');
    expect(card.normalizedPayeeName).toBe('Café Amélie');
    expect(card.category).toBe('Restaurants');
    // Accented letters are letters, in the best representation too.
    expect(card.bestRepresentation).toBe('CHECKCARD CAFÉ AMÉLIE');
    expect(categorize('CHECKCARD 0912 WHOLEFDS MKT 10234 SEATTLE WA', undefined, 'pointOfSale')).toMatchObject({
      normalizedPayeeName: 'Whole Foods',
      category: 'Groceries',
    });
    expect(payeeName('CHECKCARD 0916 AMAZON.COM AMZN.COM/BILLWA')).toBe('Amazon');
    expect(payeeName('ACME CORP PAYROLL PPD ID: 1234567890')).toBe('Acme');
    expect(payeeName('SQ *BLUE BOTTLE COFFEE Oakland CA')).toBe('Blue Bottle Coffee');
    expect(payeeName('TST* LANTERN BISTRO CAMBRIDGE MA')).toBe('Lantern Bistro');
    expect(payeeName('PAYPAL *SPOTIFY 4029357733 SE')).toBe('Spotify');
    expect(payeeName('Zelle payment to Jordan Lee JPM99a1b2c3d')).toBe('Jordan Lee');
    expect(payeeName('CHECK # 3071')).toBe('Check 3071');
  });

  it('strips channel words of other languages, and keeps a payee the bank wrote in mixed case as written', () => {
    expect(payeeName('KARTENZAHLUNG girocard 2024-09-14T12:34 EDEKA CENTER MUELLER BERLIN')).toBe('EDEKA');
    expect(payeeName('PAIEMENT PAR CARTE X4521 BOULANGERIE PAUL 13/09')).toBe('Boulangerie Paul');
    expect(payeeName('BEA, Apple Pay Albert Heijn 1403,PAS123 NR:12AB34, 14.09.24/17:41 AMSTERDAM')).toBe('Albert Heijn');
    expect(payeeName('COMPRA TARJ. 5402XXXXXXXX1234 FARMACIA LOPEZ GARCIA')).toBe('Farmacia Lopez Garcia');
    expect(payeeName('Hausverwaltung Schmidt', 'Miete Wohnung 3. OG')).toBe('Hausverwaltung Schmidt');
    expect(payeeName('Bäckerei Müller')).toBe('Bäckerei Müller');
    // A line that is only a channel word names its payee in the memo.
    expect(payeeName('Betaalautomaat', 'Bakkerij de Ruiter')).toBe('Bakkerij de Ruiter');
  });

  it('takes the direction of the money into account', () => {
    expect(categoryOf('ACME CORP PAYROLL', undefined, 'credit')).toBe('Paycheck');
    // A business paying its payroll provider is not being paid.
    expect(categoryOf('GUSTO PAYROLL FEES', undefined, 'debit')).not.toBe('Paycheck');
    // A refund keeps the merchant's category.
    expect(categoryOf('PURCHASE RETURN AUTHORIZED ON 10/21 TARGET T-2768, OAKLAND CA', undefined, 'credit')).toBe('Shopping');
    expect(categoryOf('DEVOLUCION COMPRA ZARA', undefined, 'credit')).toBe('Clothing');
  });
});
