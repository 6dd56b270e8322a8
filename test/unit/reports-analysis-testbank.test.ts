import { describe, expect, it } from 'vitest';
import { analyticsReport } from '../../src/modules/reports/analysis/analytics.js';
import { monthOfDay } from '../../src/modules/reports/analysis/dates.js';
import { incomeAnalysis, insufficientFundsAnalysis, paymentHistoryAnalysis } from '../../src/modules/reports/analysis/lending.js';
import { testBankAnalysisInput } from '../helpers/analysis-input.js';

describe("the lending analyses over the test bank's profiles", () => {
  it('finds the biweekly and the monthly pay of salaried, a year of each adding up to its paydays', async () => {
    const analysis = incomeAnalysis(await testBankAnalysisInput('salaried'));
    const streams = analysis.accounts.flatMap((a) => a.incomeStreams);
    expect(streams.map((s) => [s.name, s.cadence.name, s.status, s.estimateInclusion, s.confidence])).toEqual([
      ['Wide World Importers', 'monthly', 'ACTIVE', 'HIGH', 100],
      ['Tailspin Toys', 'biweekly', 'ACTIVE', 'HIGH', 100],
    ]);
    // 2025 (the last twelve complete months before 2026-01-15) has 26 Friday paydays from 2025-01-10 and 12 monthly ones.
    expect(streams.map((s) => [s.netAnnual, s.projectedNetAnnual])).toEqual([
      [7680, 7680],
      [58240, 58240],
    ]);
    expect(analysis.income.map((i) => [i.confidenceType, i.incomeEstimate.netAnnual])).toEqual([['HIGH', 65920]]);
  });

  it('finds the overdraft and NSF fees of overdrawn, each with the days below zero around it', async () => {
    const [summary] = insufficientFundsAnalysis(await testBankAnalysisInput('overdrawn'));
    expect(summary!.overdraftFeeCount).toBeGreaterThan(10);
    expect(summary!.nsfFeeCount).toBeGreaterThan(5);
    expect(summary!.returnedItemCount).toBe(summary!.nsfFeeCount);
    expect(summary!.fees.every((f) => f.amount === -35)).toBe(true);
    expect(summary!.feeTotal).toBe(-35 * summary!.feeCount);
    expect(summary!.negativeBalanceDays).toBeGreaterThan(summary!.overdraftFeeCount);
  });

  it("finds borrower's loan and card payments, and the outside lender's payment skipped every fifth month", async () => {
    const history = paymentHistoryAnalysis(await testBankAnalysisInput('borrower'));
    expect(history.streams.map((s) => [s.kind, s.payee, s.cadence, s.status])).toEqual([
      ['loan', 'FinBank Auto Finance', 'monthly', 'active'],
      ['loan', 'FinBank', 'monthly', 'active'],
      ['loan', 'OnDeck Capital', 'monthly', 'active'],
      ['loan', 'FinBank Business Lending', 'monthly', 'active'],
      ['creditCard', 'FinBank', 'monthly', 'active'],
    ]);
    const ondeck = history.streams.find((s) => s.payee === 'OnDeck Capital')!;
    expect(ondeck.missedDays).toHaveLength(5);
    for (const day of ondeck.missedDays) expect(monthOfDay(day) % 5).toBe(0);
    expect(ondeck.transactions.every((t) => t.amount === -1250)).toBe(true);
  });

  it("reports borrower's missed loan payments day by day in the payment history analytics", async () => {
    const input = await testBankAnalysisInput('borrower');
    const result = analyticsReport(input, 'paymentHistory', { intervals: ['HISTORICALLY'] });
    const missed = result.customer.stateAttributes.find((a) => a.attributeName === 'MISSED_RECURRING_LOAN_PAYMENTS')!;
    const whole = missed.reportedByTimePeriods[0]!.periods[0]!;
    expect(whole.count).toBe(731);
    expect(whole.sum).toBe(paymentHistoryAnalysis(input).missedCount);
    const score = result.customer.stateAttributes.find((a) => a.attributeName === 'PAYMENT_RISK_SCORE')!.reportedByTimePeriods[0]!.periods[0]!;
    expect(score.max).toBeGreaterThan(0);
  });
});
