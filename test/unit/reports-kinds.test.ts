import { describe, expect, it } from 'vitest';
import type { AccountRecord, TransactionRecord } from '../../src/modules/aggregation/records.js';
import type { ConsumerRecord } from '../../src/modules/consumers/records.js';
import type { DailyBalance, ReportAccountInput, ReportInput, ReportOptions } from '../../src/modules/reports/input.js';
import { REPORT_KINDS } from '../../src/modules/reports/kinds.js';

/** The worked example of docs/reports.md: its numbers are the ones asserted here. */
const AS_OF = Date.UTC(2026, 0, 15, 12) / 1000;
const at = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

const consumer: ConsumerRecord = {
  id: '0bf46322c167b562e6cbed9d40e19a4c',
  firstName: 'Alex',
  lastName: 'Morgan',
  customerId: 1005061234,
  address: '12 Elm St',
  city: 'Portland',
  state: 'OR',
  zip: '97201',
  phone: '',
  ssn: '6789',
  birthday: {},
  email: '',
  createdDate: AS_OF,
};

function account(id: string, type: string, balance: number, extra: Partial<AccountRecord> = {}): AccountRecord {
  return {
    id,
    number: 'xxxx1111',
    accountNumberDisplay: '1111',
    name: type === 'checking' ? 'Everyday Checking' : type === 'savings' ? 'Savings' : 'Card',
    balance,
    type,
    status: 'active',
    aggregationStatusCode: 0,
    customerId: '1005061234',
    institutionId: '101732',
    institutionLoginId: 1,
    currency: 'USD',
    balanceDate: AS_OF,
    createdDate: AS_OF,
    lastUpdatedDate: AS_OF,
    displayPosition: 1,
    ...extra,
  } as AccountRecord;
}

function tx(id: number, day: string, amount: number, description: string, category?: string): TransactionRecord {
  return {
    id,
    amount,
    accountId: 1,
    customerId: 1005061234,
    status: 'active',
    description,
    postedDate: at(day),
    transactionDate: at(day),
    createdDate: at(day),
    ...(category ? { categorization: { normalizedPayeeName: description, category, bestRepresentation: description, country: 'USA' } } : {}),
  } as TransactionRecord;
}

const days = (...pairs: [string, number][]): DailyBalance[] => pairs.map(([day, balance]) => ({ day, balance, availableBalance: null }));

const checking: ReportAccountInput = {
  account: account('5011000001', 'checking', 1215, { detail: { availableBalanceAmount: 1200 } } as Partial<AccountRecord>),
  institutionName: 'FinBank',
  institutionUrl: 'https://www.finbank.example',
  transactions: [
    tx(1, '2025-12-31', 500, 'ACME PAYROLL', 'Paycheck'),
    tx(2, '2026-01-05', -35, 'NSF FEE', 'Bank Fee'),
    tx(3, '2026-01-10', -250, 'RENT', 'Rent'),
  ],
  balances: days(['2025-12-01', 1000], ['2025-12-31', 1500], ['2026-01-05', 1465], ['2026-01-10', 1215]),
};
const savings: ReportAccountInput = {
  account: account('5011000002', 'savings', 5000),
  institutionName: 'FinBank',
  institutionUrl: 'https://www.finbank.example',
  transactions: [],
  balances: days(['2025-10-01', 4800], ['2026-01-01', 5000]),
};

function input(options: ReportOptions, type: keyof typeof REPORT_KINDS, accounts = [checking, savings]): ReportInput {
  return {
    customer: { id: 1005061234, partnerId: '1234567890123', type: 'testing' },
    consumer,
    asOf: AS_OF,
    period: REPORT_KINDS[type].period(options, AS_OF),
    accounts,
  };
}

describe('report kinds', () => {
  it('computes the VOA of the worked example', () => {
    const options = { showNsf: true };
    const body = REPORT_KINDS.voa.compute(input(options, 'voa'), options);
    const [c, s] = body.institutions![0]!.accounts;
    expect(c!.asset).toEqual({
      type: 'checking',
      availableBalance: 1200,
      currentBalance: 1215,
      twoMonthAverage: 1132.93,
      sixMonthAverage: 1132.93,
      beginningBalance: 1000,
    });
    expect(s!.asset).toEqual({
      type: 'savings',
      availableBalance: 5000,
      currentBalance: 5000,
      twoMonthAverage: 4849.18,
      sixMonthAverage: 4828.04,
      beginningBalance: 4800,
    });
    expect(c).toMatchObject({
      ownerName: 'ALEX MORGAN',
      ownerAddress: '12 ELM ST, PORTLAND, OR 97201',
      averageMonthlyBalance: 1132.93,
      totNumberInsufficientFundsFeeDebitTxAccount: 1,
      totNumberInsufficientFundsFeeDebitTxOver2MonthsAccount: 1,
      totNumberDaysSinceMostRecentInsufficientFundsFeeDebitTxAccount: 10,
      oldestTransactionDate: at('2025-12-31'),
    });
    expect(c!.transactions!.map((t) => t.description)).toEqual(['ACME PAYROLL', 'NSF FEE', 'RENT']);
    expect(body).toMatchObject({
      startDate: at('2025-12-31'),
      endDate: at('2026-01-10'),
      days: 10,
      seasoned: false,
      consolidatedAvailableBalance: 6200,
      assets: { type: 'all', availableBalance: 6200, currentBalance: 6215, twoMonthAverage: 5982.11, sixMonthAverage: 5960.97, beginningBalance: 5800 },
    });
    // No NSF counts unless asked for.
    const plain = REPORT_KINDS.voa.compute(input({}, 'voa'), {});
    expect(plain.institutions![0]!.accounts[0]).not.toHaveProperty('totNumberInsufficientFundsFeeDebitTxAccount');
  });

  it('gives the prequalification report NSF counts of checking accounts and no transactions', () => {
    const body = REPORT_KINDS.preQualVoa.compute(input({}, 'preQualVoa'), {});
    const [c, s] = body.institutions![0]!.accounts;
    expect(c).toMatchObject({ totNumberInsufficientFundsFeeDebitTxAccount: 1, totNumberInsufficientFundsFeeDebitTxOver6MonthsAccount: 1, transactions: [] });
    expect(s).not.toHaveProperty('totNumberInsufficientFundsFeeDebitTxAccount');
    expect(body.income).toBeUndefined();
    expect(REPORT_KINDS.voaHistory.compute(input({}, 'voaHistory'), {}).income).toEqual([]);
  });

  it('reads the default periods and clamps fromDate to how far back each kind reaches', () => {
    expect(REPORT_KINDS.voa.period({}, AS_OF).from).toBe(AS_OF - 365 * 86_400);
    expect(REPORT_KINDS.voaHistory.period({}, AS_OF).from).toBe(AS_OF - 61 * 86_400);
    expect(REPORT_KINDS.voaHistory.period({ fromDate: AS_OF - 1000 * 86_400 }, AS_OF).from).toBe(AS_OF - 730 * 86_400);
    // VOA with income reads 24 months of income whatever its own period, from incomeFromDate when later.
    expect(REPORT_KINDS.voaHistory.period({}, AS_OF).incomeFrom).toBe(AS_OF - 730 * 86_400);
    expect(REPORT_KINDS.voaHistory.period({ fromDate: AS_OF - 10 * 86_400 }, AS_OF).incomeFrom).toBe(AS_OF - 730 * 86_400);
    expect(REPORT_KINDS.voaHistory.period({ incomeFromDate: AS_OF - 100 * 86_400 }, AS_OF).incomeFrom).toBe(AS_OF - 100 * 86_400);
    expect(REPORT_KINDS.voaHistory.period({ incomeFromDate: AS_OF - 1000 * 86_400 }, AS_OF).incomeFrom).toBe(AS_OF - 730 * 86_400);
    expect(REPORT_KINDS.voa.period({}, AS_OF).incomeFrom).toBeUndefined();
    expect(REPORT_KINDS.voa.period({ fromDate: AS_OF - 10 * 86_400 }, AS_OF)).toEqual({
      from: AS_OF - 10 * 86_400,
      to: AS_OF,
      balancesFrom: AS_OF - 182 * 86_400,
    });
  });

  it('narrows the transactions report by findTransaction, newest first, without owners', () => {
    const card: ReportAccountInput = {
      ...savings,
      account: account('5011000003', 'creditCard', -80),
      transactions: [tx(4, '2026-01-02', -80, 'GROCER', 'Groceries')],
    };
    const options: ReportOptions = { fromDate: at('2025-12-01'), toDate: AS_OF, findTransaction: { findTransactionCategory: ['bank fee', 'groceries'] } };
    const body = REPORT_KINDS.transactions.compute(input(options, 'transactions', [checking, card]), options);
    const [c, k] = body.institutions![0]!.accounts;
    expect(c).toMatchObject({ transactionsCount: 1, transactions: [{ id: 2, amount: -35, category: 'Bank Fee' }] });
    expect(k).toMatchObject({ type: 'creditCard', transactionsCount: 1, transactions: [{ id: 4 }] });
    expect(c).not.toHaveProperty('ownerName');
    expect(body).toMatchObject({ startDate: at('2026-01-02'), endDate: at('2026-01-05'), days: 3, seasoned: false });
  });
});
