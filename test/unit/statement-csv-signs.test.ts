import { describe, expect, it } from 'vitest';
import { detectLayout } from '../../src/connectors/statements/detect.js';
import { type CsvStatementOptions, readCsvStatement } from '../../src/connectors/statements/import.js';
import { refused } from '../helpers/statements.js';

const amounts = (text: string, options?: CsvStatementOptions) => readCsvStatement(text, options).transactions.map((t) => t.amount);

/** A card export of no bank's layout (a `Card Number` column), purchases only: nothing in it tells their sign. */
const CARD_PURCHASES = [
  'Date,Description,Card Number,Amount',
  '10/02/2026,BLUE BOTTLE COFFEE,****4417,6.25',
  '10/15/2026,"NEIGHBOURHOOD BOOKS, OAKLAND",****4417,18.40',
  '10/19/2026,CITY PARKING,****4417,3.00',
  '',
].join('\n');

describe('a type column that gives the direction (issue 34, point 3)', () => {
  it.each([
    ['DR', 'CR'],
    ['Debit', 'Credit'],
    ['Af', 'Bij'],
    ['S', 'H'],
  ])('%s and %s decide the sign, and negate never flips it', (out, into) => {
    const file = `Date,Description,Amount,Type\n10/02/2026,COFFEE,4.50,${out}\n10/03/2026,REFUND,2.00,${into}\n10/04/2026,ANNUAL FEE,95.00,Fee\n`;
    const mapping = { date: 'Date', description: 'Description', amount: 'Amount', type: 'Type' };
    // The fee's type says no direction: its sign is the amount's, which negate flips.
    expect(amounts(file, { mapping: { ...mapping, negate: true } })).toEqual([-4.5, 2, -95]);
    expect(amounts(file, { mapping: { ...mapping, negate: false } })).toEqual([-4.5, 2, 95]);
  });
});

describe("American Express's current layout without the cardholder columns", () => {
  const file = [
    'Date,Description,Amount,Extended Details,Appears On Your Statement As,Address,City/State,Zip Code,Country,Reference,Category',
    '10/30/2026,DELTA AIR LINES,412.60,"DELTA AIR LINES ATLANTA GA",DELTA AIR LINES,1030 DELTA BLVD,"ATLANTA GA",30354,UNITED STATES,\'320263030012345678\',Travel-Airline',
    "10/27/2026,ONLINE PAYMENT - THANK YOU,-1500.00,,,,,,,'320263000098765432',",
    '10/25/2026,NORDSTROM RETURN,-120.00,,NORDSTROM,500 PINE ST,"SEATTLE WA",98101,UNITED STATES,\'320262980011112222\',Merchandise & Supplies-Department Stores',
    '',
  ].join('\n');

  it('is American Express, a card whose charges are listed positive', () => {
    expect(detectLayout(file)).toMatchObject({
      ok: true,
      layout: 'amex',
      accountType: 'creditCard',
      mapping: { date: 'Date', description: 'Description', amount: 'Amount', memo: 'Extended Details', negate: true },
    });
  });

  it('stores charges as money out and payments and returns as money in', () => {
    const read = readCsvStatement(file);
    expect(read.accounts).toMatchObject([{ type: 'creditCard', name: 'American Express card' }]);
    expect(read.transactions.map((t) => [t.description, t.amount])).toEqual([
      ['DELTA AIR LINES', -412.6],
      ['ONLINE PAYMENT - THANK YOU', 1500],
      ['NORDSTROM RETURN', 120],
    ]);
  });
});

describe('a card export whose signs the file cannot tell', () => {
  it('is asked about (14112) with the proposed mapping, not guessed, when its header names card columns', () => {
    const error = refused(() => readCsvStatement(CARD_PURCHASES));
    expect(error.code).toBe('unknown_layout');
    expect(error.message).toMatch(/every amount of this card export is positive/i);
    expect(error.details).toEqual({
      ask: ['sign'],
      mapping: { date: 'Date', description: 'Description', amount: 'Amount', accountNumber: 'Card Number', dateOrder: 'mdy', headerRow: 0 },
      headers: ['Date', 'Description', 'Card Number', 'Amount'],
      headerRow: 0,
      sample: [
        ['10/02/2026', 'BLUE BOTTLE COFFEE', '****4417', '6.25'],
        ['10/15/2026', 'NEIGHBOURHOOD BOOKS, OAKLAND', '****4417', '18.40'],
        ['10/19/2026', 'CITY PARKING', '****4417', '3.00'],
      ],
    });
  });

  it('is asked about when the account is said to be a card, or the amounts are all negative', () => {
    const plain = 'Date,Description,Amount\n10/02/2026,COFFEE,4.50\n10/13/2026,BOOKS,18.40\n';
    expect(refused(() => readCsvStatement(plain, { accountType: 'creditCard' })).details).toMatchObject({ ask: ['sign'] });
    const negative = CARD_PURCHASES.replace(/,(\d+\.\d\d)$/gm, ',-$1');
    expect(refused(() => readCsvStatement(negative)).message).toMatch(/every amount of this card export is negative/i);
    // A mapping of its own that does not say the sign is asked about too.
    const mapping = { date: 0, description: 1, accountNumber: 2, amount: 3 };
    expect(refused(() => readCsvStatement(CARD_PURCHASES, { mapping })).details).toMatchObject({ ask: ['sign'], mapping: { ...mapping, headerRow: 0 } });
  });

  it('is read as the mapping says once it states negate, true or false', () => {
    const error = refused(() => readCsvStatement(CARD_PURCHASES));
    const proposed = (error.details as { mapping: object }).mapping;
    expect(amounts(CARD_PURCHASES, { mapping: { ...proposed, negate: true } as never })).toEqual([-6.25, -18.4, -3]);
    expect(amounts(CARD_PURCHASES, { mapping: { ...proposed, negate: false } as never })).toEqual([6.25, 18.4, 3]);
    expect(readCsvStatement(CARD_PURCHASES, { mapping: { ...proposed, negate: true } as never }).accounts).toMatchObject([{ type: 'creditCard' }]);
  });
});

describe('card exports whose signs the file tells', () => {
  it('flips the charges of a card export whose payments to the card are negative', () => {
    const file = `${CARD_PURCHASES}10/20/2026,ONLINE PAYMENT - THANK YOU,****4417,-27.65\n`;
    expect(detectLayout(file)).toMatchObject({ ok: true, layout: 'generic', accountType: 'creditCard', mapping: { negate: true } });
    expect(amounts(file)).toEqual([-6.25, -18.4, -3, 27.65]);
  });

  it("asks nothing of a bank's own layout, a bank account's export, split columns or a type column that signs every row", () => {
    // Discover writes charges positive: its layout says so.
    expect(amounts('Trans. Date,Post Date,Description,Amount,Category\n10/02/2026,10/02/2026,SPOTIFY,11.99,Services\n')).toEqual([-11.99]);
    expect(amounts('Date,Description,Amount\n10/02/2026,PAYROLL,2450.33\n10/16/2026,PAYROLL,2450.33\n')).toEqual([2450.33, 2450.33]);
    expect(amounts('Date,Description,Card Number,Debit,Credit\n10/02/2026,COFFEE,****4417,4.50,\n')).toEqual([-4.5]);
    expect(amounts('Date,Description,Card Number,Amount,Type\n10/02/2026,COFFEE,****4417,4.50,DR\n10/03/2026,TEA,****4417,2.00,DR\n')).toEqual([-4.5, -2]);
  });
});
