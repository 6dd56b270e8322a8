import { Ajv } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { analyticsReport } from '../../src/modules/reports/analysis/analytics.js';
import { cashFlowAnalysis, incomeAnalysis } from '../../src/modules/reports/analysis/lending.js';
import {
  analyticsRecord,
  cashFlowAccountRecord,
  cashFlowSummaryRecord,
  incomeStreamRecord,
  incomeSummaryRecord,
} from '../../src/modules/reports/analysis/records.js';
import { testBankAnalysisInput } from '../helpers/analysis-input.js';
import { loadReference } from '../helpers/conformance.js';

const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
formatsPlugin.default(ajv);
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addSchema({ components: (loadReference() as { components: unknown }).components }, 'reference');

/** Validates a value against one of the reference's component schemas, naming what fails. */
function expectReference(name: string, value: unknown): void {
  const validate = ajv.compile({ $ref: `reference#/components/schemas/${name}` });
  expect(validate(value), `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
}

const reportTransaction = (t: { id: number; amount: number; postedDate: number; description: string }) => ({
  id: t.id,
  amount: t.amount,
  postedDate: t.postedDate,
  description: t.description,
});

describe("the analyses' records against the reference's shapes", () => {
  it('refuses what the reference would (the check checks)', () => {
    expect(ajv.compile({ $ref: 'reference#/components/schemas/CashFlowCashFlowBalance' })({ monthlyCashFlowBalances: [] })).toBe(false);
  });

  it('gives income streams and summaries the shape of VOI', async () => {
    const analysis = incomeAnalysis(await testBankAnalysisInput('salaried'), { idPrefix: 'r-voi' });
    const streams = analysis.accounts.flatMap((a) => a.incomeStreams).map((s) => incomeStreamRecord(s, reportTransaction));
    expect(streams.length).toBe(2);
    for (const s of streams) expectReference('VOIReportIncomeStream', s);
    for (const s of analysis.income.map(incomeSummaryRecord)) expectReference('ReportIncomeStreamSummary', s);
    expect(streams[0]!.netMonthly![0]!.month % 86_400).toBe(0);
  });

  it("gives the cash flow figures the shape of the cash flow report's accounts and summaries", async () => {
    const analysis = cashFlowAnalysis(await testBankAnalysisInput('overdrawn'));
    const account = cashFlowAccountRecord(analysis.accounts[0]!.balances, analysis.accounts[0]!.cashFlow);
    expectReference('CashFlowCashFlowBalance', account.cashFlowBalance);
    expectReference('CashFlowCashFlowCredit', account.cashFlowCredit);
    expectReference('CashFlowCashFlowDebit', account.cashFlowDebit);
    expectReference('CashFlowCashFlowCharacteristic', account.cashFlowCharacteristic);
    const summary = cashFlowSummaryRecord(analysis.summary.balances, analysis.summary.cashFlow);
    expectReference('CashFlowCashFlowBalanceSummary', summary.cashFlowBalanceSummary);
    expectReference('CashFlowCashFlowCreditSummary', summary.cashFlowCreditSummary);
    expectReference('CashFlowCashFlowDebitSummary', summary.cashFlowDebitSummary);
    expectReference('CashFlowCashFlowCharacteristicsSummary', summary.cashFlowCharacteristicsSummary);
    expect(Number(account.cashFlowBalance.numberDaysNegativeBalance)).toBe(analysis.accounts[0]!.insufficientFunds.negativeBalanceDays);
  });

  it('gives the analytics the shape of the analytics reports, for each kind', async () => {
    const input = await testBankAnalysisInput('borrower');
    for (const kind of ['balance', 'cashflow', 'paymentHistory'] as const) {
      const result = analyticsReport(input, kind, { intervals: ['MONTHLY_CALENDAR', 'MONTHLY_ROLLING_30', 'HISTORICALLY'], business: true });
      expectReference('CustomerAnalytics', analyticsRecord(result.customer));
      for (const a of result.accounts) expectReference('AccountAnalytics', analyticsRecord(a.analytics));
    }
  });
});
