import { describe, expect, it } from 'vitest';
import { dayOfText, monthOfDay } from '../../src/modules/reports/analysis/dates.js';
import { cashFlowAnalysis } from '../../src/modules/reports/analysis/lending.js';
import { LARGE_LOAN_DEPOSIT, possibleLoanDeposits } from '../../src/modules/reports/analysis/loan-deposits.js';
import type { AnalysisAccount, AnalysisTransaction } from '../../src/modules/reports/analysis/types.js';

/** Noon UTC of a day, as institutions post. */
const at = (day: string) => dayOfText(day) * 86_400 + 12 * 3600;

let nextId = 1;
function tx(accountId: number, day: string, amount: number, description: string, more: Partial<AnalysisTransaction> = {}): AnalysisTransaction {
  return { id: nextId++, accountId, amount, postedDate: at(day), description, ...more };
}

/** The worked example of docs/reports-analysis.md, "Possible loan deposits". */
describe('possible loan deposits', () => {
  const accounts: AnalysisAccount[] = [
    { id: 1, name: 'Checking', type: 'checking', currency: 'USD' },
    { id: 2, name: 'Card', type: 'creditCard', currency: 'USD' },
  ];
  const payroll = ['2025-01-03', '2025-01-17', '2025-01-31', '2025-02-14', '2025-02-28', '2025-03-14', '2025-03-28'].map((d) =>
    tx(1, d, 1500, 'ACME CORP PAYROLL', { category: 'Paycheck' }),
  );
  const lenderPayroll = ['2025-01-15', '2025-02-15', '2025-03-15'].map((d) => tx(1, d, 1200, 'ACME FINANCE PAYROLL'));
  const proceeds = tx(1, '2025-01-20', 500, 'LOAN PROCEEDS', { category: 'Loans' });
  const lender = tx(1, '2025-02-10', 12_000, 'SOFI LENDING CORP ACH CREDIT');
  const smallRefund = tx(1, '2025-02-12', 300, 'AVANT FINANCE REFUND');
  const transfer = tx(1, '2025-03-02', 2000, 'ONLINE TRANSFER FROM SAVINGS', { category: 'Transfer', transfer: true });
  const cardPayment = tx(2, '2025-02-01', 5000, 'LOAN PAYMENT THANK YOU');
  const advance = tx(1, '2025-04-05', 3000, 'SBA EIDL ADVANCE');
  const transactions = [...payroll, ...lenderPayroll, proceeds, lender, smallRefund, transfer, cardPayment, advance];

  it('lists loan proceeds of any amount and large credits from lenders, not recurring pay, small refunds, transfers or credits to debts', () => {
    expect(LARGE_LOAN_DEPOSIT).toBe(1000);
    expect(possibleLoanDeposits(accounts, transactions)).toEqual([{ accountId: 1, transactions: [proceeds, lender, advance] }]);
  });

  it('counts the same credits as the loan deposits of each complete month of the cash flow, and lists the current month’s too', () => {
    const analysis = cashFlowAnalysis({ accounts, transactions, dailyBalances: [], fromDate: at('2025-01-01') - 12 * 3600, now: at('2025-04-10') });
    expect(analysis.possibleLoanDeposits).toEqual([{ accountId: 1, transactions: [proceeds, lender, advance] }]);
    const credits = analysis.accounts[0]!.cashFlow.credits;
    expect(credits.map((c) => [c.month, c.estimatedNumberOfLoanDeposits, c.estimatedLoanDepositAmount])).toEqual([
      [monthOfDay(dayOfText('2025-01-01')), 1, 500],
      [monthOfDay(dayOfText('2025-02-01')), 1, 12_000],
      [monthOfDay(dayOfText('2025-03-01')), 0, 0],
    ]);
  });
});
