/**
 * Category groups for cash flow and payment history: what kind of money a transaction's category says it is. A
 * category belongs to one group at most; categories in none (fees, cash, uncategorised) count only in the totals.
 */
import type { AnalysisTransaction } from './types.js';

export type CategoryGroup = 'income' | 'transfers' | 'loanPayments' | 'housing' | 'utilities' | 'insurance' | 'taxes' | 'essentials' | 'discretionary' | 'fees';

const GROUPS: Record<CategoryGroup, readonly string[]> = {
  income: ['Paycheck', 'Income', 'Interest Income', 'Dividend & Cap Gains', 'Bonus', 'Reimbursement', 'Deposit', 'Rental Income'],
  transfers: ['Transfer', 'Credit Card Payment', 'Transfer for Cash Spending', 'Investments', 'Buy', 'Sell'],
  loanPayments: ['Loan Payment', 'Loan Principal', 'Loan Interest', 'Student Loan', 'Auto Payment', 'Loans', 'Loan Fees and Charges'],
  housing: ['Mortgage & Rent', 'Home Services', 'Home Improvement'],
  utilities: ['Utilities', 'Bills & Utilities', 'Internet', 'Internet / Broadband Charges', 'Mobile Phone', 'Home Phone', 'Television'],
  insurance: ['Auto Insurance', 'Health Insurance', 'Home Insurance', 'Life Insurance', 'Loan Insurance', 'Insurance'],
  taxes: ['Federal Tax', 'State Tax', 'Local Tax', 'Sales Tax', 'Property Tax', 'Taxes'],
  essentials: [
    'Groceries',
    'Gas & Fuel',
    'Public Transportation',
    'Babysitter & Daycare',
    'Doctor',
    'Dentist',
    'Eyecare',
    'Pharmacy',
    'Child Support',
    'Tuition',
    'Education',
    'Books & Supplies',
    'Service & Parts',
    'Parking',
    'Business Services',
    'Office Supplies',
    'Shipping',
    'Advertising',
    'Legal',
    'Veterinary',
  ],
  discretionary: [
    'Restaurants',
    'Fast Food',
    'Coffee Shops',
    'Food & Dining',
    'Alcohol & Bars',
    'Entertainment',
    'Amusement',
    'Arts',
    'Movies & DVDs',
    'Music',
    'Streaming Services',
    'Shopping',
    'Clothing',
    'Electronics & Software',
    'Hobbies',
    'Sporting Goods',
    'Sports',
    'Toys',
    'Books',
    'Newspapers & Magazines',
    'Gym',
    'Hair',
    'Spa & Massage',
    'Personal Care',
    'Travel',
    'Air Travel',
    'Hotel',
    'Vacation',
    'Rental Car & Taxi',
    'Gift',
    'Gifts & Donations',
    'Charity',
    'Pets',
    'Pet Food & Supplies',
    'Pet Grooming',
    'Furnishings',
    'Home Supplies',
    'Lawn & Garden',
    'Kids Activities',
  ],
  fees: ['Bank Fee', 'Fees & Charges', 'Service Fee', 'ATM Fee', 'Late Fee', 'Finance Charge', 'Trade Commissions', 'Low Balance'],
};

const GROUP_OF = new Map<string, CategoryGroup>();
for (const [group, categories] of Object.entries(GROUPS) as [CategoryGroup, readonly string[]][]) for (const c of categories) GROUP_OF.set(c, group);

export function categoryGroupOf(category: string | undefined): CategoryGroup | undefined {
  return category ? GROUP_OF.get(category) : undefined;
}

/** Spending a household could not simply stop: housing, utilities, insurance, taxes, loans and essentials. */
export function isNondiscretionary(t: AnalysisTransaction): boolean {
  const group = categoryGroupOf(t.category);
  return (
    t.amount < 0 &&
    (group === 'housing' || group === 'utilities' || group === 'insurance' || group === 'taxes' || group === 'loanPayments' || group === 'essentials')
  );
}

export function isDiscretionary(t: AnalysisTransaction): boolean {
  return t.amount < 0 && categoryGroupOf(t.category) === 'discretionary';
}

/** A movement between the customer's own accounts, by the aggregation's pairing or by its category or type. */
export function isTransfer(t: AnalysisTransaction): boolean {
  return t.transfer === true || t.type === 'transfer' || t.category === 'Transfer' || t.category === 'Credit Card Payment';
}

const LOAN_DEPOSIT_TEXT = /\bLOAN\b.*\b(PROCEEDS|DISBURSE|DISBURSEMENT|FUNDING|ADVANCE)\b|\bLOAN PROCEEDS\b|\bPLAN LOAN\b/;

/** A credit that brings borrowed money in: the category Loans, or a description naming loan proceeds. */
export function isLoanDeposit(t: AnalysisTransaction): boolean {
  if (t.amount <= 0) return false;
  return t.category === 'Loans' || LOAN_DEPOSIT_TEXT.test(`${t.description} ${t.memo ?? ''}`.toUpperCase());
}

const LOAN_PAYMENT_TEXT = /\bLOAN\b|\bMORTGAGE\b|\bHELOC\b|\bLENDING\b|\bFINANCING\b/;

/** A debit that pays a loan or a line of credit: by its category, or a payment naming a loan. */
export function isLoanPayment(t: AnalysisTransaction): boolean {
  if (t.amount >= 0) return false;
  if (categoryGroupOf(t.category) === 'loanPayments') return true;
  return (t.type === 'payment' || t.type === 'directDebit') && LOAN_PAYMENT_TEXT.test(`${t.description} ${t.memo ?? ''}`.toUpperCase());
}

/** A debit that pays a credit card. */
export function isCardPayment(t: AnalysisTransaction): boolean {
  return t.amount < 0 && t.category === 'Credit Card Payment';
}
