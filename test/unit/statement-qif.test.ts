import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConnectorTransaction } from '../../src/connectors/connector.js';
import { readStatementFile, sniffStatementFormat } from '../../src/connectors/statements/file.js';
import { isQifHead, MAX_QIF_LINE_CHARS, MAX_QIF_TRANSACTIONS, readQifStatement } from '../../src/connectors/statements/qif.js';
import { MAX_STATEMENT_POSITIONS, type StatementImport } from '../../src/connectors/statements/types.js';
import { refused } from '../helpers/statements.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/qif/${name}`, import.meta.url));
const other = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url));

/** Noon UTC of a day, as the readers date transactions. */
const noon = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;
const day = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);
const NO_CURRENCY = expect.stringMatching(/^The file names no currency/);

/** A QIF file from its lines. */
const qif = (...lines: string[]) => `${lines.join('\n')}\n`;
/** The transactions' days, amounts and descriptions. */
const brief = (read: StatementImport) => read.transactions.map((t) => [day(t.postedDate!), t.amount, t.description]);
/** Problems with a line, as [line, message]. */
const lined = (read: StatementImport) => read.problems.filter((p) => p.line !== undefined).map((p) => [p.line, p.message]);

describe('reading QIF dates', () => {
  it("reads Quicken's dates with an apostrophe before years from 2000 (8/31' 0, 1/ 1'00, 12/31'2025)", () => {
    const read = readQifStatement(
      qif('!Type:Bank', "D8/31' 0", 'T-1.00', '^', "D1/ 1'00", 'T-2.00', '^', "D12/31'2025", 'T-3.00', '^', "D2/29' 4", 'T-4.00', '^'),
    );
    expect(read.transactions.map((t) => day(t.postedDate!))).toEqual(['2000-08-31', '2000-01-01', '2025-12-31', '2004-02-29']);
    expect(read.transactions.map((t) => t.transactionDate)).toEqual(read.transactions.map((t) => t.postedDate));
  });

  it('reads four-digit years (12/31/2025) and two-digit ones after a slash (12/31/99)', () => {
    const read = readQifStatement(qif('!Type:Bank', 'D12/31/2025', 'T-1.00', '^', 'D12/31/99', 'T-2.00', '^', 'D1/2/05', 'T-3.00', '^'));
    expect(read.transactions.map((t) => day(t.postedDate!))).toEqual(['2025-12-31', '1999-12-31', '2005-01-02']);
    expect(read.problems).toEqual([{ message: NO_CURRENCY }]);
  });

  it('reads dotted dates (31.12.2025) day-first', () => {
    const read = readQifStatement(qif('!Type:Bank', 'D31.12.2025', 'T-1,00', '^', 'D01.02.2026', 'T-2,00', '^'));
    expect(read.transactions.map((t) => day(t.postedDate!))).toEqual(['2025-12-31', '2026-02-01']);
    expect(read.problems).toEqual([{ message: NO_CURRENCY }]);
  });

  it('reads a day-first file day-first, decided from the whole file', () => {
    const read = readQifStatement(fixture('day-first.qif'));
    // 03/01/2026 alone could be either; 14/01/2026 can only be day-first.
    expect(brief(read)).toEqual([
      ['2026-01-03', -12.4, 'Newsagent'],
      ['2026-01-14', -3.1, 'Bakery'],
      ['2026-02-01', 250000, 'Opening value'],
      ['2026-02-28', -1102.37, 'Monthly repayment'],
    ]);
    expect(read.problems).toEqual([{ message: NO_CURRENCY }]);
  });

  it('names dates that could be month-first or day-first as a problem, and reads them month-first', () => {
    const read = readQifStatement(qif('!Type:Bank', 'D01/02/2026', 'T-1.00', '^', 'D03/04/2026', 'T-2.00', '^'));
    expect(read.transactions.map((t) => day(t.postedDate!))).toEqual(['2026-01-02', '2026-03-04']);
    expect(read.problems).toEqual([
      { message: expect.stringMatching(/^Dates such as 01\/02\/2026 could be month-first or day-first.*read month-first/) },
      { message: NO_CURRENCY },
    ]);
  });

  it('names a date that cannot be read in the order the file uses, and reads the rest', () => {
    const read = readQifStatement(qif('!Type:Bank', 'D12/25/2025', 'T-1.00', '^', 'D25/12/2025', 'T-2.00', 'PX', '^', 'Dsoon', 'T-3.00', '^'));
    expect(read.transactions.map((t) => day(t.postedDate!))).toEqual(['2025-12-25']);
    expect(lined(read)).toEqual([
      [5, 'The date "25/12/2025" cannot be read as month-first.'],
      [9, 'The date "soon" cannot be read as month-first.'],
    ]);
  });
});

describe('reading QIF files', () => {
  it('skips empty records (^^, ^ after ^)', () => {
    const read = readQifStatement(qif('!Type:Bank', '^^', '^', 'D1/2/2026', 'T-1.00', 'PA', '^^', '^', 'D1/13/2026', 'T-2.00', 'PB', '^', '^'));
    expect(brief(read)).toEqual([
      ['2026-01-02', -1, 'A'],
      ['2026-01-13', -2, 'B'],
    ]);
    expect(read.problems).toEqual([{ message: NO_CURRENCY }]);
  });

  it('reads !Type:Bank with a trailing space, and headers in any letter case', () => {
    for (const header of ['!Type:Bank ', '!type:bank', '!TYPE: Bank\t']) {
      const read = readQifStatement(`${header}\r\nD1/13/2026\r\nT-1.00\r\n^\r\n`);
      expect(
        read.accounts.map((a) => [a.ref, a.type, a.name]),
        header,
      ).toEqual([['qif:bank', 'checking', 'Bank account']]);
      expect(read.transactions.length, header).toBe(1);
    }
  });

  it('reads a credit card (!Type:CCard) with its signs as written: charges negative, payments and refunds positive', () => {
    const read = readQifStatement(fixture('quicken-us.qif'));
    const card = read.accounts.find((a) => a.ref === 'qif:rewards-visa')!;
    expect(card).toEqual({ ref: 'qif:rewards-visa', type: 'creditCard', number: '', name: 'Rewards Visa', currency: 'USD' });
    expect(brief({ ...read, transactions: read.transactions.filter((t) => t.accountRef === card.ref) })).toEqual([
      ['2026-01-03', -54.2, 'FUEL STOP 221'],
      ['2026-01-08', -1023.99, 'ELECTRONICS WAREHOUSE'],
      ['2026-01-12', 350, 'PAYMENT THANK YOU'],
      ['2026-01-15', 19.99, 'REFUND ONLINE STORE'],
    ]);
  });

  it('reads cash accounts (!Type:Cash)', () => {
    const read = readQifStatement(qif('!Type:Cash', 'D1/13/2026', 'T-7.25', 'PMarket stall', '^'));
    expect(read.accounts.map((a) => [a.ref, a.type, a.name])).toEqual([['qif:cash', 'checking', 'Cash']]);
    expect(read.transactions.map((t) => [t.amount, t.type])).toEqual([[-7.25, 'debit']]);
  });

  it('reads other asset and other liability accounts (!Type:Oth A, !Type:Oth L)', () => {
    const read = readQifStatement(fixture('day-first.qif'));
    expect(read.accounts.map((a) => [a.ref, a.type, a.name])).toEqual([
      ['qif:petty-cash', 'checking', 'Petty cash'],
      ['qif:house', 'savings', 'House'],
      ['qif:mortgage', 'loan', 'Mortgage'],
    ]);
    expect(readQifStatement(qif('!Type:Oth L', 'D1/13/2026', 'T-1.00', '^')).accounts.map((a) => [a.ref, a.type])).toEqual([['qif:othl', 'loan']]);
    expect(readQifStatement(qif('!Type:Oth A', 'D1/13/2026', 'T1.00', '^')).accounts.map((a) => [a.ref, a.type])).toEqual([['qif:otha', 'savings']]);
  });

  it('skips category (!Type:Cat), class (!Type:Class) and memorised (!Type:Memorized) sections without a problem', () => {
    const read = readQifStatement(fixture('quicken-us.qif'));
    expect(read.transactions.some((t) => t.description === 'COFFEE ROASTERS' && t.accountRef !== 'qif:everyday-checking')).toBe(false);
    expect(read.transactions.map((t) => t.description)).not.toContain('Groceries');
    expect(read.problems).toEqual([{ message: NO_CURRENCY }]);
    const only = readQifStatement(
      qif('!Type:Cat', 'NFood', 'E', '^', '!Type:Class', 'NJoint', '^', '!Type:Memorized', 'KE', 'T-1.00', 'PX', '^', '!Type:Bank', 'D1/13/2026', 'T1', '^'),
    );
    expect(only.transactions.length).toBe(1);
    expect(only.problems).toEqual([{ message: NO_CURRENCY }]);
  });

  it('reads an AutoSwitch list of accounts (!Option:AutoSwitch ... !Clear:AutoSwitch) without importing accounts that have no transactions', () => {
    const read = readQifStatement(fixture('quicken-us.qif'));
    // "Old Savings" is only listed.
    expect(read.accounts.map((a) => a.name)).toEqual(['Everyday Checking', 'Rewards Visa']);
  });

  it('reads several !Account sections, each an account with its name, type and balance, its transactions those that follow it', () => {
    const read = readQifStatement(fixture('quicken-us.qif'), { currency: 'USD' });
    expect(read.accounts).toEqual([
      {
        ref: 'qif:everyday-checking',
        type: 'checking',
        number: '',
        name: 'Everyday Checking',
        currency: 'USD',
        balance: 2894.13,
        balanceDate: noon('2026-01-31'),
      },
      { ref: 'qif:rewards-visa', type: 'creditCard', number: '', name: 'Rewards Visa', currency: 'USD' },
    ]);
    expect(read.transactions.filter((t) => t.accountRef === 'qif:everyday-checking').length).toBe(8);
    expect(read.transactions.filter((t) => t.accountRef === 'qif:rewards-visa').length).toBe(4);
    expect(read.problems).toEqual([]);
  });

  it('reads the checking account of a Quicken export exactly', () => {
    const read = readQifStatement(fixture('quicken-us.qif'), { currency: 'USD' });
    const checking = read.transactions.filter((t) => t.accountRef === 'qif:everyday-checking');
    expect(checking.map(({ categorization, ...t }) => t)).toEqual([
      {
        accountRef: 'qif:everyday-checking',
        ref: '2025-12-31|-1250|riverside property management|1043|1',
        amount: -1250,
        status: 'active',
        postedDate: noon('2025-12-31'),
        transactionDate: noon('2025-12-31'),
        description: 'Riverside Property Management',
        memo: 'January rent',
        type: 'check',
        checkNum: '1043',
      },
      {
        accountRef: 'qif:everyday-checking',
        ref: '2026-01-02|3120.55|acme corp payroll|1',
        amount: 3120.55,
        status: 'active',
        postedDate: noon('2026-01-02'),
        transactionDate: noon('2026-01-02'),
        description: 'ACME CORP PAYROLL',
        type: 'credit',
      },
      {
        accountRef: 'qif:everyday-checking',
        ref: '2026-01-05|-86.4|green grocer|1',
        amount: -86.4,
        status: 'active',
        postedDate: noon('2026-01-05'),
        transactionDate: noon('2026-01-05'),
        description: 'GREEN GROCER',
        memo: 'Weekly shop | Split: Groceries -61.90 (Produce); Household -24.50',
        type: 'debit',
      },
      expect.objectContaining({ ref: '2026-01-07|-4.5|coffee roasters|1', amount: -4.5 }),
      expect.objectContaining({ ref: '2026-01-07|-4.5|coffee roasters|2', amount: -4.5 }),
      expect.objectContaining({ ref: '2026-01-09|-200|atm withdrawal main st|atm|1', amount: -200, type: 'atm' }),
      expect.objectContaining({ ref: '2026-01-12|-350|transfer to rewards visa|xfer|1', amount: -350, type: 'transfer' }),
      // T is read before U.
      expect.objectContaining({ ref: '2026-01-14|-12.35|streaming service|1', amount: -12.35 }),
    ]);
    expect(checking.map((t) => t.categorization.country)).toEqual(checking.map(() => 'USA'));
  });

  it('keeps a split transaction’s total (T) as its amount and its split lines in the memo', () => {
    const read = readQifStatement(
      qif('!Type:Bank', 'D1/13/2026', 'T-100.00', 'PHARDWARE', 'SHome', 'ETools', '$-60.00', 'SGarden', '$-30.00', 'E', '$-10.00', '^'),
    );
    expect(read.transactions.map((t) => [t.amount, t.description, t.memo])).toEqual([
      [-100, 'HARDWARE', 'Split: Home -60.00 (Tools); Garden -30.00; uncategorised -10.00'],
    ]);
  });

  it('adds up the split lines of a transaction that has no total', () => {
    const read = readQifStatement(qif('!Type:Bank', 'D1/13/2026', 'PHARDWARE', 'SHome', '$-60.25', 'SGarden', '$-30.10', '^'));
    expect(read.transactions.map((t) => t.amount)).toEqual([-90.35]);
  });

  it('shows at most twenty split lines in the memo and says how many more there were', () => {
    const splits = Array.from({ length: 25 }, (_, i) => [`SCat${i}`, '$-1.00']).flat();
    const read = readQifStatement(qif('!Type:Bank', 'D1/13/2026', 'T-25.00', 'PSHOP', ...splits, '^'));
    expect(read.transactions[0]!.memo).toMatch(/^Split: Cat0 -1.00; .*; Cat19 -1.00; and 5 more$/);
  });

  it('reads a U amount when there is no T', () => {
    expect(readQifStatement(qif('!Type:Bank', 'D1/13/2026', 'U-12.345', 'PX', '^')).transactions.map((t) => t.amount)).toEqual([-12.345]);
  });

  it('reads investment actions (!Type:Invst) as investment transactions with units, price, commission and ticker', () => {
    const read = readQifStatement(fixture('investment.qif'), { currency: 'USD' });
    expect(read.accounts).toEqual([
      {
        ref: 'qif:brokerage',
        type: 'investment',
        number: '',
        name: 'Brokerage',
        currency: 'USD',
        positions: [expect.objectContaining({ symbol: 'VFIAX', units: 8.25, unitPrice: 520.1, marketValue: '4290.83' })],
        balance: 4290.83,
        // The last trade of a security; the interest and transfer after it are cash.
        balanceDate: Date.UTC(2026, 0, 30, 12) / 1000,
      },
    ]);
    // Apple is sold and never bought in the file: no holding is derived for it, and the answer says why.
    expect(read.problems).toEqual([{ line: 31, message: expect.stringMatching(/^The file takes 4 more units of "Apple Inc" out than it puts in/) }]);
    expect(read.transactions.map(({ categorization, accountRef, status, postedDate, transactionDate, ...t }) => ({ day: day(postedDate!), ...t }))).toEqual([
      {
        day: '2026-01-03',
        ref: '2026-01-03|5000|xin deposit from checking|1',
        amount: 5000,
        description: 'Transfer in: Deposit from checking',
        type: 'transfer',
        investmentTransactionType: 'contribution',
      },
      {
        day: '2026-01-06',
        ref: '2026-01-06|-4103.35|buy vanguard 500 index admiral|1',
        amount: -4103.35,
        description: 'Bought Vanguard 500 Index Admiral',
        memo: '8 @ 512.3',
        type: 'debit',
        investmentTransactionType: 'purchased',
        unitQuantity: 8,
        unitValue: 512.3,
        feeAmount: 4.95,
        ticker: 'VFIAX',
      },
      {
        day: '2026-01-20',
        ref: '2026-01-20|921.05|sell apple inc|1',
        amount: 921.05,
        description: 'Sold Apple Inc',
        memo: '4 @ 231.5',
        type: 'credit',
        investmentTransactionType: 'sold',
        unitQuantity: 4,
        unitValue: 231.5,
        feeAmount: 4.95,
        ticker: 'AAPL',
      },
      {
        day: '2026-01-30',
        ref: '2026-01-30|12.48|div apple inc|1',
        amount: 12.48,
        description: 'Dividend Apple Inc',
        type: 'dividend',
        investmentTransactionType: 'dividend',
        ticker: 'AAPL',
      },
      {
        day: '2026-01-30',
        ref: '2026-01-30|-130.03|reinvdiv vanguard 500 index admiral|1:income',
        amount: 130.03,
        description: 'Dividend Vanguard 500 Index Admiral',
        memo: '0.25 @ 520.1',
        type: 'dividend',
        investmentTransactionType: 'dividend',
        unitQuantity: 0.25,
        unitValue: 520.1,
        ticker: 'VFIAX',
      },
      {
        day: '2026-01-30',
        ref: '2026-01-30|-130.03|reinvdiv vanguard 500 index admiral|1',
        amount: -130.03,
        description: 'Reinvestment Vanguard 500 Index Admiral',
        memo: '0.25 @ 520.1',
        type: 'debit',
        investmentTransactionType: 'dividendReinvest',
        unitQuantity: 0.25,
        unitValue: 520.1,
        ticker: 'VFIAX',
      },
      {
        day: '2026-01-31',
        ref: '2026-01-31|1.07|intinc|1',
        amount: 1.07,
        description: 'Interest',
        memo: 'Cash sweep interest',
        type: 'interest',
        investmentTransactionType: 'interest',
      },
      {
        day: '2026-01-31',
        ref: '2026-01-31|-750|xout to checking|1',
        amount: -750,
        description: 'Transfer out: To checking',
        type: 'transfer',
        investmentTransactionType: 'transfer',
      },
    ]);
  });

  it('derives an investment account’s holdings from its trades: units in and out per security, the latest price, as of the last trade', () => {
    const read = readQifStatement(fixture('holdings.qif'), { currency: 'USD' });
    expect(read.problems).toEqual([]);
    const [account] = read.accounts;
    // A file states no cash balance: the account's balance is what its holdings are worth on the day of its last trade.
    expect(account).toMatchObject({ ref: 'qif:retirement', type: 'investment', balance: 8550, balanceDate: Date.UTC(2026, 1, 27, 12) / 1000 });
    expect(
      account!.positions!.map((p) => ({
        ref: p.ref,
        symbol: p.symbol,
        fundName: p.fundName,
        type: p.type,
        units: p.units,
        quantity: p.quantity,
        unitPrice: p.unitPrice,
        marketValue: p.marketValue,
      })),
    ).toEqual([
      // Bought 30, sold 10, and 5 more bought on a day entered at the end; the price of the latest trade (20 February).
      {
        ref: 'qif:retirement:TICKER:VTI:CASH:LONG',
        symbol: 'VTI',
        fundName: 'Vanguard Total Stock Market ETF',
        type: 'stock',
        units: 25,
        quantity: 25,
        unitPrice: 300,
        marketValue: '7500.00',
      },
      // Bought 50 and reinvested a dividend in 2.5 more. Microsoft came in and went out as shares: no holding.
      {
        ref: 'qif:retirement:TICKER:FCNTX:CASH:LONG',
        symbol: 'FCNTX',
        fundName: 'Fidelity Contrafund',
        type: 'mutualFund',
        units: 52.5,
        quantity: 52.5,
        unitPrice: 20,
        marketValue: '1050.00',
      },
    ]);
    expect(readQifStatement(fixture('holdings.qif'), { currency: 'USD' })).toEqual(read);
  });

  it('keeps the first MAX_STATEMENT_POSITIONS holdings of an account and names the rest', () => {
    const trades = Array.from({ length: MAX_STATEMENT_POSITIONS + 2 }, (_, i) => ['D1/13/2026', 'NShrsIn', `YSEC${i}`, 'I1.00', 'Q1', '^']).flat();
    const read = readQifStatement(qif('!Type:Invst', ...trades), { currency: 'USD' });
    expect(read.accounts[0]!.positions).toHaveLength(MAX_STATEMENT_POSITIONS);
    expect(read.problems.map((p) => p.message)).toEqual([
      `"Investment account" holds more than ${MAX_STATEMENT_POSITIONS} securities: "SEC${MAX_STATEMENT_POSITIONS}" and those after it were left out.`,
    ]);
  });

  it('derives holdings only for files with investment records, keeps a stated balance, and names what it cannot value', () => {
    expect(readQifStatement(fixture('quicken-us.qif')).accounts.every((a) => a.positions === undefined)).toBe(true);
    const cashOnly = readQifStatement(qif('!Type:Invst', 'D1/13/2026', 'NXIn', 'T100.00', '^'));
    expect(cashOnly.accounts[0]!.positions).toBeUndefined();
    const stated = readQifStatement(
      qif(
        '!Account',
        'NBroker',
        'TInvst',
        '$1,234.00',
        '/1/31/2026',
        '^',
        '!Type:Invst',
        'D1/13/2026',
        'NShrsIn',
        'YACME',
        'Q10',
        '^',
        'D1/14/2026',
        'NStkSplit',
        'YACME',
        'Q20',
        '^',
      ),
      { currency: 'USD' },
    );
    expect(stated.accounts[0]).toMatchObject({ balance: 1234, balanceDate: Date.UTC(2026, 0, 31, 12) / 1000 });
    expect(stated.accounts[0]!.positions!.map((p) => [p.symbol, p.units, p.unitPrice, p.marketValue])).toEqual([['ACME', 10, 0, '0.00']]);
    expect(stated.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^No trade of "ACME" gives a price/),
      expect.stringMatching(/^The split of "ACME" is not applied/),
    ]);
  });

  it('signs investment totals by their action, works a missing total out from quantity, price and commission, and names actions it does not read', () => {
    const read = readQifStatement(
      qif(
        '!Type:Invst',
        'D1/13/2026',
        'NBuyX',
        'YMSFT',
        'I400',
        'Q2',
        'O5',
        'L[Checking]',
        '^',
        'D1/13/2026',
        'NSell',
        'YMSFT',
        'T-250.00',
        '^',
        'D1/13/2026',
        'NMiscExp',
        'T12',
        '^',
        'D1/13/2026',
        'NShrsIn',
        'YMSFT',
        'Q3',
        'I100',
        'T300',
        '^',
        'D1/13/2026',
        'NCash',
        'T-20',
        '^',
        'D1/13/2026',
        'NVest',
        'YMSFT',
        'Q1',
        '^',
        'D1/13/2026',
        'YMSFT',
        'T1',
        '^',
      ),
    );
    expect(read.transactions.map((t) => [t.description, t.amount, t.type, t.investmentTransactionType])).toEqual([
      ['Bought MSFT', -805, 'debit', 'purchased'],
      ['Sold MSFT', 250, 'credit', 'sold'],
      ['Expense', -12, 'fee', 'fee'],
      ['Shares in MSFT', 0, 'transfer', 'transfer'],
      ['Cash', -20, 'debit', undefined],
    ]);
    expect(lined(read)).toEqual([
      [30, 'The investment action "Vest" is not one Ledgerlink reads: the transaction was left out.'],
      [35, 'An investment transaction without an action (N).'],
    ]);
  });

  it('reads amounts with thousands separators (1,234.56) and European decimal commas (1.234,56)', () => {
    expect(readQifStatement(qif('!Type:Bank', 'D1/13/2026', 'T-1,234.56', '^', 'D1/14/2026', 'T1,000,000.00', '^')).transactions.map((t) => t.amount)).toEqual([
      -1234.56, 1000000,
    ]);
    const european = readQifStatement(fixture('european-latin1.qif'), { currency: 'EUR' });
    expect(brief(european)).toEqual([
      ['2025-12-31', -1234.56, 'Möbelhaus Müller'],
      ['2026-01-02', 2450, 'Gehalt Januar'],
      ['2026-01-05', -12.5, 'Bäckerei Schäfer'],
      ['2026-01-10', -89.9, 'Stadtwerke'],
    ]);
    expect(european.problems).toEqual([]);
  });

  it('reads Latin-1 bytes, UTF-8 with or without a byte-order mark, and CR line ends', () => {
    const text = qif('!Type:Bank', 'D1/13/2026', 'T-3.20', 'PCafé Zürich', '^');
    const latin1 = Buffer.from(text, 'latin1');
    const utf8 = Buffer.from(text, 'utf8');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]);
    const cr = Buffer.from(text.replaceAll('\n', '\r'), 'utf8');
    for (const [name, bytes] of Object.entries({ latin1, utf8, bom, cr })) {
      expect(
        readQifStatement(bytes).transactions.map((t) => t.description),
        name,
      ).toEqual(['Café Zürich']);
    }
    expect(readQifStatement(fixture('european-latin1.qif')).transactions[0]!.memo).toBe('Küche Anzahlung');
  });

  it('gives the accounts the currency asked for, else USD with a problem saying the file names none', () => {
    const file = qif('!Type:Bank', 'D1/13/2026', 'T-3.20', 'PX', '^');
    const asked = readQifStatement(file, { currency: 'chf' });
    expect([asked.accounts[0]!.currency, asked.transactions[0]!.categorization.country, asked.problems]).toEqual(['CHF', 'CHE', []]);
    const none = readQifStatement(file);
    expect(none.accounts[0]!.currency).toBe('USD');
    expect(none.problems).toEqual([
      {
        message:
          'The file names no currency (QIF files never do): its amounts were stored as USD. If they are in another currency, upload it again with `currency`.',
      },
    ]);
    expect(refused(() => readQifStatement(file, { currency: 'EURO' })).code).toBe('invalid_options');
  });
});

describe('QIF refs', () => {
  it('derive a transaction’s ref from its date, amount, payee and check number, numbering identical ones', () => {
    const read = readQifStatement(
      qif(
        '!Type:Bank',
        ...['D1/13/2026', 'T-4.50', 'N#7', 'P Coffee, Roasters ', '^'],
        ...['D1/13/2026', 'T-4.50', 'PCOFFEE ROASTERS', '^'],
        ...['D1/13/2026', 'T-4.50', 'PCoffee Roasters', '^'],
      ),
    );
    expect(read.transactions.map((t) => [t.ref, t.checkNum])).toEqual([
      ['2026-01-13|-4.5|coffee roasters|7|1', '7'],
      ['2026-01-13|-4.5|coffee roasters|1', undefined],
      ['2026-01-13|-4.5|coffee roasters|2', undefined],
    ]);
  });

  it('are the same when the same file is read again, and for the same transactions in an overlapping file', () => {
    const refs = (read: StatementImport) => read.transactions.map((t) => `${t.accountRef} ${t.ref}`);
    for (const name of ['quicken-us.qif', 'day-first.qif', 'investment.qif', 'european-latin1.qif']) {
      const once = readQifStatement(fixture(name));
      expect(refs(readQifStatement(fixture(name))), name).toEqual(refs(once));
      expect(new Set(refs(once)).size, name).toBe(once.transactions.length);
    }
    const records = [
      'D1/5/2026',
      'T-4.50',
      'PCOFFEE',
      '^',
      'D1/5/2026',
      'T-4.50',
      'PCOFFEE',
      '^',
      'D1/20/2026',
      'T-9.00',
      'PBOOKS',
      '^',
      'D2/3/2026',
      'T-1.00',
      'PPEN',
      '^',
    ];
    const january = readQifStatement(qif('!Type:Bank', ...records.slice(0, 12)));
    const wider = readQifStatement(qif('!Type:Bank', ...records));
    expect(refs(wider).slice(0, 3)).toEqual(refs(january));
  });

  it('name accounts by their !Account name, else the upload’s accountName, else the kind of section', () => {
    const file = qif('!Type:Bank', 'D1/13/2026', 'T-3.20', 'PX', '^');
    expect(readQifStatement(file).accounts.map((a) => [a.ref, a.name])).toEqual([['qif:bank', 'Bank account']]);
    expect(readQifStatement(file, { accountName: ' Joint  Checking ' }).accounts.map((a) => [a.ref, a.name])).toEqual([
      ['qif:joint-checking', 'Joint Checking'],
    ]);
    expect(readQifStatement(file, { accountType: 'savings' }).accounts.map((a) => a.type)).toEqual(['savings']);
    const named = readQifStatement(`!Account\nNHoliday Fund\nTBank\n^\n${file}`, { accountName: 'Ignored' });
    expect(named.accounts.map((a) => [a.ref, a.name])).toEqual([['qif:holiday-fund', 'Holiday Fund']]);
    expect(named.transactions.map((t) => t.accountRef)).toEqual(['qif:holiday-fund']);
  });
});

describe('QIF problems', () => {
  it('names each record that cannot be read, with its line, and reads the rest', () => {
    const read = readQifStatement(
      qif(
        'PBefore any header',
        '^',
        '!Type:Bank',
        'T-1.00',
        'PNo date',
        '^',
        'D1/13/2026',
        'PNo amount',
        '^',
        'D1/13/2026',
        'Tlots',
        '^',
        'D1/13/2026',
        'T-2.00',
        'PFine',
        '^',
        '!Type:Invoice',
        'D1/13/2026',
        'T-3.00',
        '^',
        'D1/14/2026',
        'T-3.00',
        '^',
        '!Account',
        'TBank',
        '^',
        '!Type:Bank',
        'D1/15/2026',
        'T-4.00',
        'PAfter a nameless account',
        '^',
      ),
    );
    expect(brief(read)).toEqual([
      ['2026-01-13', -2, 'Fine'],
      ['2026-01-15', -4, 'After a nameless account'],
    ]);
    expect(read.transactions.map((t) => t.accountRef)).toEqual(['qif:bank', 'qif:bank']);
    expect(lined(read)).toEqual([
      [1, 'A record before any !Type or !Account line: Ledgerlink cannot tell what it is, so it was left out.'],
      [4, 'No date (D).'],
      [7, 'No amount (T).'],
      [10, 'The amount "lots" cannot be read.'],
      [17, 'The section "!Type:Invoice" is not one Ledgerlink reads: its 2 records were left out.'],
      [25, 'An account record without a name (N): the transactions after it were read into the file’s own account.'],
    ]);
  });

  it('lists at most 500 problems and says how many more there were', () => {
    const read = readQifStatement(qif('!Type:Bank', ...Array.from({ length: 600 }, () => ['Dsoon', 'T1', '^']).flat(), 'D1/13/2026', 'T1', '^'));
    expect(read.transactions.length).toBe(1);
    expect(read.problems.length).toBe(501);
    expect(read.problems.at(-1)).toEqual({ message: '101 more records could not be read.' });
  });

  it('refuses a file with no transaction, a line too long to be QIF, and more transactions than a statement may hold', () => {
    expect(refused(() => readStatementFile(Buffer.from(qif('!Type:Cat', 'NFood', '^')), { format: 'qif' })).code).toBe('empty');
    const unreadable = refused(() => readStatementFile(Buffer.from(qif('!Type:Bank', 'Dsoon', 'T1', '^')), { format: 'qif' }));
    expect([unreadable.code, unreadable.message]).toEqual([
      'unreadable',
      'No transaction could be read from the file. line 2: The date "soon" cannot be read as month-first.',
    ]);
    expect(refused(() => readQifStatement(qif('!Type:Bank', `P${'x'.repeat(MAX_QIF_LINE_CHARS)}`))).code).toBe('unreadable');
    const many = `!Type:Bank\n${'D1/1/2026\nT1\n^\n'.repeat(MAX_QIF_TRANSACTIONS + 1)}`;
    expect(refused(() => readQifStatement(many)).code).toBe('too_many_rows');
  });
});

describe('telling QIF files apart', () => {
  it('tells QIF files by their first header, and reads them through the upload’s reader', () => {
    for (const name of ['quicken-us.qif', 'day-first.qif', 'investment.qif', 'european-latin1.qif']) {
      expect(sniffStatementFormat(fixture(name)), name).toBe('qif');
      expect(readStatementFile(fixture(name), { contentType: 'application/octet-stream' }).format, name).toBe('qif');
    }
    for (const head of ['\uFEFF!Type:Bank\r\n', '\n\n  !Account\n', '!Option:AutoSwitch\n', '!Clear:AutoSwitch\n', '!type:invst\n'])
      expect(sniffStatementFormat(Buffer.from(head)), JSON.stringify(head)).toBe('qif');
    for (const type of ['application/qif', 'application/x-qif', 'text/qif', 'text/x-qif'])
      expect(readStatementFile(fixture('day-first.qif'), { contentType: type }).format, type).toBe('qif');
  });

  it('does not take OFX, CSV, MT940 or camt files for QIF', () => {
    for (const name of [
      'ofx/bank-1.0.2-sgml.ofx',
      'ofx/bank-2.1.1.xml.ofx',
      'ofx/quicken.qfx',
      'statements/chase-checking.csv',
      'statements/european.csv',
      'statements/wells-fargo.csv',
    ])
      expect(isQifHead(other(name).toString('latin1')), name).toBe(false);
    const heads = [
      ':20:STARTUMS\r\n:25:10020030/1234567890\r\n:28C:1/1\r\n',
      '{1:F01BANKDEFFAXXX0000000000}{2:O9400000000000}{4:\r\n:20:REF\r\n',
      '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">',
      'Date,Description,Amount\n01/13/2026,!Type:Bank,-1.00\n',
      'Type,Amount\n!Account,1\n',
    ];
    for (const head of heads) expect(isQifHead(head), head).toBe(false);
  });
});

describe('reading back generated QIF files', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'B', '7', ' ', ',', ';', '"', '#', '&', 'é', '€', '\t', '^', '!', "'"), maxLength: 24 });
  const sections = ['Bank', 'CCard', 'Cash', 'Oth A', 'Oth L', 'Invst'] as const;
  const ACTIONS = { Buy: -1, Sell: 1, Div: 1, IntInc: 1, XIn: 1, XOut: -1, MiscExp: -1 } as const;
  const transaction = fc.record({
    day: fc.integer({ min: Date.UTC(1990, 0, 1) / 86_400_000, max: Date.UTC(2090, 0, 1) / 86_400_000 }),
    cents: fc.integer({ min: -1e10, max: 1e10 }),
    payee: text,
    memo: text,
    number: fc.option(fc.integer({ min: 1, max: 99999 }), { nil: undefined }),
    action: fc.constantFrom(...(Object.keys(ACTIONS) as (keyof typeof ACTIONS)[])),
  });
  const account = fc.record({
    name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,15}[A-Za-z0-9]$/),
    section: fc.constantFrom(...sections),
    transactions: fc.array(transaction, { minLength: 1, maxLength: 8 }),
  });
  const statement = fc.record({
    accounts: fc.uniqueArray(account, { minLength: 1, maxLength: 4, selector: (a) => a.name.toLowerCase().replace(/ +/g, ' ') }),
    currency: fc.constantFrom('USD', 'EUR', 'GBP', 'JPY', 'CHF', undefined),
    dates: fc.constantFrom('quicken', 'us', 'dotted'),
    decimal: fc.constantFrom('.', ','),
    newline: fc.constantFrom('\n', '\r\n'),
  });

  type Statement = typeof statement extends fc.Arbitrary<infer T> ? T : never;

  /** A small QIF writer: Quicken's or a European program's conventions. */
  function write(s: Statement): string {
    const date = (days: number) => {
      const d = new Date(days * 86_400_000);
      const [y, m, dd] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
      if (s.dates === 'dotted') return `${String(dd).padStart(2, '0')}.${String(m).padStart(2, '0')}.${y}`;
      if (s.dates === 'quicken' && y >= 2000) return `${m}/${String(dd).padStart(2, ' ')}'${String(y - 2000).padStart(2, ' ')}`;
      return `${m}/${dd}/${y}`;
    };
    const amount = (cents: number) => {
      const [whole, fraction] = (Math.abs(cents) / 100).toFixed(2).split('.') as [string, string];
      const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, s.decimal === '.' ? ',' : '.');
      return `${cents < 0 ? '-' : ''}${grouped}${s.decimal}${fraction}`;
    };
    const lines: string[] = [];
    for (const a of s.accounts) {
      lines.push('!Account', `N${a.name}`, `T${a.section}`, '^', `!Type:${a.section}`);
      for (const t of a.transactions) {
        lines.push(`D${date(t.day)}`);
        if (a.section === 'Invst') lines.push(`N${t.action}`, `T${amount(Math.abs(t.cents))}`, `M${t.memo}`);
        else {
          lines.push(`T${amount(t.cents)}`, `P${t.payee}`, `M${t.memo}`);
          if (t.number !== undefined) lines.push(`N${t.number}`);
        }
        lines.push('^');
      }
    }
    return lines.join(s.newline) + s.newline;
  }

  const tidy = (value: string) => value.replace(/\s+/g, ' ').trim();
  const TYPES = { Bank: 'checking', CCard: 'creditCard', Cash: 'checking', 'Oth A': 'savings', 'Oth L': 'loan', Invst: 'investment' } as const;

  it('gives back the accounts, currency, dates, amounts with their signs, payees and memos', () => {
    fc.assert(
      fc.property(statement, (s) => {
        const read = readQifStatement(Buffer.from(write(s), 'utf8'), s.currency ? { currency: s.currency } : {});
        const currency = s.currency ?? 'USD';
        expect(read.accounts).toEqual(
          s.accounts.map((a) => ({ ref: `qif:${a.name.toLowerCase().replace(/ +/g, '-')}`, type: TYPES[a.section], number: '', name: tidy(a.name), currency })),
        );
        // Month-first dates where no day is above 12 are named as a guess (rightly read month-first).
        const expectedProblems = read.problems.filter((p) => !/^Dates such as /.test(p.message));
        expect(expectedProblems).toEqual(s.currency ? [] : [{ message: NO_CURRENCY }]);
        const expected = s.accounts.flatMap((a) =>
          a.transactions.map((t) => {
            if (a.section === 'Invst') {
              const memo = tidy(t.memo);
              return { day: t.day, amount: (ACTIONS[t.action] * Math.abs(t.cents)) / 100 || 0, memo: memo === '' ? undefined : memo, checkNum: undefined };
            }
            const payee = tidy(t.payee);
            const memo = tidy(t.memo);
            const description = payee || memo;
            return {
              day: t.day,
              amount: t.cents / 100 || 0,
              description,
              memo: memo === '' || memo === description ? undefined : memo,
              checkNum: t.number?.toString(),
            };
          }),
        );
        const got = read.transactions.map((t: ConnectorTransaction, i) => ({
          day: (t.postedDate! - 43_200) / 86_400,
          amount: t.amount,
          ...('description' in expected[i]! ? { description: t.description } : {}),
          memo: t.memo,
          checkNum: t.checkNum,
        }));
        expect(got).toEqual(expected);
        expect(read.transactions.every((t) => t.categorization.country === read.transactions[0]!.categorization.country)).toBe(true);
        expect(new Set(read.transactions.map((t) => `${t.accountRef} ${t.ref}`)).size).toBe(expected.length);
      }),
      { numRuns: 300 },
    );
  });
});
