/**
 * Possible loan deposits (docs/reports-analysis.md, "Possible loan deposits"): credits that look like borrowed money
 * coming in. A credit to one of the customer's accounts that is not a debt is one when it is not a transfer between
 * its own accounts, not a fee refund, not part of a recurring stream of credits (pay, benefits, interest), and either
 * says it is a loan (the category Loans, or loan proceeds, disbursement or funding in its words) or is a large credit
 * from a payer whose name says lender.
 */
import { isLoanDeposit, isTransfer } from './category-groups.js';
import { insufficientFundsRole } from './nsf.js';
import { chronological, recurringStreams } from './streams.js';
import { type AnalysisAccount, type AnalysisTransaction, DEBT_ACCOUNT_TYPES } from './types.js';

/** The smallest credit a lender's name alone makes a possible loan: smaller ones are refunds, rebates or payouts. */
export const LARGE_LOAN_DEPOSIT = 1000;

/** Words of lenders' names and of loan money on a credit's description, memo or payee. */
const LENDER_TEXT = /\b(?:LOANS?|LENDING|LENDERS?|LENDINGCLUB|FUNDING|FINANCE|FINANCING|SBA|DISBURSE(?:MENT)?|PROCEEDS|ADVANCE)\b/;

function saysLender(t: AnalysisTransaction): boolean {
  return LENDER_TEXT.test(`${t.description} ${t.memo ?? ''} ${t.payee ?? ''}`.toUpperCase());
}

export interface PossibleLoanDeposits {
  accountId: number;
  /** Oldest first. */
  transactions: AnalysisTransaction[];
}

/** The possible loan deposits of each account that has any, in the accounts' order. */
export function possibleLoanDeposits(accounts: readonly AnalysisAccount[], transactions: readonly AnalysisTransaction[]): PossibleLoanDeposits[] {
  const out: PossibleLoanDeposits[] = [];
  for (const account of accounts) {
    // Credits to a loan or card are payments to it, not money borrowed.
    if (DEBT_ACCOUNT_TYPES.has(account.type)) continue;
    const credits = transactions.filter((t) => t.accountId === account.id && t.amount > 0 && !isTransfer(t) && !insufficientFundsRole(t));
    const recurring = new Set(recurringStreams(credits).flatMap((s) => s.transactions.map((t) => t.id)));
    const loans = credits.filter((t) => !recurring.has(t.id) && (isLoanDeposit(t) || (t.amount >= LARGE_LOAN_DEPOSIT && saysLender(t)))).sort(chronological);
    if (loans.length > 0) out.push({ accountId: account.id, transactions: loans });
  }
  return out;
}
