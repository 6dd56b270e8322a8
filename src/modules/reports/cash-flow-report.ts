/**
 * The cash flow reports, personal and business (docs/reports.md): each account's transactions with its monthly
 * balance, credit, debit and net figures, the same figures for the customer, from the cash flow analysis, and the
 * credits that look like borrowed money (possibleLoanDeposits).
 */
import type { Static } from 'typebox';
import type { PossibleLoanDeposits } from '../../contract/schemas/reports.js';
import { analysisInputOf } from './analysis/from-records.js';
import { cashFlowAnalysis } from './analysis/lending.js';
import type { PossibleLoanDeposits as LoanDepositsOfAccount } from './analysis/loan-deposits.js';
import { cashFlowAccountRecord, cashFlowSummaryRecord } from './analysis/records.js';
import { availableBalanceOf, byInstitution, coverage, reportAccountBase, reportTransaction } from './assets.js';
import type { ReportInput } from './input.js';
import type { ReportBody } from './records.js';

type LoanDepositsOut = Static<typeof PossibleLoanDeposits>;

/** The reference's possibleLoanDeposits: one entry of the institutions whose accounts received them; empty when none. */
function possibleLoanDepositsRecord(input: ReportInput, found: readonly LoanDepositsOfAccount[]): LoanDepositsOut[] {
  if (found.length === 0) return [];
  const byAccount = new Map(found.map((f) => [f.accountId, new Set(f.transactions.map((t) => t.id))]));
  const institutions = new Map<string, LoanDepositsOut['institutions'][number]>();
  for (const a of input.accounts) {
    const ids = byAccount.get(Number(a.account.id));
    if (!ids) continue;
    const base = reportAccountBase(a, input);
    let institution = institutions.get(a.account.institutionId);
    if (!institution) {
      institution = { id: String(a.account.institutionId), name: a.institutionName, urlHomeApp: a.institutionUrl, accounts: [] };
      institutions.set(a.account.institutionId, institution);
    }
    institution.accounts.push({
      id: String(base.id),
      ownerName: base.ownerName ?? '',
      ownerAddress: base.ownerAddress ?? '',
      name: base.name,
      number: base.number,
      type: base.type,
      aggregationStatusCode: base.aggregationStatusCode,
      currentBalance: base.balance,
      availableBalance: availableBalanceOf(a),
      balanceDate: base.balanceDate,
      transactions: a.transactions.filter((t) => ids.has(t.id)).map(reportTransaction),
    });
  }
  return [{ institutions: [...institutions.values()] }];
}

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
  return {
    ...coverage(input, 365),
    institutions,
    ...cashFlowSummaryRecord(analysis.summary.balances, analysis.summary.cashFlow),
    possibleLoanDeposits: possibleLoanDepositsRecord(input, analysis.possibleLoanDeposits),
  };
}
