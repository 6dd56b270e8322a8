/**
 * What the lending analyses compute from: plain records of a customer's aggregated data, so every analysis is a pure
 * function a unit test can call with hand-made data. Dates are epoch seconds (UTC); days are `YYYY-MM-DD` (UTC).
 */

/** An account as the analyses see it. */
export interface AnalysisAccount {
  id: number;
  institutionId?: number;
  name: string;
  /** The contract's account types: checking, savings, moneyMarket, creditCard, loan, mortgage, lineOfCredit, investment... */
  type: string;
  currency: string;
  /** The latest balance (cleared), when known. */
  balance?: number;
  /** Whose money it is: reports about a business read `business` accounts as the business's own. */
  segment?: 'personal' | 'business';
}

/** A posted transaction. */
export interface AnalysisTransaction {
  id: number;
  accountId: number;
  /** Credits positive, debits negative. */
  amount: number;
  postedDate: number;
  transactionDate?: number;
  description: string;
  memo?: string;
  /** The contract's transaction types (directDeposit, fee, transfer, payment...). */
  type?: string;
  category?: string;
  /** The normalised payee (categorization.normalizedPayeeName). */
  payee?: string;
  /** True when it is one side of a transfer between the customer's own accounts (or categorised as a transfer). */
  transfer?: boolean;
}

/** An account's end-of-day balance. Days without one keep the balance of the day before. */
export interface AnalysisDailyBalance {
  accountId: number;
  day: string;
  balance: number;
}

/** Everything one analysis run reads. */
export interface AnalysisInput {
  accounts: AnalysisAccount[];
  transactions: AnalysisTransaction[];
  dailyBalances: AnalysisDailyBalance[];
  /** The report's moment (the customer's clock): the window ends on its day. */
  now: number;
  /** The window's first moment; transactions before it are not analysed. */
  fromDate: number;
  /** The customer (or business) as the counterpart of streams. */
  holderName?: string;
}

/**
 * Accounts whose balance is money the customer has: checking, savings, money market and every investment kind of the
 * reference (a source may store any of them). The asset reports cover these, and balance analytics and cash flow read
 * them.
 */
export const ASSET_ACCOUNT_TYPES: ReadonlySet<string> = new Set([
  'checking',
  'savings',
  'moneyMarket',
  'cd',
  'investment',
  'investmentTaxDeferred',
  'employeeStockPurchasePlan',
  'ira',
  '401k',
  'roth',
  '403b',
  '529',
  'rollover',
  'ugma',
  'utma',
  'keogh',
  '457',
  '401a',
  'brokerageAccount',
  'educationSavings',
  'healthSavingsAccount',
  'nonTaxableBrokerageAccount',
  'pension',
  'profitSharingPlan',
  'roth401k',
  'sepIRA',
  'simpleIRA',
  'thriftSavingsPlan',
  'variableAnnuity',
]);

/** Accounts that hold deposits: income, NSF and overdraft analyses read these (the reference's VOI accounts). */
export const DEPOSIT_ACCOUNT_TYPES: ReadonlySet<string> = new Set(['checking', 'savings', 'moneyMarket']);

/** Accounts that are debts: payments to them are loan or credit payments. */
export const DEBT_ACCOUNT_TYPES: ReadonlySet<string> = new Set(['creditCard', 'loan', 'mortgage', 'lineOfCredit', 'studentLoan', 'autoLoan']);
