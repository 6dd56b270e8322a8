import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyticsReport, type Period } from '../../src/modules/reports/analysis/analytics.js';
import { dayOfText, dayText } from '../../src/modules/reports/analysis/dates.js';
import { incomeCandidates } from '../../src/modules/reports/analysis/income.js';
import { cashFlowAnalysis, incomeAnalysis } from '../../src/modules/reports/analysis/lending.js';
import type { AnalysisAccount, AnalysisInput, AnalysisTransaction } from '../../src/modules/reports/analysis/types.js';

const FIRST = dayOfText('2025-01-01');
const DAYS = 200;
const NOW = (FIRST + DAYS - 1) * 86_400 + 43_200;
const accounts: AnalysisAccount[] = [
  { id: 1, name: 'Checking', type: 'checking', currency: 'USD' },
  { id: 2, name: 'Savings', type: 'savings', currency: 'USD' },
  { id: 3, name: 'Card', type: 'creditCard', currency: 'USD' },
];
const PAYERS = ['ACME PAYROLL', 'STATE PENSION', 'KROGER', 'SHELL OIL', 'NSF RETURNED ITEM FEE', 'OVERDRAFT FEE', 'AUTO LOAN PAYMENT', 'ONLINE TRANSFER'];
const CATEGORIES = [undefined, 'Paycheck', 'Groceries', 'Transfer', 'Restaurants', 'Loan Payment', 'Bank Fee', 'Auto Insurance'];

const transactionArb = fc.record({
  accountId: fc.constantFrom(1, 2, 3),
  cents: fc.integer({ min: -300_000, max: 300_000 }).filter((c) => c !== 0),
  day: fc.integer({ min: -20, max: DAYS + 10 }),
  description: fc.constantFrom(...PAYERS),
  category: fc.constantFrom(...CATEGORIES),
  type: fc.constantFrom(undefined, 'fee', 'payment', 'directDeposit', 'transfer'),
});

const inputArb = fc
  .record({
    rows: fc.array(transactionArb, { maxLength: 120 }),
    balances: fc.array(
      fc.record({ accountId: fc.constantFrom(1, 2, 3), day: fc.integer({ min: -5, max: DAYS }), cents: fc.integer({ min: -500_000, max: 500_000 }) }),
      {
        maxLength: 40,
      },
    ),
  })
  .map(({ rows, balances }): AnalysisInput => {
    const transactions: AnalysisTransaction[] = rows.map((r, i) => ({
      id: 1000 + i,
      accountId: r.accountId,
      amount: r.cents / 100,
      postedDate: (FIRST + r.day) * 86_400 + 43_200,
      description: r.description,
      ...(r.category ? { category: r.category } : {}),
      ...(r.type ? { type: r.type } : {}),
    }));
    const seen = new Set<string>();
    const dailyBalances = balances
      .filter((b) => !seen.has(`${b.accountId}:${b.day}`) && seen.add(`${b.accountId}:${b.day}`))
      .map((b) => ({ accountId: b.accountId, day: dayText(FIRST + b.day), balance: b.cents / 100 }));
    return { accounts, transactions, dailyBalances, fromDate: FIRST * 86_400, now: NOW, holderName: 'Pat Doe' };
  });

const shuffled = <T>(list: readonly T[], seed: number): T[] => {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

const periodSum = (periods: readonly Period[]) => Math.round(periods.reduce((a, p) => a + (p.sum ?? 0), 0) * 100);
const historically = { intervals: ['HISTORICALLY'] as const };

describe('analysis invariants', () => {
  it('gives the same answer whatever order the transactions and balances come in', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 1, max: 1_000_000 }), (data, seed) => {
        const other = { ...data, transactions: shuffled(data.transactions, seed), dailyBalances: shuffled(data.dailyBalances, seed + 1) };
        expect(incomeAnalysis(other)).toEqual(incomeAnalysis(data));
        expect(cashFlowAnalysis(other)).toEqual(cashFlowAnalysis(data));
        for (const kind of ['cashflow', 'paymentHistory', 'balance'] as const) {
          expect(analyticsReport(other, kind, { intervals: ['MONTHLY_CALENDAR'] })).toEqual(analyticsReport(data, kind, { intervals: ['MONTHLY_CALENDAR'] }));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('never makes an income stream of one deposit, and splits deposits into streams and miscellaneous ones', () => {
    fc.assert(
      fc.property(inputArb, (data) => {
        const analysis = incomeAnalysis(data);
        const candidates = incomeCandidates(
          data.accounts,
          data.transactions.filter((t) => t.postedDate >= data.fromDate && t.postedDate <= NOW),
        );
        const seen: number[] = [];
        for (const account of analysis.accounts) {
          for (const s of account.incomeStreams) {
            expect(new Set(s.transactions.map((t) => Math.floor(t.postedDate / 86_400))).size).toBeGreaterThanOrEqual(2);
            expect(s.confidence).toBeGreaterThanOrEqual(0);
            expect(s.confidence).toBeLessThanOrEqual(100);
            seen.push(...s.transactions.map((t) => t.id));
          }
          seen.push(...account.miscDeposits.map((t) => t.id));
        }
        expect(seen.sort()).toEqual(candidates.map((t) => t.id).sort());
      }),
    );
  });

  it('finds a regular deposit at its cadence, whatever its day, amount and length', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(7, 14, 30, 91),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 10_000, max: 900_000 }),
        fc.integer({ min: 3, max: 12 }),
        (step, start, cents, count) => {
          const deposits = Array.from({ length: count }, (_, i) => ({
            id: i + 1,
            accountId: 1,
            amount: cents / 100,
            postedDate: (FIRST + start + i * step) * 86_400,
            description: 'ACME CORP PAYROLL',
            category: 'Paycheck',
          }));
          const lastDay = FIRST + start + (count - 1) * step;
          const data: AnalysisInput = { accounts, transactions: deposits, dailyBalances: [], fromDate: FIRST * 86_400, now: (lastDay + 1) * 86_400 };
          const streams = incomeAnalysis(data).accounts[0]!.incomeStreams;
          expect(streams).toHaveLength(1);
          expect(streams[0]!.cadence.days).toBe(step === 7 ? 7 : step === 14 ? 14 : step === 30 ? 30 : 91);
          expect(streams[0]!.status).toBe('ACTIVE');
          expect(streams[0]!.transactions).toHaveLength(count);
        },
      ),
    );
  });

  it("adds up: each month's net is its credits and debits, the customer's cash flow the accounts'", () => {
    fc.assert(
      fc.property(inputArb, (data) => {
        const analysis = cashFlowAnalysis(data);
        const { cashFlow } = analysis.summary;
        cashFlow.months.forEach((m, i) => {
          expect(Math.round(cashFlow.net[i]!.totalCreditsLessTotalDebits * 100)).toBe(
            Math.round((cashFlow.credits[i]!.totalCreditsAmount + cashFlow.debits[i]!.totalDebitsAmount) * 100),
          );
          const ofAccounts = analysis.accounts.reduce((a, acc) => a + acc.cashFlow.credits[i]!.totalCreditsAmount, 0);
          expect(Math.round(cashFlow.credits[i]!.totalCreditsAmount * 100)).toBe(Math.round(ofAccounts * 100));
          expect(cashFlow.credits[i]!.month).toBe(m);
        });
      }),
    );
  });

  it('adds up in the analytics: inflow and outflow make all flows, the daily nets make them too, the accounts make the customer', () => {
    fc.assert(
      fc.property(inputArb, (data) => {
        const result = analyticsReport(data, 'cashflow', historically);
        const sumOf = (list: typeof result.customer.transactionalAttributes, name: string) =>
          periodSum(list.find((a) => a.attributeName === name)!.aggregatedByTimePeriods[0]!.periods);
        const c = result.customer.transactionalAttributes;
        expect(sumOf(c, 'ALL_CASH_FLOWS')).toBe(sumOf(c, 'CASH_INFLOW') + sumOf(c, 'CASH_OUTFLOW'));
        const net = result.customer.stateAttributes.find((a) => a.attributeName === 'NET_CASH_FLOW')!.reportedByTimePeriods[0]!.periods;
        expect(periodSum(net)).toBe(sumOf(c, 'ALL_CASH_FLOWS'));
        expect(net[0]!.count).toBe(DAYS);
        const accountsTotal = result.accounts.reduce((a, acc) => a + sumOf(acc.analytics.transactionalAttributes, 'ALL_CASH_FLOWS'), 0);
        expect(accountsTotal).toBe(sumOf(c, 'ALL_CASH_FLOWS'));
      }),
    );
  });

  it('keeps balance figures in order: lowest, average, highest; negative and positive days within the days', () => {
    fc.assert(
      fc.property(inputArb, (data) => {
        for (const account of cashFlowAnalysis(data).accounts) {
          const s = account.balances.summary;
          if (!s) continue;
          expect(s.min).toBeLessThanOrEqual(s.average + 0.005);
          expect(s.average).toBeLessThanOrEqual(s.max + 0.005);
          expect(s.daysNegative + s.daysPositive).toBeLessThanOrEqual(s.days);
          expect(account.insufficientFunds.negativeBalanceDays).toBe(s.daysNegative);
        }
      }),
    );
  });
});
