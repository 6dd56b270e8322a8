/**
 * The contract between the aggregation engine and an institution's data source. The test bank implements it
 * today; a protocol connector (OFX Direct Connect, FDX) implements the same contract later, so the engine,
 * the hosted Connect app and the API never learn which kind of source they talk to.
 *
 * Rules every connector follows:
 * - Time comes only from `ctx.now` (epoch seconds of the customer's clock), never from the system clock.
 * - Sessions and MFA states are opaque, JSON-serialisable values. The engine stores them (encrypted) with the
 *   institution login and hands them back unchanged; a data call may return a replacement to store.
 * - Institution-side references (`ref`) of accounts, transactions and positions are stable: the same record
 *   keeps its ref across calls, so the engine tells new records from modified ones. Service-assigned ids
 *   (account id, transaction id, position id) are the engine's business and never appear here.
 * - Money is in the account's currency; debits are negative, credits positive.
 */
import type { TransactionCategory } from './categories.js';

/** What a connector knows about the caller: which institution and what time it is for this customer. */
export interface ConnectorContext {
  institutionId: number;
  /** Epoch seconds of this customer's clock (sandbox controls may move it ahead of real time). */
  now: number;
  /**
   * Present only while the customer is in Connect (the call is attended): what their browser sent, for sources that
   * pass it on to the institution (PSD2's PSU headers). Background work has none.
   */
  psu?: PsuContext;
}

/** The customer's browser as it reached Connect. */
export interface PsuContext {
  ipAddress: string;
  userAgent: string;
  /** The request's Accept, Accept-Language, Accept-Charset and Accept-Encoding headers and its Referer, where sent. */
  accept?: string;
  acceptLanguage?: string;
  acceptCharset?: string;
  acceptEncoding?: string;
  referer?: string;
}

/** Aggregation status codes a connector can end an operation with (0 is success and never a failure). */
export const AggregationStatus = {
  Success: 0,
  /** The institution's site is unavailable; temporary, retry later. Not fixable by the user. */
  InstitutionDown: 102,
  /** The user id or password is wrong. */
  InvalidCredentials: 103,
  /** The user must act at the institution (accept terms, confirm details) before access works again. */
  UserActionRequired: 108,
  /** The institution requires a new password. */
  PasswordChangeRequired: 109,
  /** An MFA answer is needed and cannot be given now (background refresh, or the challenge timed out). */
  MfaRequired: 185,
  /** The MFA answer was wrong. */
  MfaIncorrect: 187,
} as const;

export type AggregationFailureCode = 102 | 103 | 108 | 109 | 185 | 187 | 945 | 946 | 947 | 948;

/** An operation the institution refused, with the status the engine records and a message for the user. */
export interface ConnectorFailure {
  ok: false;
  code: AggregationFailureCode;
  message: string;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Whatever a connector needs to keep between calls (tokens, remembered devices, ...). Opaque to the engine. */
export type ConnectorSession = { [key: string]: JsonValue };

/** One entry of a credentials form as a client submits it. */
export interface Credential {
  id: string;
  name?: string;
  value: string;
}

/** One field of an institution's sign-in form, as the Connect app renders it. */
export interface LoginField {
  /** `<institutionId>001` for the user id, `<institutionId>002` for the password, and so on. */
  id: string;
  name: string;
  label: string;
  /** `token`: a secret the user pastes from elsewhere (a setup token), masked and never offered to password managers. */
  kind: 'text' | 'password' | 'token';
  /** Display order, from 1. */
  displayOrder: number;
  /** Help shown with the field: what to enter and where to find it. */
  hint?: string;
}

export interface MfaOption {
  value: string;
  label: string;
}

/** A question the institution asks before it lets the user in. */
export type MfaChallenge =
  | { id: string; kind: 'text'; prompt: string }
  | { id: string; kind: 'choice'; prompt: string; options: MfaOption[] }
  /** An image (a data URL) with either options to pick from or, without options, a text answer. */
  | { id: string; kind: 'image'; prompt: string; image: string; options?: MfaOption[] };

export interface MfaAnswer {
  /** The challenge id. */
  id: string;
  /** The typed text, or the chosen option's value. */
  value: string;
}

export type AuthResult =
  | { ok: true; kind: 'authenticated'; session: ConnectorSession }
  /** Answer every challenge with answerMfa(ctx, state, answers); the state is opaque and short-lived. */
  | { ok: true; kind: 'mfa'; challenges: MfaChallenge[]; state: ConnectorSession }
  | ConnectorFailure;

export type ConnectorResult<T> =
  /** `session`, when present, replaces the stored session (e.g. a rotated token). */
  { ok: true; value: T; session?: ConnectorSession } | ConnectorFailure;

/** What listAccounts answers. */
export type AccountsResult = ConnectorResult<ConnectorAccount[]>;

/** What fetchTransactions answers. */
export type TransactionsResult = ConnectorResult<ConnectorTransaction[]>;

export type AccountType = 'checking' | 'savings' | 'creditCard' | 'loan' | 'mortgage' | 'lineOfCredit' | 'investment' | 'investmentTaxDeferred' | 'roth';

/** Detail of checking and savings accounts. */
export interface DepositDetail {
  availableBalanceAmount: number;
  /** APY in percent, as a decimal string, e.g. "4.10". */
  periodInterestRate: string;
}

/** Detail of loan and mortgage accounts. Text fields that do not apply to a loan (a school on a mortgage) are empty. */
export interface LoanDetail {
  payoffAmount: number;
  principalBalance: number;
  escrowBalance: number;
  interestRate: string;
  autoPayEnrolled: 'Y' | 'N';
  collateral: string;
  currentSchool: string;
  firstMortgage: 'Y' | 'N';
  originalSchool: string;
  recurringPaymentAmount: number;
  lender: string;
  availableBalanceAmount: number;
  endingBalanceAmount: number;
  loanTermType: string;
  paymentsMade: number;
  balloonAmount: number;
  projectedInterest: number;
  interestPaidLtd: number;
  interestRateType: string;
  loanPaymentType: string;
  paymentsRemaining: number;
  loanMinAmtDue: number;
  loanPaymentFreq: string;
  paymentMinAmount: number;
  loanMinAmtDueDate: number;
  firstPaymentDate: number;
}

/** Detail of investment, investmentTaxDeferred and roth accounts. */
export interface InvestmentDetail {
  marginBalance: number;
  availableCashBalance: number;
  currentBalance: number;
  vestedBalance: number;
  currentLoanBalance: number;
  loanRate: number;
  marginAllowed: boolean;
  cashAccountAllowed: boolean;
  employeeDeferPreTaxAmount: number;
  employeePreTaxAmount: number;
  employeePreTaxPercentage: number;
  employerYearToDate: number;
  rolloverContributionAmount: number;
  allowedCheckWriting: 'ALLOW' | 'DENY';
  allowedOptionTrade: 'ALLOW' | 'DENY';
  dailyChange: number;
  margin: number;
  percentageChange: number;
  loanPaymentAmount: number;
  /** Only when the plan has a loan outstanding. */
  loanNextPaymentDate?: number;
}

/** Detail of lines of credit. */
export interface LineOfCreditDetail {
  interestRate: string;
  creditAvailableAmount: number;
  paymentMinAmount: number;
  statementCloseBalance: number;
  locPrincipalBalance: number;
  paymentDueDate: number;
  statementEndDate: number;
}

/** An investment holding. The service assigns `id`; `ref` is the institution's stable reference. */
export interface ConnectorPosition {
  ref: string;
  symbol: string;
  fundName: string;
  quantity: number;
  /** Decimal string, e.g. "12345.67". */
  marketValue: string;
  changePercent: number;
  costBasis: number;
  dailyChange: number;
  memo: string;
  empPretaxContribAmount: number;
  /** Decimal string: the market value held in this account. */
  heldInAccount: string;
  holdType: string;
  maturityValue: number;
  units: number;
  unitPrice: number;
  type: string;
  status: string;
  invSecurityType: string;
  /** Decimal string. */
  securityCurrencyRate: string;
  averageCost: number;
  cashAccount: boolean;
  faceValue: number;
  holdingId: string;
  securitySubType: string;
  rate: number;
  unitType: string;
  todayGLDollar: number;
  todayGLPercent: number;
  totalGLDollar: number;
  totalGLPercent: number;
  costBasisPerShare: number;
  enterpriseSymbol: string;
  localMarketValue: number;
  localPrice: number;
  securityId: string;
  /** Decimal string. */
  reinvestmentCapGains: string;
  /** Decimal string. */
  reinvestmentDividend: string;
  /** Only for securities that mature or expire (bonds, notes, options). */
  expirationDate?: number;
  originalPurchaseDate: number;
}

/** An address of an account holder, as the institution keeps it. */
export interface HolderAddress {
  line1: string;
  line2?: string;
  city: string;
  /** Two-letter state or province code. */
  state: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  type?: 'Home' | 'Business' | 'Mailing';
}

/** One owner of an account as the institution names them, with how to reach them. */
export interface AccountHolder {
  /** The whole name as the institution writes it. */
  name: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
  suffix?: string;
  /** The reference's relationship types: PRIMARY, PRIMARY_JOINT, SECONDARY_JOINT, AUTHORIZED_USER, BUSINESS... */
  relationship?: string;
  classification: 'person' | 'business';
  addresses: HolderAddress[];
  emails: { address: string; primary: boolean; type?: 'Personal' | 'Business' }[];
  phones: { number: string; type: 'HOME' | 'BUSINESS' | 'CELL' | 'FAX'; country?: string }[];
}

/** Who owns an account, where the source says (the identity products read it). */
export interface AccountOwnership {
  /** The owners' names as the institution writes them on the account: several owners in one string. */
  name: string;
  holders: AccountHolder[];
}

/** How the institution takes manual payments of a loan (loan payment details). */
export interface LoanPaymentInstructions {
  /** The number to quote with a manual payment (not an ACH number). */
  paymentNumber: string;
  /** Where manual payments are sent, on one line. */
  paymentAddress: string;
}

interface AccountBase {
  /** The institution's stable reference for this account. */
  ref: string;
  /** The account number as the institution gives it (card numbers come masked). */
  number: string;
  /**
   * The ABA routing number of the account's institution (nine digits with a valid check digit), where the source
   * gives one: with a full `number`, what ACH payments need. Absent for cards and sources that give none.
   */
  routingNumber?: string;
  /** The account's owners, where the source gives them. */
  ownership?: AccountOwnership;
  /** What to show the user, e.g. the last four digits. */
  accountNumberDisplay: string;
  /** Last four digits of the real account number; only on ACH-capable (deposit) accounts. */
  realAccountNumberLast4?: string;
  name: string;
  accountNickname: string;
  currency: string;
  /** Cleared balance at balanceDate; negative for loans, cards and credit lines. */
  balance: number;
  balanceDate: number;
  status: 'active';
  financialinstitutionAccountStatus: 'OPEN';
  marketSegment: 'personal' | 'business';
  displayPosition: number;
  /**
   * The institution that holds the account, where the source is an aggregator of several (a SimpleFIN bridge
   * names each account's organisation); absent when it is the institution itself.
   */
  institutionName?: string;
  /**
   * The customer's consent, for sources whose access ends on a date (PSD2 consents): when it was given and when it
   * ends, epoch seconds. Absent where access does not expire.
   */
  authorization?: { startDate: number; endDate: number };
}

export type DepositAccount = AccountBase & { type: 'checking' | 'savings'; detail: DepositDetail };
/** Credit cards have no detail object. */
export type CardAccount = AccountBase & { type: 'creditCard' };
export type LoanAccount = AccountBase & { type: 'loan' | 'mortgage'; detail: LoanDetail; payment?: LoanPaymentInstructions };
export type LineOfCreditAccount = AccountBase & { type: 'lineOfCredit'; detail: LineOfCreditDetail };
export type InvestmentAccount = AccountBase & {
  type: 'investment' | 'investmentTaxDeferred' | 'roth';
  detail: InvestmentDetail;
  position: ConnectorPosition[];
};

export type ConnectorAccount = DepositAccount | CardAccount | LoanAccount | LineOfCreditAccount | InvestmentAccount;

/** The account record shape of one account type, e.g. AccountOfType<'mortgage'> is LoanAccount. */
export type AccountOfType<T extends AccountType> = ConnectorAccount extends infer A ? (A extends { type: infer U } ? (T extends U ? A : never) : never) : never;

/** Transaction types, as the real-world service names them. */
export const TRANSACTION_TYPES = [
  'atm',
  'cash',
  'check',
  'credit',
  'debit',
  'deposit',
  'directDebit',
  'directDeposit',
  'dividend',
  'fee',
  'interest',
  'other',
  'payment',
  'pointOfSale',
  'repeatPayment',
  'serviceCharge',
  'transfer',
] as const;

export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export type InvestmentTransactionType = 'contribution' | 'purchased' | 'sold' | 'dividend' | 'dividendReinvest' | 'interest' | 'fee' | 'transfer';

export interface Categorization {
  normalizedPayeeName: string;
  category: TransactionCategory;
  /** Description and memo combined, without numbers, special characters or repeated words. */
  bestRepresentation: string;
  /** ISO 3166-1 alpha-3 country code. */
  country: string;
}

export interface ConnectorTransaction {
  /** The institution's stable reference; it does not change when a pending transaction posts. */
  ref: string;
  accountRef: string;
  /** Debits negative, credits positive. */
  amount: number;
  /** `pending` until postedDate has passed, then `active`. */
  status: 'active' | 'pending';
  description: string;
  memo?: string;
  type: TransactionType;
  transactionDate: number;
  /** Absent while pending. */
  postedDate?: number;
  categorization: Categorization;
  checkNum?: string;
  bonusAmount?: number;
  escrowAmount?: number;
  feeAmount?: number;
  interestAmount?: number;
  principalAmount?: number;
  unitQuantity?: number;
  unitValue?: number;
  investmentTransactionType?: InvestmentTransactionType;
  ticker?: string;
  securityId?: string;
  /**
   * The institution's own id of the transaction, when another source of the same institution gives the same one (an
   * OFX FITID, live or in a downloaded file): two sources' transactions with equal ids are one (docs/aggregation.md).
   */
  institutionTransactionId?: string;
}

export interface OAuthStart {
  /** Where to send the user's browser (a popup) to sign in at the institution. */
  authorizeUrl: string;
  /**
   * What the connector needs back in completeOAuth (e.g. a PKCE verifier); the engine keeps it with the
   * Connect session, opaque, and never shows it to the browser.
   */
  pending: ConnectorSession;
}

/** What a connector can do at one institution. */
export interface ConnectorCapabilities {
  /** `credentials`: authenticate + answerMfa; `oauth`: startOAuth + completeOAuth. */
  authMode: 'credentials' | 'oauth';
  /** How far back the institution serves transactions, in days before now. */
  historyDays: number;
}

export interface InstitutionConnector {
  readonly capabilities: ConnectorCapabilities;

  /** The sign-in form for credential institutions (empty for OAuth institutions). */
  loginForm(ctx: ConnectorContext): LoginField[];

  /** Signs in with a submitted credentials form. Credential institutions only. */
  authenticate(ctx: ConnectorContext, credentials: Credential[]): Promise<AuthResult>;

  /** Continues a sign-in that asked MFA questions; may ask more. */
  answerMfa(ctx: ConnectorContext, state: ConnectorSession, answers: MfaAnswer[]): Promise<AuthResult>;

  /** Starts an OAuth sign-in, or says why the institution refused to (its API is down, the bank is not offered). OAuth institutions only. */
  startOAuth(ctx: ConnectorContext, request: { redirectUri: string; state: string }): Promise<OAuthStart | ConnectorFailure>;

  /** Exchanges the code the institution sent back to the redirect URI for a session. OAuth institutions only. */
  completeOAuth(ctx: ConnectorContext, request: { code: string; redirectUri: string; pending: ConnectorSession }): Promise<AuthResult>;

  /** Every account the session can see, with balances, details and positions as of ctx.now. */
  listAccounts(ctx: ConnectorContext, session: ConnectorSession): Promise<AccountsResult>;

  /**
   * Transactions of one account whose transactionDate is in [from, to] (epoch seconds, inclusive), limited to
   * what the institution serves (the last `historyDays` days up to ctx.now), oldest first.
   */
  fetchTransactions(ctx: ConnectorContext, session: ConnectorSession, accountRef: string, from: number, to: number): Promise<TransactionsResult>;

  /**
   * Sources that limit how often they may be asked (SimpleFIN's daily quota): the earliest time (ctx clock) a
   * refresh nobody asked for, the engine's scheduled one, may ask with this session. Without it, any time.
   */
  backgroundRefreshAt?(ctx: ConnectorContext, session: ConnectorSession): number;
}

/** A call the connector cannot serve at all (wrong auth mode, unknown account ref, foreign institution). */
export class ConnectorUsageError extends Error {
  override readonly name = 'ConnectorUsageError';
}

/**
 * The base of a connector whose institutions sign in with a credentials form alone, without MFA questions or OAuth
 * (OFX Direct Connect, SimpleFIN): those calls are usage errors, in the words the connector gives in `refusals`.
 */
export abstract class CredentialsOnlyConnector implements InstitutionConnector {
  abstract readonly capabilities: ConnectorCapabilities;
  /** Why an MFA answer, and why an OAuth call, cannot be served. */
  protected abstract readonly refusals: { mfa: string; oauth: string };

  abstract loginForm(ctx: ConnectorContext): LoginField[];
  abstract authenticate(ctx: ConnectorContext, credentials: Credential[]): Promise<AuthResult>;
  abstract listAccounts(ctx: ConnectorContext, session: ConnectorSession): Promise<AccountsResult>;
  abstract fetchTransactions(ctx: ConnectorContext, session: ConnectorSession, accountRef: string, from: number, to: number): Promise<TransactionsResult>;

  async answerMfa(_ctx?: ConnectorContext, _state?: ConnectorSession, _answers?: MfaAnswer[]): Promise<AuthResult> {
    throw new ConnectorUsageError(this.refusals.mfa);
  }

  async startOAuth(_ctx?: ConnectorContext, _request?: { redirectUri: string; state: string }): Promise<OAuthStart | ConnectorFailure> {
    throw new ConnectorUsageError(this.refusals.oauth);
  }

  async completeOAuth(_ctx?: ConnectorContext, _request?: { code: string; redirectUri: string; pending: ConnectorSession }): Promise<AuthResult> {
    throw new ConnectorUsageError(this.refusals.oauth);
  }
}
