/**
 * The shape of a test profile: who the customer is, how they sign in, their accounts, and the money that
 * flows between them and the world every month. Amounts are dollars; months are `YYYY-MM`.
 */
import type { TransactionCategory } from '../categories.js';
import type { AggregationFailureCode, MfaOption } from '../connector.js';
import type { MixName } from './merchants.js';

interface AccountCommon {
  /** Key used by flows to name the account. */
  key: string;
  name: string;
  nickname: string;
  segment?: 'personal' | 'business';
}

export interface CheckingSpec extends AccountCommon {
  type: 'checking';
  /** Balance around which the account hovers at the start of each month. */
  level: number;
  /** How far (fraction of level) the month-start balance swings; default 30% of `spend.typical`, at most 0.2. */
  swing?: number;
  apy?: number;
  /** Monthly maintenance fee, waived when the month-start balance is at least `waiveAbove`. */
  fee?: { amount: number; waiveAbove: number };
  /** Debit card spending: its style and what a normal month adds up to. */
  spend: { mix: MixName; typical: number };
  /** ATM withdrawals per month (0 for none). */
  atm?: number;
  /**
   * Overdraft coverage: a scheduled debit the balance cannot cover is paid into the red (an overdraft fee, once a
   * day) while the balance stays above -`limit`, and returned unpaid beyond it (an NSF fee).
   */
  overdraft?: { fee: number; limit: number };
}

export interface SavingsSpec extends AccountCommon {
  type: 'savings';
  /** Balance at the start of each yearly saving cycle. */
  level: number;
  apy: number;
  /** Month of the year (1-12) in which the year's savings move to `sweepTo` (a trip, a purchase). */
  cycleMonth: number;
  sweepTo: string;
}

export interface CardSpec extends AccountCommon {
  type: 'creditCard';
  /** Typical statement balance. */
  level: number;
  swing?: number;
  limit: number;
  apr: number;
  /** The customer's account that pays the card; without it, payments come from an account at another bank. */
  payFrom?: string;
  payDay: number;
  /** `full` pays each statement in full; a number pays that fraction of it and carries the rest (with interest). */
  pay: 'full' | number;
  mix: MixName;
  annualFee?: number;
  /** Month of the year the annual fee is charged. */
  feeMonth?: number;
  /** Cash back rate, paid quarterly as a statement credit. */
  cashBack?: number;
  foreignFee?: number;
}

export interface LoanSpec extends AccountCommon {
  type: 'loan' | 'mortgage';
  principal: number;
  /** Annual rate in percent. */
  rate: number;
  termMonths: number;
  /** Month the loan was disbursed; payments start the month after. A paid-off loan is renewed in the same terms. */
  start: string;
  payFrom: string;
  payDay: number;
  /** Monthly escrow (mortgages). */
  escrow?: number;
  lender: string;
  collateral: string;
  school?: { original: string; current: string };
  /** Payment category on the paying account. */
  category: TransactionCategory;
  termType: string;
}

export interface LineOfCreditSpec extends AccountCommon {
  type: 'lineOfCredit';
  level: number;
  swing?: number;
  limit: number;
  apr: number;
  payFrom: string;
  payDay: number;
}

export interface HoldingSpec {
  symbol: string;
  /** Share of new money invested in this holding. */
  weight: number;
  /** Units held when the account opened. */
  units: number;
}

export interface InvestmentSpec extends AccountCommon {
  type: 'investment' | 'investmentTaxDeferred' | 'roth';
  opened: string;
  cash: number;
  holdings: HoldingSpec[];
  /** Reinvest dividends (retirement accounts) or keep them as cash (brokerage). */
  reinvest: boolean;
  marginAllowed?: boolean;
  checkWriting?: boolean;
  optionTrading?: boolean;
  rollover?: number;
  /** A loan against the plan (401k), repaid from payroll; renewed when paid off. */
  planLoan?: { principal: number; rate: number; termMonths: number; start: string; to: string };
}

export type AccountSpec = CheckingSpec | SavingsSpec | CardSpec | LoanSpec | LineOfCreditSpec | InvestmentSpec;

export interface IncomeSpec {
  key: string;
  to: string;
  payer: string;
  kind: 'payroll' | 'pension' | 'benefit' | 'payouts';
  /** Net amount per payment (average for payouts). */
  net: number;
  schedule: 'biweekly' | 'semimonthly' | 'monthly' | 'businessDays';
  /** Biweekly: a payday (`YYYY-MM-DD`), the schedule runs every 14 days from it. Monthly: `day` of month. */
  anchor?: string;
  day?: number;
  /** Once a year, in `month`, the first payment carries a bonus. */
  bonus?: { month: number; amount: number };
  /** Retirement plan deferral on each payment: percent of gross, and the employer's match. */
  deferral?: { to: string; gross: number; percent: number; matchPercent: number };
}

export interface BillSpec {
  from: string;
  merchant: string;
  amount: number;
  /** Variation of the amount month to month (fraction); utilities vary, rent does not. */
  vary?: number;
  /** Higher in winter and summer (utilities). */
  seasonal?: boolean;
  day: number;
  /** Paid every N months (1 by default), in months where (month-of-year - 1) % N == (start - 1) % N. */
  every?: number;
  start?: number;
  /** Not paid at all in months whose index (year * 12 + month - 1) is a multiple of this: a missed payment. */
  skipEvery?: number;
  byCheck?: boolean;
}

export interface TransferSpec {
  from: string;
  to: string;
  amount: number;
  day: number;
}

export interface MfaQuestionSpec {
  id: string;
  kind: 'text' | 'choice' | 'image';
  prompt: string;
  options?: MfaOption[];
  /** The accepted answer: the text (compared case-insensitively) or the option value. */
  answer: string;
  /** Image challenges: the picture shown. */
  picture?: 'sun' | 'anchor' | 'tree' | 'house';
}

/** How to reach a holder, and how the holder stands to the accounts. */
interface HolderContact {
  /** The reference's relationship type: PRIMARY, PRIMARY_JOINT, SECONDARY_JOINT, BUSINESS, AUTHORIZED_USER. */
  relationship: 'PRIMARY' | 'PRIMARY_JOINT' | 'SECONDARY_JOINT' | 'BUSINESS' | 'AUTHORIZED_USER';
  email: string;
  /** `NNN-555-01NN`: the range North America keeps for fiction. */
  phone: string;
  phoneType: 'HOME' | 'CELL' | 'BUSINESS';
  /** A second number, where the holder has one. */
  otherPhone?: { number: string; type: 'HOME' | 'CELL' | 'BUSINESS' };
}

export interface PersonHolderSpec extends HolderContact {
  first: string;
  middle?: string;
  last: string;
  suffix?: string;
}

export interface BusinessHolderSpec extends HolderContact {
  /** The business's legal name. */
  business: string;
}

export type HolderSpec = PersonHolderSpec | BusinessHolderSpec;

/** Who owns a profile's accounts, where they live, and how the institution writes their names. */
export interface OwnerSpec {
  /** The owners as the institution writes them on the account, several in one string. */
  name: string;
  /** Upper case, as statements print it; card purchases happen around it. */
  city: string;
  state: string;
  street: string;
  /** An apartment or suite. */
  unit?: string;
  postalCode: string;
  /** Every holder lives at the profile's address and owns every account of it. */
  holders: HolderSpec[];
}

export interface ProfileSpec {
  id: string;
  /** One line for docs and the OAuth profile picker. */
  summary: string;
  /** Defaults to the profile id. */
  password?: string;
  owner: OwnerSpec;
  /** Every sign-in fails with this status. */
  signInFailure?: { code: Extract<AggregationFailureCode, 102 | 108 | 109>; message: string };
  /** Sign-in works; refreshes fail with `code` once `afterSeconds` have passed since the last sign-in. */
  refreshFailure?: { code: Extract<AggregationFailureCode, 103 | 108 | 185>; afterSeconds: number; message: string };
  /** MFA rounds asked after the password; each round is one or more questions answered together. */
  mfa?: MfaQuestionSpec[][];
  accounts: AccountSpec[];
  income: IncomeSpec[];
  bills: BillSpec[];
  transfers: TransferSpec[];
}
