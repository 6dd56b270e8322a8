import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cashFlowAnalysis } from '../../src/modules/reports/analysis/lending.js';
import { cashFlowAccountRecord, cashFlowSummaryRecord } from '../../src/modules/reports/analysis/records.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { createConsumer } from '../helpers/consumers.js';
import { addCustomer } from '../helpers/customers.js';
import { generateAndRun, profileCustomer, readReport, storedAnalysisInput } from '../helpers/report-generation.js';
import { ofxStatementFile } from '../helpers/statement-files.js';
import { openStatementContext, uploadStatementOk } from '../helpers/statement-uploads.js';

type Json = Record<string, unknown>;
interface CashFlowReportJson extends Json {
  type: string;
  status: string;
  institutions: { accounts: (Json & { id: number; transactions: unknown[] })[] }[];
  cashFlowBalanceSummary: Json & { numberOfDaysNegativeBalance: string };
}

describe('the cash flow reports', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
  });
  afterAll(() => ctx?.close());

  /** Generates the report for a profile and checks it against the cash flow analysis of the same stored data. */
  async function generateFor(profile: string, path: 'cashFlowPersonal' | 'cashFlowBusiness', type: string) {
    const { customerId, accounts } = await profileCustomer(ctx, partner, profile);
    const id = await generateAndRun(ctx, partner, `/decisioning/v2/customers/${customerId}/${path}`);
    const res = await readReport(ctx, partner, customerId, id);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<CashFlowReportJson>();
    expect([report.type, report.status]).toEqual([type, 'success']);

    // The report reads 24 months by default: the analysis over the same stored data and window.
    const analysis = cashFlowAnalysis(await storedAnalysisInput(ctx, partner, customerId, accounts, 730));
    const summary = cashFlowSummaryRecord(analysis.summary.balances, analysis.summary.cashFlow);
    for (const [field, value] of Object.entries(summary)) expect(report[field], field).toEqual(value);
    const reported = report.institutions.flatMap((i) => i.accounts);
    expect(reported.map((a) => a.id).sort()).toEqual(analysis.accounts.map((a) => a.accountId).sort());
    for (const figures of analysis.accounts) {
      const account = reported.find((a) => a.id === figures.accountId)!;
      for (const [field, value] of Object.entries(cashFlowAccountRecord(figures.balances, figures.cashFlow))) expect(account[field], field).toEqual(value);
    }

    // The credits that look like borrowed money, per account, as the analysis finds them in the same data.
    const loans = report.possibleLoanDeposits as { institutions: { accounts: { id: string; transactions: { id: number }[] }[] }[] }[];
    const byAccount = (list: [number, number[]][]) => list.sort((x, y) => x[0] - y[0]);
    expect(
      byAccount(
        loans.flatMap((l) => l.institutions.flatMap((i) => i.accounts.map((a): [number, number[]] => [Number(a.id), a.transactions.map((t) => t.id)]))),
      ),
    ).toEqual(byAccount(analysis.possibleLoanDeposits.map((l): [number, number[]] => [l.accountId, l.transactions.map((t) => t.id)])));

    const xml = await readReport(ctx, partner, customerId, id, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<cashFlowBalanceSummary>');
    expect((await readReport(ctx, stranger, customerId, id)).statusCode).toBe(404);
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: `/decisioning/v2/customers/${customerId}/${path}`,
      headers: { ...stranger.headers, accept: 'application/json', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(foreign.statusCode).toBe(404);
    return { report, analysis };
  }

  it("reports overdrawn's months below zero in a personal cash flow report", async () => {
    const { report, analysis } = await generateFor('overdrawn', 'cashFlowPersonal', 'cfrp');
    expect(Number(report.cashFlowBalanceSummary.numberOfDaysNegativeBalance)).toBeGreaterThan(0);
    expect(analysis.summary.cashFlow.credits.length).toBeGreaterThan(0);
    expect(report.institutions.flatMap((i) => i.accounts).every((a) => a.transactions.length > 0)).toBe(true);
  }, 120_000);

  it("reports borrower's credits and debits in a business cash flow report", async () => {
    const { report, analysis } = await generateFor('borrower', 'cashFlowBusiness', 'cfrb');
    const credits = report.cashFlowCreditSummary as { sixMonthCreditTotal: number };
    expect(credits.sixMonthCreditTotal).toBe(analysis.summary.cashFlow.creditTotals.six);
    expect(credits.sixMonthCreditTotal).toBeGreaterThan(0);
  }, 120_000);
});

describe('possible loan deposits in a cash flow report', () => {
  let opened: TestContext | undefined;
  afterAll(() => opened?.close());

  it('lists a large credit from a lender as a possible loan deposit, in JSON and XML, and not the paychecks beside it', async () => {
    const { ctx, partner } = await openStatementContext('2026-04-15T12:00:00Z');
    opened = ctx;
    const customerId = await addCustomer(ctx, partner);
    const pay = ['20260102', '20260116', '20260130', '20260213', '20260227', '20260313', '20260327'].map((date, i) => ({
      fitId: `P${i}`,
      date,
      amount: 1500,
      name: 'ACME CORP PAYROLL',
    }));
    const file = ofxStatementFile([
      {
        acctId: '7000111222',
        balance: 20_000,
        transactions: [
          ...pay,
          { fitId: 'L1', date: '20260210', amount: 12_000, name: 'SOFI LENDING CORP ACH CREDIT' },
          { fitId: 'R1', date: '20260212', amount: 300, name: 'AVANT FINANCE REFUND' },
        ],
      },
    ]);
    const upload = await uploadStatementOk(ctx, partner, customerId, file, { type: 'application/x-ofx' });
    await createConsumer(ctx, partner, customerId);
    const id = await generateAndRun(ctx, partner, `/decisioning/v2/customers/${customerId}/cashFlowPersonal`);
    const report = (await readReport(ctx, partner, customerId, id)).json<CashFlowReportJson>();
    const loans = report.possibleLoanDeposits as {
      institutions: { id: string; accounts: { id: string; transactions: { amount: number; description: string }[] }[] }[];
    }[];
    expect(loans).toHaveLength(1);
    expect(loans[0]!.institutions).toHaveLength(1);
    const [account] = loans[0]!.institutions[0]!.accounts;
    expect(account!.id).toBe(String(upload.accounts[0].id));
    expect(account!.transactions.map((t) => [t.amount, t.description])).toEqual([[12_000, 'SOFI LENDING CORP ACH CREDIT']]);

    const xml = await readReport(ctx, partner, customerId, id, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toMatch(/<possibleLoanDeposits><institutions><id>\d+<\/id>.*<description>SOFI LENDING CORP ACH CREDIT<\/description>/s);
  }, 120_000);
});
