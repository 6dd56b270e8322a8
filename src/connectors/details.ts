import type { InvestmentDetail, LoanDetail } from './connector.js';

/**
 * Account details for sources that know only a few of their fields (SimpleFIN, OFX, statement files): every field
 * the contract requires, empty or zero, with what the source does know laid over it.
 */
export function loanDetailOf(known: Partial<LoanDetail>): LoanDetail {
  return {
    payoffAmount: 0,
    principalBalance: 0,
    escrowBalance: 0,
    interestRate: '',
    autoPayEnrolled: 'N',
    collateral: '',
    currentSchool: '',
    firstMortgage: 'N',
    originalSchool: '',
    recurringPaymentAmount: 0,
    lender: '',
    availableBalanceAmount: 0,
    endingBalanceAmount: 0,
    loanTermType: '',
    paymentsMade: 0,
    balloonAmount: 0,
    projectedInterest: 0,
    interestPaidLtd: 0,
    interestRateType: '',
    loanPaymentType: '',
    paymentsRemaining: 0,
    loanMinAmtDue: 0,
    loanPaymentFreq: '',
    paymentMinAmount: 0,
    loanMinAmtDueDate: 0,
    firstPaymentDate: 0,
    ...known,
  };
}

/** The same for investment accounts (see loanDetailOf). */
export function investmentDetailOf(known: Partial<InvestmentDetail>): InvestmentDetail {
  return {
    marginBalance: 0,
    availableCashBalance: 0,
    currentBalance: 0,
    vestedBalance: 0,
    currentLoanBalance: 0,
    loanRate: 0,
    marginAllowed: false,
    cashAccountAllowed: false,
    employeeDeferPreTaxAmount: 0,
    employeePreTaxAmount: 0,
    employeePreTaxPercentage: 0,
    employerYearToDate: 0,
    rolloverContributionAmount: 0,
    allowedCheckWriting: 'DENY',
    allowedOptionTrade: 'DENY',
    dailyChange: 0,
    margin: 0,
    percentageChange: 0,
    loanPaymentAmount: 0,
    ...known,
  };
}
