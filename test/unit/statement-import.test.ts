import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refused } from '../helpers/statements.js';
import { type CsvStatementOptions, mergeByRef, readCsvStatement } from '../../src/connectors/statements/import.js';
import { validateMapping } from '../../src/connectors/statements/mapping.js';
import type { ConnectorTransaction } from '../../src/connectors/connector.js';
import type { StatementImport } from '../../src/connectors/statements/types.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url));
const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;

/** The transactions in a comparable form: ISO dates instead of epoch seconds, no refs, status or categories. */
function rows(result: StatementImport) {
  return result.transactions.map(({ ref: _ref, accountRef: _account, status: _status, categorization: _categories, postedDate, transactionDate, ...rest }) => ({
    date: new Date(transactionDate * 1000).toISOString().slice(0, 10),
    ...(postedDate !== transactionDate ? { posted: new Date(postedDate! * 1000).toISOString().slice(0, 10) } : {}),
    ...rest,
  }));
}

describe('reading the sample exports', () => {
  it('Chase checking: newest first, signed amounts, Chase types, checks, the latest running balance', () => {
    const result = readCsvStatement(fixture('chase-checking.csv'));
    expect(result.problems).toEqual([]);
    const { closingBalances, ...account } = result.accounts[0]!;
    expect(result.accounts).toHaveLength(1);
    expect(account).toEqual({
      ref: 'csv:chase-checking',
      type: 'checking',
      number: '',
      name: 'Chase checking',
      currency: 'USD',
      balance: 6037.08,
      balanceDate: day('2026-10-31'),
    });
    // Each day's last running balance in the order the rows took place (the file lists the newest first), oldest first.
    expect(closingBalances!.at(-1)).toEqual({ date: day('2026-10-31'), balance: 6037.08 });
    expect(closingBalances!.map((b) => b.date)).toEqual([...new Set(rows(result).map((t) => day(t.date)))].sort((a, b) => a - b));
    const read = rows(result);
    expect(read).toHaveLength(14);
    expect(read[0]).toEqual({ date: '2026-10-31', amount: 200, description: 'REMOTE ONLINE DEPOSIT # 1', type: 'deposit' });
    expect(read[4]).toEqual({ date: '2026-10-22', amount: 23.99, description: 'AMAZON.COM*RT4KX92 REFUND AMZN.COM/BILL WA', type: 'credit' });
    expect(read[5]).toEqual({ date: '2026-10-20', amount: -54.12, description: "TRADER JOE'S #131, SEATTLE WA", type: 'pointOfSale' });
    expect(read[3]).toEqual({ date: '2026-10-26', amount: -12, description: 'MONTHLY SERVICE FEE', type: 'fee' });
    expect(read[10]).toEqual({ date: '2026-10-05', amount: -1650, description: 'CHECK 1042', checkNum: '1042', type: 'check' });
    expect(read.map((t) => t.type)).toEqual(
      expect.arrayContaining(['directDeposit', 'directDebit', 'atm', 'transfer', 'pointOfSale', 'fee', 'check', 'deposit', 'credit']),
    );
  });

  it('Chase card: transaction and posting dates, memo, card types', () => {
    const result = readCsvStatement(fixture('chase-card.csv'));
    expect(result.accounts).toMatchObject([{ ref: 'csv:chase-card', type: 'creditCard', name: 'Chase card' }]);
    const read = rows(result);
    expect(read[0]).toEqual({ date: '2026-10-30', posted: '2026-10-31', amount: -23.45, description: 'UBER *TRIP', type: 'pointOfSale' });
    expect(read[2]).toEqual({ date: '2026-10-27', amount: 1250, description: 'Payment Thank You-Mobile', type: 'payment' });
    expect(read[3]).toEqual({ date: '2026-10-25', posted: '2026-10-26', amount: 89.95, description: 'REI #11 SEATTLE', type: 'credit' });
    expect(read[4]).toEqual({ date: '2026-10-24', amount: -39, description: 'LATE FEE', type: 'fee' });
    expect(read[7]).toEqual({
      date: '2026-10-18',
      posted: '2026-10-19',
      amount: -412.6,
      description: 'DELTA AIR LINES, ATLANTA',
      memo: 'Seat upgrade',
      type: 'pointOfSale',
    });
    expect(read[12]).toEqual({ date: '2026-10-01', amount: 5, description: 'STATEMENT CREDIT ADJUSTMENT', type: 'credit' });
  });

  it('Bank of America: below the summary block, without the beginning-balance line, with grouped quoted amounts', () => {
    const result = readCsvStatement(fixture('bank-of-america.csv'));
    expect(result.problems).toEqual([]);
    expect(result.accounts).toMatchObject([{ ref: 'csv:bank-of-america', type: 'checking', balance: 6464.66, balanceDate: day('2026-10-30') }]);
    const read = rows(result);
    expect(read).toHaveLength(13);
    expect(read[0]).toEqual({ date: '2026-10-01', amount: -48.2, description: 'CHECKCARD 0930 SHELL OIL 57444, BELLEVUE WA', type: 'debit' });
    expect(read[1]).toMatchObject({ amount: 3912.44, type: 'credit' });
    expect(read[2]).toEqual({ date: '2026-10-03', amount: -1875, description: 'Check 2210', type: 'check' });
    expect(read[7]).toMatchObject({ amount: 64.18, description: 'CHECKCARD 1016 REI #11 SEATTLE WA REFUND' });
    expect(read[9]).toMatchObject({ amount: -35, description: 'Overdraft Item Fee for Activity of 10-23 Check 2211' });
    expect(read[10]).toEqual(read[11]);
    expect(result.transactions[10]!.ref).not.toBe(result.transactions[11]!.ref);
    expect(read[12]).toMatchObject({ description: 'Zelle Transfer Conf# 8a0b1c2d3; Avery Chen' });
  });

  it('Wells Fargo: no header, check numbers in the fourth column', () => {
    const read = rows(readCsvStatement(fixture('wells-fargo.csv')));
    expect(read).toHaveLength(12);
    expect(read[0]).toEqual({
      date: '2026-10-31',
      amount: -4.25,
      description: 'PURCHASE AUTHORIZED ON 10/30 BLUE BOTTLE COFFEE OAKLAND CA S386303812345678 CARD 4417',
      type: 'debit',
    });
    expect(read[2]).toEqual({ date: '2026-10-29', amount: -325, description: 'CHECK # 3071', checkNum: '3071', type: 'check' });
    expect(read[5]).toMatchObject({ amount: 31.48, description: 'PURCHASE RETURN AUTHORIZED ON 10/21 TARGET T-2768, OAKLAND CA S586295001234567 CARD 4417' });
  });

  it('Capital One: year-first dates, unsigned debit and credit columns, the card number as the account', () => {
    const result = readCsvStatement(fixture('capital-one.csv'));
    expect(result.accounts).toEqual([{ ref: 'csv:capital-one:5521', type: 'creditCard', number: '5521', name: 'Capital One card 5521', currency: 'USD' }]);
    const read = rows(result);
    expect(read[0]).toEqual({ date: '2026-10-30', posted: '2026-10-31', amount: -54.32, description: 'TARGET 00012345, RICHMOND VA', type: 'debit' });
    expect(read[1]).toEqual({ date: '2026-10-28', amount: 500, description: 'CAPITAL ONE MOBILE PYMT', type: 'credit' });
    expect(read[4]).toMatchObject({ amount: 129.99, description: 'BEST BUY 00004242, RICHMOND VA' });
    expect(read[9]).toMatchObject({ amount: -40, description: 'PAST DUE FEE' });
  });

  it('American Express: charges listed positive come out negative', () => {
    const read = rows(readCsvStatement(fixture('amex.csv')));
    expect(read[0]).toEqual({ date: '2026-10-30', amount: -412.6, description: 'DELTA AIR LINES ATLANTA GA', type: 'debit' });
    expect(read[2]).toEqual({ date: '2026-10-27', amount: 1500, description: 'ONLINE PAYMENT - THANK YOU', type: 'credit' });
    expect(read[3]).toEqual({ date: '2026-10-25', amount: 120, description: 'NORDSTROM #0427, SEATTLE WA', type: 'credit' });
    expect(read[6]).toMatchObject({ amount: -695, description: 'ANNUAL MEMBERSHIP FEE' });
  });

  it('Citi: credits written negative in the credit column are still credits; pending rows wait', () => {
    const result = readCsvStatement(fixture('citi.csv'));
    expect(result.problems).toEqual([{ line: 2, message: 'Pending: left out until it posts.' }]);
    const read = rows(result);
    expect(read).toHaveLength(12);
    expect(read[0]).toEqual({ date: '2026-10-30', amount: -143.67, description: 'COSTCO WHSE #0001, ISSAQUAH WA', type: 'debit' });
    expect(read[1]).toEqual({ date: '2026-10-28', amount: 800, description: 'ONLINE PAYMENT THANK YOU', type: 'credit' });
    expect(read[3]).toMatchObject({ amount: 29.99, description: 'AMAZON MKTPLACE PMTS REFUND AMZN.COM/BILL WA' });
  });

  it('Discover: charges positive, flipped; payments and refunds become credits', () => {
    const read = rows(readCsvStatement(fixture('discover.csv')));
    expect(read[0]).toEqual({ date: '2026-10-02', amount: -11.99, description: 'SPOTIFY USA, NEW YORK NY', type: 'debit' });
    expect(read[1]).toEqual({ date: '2026-10-05', amount: 600, description: 'INTERNET PAYMENT - THANK YOU', type: 'credit' });
    expect(read[3]).toEqual({ date: '2026-10-07', posted: '2026-10-08', amount: 15, description: 'TARGET 00012345 RICHMOND VA', type: 'credit' });
    expect(read[9]).toMatchObject({ amount: -41, description: 'LATE FEE' });
  });

  it('Mint: one account per account name, the sign from the transaction type', () => {
    const result = readCsvStatement(fixture('mint.csv'));
    expect(result.accounts).toEqual([
      { ref: 'csv:name:everyday-checking', type: 'checking', number: '', name: 'Everyday Checking', currency: 'USD' },
      { ref: 'csv:name:sapphire-preferred', type: 'checking', number: '', name: 'Sapphire Preferred', currency: 'USD' },
      { ref: 'csv:name:high-yield-savings', type: 'savings', number: '', name: 'High Yield Savings', currency: 'USD' },
    ]);
    const [first, , , payment, interest, check] = result.transactions;
    expect(first).toMatchObject({
      accountRef: 'csv:name:everyday-checking',
      amount: -5.75,
      description: 'Starbucks',
      memo: 'STARBUCKS STORE 03412 SEATTLE WA',
      type: 'debit',
    });
    expect(payment).toMatchObject({ accountRef: 'csv:name:sapphire-preferred', amount: 1250, type: 'credit' });
    expect(interest).toMatchObject({ accountRef: 'csv:name:high-yield-savings', amount: 3.12, description: 'Interest Paid' });
    expect(check).toMatchObject({ amount: -250, description: 'Check 1043', type: 'debit' });
    expect(result.transactions.at(-1)).toMatchObject({ transactionDate: day('2026-09-28'), amount: -412.6, memo: 'DELTA AIR LINES, ATLANTA' });
  });

  it('generic: columns in their own order, dollar signs and parentheses, check numbers', () => {
    const read = rows(readCsvStatement(fixture('generic.csv')));
    expect(read[0]).toEqual({ date: '2026-10-01', amount: 2104.55, description: 'DIRECT DEPOSIT RIVERSIDE SCHOOLS', memo: 'PAYROLL', type: 'credit' });
    expect(read[1]).toEqual({ date: '2026-10-02', amount: -73.18, description: 'KING SOOPERS #0012, DENVER CO', memo: 'POS 4417', type: 'debit' });
    expect(read[3]).toEqual({ date: '2026-10-06', amount: -1425, description: 'CHECK', checkNum: '5012', type: 'check' });
    expect(read[6]).toEqual({ date: '2026-10-16', amount: 18.4, description: 'KING SOOPERS #0012, DENVER CO', memo: 'RETURN', type: 'credit' });
  });

  it('generic split columns: day-first dates, pounds, the latest balance', () => {
    const result = readCsvStatement(fixture('generic-split.csv'));
    expect(result.accounts).toMatchObject([{ currency: 'GBP', balance: 3365.01, balanceDate: day('2026-10-30') }]);
    const read = rows(result);
    expect(read[0]).toEqual({ date: '2026-10-01', amount: -42.18, description: 'TESCO STORES 2041, LONDON', type: 'debit' });
    expect(read[2]).toEqual({ date: '2026-10-03', amount: 2850, description: 'SALARY ACME LTD', type: 'credit' });
    expect(read[4]).toEqual({ date: '2026-10-13', amount: -120, description: 'CHEQUE 000118', type: 'check' });
    expect(read[9]).toMatchObject({ amount: -1150 });
  });

  it('a European export: byte-order mark, semicolons, CRLF, dotted dates, decimal commas, euro signs', () => {
    const result = readCsvStatement(fixture('european.csv'));
    expect(result.accounts).toMatchObject([{ currency: 'EUR' }]);
    const read = rows(result);
    expect(read[0]).toEqual({ date: '2026-10-01', amount: 3120, description: 'GEHALT ACME GMBH', memo: 'Lohn/Gehalt 10/2026', type: 'credit' });
    expect(read[1]).toEqual({
      date: '2026-10-01',
      posted: '2026-10-02',
      amount: -54.38,
      description: 'REWE MARKT GMBH, BERLIN',
      memo: 'Kartenzahlung',
      type: 'debit',
    });
    expect(read[3]).toMatchObject({ description: 'Bäckerei Müller "Am Markt"', amount: -3.4 });
    expect(read[5]).toMatchObject({ amount: -1150 });
    expect(read[7]).toMatchObject({ amount: 39.95 });
    expect(read[11]).toMatchObject({ amount: 0.87 });
  });
});

describe('rows that cannot be read', () => {
  it('are listed with their line, and the rest is read', () => {
    const text = [
      'Date,Description,Amount',
      '10/02/2026,COFFEE,-4.50',
      '10/32/2026,BAD DATE,-1.00',
      ',NO DATE,-1.00',
      '10/03/2026,BAD AMOUNT,12.3.4',
      '10/04/2026,NO AMOUNT,',
      '10/04/2026,BALANCE TRANSFER,',
      '"10/05/2026","MULTI',
      'LINE",-2.00',
      '10/06/2026,TEA,-2.00',
      ',TOTAL WINE & MORE,-30.00',
    ].join('\n');
    const result = readCsvStatement(text);
    expect(result.transactions.map((t) => t.description)).toEqual(['COFFEE', 'MULTI LINE', 'TEA']);
    expect(result.problems).toEqual([
      { line: 3, message: 'The date "10/32/2026" cannot be read as month-first.' },
      { line: 4, message: 'No date.' },
      { line: 5, message: 'The amount "12.3.4" cannot be read.' },
      { line: 6, message: 'No amount.' },
      { line: 7, message: 'No amount.' },
      { line: 11, message: 'No date.' },
    ]);
  });

  it('leave out summary lines after the table and a repeated header, silently', () => {
    const text = 'Date,Description,Amount\n10/20/2026,COFFEE,-4.50\nDate,Description,Amount\n10/21/2026,TEA,-2.00\n\nTotal,,-6.50\nEnding balance,,93.50\n';
    const result = readCsvStatement(text);
    expect(result.problems).toEqual([]);
    expect(result.transactions).toHaveLength(2);
  });

  it('with both a debit and a credit are refused', () => {
    const result = readCsvStatement('Date,Description,Debit,Credit\n10/20/2026,ODD,4.50,1.00\n10/20/2026,FINE,0.00,1.00\n');
    expect(result.problems).toEqual([{ line: 2, message: 'The row has both a debit (4.50) and a credit (1.00).' }]);
    expect(result.transactions).toMatchObject([{ amount: 1 }]);
  });

  it('are counted past a few hundred rather than listed', () => {
    const text = `Date,Description,Amount\n${'10/20/2026,X,abc\n'.repeat(600)}10/20/2026,COFFEE,-4.50\n`;
    const result = readCsvStatement(text);
    expect(result.transactions).toHaveLength(1);
    expect(result.problems).toHaveLength(501);
    expect(result.problems.at(-1)).toEqual({ message: '100 more rows could not be read.' });
  });
});

describe('dates the file cannot tell', () => {
  const text = 'Date,Description,Amount\n01/02/2026,COFFEE,-4.50\n03/04/2026,TEA,-2.00\n';

  it('are read month-first, with a problem that says so', () => {
    const result = readCsvStatement(text);
    expect(result.transactions.map((t) => t.transactionDate)).toEqual([day('2026-01-02'), day('2026-03-04')]);
    expect(result.problems).toEqual([{ message: expect.stringMatching(/^Dates such as 01\/02\/2026 could be month-first or day-first/) }]);
  });

  it('are read day-first when the mapping says so, without a problem', () => {
    const result = readCsvStatement(text, { mapping: { date: 'Date', description: 'Description', amount: 'Amount', dateOrder: 'dmy' } });
    expect(result.transactions.map((t) => t.transactionDate)).toEqual([day('2026-02-01'), day('2026-04-03')]);
    expect(result.problems).toEqual([]);
  });
});

describe('a mapping from the user', () => {
  const unknown = 'Export of 10/31/2026\n\nWhen,What,Out,In,Note\n10/02/2026,COFFEE,4.50,,latte\n10/15/2026,REFUND,,2.00,\n';

  it('is needed for a file of no known layout, which is refused with what the user needs to give one', () => {
    const error = refused(() => readCsvStatement(unknown));
    expect(error.code).toBe('unknown_layout');
    expect(error.details).toMatchObject({
      ok: false,
      headers: ['When', 'What', 'Out', 'In', 'Note'],
      headerRow: 1,
      sample: [['10/02/2026', 'COFFEE', '4.50', '', 'latte'], expect.any(Array)],
    });
  });

  it('reads such a file by header names', () => {
    const result = readCsvStatement(unknown, {
      mapping: { date: 'when', description: 'WHAT', debit: 'Out', credit: 'In', memo: 'Note' },
      accountName: 'Joint checking',
    });
    expect(result.accounts).toEqual([{ ref: 'csv:name:joint-checking', type: 'checking', number: '', name: 'Joint checking', currency: 'USD' }]);
    expect(rows(result)).toEqual([
      { date: '2026-10-02', amount: -4.5, description: 'COFFEE', memo: 'latte', type: 'debit' },
      { date: '2026-10-15', amount: 2, description: 'REFUND', type: 'credit' },
    ]);
  });

  it('reads such a file by positions, with the header row given', () => {
    const result = readCsvStatement(unknown, { mapping: { date: 0, description: 1, debit: 2, credit: 3, headerRow: 1 } });
    expect(result.transactions.map((t) => t.amount)).toEqual([-4.5, 2]);
  });

  it('reads a file without a header by positions', () => {
    const result = readCsvStatement('10/02/2026;COFFEE;4,50\n10/15/2026;REFUND;-2,00\n', {
      mapping: { date: 0, description: 1, amount: 2, negate: true, headerRow: -1 },
      accountType: 'creditCard',
    });
    expect(result.accounts).toMatchObject([{ type: 'creditCard' }]);
    expect(result.transactions.map((t) => [t.description, t.amount])).toEqual([
      ['COFFEE', -4.5],
      ['REFUND', 2],
    ]);
  });

  it('overrides what detection would choose', () => {
    const result = readCsvStatement(fixture('chase-card.csv'), {
      mapping: { date: 'Post Date', description: 'Category', memo: 'Description', amount: 'Amount', negate: true },
    });
    expect(result.transactions[0]).toMatchObject({ transactionDate: day('2026-10-31'), amount: 23.45, description: 'Travel', memo: 'UBER *TRIP' });
    expect(result.accounts).toMatchObject([{ ref: 'csv:custom' }]);
  });

  it('that does not fit the file is refused with every reason', () => {
    const error = refused(() => readCsvStatement(unknown, { mapping: { date: 'Date', description: 1, amount: 9, dateOrder: 'ydm' } as never }));
    expect(error.code).toBe('invalid_mapping');
    expect(error.message).toContain('date: no column is named "Date"; the columns are: When, What, Out, In, Note.');
    expect(error.message).toContain('amount: there is no column 9; the file has 5 columns, numbered from 0.');
    expect(error.message).toContain('dateOrder: one of mdy, dmy, ymd, not "ydm".');
    expect(() => readCsvStatement(unknown, { mapping: { date: 0, description: 1, amount: 2, headerRow: 40 } })).toThrow(/no row 40/);
  });
});

describe('validating a mapping', () => {
  const headers = ['Date', 'Description', 'Amount', 'Memo', 'Date'];

  it('accepts a valid one and resolves its columns', () => {
    expect(validateMapping({ date: 0, description: 'description', amount: ' AMOUNT ', memo: 'Memo', negate: false, headerRow: 0 }, headers)).toEqual({
      ok: true,
      mapping: { date: 0, description: 'description', amount: ' AMOUNT ', memo: 'Memo', negate: false, headerRow: 0 },
      columns: { date: 0, description: 1, amount: 2, memo: 3 },
    });
  });

  it.each([
    [null, 'The column mapping must be an object'],
    [[], 'The column mapping must be an object'],
    ['Date', 'The column mapping must be an object'],
    [{ description: 1, amount: 2 }, 'date: which column holds the date? It is required.'],
    [{ date: 0, amount: 2 }, 'description: which column holds the description? It is required.'],
    [{ date: 0, description: 1 }, 'amount: which column holds the amount? Give amount, or debit and/or credit.'],
    [{ date: 0, description: 1, amount: 2, debit: 3 }, 'amount: give either one amount column, or debit and credit columns, not both.'],
    [{ date: 'Date', description: 1, amount: 2 }, 'date: 2 columns are named "Date"; give its position instead (0 or 4).'],
    [{ date: 0, description: 1, amount: -1 }, 'amount: a column position is a whole number from 0, not -1.'],
    [{ date: 0, description: 1, amount: 1.5 }, 'amount: a column position is a whole number from 0, not 1.5.'],
    [{ date: 0, description: 1, amount: 5 }, 'amount: there is no column 5; the file has 5 columns, numbered from 0.'],
    [{ date: 0, description: 1, amount: true }, "amount: give a column's header text or its position (a number from 0), not true."],
    [{ date: 0, description: 1, amount: '' }, 'amount: give a column\'s header text or its position (a number from 0), not "".'],
    [{ date: 0, description: 1, amount: 'Betrag' }, 'amount: no column is named "Betrag"; the columns are: Date, Description, Amount, Memo, Date.'],
    [{ date: 0, description: 1, amount: 2, balance: 2 }, 'balance: column "Amount" is already mapped to amount.'],
    [{ date: 0, description: 0, amount: 2 }, 'description: column "Date" is already mapped to date.'],
    [{ date: 0, description: 1, amount: 2, dateOrder: 'DMY' }, 'dateOrder: one of mdy, dmy, ymd, not "DMY".'],
    [{ date: 0, description: 1, amount: 2, negate: 'yes' }, 'negate: true or false, not "yes".'],
    [{ date: 0, description: 1, amount: 2, headerRow: -2 }, "headerRow: the header's row number from 0 (or -1 for a file without a header), not -2."],
    [{ date: 0, description: 1, amount: 2, amout: 3 }, '"amout" is not a mapping field; the fields are: date, description, amount,'],
    [{ date: 0, description: 1, amount: 2, __proto__: 3 }, undefined],
  ])('refuses %j: %s', (mapping, message) => {
    const result = validateMapping(mapping, headers);
    if (message === undefined) {
      // An object literal's __proto__ sets the prototype and adds no field: nothing to refuse.
      expect(result.ok).toBe(true);
      return;
    }
    expect(result).toEqual({ ok: false, errors: expect.arrayContaining([expect.stringContaining(message)]) });
  });

  it('lets one column be both dates, and the description and the memo', () => {
    expect(validateMapping({ date: 0, postedDate: 0, description: 1, memo: 1, amount: 2 }, headers)).toMatchObject({ ok: true });
  });

  it('refuses a JSON __proto__ key as an unknown field', () => {
    expect(validateMapping(JSON.parse('{"date":0,"description":1,"amount":2,"__proto__":{"x":1}}'), headers)).toEqual({
      ok: false,
      errors: [expect.stringContaining('"__proto__" is not a mapping field')],
    });
  });
});

describe('options', () => {
  it.each([
    [{ currency: 'usd' }, 'USD'],
    [{ currency: 'CHF' }, 'CHF'],
  ] as const)('%j sets the currency', (options, currency) => {
    expect(readCsvStatement(fixture('generic-split.csv'), options).accounts[0]!.currency).toBe(currency);
  });

  it.each([{ currency: 'dollars' }, { accountName: '  ' }, { accountType: 'pension' as never }, { accountName: 'x'.repeat(201) }])(
    '%j is refused',
    (options) => {
      expect(refused(() => readCsvStatement(fixture('generic.csv'), options as CsvStatementOptions)).code).toBe('invalid_options');
    },
  );

  it('an account name and type replace the layout guess', () => {
    expect(readCsvStatement(fixture('chase-checking.csv'), { accountName: 'Chase Total Checking ...4417', accountType: 'savings' }).accounts).toMatchObject([
      { ref: 'csv:name:chase-total-checking-4417', name: 'Chase Total Checking ...4417', type: 'savings' },
    ]);
  });

  it('a card number column keeps its own refs even with a name, one account per card', () => {
    const text =
      'Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit\n2026-10-30,2026-10-31,5521,A,x,1.00,\n2026-10-30,2026-10-31,8832,B,x,2.00,\n';
    expect(readCsvStatement(text, { accountName: 'Venture' }).accounts).toMatchObject([
      { ref: 'csv:capital-one:5521', number: '5521', name: 'Venture 5521' },
      { ref: 'csv:capital-one:8832', number: '8832', name: 'Venture 8832' },
    ]);
  });
});

describe('refs and merging uploads', () => {
  const header = 'Date,Description,Amount\n';
  const line = (date: string, description: string, amount: string) => `${date},${description},${amount}\n`;
  const september = [line('09/28/2026', 'RENT', '-1500.00'), line('09/30/2026', 'COFFEE', '-4.50')];
  const october = [
    line('10/01/2026', 'COFFEE', '-4.50'),
    line('10/01/2026', 'COFFEE', '-4.50'),
    line('10/01/2026', 'PAYROLL', '2000.00'),
    line('10/02/2026', 'Coffee ', '-4.50'),
  ];
  const read = (lines: string[], options: CsvStatementOptions = { accountName: 'Checking' }) => readCsvStatement(header + lines.join(''), options);

  it('count identical transactions of a day, so both coffees are kept', () => {
    const refs = read(october).transactions.map((t) => t.ref);
    expect(refs).toEqual(['2026-10-01|-4.5|coffee|1', '2026-10-01|-4.5|coffee|2', '2026-10-01|2000|payroll|1', '2026-10-02|-4.5|coffee|1']);
    expect(new Set(refs).size).toBe(refs.length);
  });

  it('do not change with the account name, spacing or case of a description, or the order of the rows', () => {
    const again = read([...october].reverse()).transactions.map((t) => t.ref);
    expect(new Set(again)).toEqual(new Set(read(october).transactions.map((t) => t.ref)));
    expect(read([line('10/02/2026', '  coffee', '-4.50')]).transactions[0]!.ref).toBe('2026-10-02|-4.5|coffee|1');
  });

  it('make a second upload of the same file add nothing', () => {
    const first = read([...september, ...october]).transactions;
    const second = read([...september, ...october]).transactions;
    expect(mergeByRef(first, second)).toEqual({ added: [], duplicates: second });
  });

  it('make an overlapping upload add only what is new, including a second identical coffee that posted since', () => {
    const earlier = read([...september, ...october.slice(0, 1)]).transactions;
    const later = read(october).transactions;
    const { added, duplicates } = mergeByRef(earlier, later);
    expect(duplicates.map((t) => t.description)).toEqual(['COFFEE']);
    expect(added.map((t) => [t.description, t.ref])).toEqual([
      ['COFFEE', '2026-10-01|-4.5|coffee|2'],
      ['PAYROLL', '2026-10-01|2000|payroll|1'],
      ['Coffee', '2026-10-02|-4.5|coffee|1'],
    ]);
    expect(mergeByRef([...earlier, ...added], read([...september, ...october]).transactions).added).toEqual([]);
  });

  it('keep the same ref in different accounts apart', () => {
    const checking = read(october).transactions;
    const savings = read(october, { accountName: 'Savings' }).transactions;
    expect(mergeByRef(checking, savings).added).toHaveLength(savings.length);
  });

  it('merge OFX-style refs the same way, and a ref twice in one upload once', () => {
    const categorization: ConnectorTransaction['categorization'] = {
      normalizedPayeeName: 'X',
      category: 'Uncategorized',
      bestRepresentation: 'X',
      country: 'USA',
    };
    const t = (ref: string): ConnectorTransaction => ({
      accountRef: 'A',
      ref,
      amount: -1,
      status: 'active',
      postedDate: 0,
      transactionDate: 0,
      description: 'x',
      type: 'debit',
      categorization,
    });
    expect(mergeByRef([t('FIT1')], [t('FIT1'), t('FIT2'), t('FIT2')])).toEqual({ added: [t('FIT2')], duplicates: [t('FIT1'), t('FIT2')] });
  });

  it('give the account the same ref on every upload of the same account', () => {
    for (const file of ['chase-checking.csv', 'capital-one.csv', 'mint.csv', 'wells-fargo.csv']) {
      expect(
        readCsvStatement(fixture(file)).accounts.map((a) => a.ref),
        file,
      ).toEqual(readCsvStatement(fixture(file)).accounts.map((a) => a.ref));
    }
    expect(read(september).accounts[0]!.ref).toBe(read(october).accounts[0]!.ref);
    expect(read(september, { accountName: 'checking' }).accounts[0]!.ref).toBe('csv:name:checking');
  });
});

describe('reading back generated rows', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'B', '7', ' ', ',', ';', '"', '\n', '#', '&', 'é', '€', '\t'), maxLength: 24 });
  const record = fc.record({
    day: fc.integer({ min: Date.UTC(1990, 0, 1) / 86_400_000, max: Date.UTC(2100, 0, 1) / 86_400_000 }),
    description: text,
    memo: text,
    cents: fc.integer({ min: -1e10, max: 1e10 }),
    amountForm: fc.constantFrom('plain', 'dollar', 'parentheses', 'plus', 'code'),
  });
  const quote = (value: string, delimiter: string) =>
    /[",;\t\r\n]|^\s|\s$/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value;
  const amountText = (cents: number, form: string) => {
    const abs = (Math.abs(cents) / 100).toFixed(2);
    const grouped = abs.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const sign = cents < 0 ? '-' : '';
    if (form === 'dollar') return `${sign}$${grouped}`;
    if (form === 'parentheses') return cents < 0 ? `(${grouped})` : grouped;
    if (form === 'plus') return cents < 0 ? `-${abs}` : `+${abs}`;
    if (form === 'code') return `${sign}${abs} USD`;
    return `${sign}${abs}`;
  };
  const tidy = (value: string) => value.replace(/\s+/g, ' ').trim();

  it('gives back the same dates, amounts, descriptions and memos, mapped or detected', () => {
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 15 }),
        fc.constantFrom(',', ';', '\t'),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom('iso', 'us', 'detected'),
        (records, delimiter, newline, dateForm) => {
          const date = (days: number) => {
            const iso = new Date(days * 86_400_000).toISOString().slice(0, 10);
            return dateForm === 'us' ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : iso;
          };
          const lines = [['Date', 'Description', 'Memo', 'Amount']];
          for (const r of records) lines.push([date(r.day), r.description, r.memo, amountText(r.cents, r.amountForm)]);
          const csv = lines.map((cells) => cells.map((c) => quote(c, delimiter)).join(delimiter)).join(newline) + newline;
          // Either as the user maps it, or as detected (year-first dates then, which need no date order).
          const mapping = { date: 'Date', description: 'Description', memo: 'Memo', amount: 'Amount', dateOrder: 'mdy' } as const;
          const result = readCsvStatement(csv, dateForm === 'detected' ? {} : { mapping });
          expect(result.problems).toEqual([]);
          expect(
            result.transactions.map((t) => ({ day: (t.transactionDate - 43_200) / 86_400, amount: t.amount, description: t.description, memo: t.memo ?? '' })),
          ).toEqual(
            records.map((r) => {
              const description = tidy(r.description);
              const memo = tidy(r.memo);
              return { day: r.day, amount: r.cents / 100, description: description || memo, memo: memo === description ? '' : memo };
            }),
          );
          expect(new Set(result.transactions.map((t) => t.ref)).size).toBe(records.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
