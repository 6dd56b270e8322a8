/**
 * The report kinds: one row per report type, saying which accounts it covers, what period it reads and how its body
 * is computed from a ReportInput. The lifecycle (service.ts), the routes, the PDF and the lists are the same for
 * every kind, so a new report is a row here, its compute function, its type in REPORT_TYPES
 * (contract/schemas/reports.ts) and its Generate route.
 */
import { ANALYTICS_REPORT_TYPES, type ReportType } from '../../contract/schemas/reports.js';
import { type AnalysisKind, type AnalyticsReportType, analyticsReportOf, PREFIXES } from './analytics-report.js';
import { assetSummaryReport, prequalificationReport, voaReport, voaWithIncomeReport, voiReport } from './assets.js';
import { DAY } from './balances.js';
import { cashFlowReport } from './cash-flow-report.js';
import { ASSET_ACCOUNT_TYPES } from './analysis/types.js';
import type { ReportInput, ReportOptions, ReportPeriod } from './input.js';
import type { ReportBody } from './records.js';
import { transactionsReport, transactionsReportPeriod } from './transactions-report.js';

/** The statement report's body: the asset id of its statement, which Get Asset by Customer and ID answers. */
function statementReport(input: ReportInput): ReportBody {
  if (!input.statement) throw new Error('A statement report is computed with its statement.');
  return { assetId: input.statement.assetId };
}

export interface ReportKind {
  type: ReportType;
  /** The report's title, in answers and on the PDF. */
  title: string;
  /** The account types it covers ('all': any); a customer with none of them (among the accounts asked for) gets 400. */
  accepts: ReadonlySet<string> | 'all';
  /** What `accepts` says, for error messages. */
  acceptsText: string;
  /** The period it reads, from the options and the customer's clock (validated before: see service.ts). */
  period(options: ReportOptions, asOf: number): ReportPeriod;
  /** Its body: a pure function of the input and the options. */
  compute(input: ReportInput, options: ReportOptions): ReportBody;
}

const ASSET_TEXT = 'checking, savings, money market or investment';

/** How far back an asset report reads by default, and at most, in days. */
const history =
  (defaultDays: number, maxDays: number, balanceDays = 182) =>
  (options: ReportOptions, asOf: number): ReportPeriod => {
    const earliest = asOf - maxDays * DAY;
    const from = Math.max(options.fromDate ?? asOf - defaultDays * DAY, earliest);
    return { from, to: asOf, balancesFrom: Math.min(from, asOf - balanceDays * DAY) };
  };

/** How far back the income of VOA with income reads, in days, whatever the report's own period (as the reference says). */
export const INCOME_HISTORY_DAYS = 730;

/** VOA with income: its own period for the assets, and the income part from incomeFromDate or INCOME_HISTORY_DAYS back. */
function assetsWithIncome(options: ReportOptions, asOf: number): ReportPeriod {
  const period = history(61, 730)(options, asOf);
  const earliest = asOf - INCOME_HISTORY_DAYS * DAY;
  return { ...period, incomeFrom: Math.max(options.incomeFromDate ?? earliest, earliest) };
}

/** A statement report reads no history of its own: the statement is the statements module's (worker.ts finds it). */
const statementPeriod = (_options: ReportOptions, asOf: number): ReportPeriod => ({ from: asOf, to: asOf, balancesFrom: asOf });

const PURPOSES: Record<string, string> = { cra: 'CRA', noncra: 'non-CRA', ftc: 'FTC' };

/** The analytics kinds: one per analysis, user type and purpose, alike but for their titles and business flag. */
function analyticsKind(type: AnalyticsReportType): ReportKind {
  const analysis = (Object.keys(PREFIXES) as AnalysisKind[]).find((k) => type.startsWith(PREFIXES[k]))!;
  const business = type[3] === 'b';
  const name = { balance: 'Balance Analytics', cashflow: 'Cash Flow Analytics', paymentHistory: 'Payment History' }[analysis];
  return {
    type,
    title: `${name} Report - ${business ? 'Business' : 'Personal'} (${PURPOSES[type.slice(4)]})`,
    accepts: 'all',
    acceptsText: 'any',
    period: history(730, 730),
    compute: analyticsReportOf(analysis, business),
  };
}

const ANALYTICS_KINDS = Object.fromEntries(ANALYTICS_REPORT_TYPES.map((t) => [t, analyticsKind(t)])) as Record<AnalyticsReportType, ReportKind>;

export const REPORT_KINDS: Record<ReportType, ReportKind> = {
  ...ANALYTICS_KINDS,
  voa: {
    type: 'voa',
    title: 'Verification of Assets',
    accepts: ASSET_ACCOUNT_TYPES,
    acceptsText: ASSET_TEXT,
    period: history(365, 365),
    compute: voaReport,
  },
  voaHistory: {
    type: 'voaHistory',
    title: 'Verification of Assets with Income',
    accepts: ASSET_ACCOUNT_TYPES,
    acceptsText: ASSET_TEXT,
    period: assetsWithIncome,
    compute: voaWithIncomeReport,
  },
  preQualVoa: {
    type: 'preQualVoa',
    title: 'Prequalification Report (CRA)',
    accepts: ASSET_ACCOUNT_TYPES,
    acceptsText: ASSET_TEXT,
    period: history(182, 365),
    compute: prequalificationReport,
  },
  assetSummary: {
    type: 'assetSummary',
    title: 'Asset Summary Report (non-CRA)',
    accepts: ASSET_ACCOUNT_TYPES,
    acceptsText: ASSET_TEXT,
    period: history(182, 365),
    compute: assetSummaryReport,
  },
  voi: {
    type: 'voi',
    title: 'Verification of Income',
    accepts: ASSET_ACCOUNT_TYPES,
    acceptsText: ASSET_TEXT,
    period: history(730, 730),
    compute: voiReport,
  },
  cfrp: {
    type: 'cfrp',
    title: 'Cash Flow Report - Personal',
    accepts: 'all',
    acceptsText: 'any',
    period: history(730, 730),
    compute: cashFlowReport,
  },
  cfrb: {
    type: 'cfrb',
    title: 'Cash Flow Report - Business',
    accepts: 'all',
    acceptsText: 'any',
    period: history(730, 730),
    compute: cashFlowReport,
  },
  statement: {
    type: 'statement',
    title: 'Statement Report',
    accepts: 'all',
    acceptsText: 'any',
    period: statementPeriod,
    compute: statementReport,
  },
  transactions: {
    type: 'transactions',
    title: 'Transactions Report',
    accepts: 'all',
    acceptsText: 'any',
    period: transactionsReportPeriod,
    compute: transactionsReport,
  },
};
