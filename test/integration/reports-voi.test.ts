import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../src/modules/aggregation/records.js';
import { incomeAnalysis } from '../../src/modules/reports/analysis/lending.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { generateAndRun, profileCustomer, readReport, storedAnalysisInput } from '../helpers/report-generation.js';

interface StreamJson {
  id: string;
  name: string;
  cadence: { days: number };
  projectedNetAnnual: number;
  averageMonthlyIncomeNet: number;
  transactions: { amount: number }[];
}

describe('Verification of Income', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let customerId: string;
  let accounts: AccountRecord[];

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    ({ customerId, accounts } = await profileCustomer(ctx, partner, 'salaried'));
  }, 120_000);
  afterAll(() => ctx?.close());

  it("reports salaried's income streams and summaries as the income analysis finds them, in JSON and XML", async () => {
    const id = await generateAndRun(ctx, partner, `/decisioning/v2/customers/${customerId}/voi`);
    const res = await readReport(ctx, partner, customerId, id);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<{
      type: string;
      status: string;
      income: { confidenceType: string; incomeEstimate: { projectedNetAnnual: number } }[];
      institutions: { accounts: { id: number; incomeStreams: StreamJson[] }[] }[];
    }>();
    expect([report.type, report.status]).toEqual(['voi', 'success']);

    // The VOI reads 24 months: the analysis over the same stored data and window.
    const expected = incomeAnalysis(await storedAnalysisInput(ctx, partner, customerId, accounts, 730));
    const got = report.institutions
      .flatMap((i) => i.accounts)
      .flatMap((a) => a.incomeStreams)
      .map((s) => [s.name, s.cadence.days, s.projectedNetAnnual, s.averageMonthlyIncomeNet, s.transactions.length])
      .sort();
    const want = expected.accounts
      .flatMap((a) => a.incomeStreams)
      .map((s) => [s.name, s.cadence.days, s.projectedNetAnnual, s.averageMonthlyIncomeNet, s.transactions.length])
      .sort();
    expect(got).toEqual(want);
    expect(got.map((s) => s[0])).toEqual(['Tailspin Toys', 'Wide World Importers']);
    expect(report.income.map((s) => [s.confidenceType, s.incomeEstimate.projectedNetAnnual])).toEqual(
      expected.income.map((s) => [s.confidenceType, s.incomeEstimate.projectedNetAnnual]),
    );
    expect(report.income[0]!.incomeEstimate.projectedNetAnnual).toBe(2240 * 26 + 640 * 12);

    const xml = await readReport(ctx, partner, customerId, id, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<name>Tailspin Toys</name>');
    expect((await readReport(ctx, stranger, customerId, id)).statusCode).toBe(404);
  });

  it('answers 404 to another partner generating for the customer', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/decisioning/v2/customers/${customerId}/voi`,
      headers: { ...stranger.headers, accept: 'application/json', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
  });
});
