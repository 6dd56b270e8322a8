import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsReport } from '../../src/modules/reports/analysis/analytics.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { generateAndRun, profileCustomer, readReport, storedAnalysisInput } from '../helpers/report-generation.js';

interface AnalyticsJson {
  transactionalAttributes: unknown[];
  stateAttributes: unknown[];
  streams: unknown[];
}
interface AnalyticsReportJson {
  type: string;
  status: string;
  institutions: { accounts: { id: number; analytics: AnalyticsJson }[] }[];
  customerAnalytics: AnalyticsJson;
}

describe('the balance and cash flow analytics reports', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
  });
  afterAll(() => ctx?.close());

  /** Generates the report for a profile and checks it against the analytics analysis of the same stored data. */
  async function generateFor(profile: string, kind: 'balance' | 'cashflow' | 'paymentHistory', userType: 'personal' | 'business', body: object, type: string) {
    const { customerId, accounts } = await profileCustomer(ctx, partner, profile);
    const url =
      kind === 'paymentHistory'
        ? `/decisioning/customers/${customerId}/reports/payment-history/userTypes/business`
        : `/decisioning/v2/customers/${customerId}/reports/${kind}-analytics/userTypes/${userType}`;
    const id = await generateAndRun(ctx, partner, url, JSON.stringify(body));
    const res = await readReport(ctx, partner, customerId, id);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<AnalyticsReportJson>();
    expect([report.type, report.status]).toEqual([type, 'success']);

    const intervals = (body as { analyticsReportData?: { timeIntervalTypes?: ('MONTHLY_CALENDAR' | 'HISTORICALLY')[] } }).analyticsReportData
      ?.timeIntervalTypes ?? ['MONTHLY_CALENDAR'];
    const expected = analyticsReport(await storedAnalysisInput(ctx, partner, customerId, accounts, 730), kind, {
      intervals,
      business: userType === 'business',
    });
    expect(report.customerAnalytics).toEqual(expected.customer);
    const reported = report.institutions.flatMap((i) => i.accounts);
    for (const a of expected.accounts) expect(reported.find((r) => r.id === a.accountId)!.analytics).toEqual(a.analytics);

    const xml = await readReport(ctx, partner, customerId, id, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<customerAnalytics>');
    expect((await readReport(ctx, stranger, customerId, id)).statusCode).toBe(404);
    const foreign = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...stranger.headers, accept: 'application/json', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(foreign.statusCode).toBe(404);
    if (kind === 'paymentHistory') return report;
    const badUserType = await ctx.app.inject({
      method: 'POST',
      url: url.replace(`/userTypes/${userType}`, '/userTypes/robot'),
      headers: { ...partner.headers, accept: 'application/json', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(badUserType.statusCode).toBe(400);
    return report;
  }

  it("reports overdrawn's balance analytics, personal and non-CRA by default", async () => {
    const report = await generateFor('overdrawn', 'balance', 'personal', {}, 'barpnoncra');
    expect(report.customerAnalytics.stateAttributes.length).toBeGreaterThan(0);
  }, 120_000);

  it("reports borrower's cash flow analytics for a business, for CRA purposes, by calendar month and historically", async () => {
    const report = await generateFor(
      'borrower',
      'cashflow',
      'business',
      { analyticsReportData: { forCraPurpose: true, timeIntervalTypes: ['MONTHLY_CALENDAR', 'HISTORICALLY'] } },
      'cfrbcra',
    );
    expect(report.customerAnalytics.transactionalAttributes.length).toBeGreaterThan(0);
    expect(report.customerAnalytics.streams.length).toBeGreaterThan(0);
  }, 120_000);

  it("reports borrower's payments to its lenders in a payment history report, non-CRA by default", async () => {
    const report = await generateFor('borrower', 'paymentHistory', 'business', {}, 'phrbnoncra');
    expect(report.customerAnalytics.transactionalAttributes.length).toBeGreaterThan(0);
    expect(JSON.stringify(report.customerAnalytics.streams)).toContain('OnDeck Capital');
  }, 120_000);
});
