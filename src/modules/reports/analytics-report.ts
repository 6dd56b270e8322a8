/**
 * The balance, cash flow and payment history analytics reports (docs/reports.md): each account's analytics and the customer's, from
 * the analytics analysis over the period, by the time intervals asked for.
 */
import type { ANALYTICS_REPORT_TYPES, ReportType } from '../../contract/schemas/reports.js';
import { analyticsReport as analyse } from './analysis/analytics.js';
import { analysisInputOf } from './analysis/from-records.js';
import { analyticsRecord } from './analysis/records.js';
import { byInstitution, coverage, reportAccountBase } from './assets.js';
import type { ReportInput, ReportOptions } from './input.js';
import type { ReportBody } from './records.js';

export type AnalyticsReportType = (typeof ANALYTICS_REPORT_TYPES)[number];
export type AnalysisKind = 'balance' | 'cashflow' | 'paymentHistory';

/** The reference's type prefix of each analysis. */
export const PREFIXES: Record<AnalysisKind, string> = { balance: 'bar', cashflow: 'cfr', paymentHistory: 'phr' };

/** The type of an analytics report, from its analysis, the user type and the purpose asked for. */
export function analyticsReportType(
  analysis: AnalysisKind,
  userType: 'personal' | 'business',
  purpose: { forCraPurpose?: boolean; forFtcPurpose?: boolean } | undefined,
): ReportType {
  const business = userType === 'business';
  // FTC is a business purpose only; a personal report asked for FTC is a non-CRA one unless CRA is asked.
  const suffix = business && purpose?.forFtcPurpose ? 'ftc' : purpose?.forCraPurpose ? 'cra' : 'noncra';
  return `${PREFIXES[analysis]}${business ? 'b' : 'p'}${suffix}` as AnalyticsReportType;
}

/** The compute function of one analytics kind. */
export const analyticsReportOf =
  (analysis: AnalysisKind, business: boolean) =>
  (input: ReportInput, options: ReportOptions): ReportBody => {
    const result = analyse(analysisInputOf(input.accounts, { from: input.period.from, asOf: input.asOf }), analysis, {
      intervals: options.timeIntervalTypes ?? ['MONTHLY_CALENDAR'],
      business,
    });
    const byAccount = new Map(result.accounts.map((a) => [a.accountId, a.analytics]));
    const institutions = byInstitution(input, (a) => ({ ...reportAccountBase(a, input), analytics: analyticsRecord(byAccount.get(Number(a.account.id))!) }));
    // The reference calls an analytics report seasoned past 365 days.
    return { ...coverage(input, 365), institutions, customerAnalytics: analyticsRecord(result.customer) };
  };
