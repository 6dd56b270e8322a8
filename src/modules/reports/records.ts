/** Reports as the contract's records, and what a kind computes of one. No queries. */
import type { Static } from 'typebox';
import type { Report, ReportConstraints } from '../../contract/schemas/reports.js';

export type ReportRecord = Static<typeof Report>;
export type ReportConstraintsRecord = Static<typeof ReportConstraints>;

/** What a kind computes: the fields of the report beyond its header (ids, consumer, status, constraints). */
export type ReportBody = Pick<
  ReportRecord,
  | 'startDate'
  | 'endDate'
  | 'days'
  | 'seasoned'
  | 'consolidatedAvailableBalance'
  | 'institutions'
  | 'assets'
  | 'income'
  | 'cashFlowBalanceSummary'
  | 'cashFlowCreditSummary'
  | 'cashFlowDebitSummary'
  | 'cashFlowCharacteristicsSummary'
  | 'customerAnalytics'
  | 'possibleLoanDeposits'
  | 'assetId'
>;
