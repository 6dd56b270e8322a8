/**
 * The cash flow reports, personal and business (docs/reports.md): each account's transactions with its monthly
 * balance, credit, debit and net figures, and the same figures for the customer, from the cash flow analysis.
 */
import { analysisInputOf } from './analysis/from-records.js';
import { cashFlowAnalysis } from './analysis/lending.js';
import { cashFlowAccountRecord, cashFlowSummaryRecord } from './analysis/records.js';
import { byInstitution, coverage, reportAccountBase, reportTransaction } from './assets.js';
import type { ReportInput } from './input.js';
import type { ReportBody } from './records.js';

export function cashFlowReport(input: ReportInput): ReportBody {
  const analysis = cashFlowAnalysis(analysisInputOf(input.accounts, { from: input.period.from, asOf: input.asOf }));
  const figures = new Map(analysis.accounts.map((a) => [a.accountId, a]));
  const institutions = byInstitution(input, (a) => {
    const own = figures.get(Number(a.account.id))!;
    return {
      ...reportAccountBase(a, input),
      transactions: a.transactions.map(reportTransaction),
      ...cashFlowAccountRecord(own.balances, own.cashFlow),
    };
  });
  // The reference calls a cash flow report seasoned past 365 days.
  return { ...coverage(input, 365), institutions, ...cashFlowSummaryRecord(analysis.summary.balances, analysis.summary.cashFlow) };
}
