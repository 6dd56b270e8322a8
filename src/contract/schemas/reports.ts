import Type from 'typebox';
import { MAX_STATEMENT_INDEX } from './bank-statements.js';
import { ConsumerEndUser } from './consumers.js';
import {
  CashFlowBalance,
  CashFlowBalanceSummary,
  CashFlowCharacteristic,
  CashFlowCharacteristicsSummary,
  CashFlowCredit,
  CashFlowCreditSummary,
  CashFlowDebit,
  CashFlowDebitSummary,
  Analytics,
  TimeIntervalType,
} from './report-analysis.js';

/**
 * Reports (docs/reports.md): what a Generate Report call takes, its 202 acknowledgement, the report it becomes, and
 * the lists of reports. One Report schema holds the fields of every kind of report, each optional: a kind fills the
 * ones its reference shape has (the reference's Report is an anyOf of such shapes, which JSON, XML and the generated
 * clients read better as one record).
 */

const epoch = (description: string) => Type.Integer({ description: `${description} (epoch seconds)`, examples: [1607450357] });
const money = (description: string, example = 1929.57) => Type.Number({ description, examples: [example] });

/**
 * The analytics report types, as the reference names them: balance (bar), cash flow (cfr) or payment history (phr),
 * personal (p) or business (b), for CRA, non-CRA or (business only) FTC purposes.
 */
export const ANALYTICS_REPORT_TYPES = [
  'barpcra',
  'barpnoncra',
  'barbcra',
  'barbnoncra',
  'barbftc',
  'cfrpcra',
  'cfrpnoncra',
  'cfrbcra',
  'cfrbnoncra',
  'cfrbftc',
  'phrbcra',
  'phrbnoncra',
  'phrbftc',
] as const;

/** The report types Ledgerlink generates; later kinds add their names here. */
export const REPORT_TYPES = [
  'voa',
  'voaHistory',
  'preQualVoa',
  'assetSummary',
  'transactions',
  'voi',
  'cfrp',
  'cfrb',
  'statement',
  ...ANALYTICS_REPORT_TYPES,
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const REPORT_STATUSES = ['inProgress', 'success', 'failure'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

const ReportId = Type.String({ description: 'A report id: 12 lower-case letters and digits, a hyphen and the report type', examples: ['u4hstnnak45g-voa'] });

export const ReportCustomField = Type.Object(
  {
    label: Type.Optional(Type.String({ description: 'The name of the field', examples: ['loanID'] })),
    value: Type.Optional(Type.String({ description: 'Its value', examples: ['12345'] })),
    shown: Type.Optional(Type.Boolean({ description: 'Whether the PDF shows it', examples: [true] })),
  },
  { description: 'A field the partner attaches to the report, copied into it' },
);

const AccountIdsText = Type.String({
  description: 'A whitespace-separated list of account ids to report on (every eligible account when not set)',
  examples: ['5011648377 5011648378'],
});
const CustomFields = Type.Array(ReportCustomField, { maxItems: 5, description: 'Up to 5 custom fields, copied into the report' });
const ShowNsf = Type.Boolean({ description: 'Include the insufficient funds (NSF) counts of each account', examples: [false] });

/** The body of Generate VOA, Generate Prequalification (CRA) and Generate Asset Summary (non-CRA). */
export const AssetReportRequest = Type.Object(
  {
    accountIds: Type.Optional(AccountIdsText),
    reportCustomFields: Type.Optional(CustomFields),
    showNsf: Type.Optional(ShowNsf),
    fromDate: Type.Optional(epoch('Start of the history the report reads; by default as far back as the report reaches')),
  },
  { xml: { name: 'reportConstraints' } },
);

/** The body of Generate VOA With Income. */
export const AssetIncomeReportRequest = Type.Object(
  {
    ...AssetReportRequest.properties,
    incomeFromDate: Type.Optional(epoch('Start of the income history (24 months by default)')),
    incomeStreamConfidenceMinimum: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100, description: 'Only income streams with at least this confidence', examples: [50] }),
    ),
  },
  { xml: { name: 'reportConstraints' } },
);

/** The body of Generate Cash Flow (personal and business). */
export const CashFlowReportRequest = Type.Object(
  {
    accountIds: Type.Optional(AccountIdsText),
    reportCustomFields: Type.Optional(CustomFields),
    showNsf: Type.Optional(ShowNsf),
    fromDate: Type.Optional(epoch('Start of the history the report reads (24 months back by default, and at most)')),
    incomeStreamConfidenceMinimum: AssetIncomeReportRequest.properties.incomeStreamConfidenceMinimum,
  },
  { xml: { name: 'reportConstraints' } },
);

/** The body of Generate Balance Analytics and Generate Cash Flow Analytics. */
export const AnalyticsReportRequest = Type.Object(
  {
    analyticsReportData: Type.Optional(
      Type.Object({
        forCraPurpose: Type.Optional(Type.Boolean({ description: 'A report for CRA purposes (else non-CRA)', examples: [true] })),
        applicantIsPersonalGuarantor: Type.Optional(Type.Boolean({ description: 'Whether the business owner personally guarantees the loan' })),
        forFtcPurpose: Type.Optional(Type.Boolean({ description: 'A report for FTC purposes (business reports only)', examples: [false] })),
        timeIntervalTypes: Type.Optional(
          Type.Array(TimeIntervalType, {
            maxItems: 2,
            description: 'The periods of the attributes (MONTHLY_CALENDAR by default)',
            examples: [['MONTHLY_CALENDAR']],
          }),
        ),
      }),
    ),
    accountIds: Type.Optional(AccountIdsText),
    reportCustomFields: Type.Optional(CustomFields),
    fromDate: Type.Optional(epoch('Start of the history the report reads (24 months back by default, and at most)')),
  },
  { xml: { name: 'reportConstraints' } },
);

export const UserTypeParams = Type.Object({
  customerId: Type.String({ examples: ['1005061234'] }),
  userType: Type.Union([Type.Literal('personal'), Type.Literal('business')], { description: 'personal or business' }),
});

/** The body of Generate VOI. */
export const IncomeReportRequest = Type.Object(
  {
    accountIds: Type.Optional(AccountIdsText),
    reportCustomFields: Type.Optional(CustomFields),
    fromDate: Type.Optional(epoch('Start of the income history (24 months back by default, and at most)')),
    incomeStreamConfidenceMinimum: AssetIncomeReportRequest.properties.incomeStreamConfidenceMinimum,
  },
  { xml: { name: 'reportConstraints' } },
);

export const FindTransaction = Type.Object(
  {
    findTransactionDescriptionMemo: Type.Optional(Type.String({ maxLength: 255, description: 'Text the description or memo contains (case-insensitive)' })),
    findTransactionAmountFrom: Type.Optional(Type.Number({ description: 'Smallest absolute amount' })),
    findTransactionAmountTo: Type.Optional(Type.Number({ description: 'Largest absolute amount' })),
    findTransactionCategory: Type.Optional(Type.Array(Type.String(), { maxItems: 10, description: 'Categories (any of them)' })),
  },
  { description: 'Keeps only the transactions matching every criterion given' },
);

/** The body of Generate Transactions Report. */
export const TransactionsReportRequest = Type.Object(
  {
    accountIds: Type.Optional(AccountIdsText),
    fromDate: Type.Optional(epoch('First day of transactions (the query parameter wins when both are given)')),
    toDate: Type.Optional(epoch('Last day of transactions (the query parameter wins when both are given)')),
    reportCustomFields: Type.Optional(CustomFields),
    findTransaction: Type.Optional(FindTransaction),
  },
  { xml: { name: 'reportConstraints' } },
);

/** Which statement a statement report holds: the account and the statement's index. */
export const StatementReportData = Type.Object(
  {
    accountId: Type.Integer({ minimum: 1, description: 'The account: one of the customer’s, of any type', examples: [5011648377] }),
    statementIndex: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_STATEMENT_INDEX,
        default: 1,
        description: `Which statement: 1 is the most recent, each next one the statement before (1 to ${MAX_STATEMENT_INDEX}; 1 by default)`,
        examples: [1],
      }),
    ),
  },
  { description: 'The statement the report holds' },
);

/** The body of Generate Statement Report. */
export const StatementReportRequest = Type.Object(
  { statementReportData: StatementReportData, reportCustomFields: Type.Optional(CustomFields) },
  { xml: { name: 'reportConstraints' } },
);

export const ReportCallbackQuery = Type.Object({
  callbackUrl: Type.Optional(Type.String({ description: 'Where the report-finished webhook goes (http or https)', examples: ['https://example.com/reports'] })),
});

export const TransactionsReportQuery = Type.Object({
  ...ReportCallbackQuery.properties,
  fromDate: Type.Optional(epoch('First day of transactions')),
  toDate: Type.Optional(epoch('Last day of transactions, after fromDate, at most 24 months later')),
  includePending: Type.Optional(Type.Boolean({ description: 'Include pending transactions (false by default)' })),
});

/** What the report was asked for, as it shows it. */
export const ReportConstraints = Type.Object(
  {
    accountIds: Type.Optional(Type.Array(Type.String({ examples: ['5011648377'] }), { description: 'The accounts asked for (absent: all eligible accounts)' })),
    reportCustomFields: Type.Optional(Type.Array(ReportCustomField)),
    fromDate: Type.Optional(epoch('Start of the history asked for')),
    toDate: Type.Optional(epoch('End of the history asked for')),
    showNsf: Type.Optional(ShowNsf),
    includePending: Type.Optional(Type.Boolean()),
    incomeFromDate: Type.Optional(epoch('Start of the income history asked for')),
    incomeStreamConfidenceMinimum: Type.Optional(Type.Integer()),
    findTransaction: Type.Optional(FindTransaction),
    statementReportData: Type.Optional(StatementReportData),
  },
  { description: 'The options the report was generated with' },
);

const ReportError = Type.Object(
  {
    code: Type.String({ description: 'An error code of docs/errors.md', examples: ['16001'] }),
    message: Type.String({ examples: ['No account of type checking, savings, money market or investment.'] }),
  },
  { description: 'Why a report failed' },
);

export const ConsumerDetails = Type.Object(
  {
    id: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    address: Type.String(),
    city: Type.String(),
    state: Type.String(),
    zip: Type.String(),
    phone: Type.String(),
    ssn: Type.String({ description: 'Last four digits' }),
    email: Type.String(),
  },
  { description: 'The consumer the report is about, as it was when the report was asked for' },
);

/** What every report and its acknowledgement carry. */
const reportHeader = {
  id: ReportId,
  portfolioId: Type.String({ description: 'The same for every report of the customer', examples: ['dyr6qvqd2yhb-1-port'] }),
  customerType: Type.String({ description: '"active" or "testing"', examples: ['testing'] }),
  customerId: Type.Integer({ examples: [1005061234] }),
  requestId: Type.String({ description: 'The generation request, 10 letters and digits', examples: ['cjqm4wtdcn'] }),
  requesterName: Type.String({ description: 'The partner that asked for the report', examples: ['Acme Lending'] }),
  endUser: Type.Optional(ConsumerEndUser),
  createdDate: epoch('When the report was asked for'),
  title: Type.String({ examples: ['Verification of Assets'] }),
  consumerId: Type.String({ examples: ['0bf46322c167b562e6cbed9d40e19a4c'] }),
  consumerSsn: Type.String({ description: 'Last four digits of the consumer’s SSN; empty when not given', examples: ['9999'] }),
  consumerDetails: Type.Optional(ConsumerDetails),
  type: Type.String({ description: `The report type: ${REPORT_TYPES.join(', ')}`, examples: ['voa'] }),
  status: Type.String({ description: 'inProgress, success or failure', examples: ['inProgress'] }),
};

/** The 202 answer of every Generate Report operation. */
export const ReportAck = Type.Object(
  { ...reportHeader, constraints: ReportConstraints, errors: Type.Optional(Type.Array(ReportError)) },
  { xml: { name: 'report' }, description: 'A report being generated: fetch it with Get Report, or wait for the callback' },
);

export const ReportTransaction = Type.Object(
  {
    id: Type.Integer({ examples: [100000527471] }),
    amount: money('Negative for money out', -45.1),
    postedDate: epoch('When it posted (its date while pending)'),
    description: Type.String(),
    memo: Type.Optional(Type.String()),
    normalizedPayee: Type.Optional(Type.String()),
    institutionTransactionId: Type.Optional(Type.String()),
    category: Type.Optional(Type.String()),
    type: Type.Optional(Type.String()),
    investmentTransactionType: Type.Optional(Type.String()),
    symbol: Type.Optional(Type.String()),
  },
  { description: 'A transaction of a report' },
);

export const ReportAsset = Type.Object(
  {
    type: Type.Optional(Type.String({ description: 'The account type, or "all" for the customer’s total', examples: ['checking'] })),
    availableBalance: Type.Optional(money('Available balance')),
    currentBalance: money('Current balance'),
    twoMonthAverage: money('Average daily balance over the last 61 days'),
    sixMonthAverage: Type.Optional(money('Average daily balance over the last 182 days')),
    beginningBalance: money('The balance on the first day of the report'),
  },
  { description: 'Asset summary: balances and their averages' },
);

export const ReportPosition = Type.Object({
  id: Type.Optional(Type.Number()),
  currency: Type.Optional(Type.String()),
  symbol: Type.Optional(Type.String()),
  securityName: Type.Optional(Type.String()),
  units: Type.Optional(Type.Number()),
  marketValue: Type.Optional(Type.Number()),
  currentPrice: Type.Optional(Type.Number()),
});

export const ReportAccount = Type.Object(
  {
    id: Type.Integer({ examples: [5011648377] }),
    number: Type.String({ description: 'Masked account number', examples: ['xxxx1111'] }),
    ownerName: Type.Optional(Type.String({ description: 'The consumer’s name', examples: ['JOHN DOE'] })),
    ownerAddress: Type.Optional(Type.String()),
    name: Type.String({ examples: ['Checking'] }),
    type: Type.String({ examples: ['checking'] }),
    currency: Type.String({ examples: ['USD'] }),
    aggregationStatusCode: Type.Integer({ examples: [0] }),
    balance: money('The balance as of balanceDate'),
    balanceDate: epoch('When the balance was read'),
    availableBalance: Type.Optional(money('Available balance')),
    averageMonthlyBalance: Type.Optional(money('Average of the month-end balances of the report’s months')),
    totNumberInsufficientFundsFeeDebitTxAccount: Type.Optional(Type.Integer({ description: 'Insufficient funds fees in the report’s history' })),
    totNumberInsufficientFundsFeeDebitTxOver2MonthsAccount: Type.Optional(Type.Integer({ description: 'Insufficient funds fees in the last 2 months' })),
    totNumberInsufficientFundsFeeDebitTxOver6MonthsAccount: Type.Optional(Type.Integer({ description: 'Insufficient funds fees in the last 6 months' })),
    totNumberDaysSinceMostRecentInsufficientFundsFeeDebitTxAccount: Type.Optional(
      Type.Integer({ description: 'Days since the latest insufficient funds fee' }),
    ),
    oldestTransactionDate: Type.Optional(epoch('The oldest transaction of the account in the report')),
    transactionsCount: Type.Optional(Type.Integer({ minimum: 0 })),
    transactions: Type.Optional(Type.Array(ReportTransaction)),
    position: Type.Optional(Type.Array(ReportPosition)),
    asset: Type.Optional(ReportAsset),
    incomeStreams: Type.Optional(Type.Array(Type.Unknown(), { description: 'Income streams of the account (VOA with income, VOI): docs/reports-analysis.md' })),
    cashFlowBalance: Type.Optional(CashFlowBalance),
    cashFlowCredit: Type.Optional(CashFlowCredit),
    cashFlowDebit: Type.Optional(CashFlowDebit),
    cashFlowCharacteristic: Type.Optional(CashFlowCharacteristic),
    analytics: Type.Optional(Analytics),
  },
  { description: 'An account of a report' },
);

const LoanDepositAccount = Type.Object(
  {
    id: Type.String({ examples: ['5011648377'] }),
    ownerName: Type.String({ description: 'The consumer’s name', examples: ['JOHN DOE'] }),
    ownerAddress: Type.String({ examples: ['434 W ASCENSION WAY, MURRAY, UT 84123'] }),
    name: Type.String({ examples: ['Checking'] }),
    number: Type.String({ description: 'Masked account number', examples: ['xxxx1111'] }),
    type: Type.String({ examples: ['checking'] }),
    aggregationStatusCode: Type.Integer({ examples: [0] }),
    currentBalance: money('The balance as of balanceDate'),
    availableBalance: money('Available balance (the balance where the institution gives none)'),
    balanceDate: epoch('When the balance was read'),
    transactions: Type.Array(ReportTransaction, { description: 'The possible loan deposits, oldest first' }),
  },
  { description: 'An account with possible loan deposits' },
);

const LoanDepositInstitution = Type.Object({
  id: Type.String({ examples: ['101732'] }),
  name: Type.String({ examples: ['FinBank'] }),
  urlHomeApp: Type.String({ examples: ['https://www.finbank.example'] }),
  accounts: Type.Array(LoanDepositAccount),
});

/** The reference's possibleLoanDeposits entry: the institutions whose accounts received them. */
export const PossibleLoanDeposits = Type.Object({ institutions: Type.Array(LoanDepositInstitution) }, { description: 'Possible loan deposits' });

export const ReportInstitution = Type.Object({
  id: Type.Integer({ examples: [101732] }),
  name: Type.String({ examples: ['FinBank'] }),
  urlHomeApp: Type.String({ examples: ['https://www.finbank.example'] }),
  accounts: Type.Array(ReportAccount),
});

/** A report: its header, and once it succeeded, what its kind computed. */
export const Report = Type.Object(
  {
    ...reportHeader,
    constraints: Type.Optional(ReportConstraints),
    errors: Type.Optional(Type.Array(ReportError)),
    startDate: Type.Optional(epoch('The postedDate of the earliest transaction analysed')),
    endDate: Type.Optional(epoch('The postedDate of the latest transaction analysed')),
    days: Type.Optional(Type.Integer({ description: 'Days from startDate to endDate' })),
    seasoned: Type.Optional(Type.Boolean({ description: 'Whether the report covers more than 180 days (365 for a transactions report)' })),
    consolidatedAvailableBalance: Type.Optional(money('The sum of the available balances of the accounts')),
    institutions: Type.Optional(Type.Array(ReportInstitution)),
    assets: Type.Optional(ReportAsset),
    income: Type.Optional(Type.Array(Type.Unknown(), { description: 'Income stream summaries by confidence level (VOA with income, VOI)' })),
    cashFlowBalanceSummary: Type.Optional(CashFlowBalanceSummary),
    cashFlowCreditSummary: Type.Optional(CashFlowCreditSummary),
    cashFlowDebitSummary: Type.Optional(CashFlowDebitSummary),
    cashFlowCharacteristicsSummary: Type.Optional(CashFlowCharacteristicsSummary),
    customerAnalytics: Type.Optional(Analytics),
    possibleLoanDeposits: Type.Optional(
      Type.Array(PossibleLoanDeposits, {
        description: 'Cash flow reports: the credits that look like borrowed money, by institution and account (docs/reports-analysis.md); empty when none',
      }),
    ),
    assetId: Type.Optional(
      Type.String({
        description: 'Statement report: the statement’s asset id, for Get Asset by Customer and ID',
        examples: ['statement-5011648377-20261001-20261031'],
      }),
    ),
  },
  { xml: { name: 'report' } },
);

export const ReportSummary = Type.Object({
  id: ReportId,
  requestId: reportHeader.requestId,
  requesterName: reportHeader.requesterName,
  createdDate: reportHeader.createdDate,
  consumerId: Type.Optional(reportHeader.consumerId),
  consumerSsn: Type.Optional(reportHeader.consumerSsn),
  type: reportHeader.type,
  status: reportHeader.status,
});

export const ReportSummaries = Type.Object({ reports: Type.Array(ReportSummary, { description: 'Newest first' }) }, { xml: { name: 'reports' } });

export const ReportIdParams = Type.Object({ reportId: ReportId });
export const CustomerReportParams = Type.Object({ customerId: Type.String({ examples: ['1005061234'] }), reportId: ReportId });
export const ConsumerReportParams = Type.Object({ consumerId: Type.String({ examples: ['0bf46322c167b562e6cbed9d40e19a4c'] }), reportId: ReportId });

export const ReportReadQuery = Type.Object({
  purpose: Type.Optional(Type.String({ description: 'FCRA permissible purpose code, two digits', examples: ['31'] })),
  onBehalfOf: Type.Optional(Type.String({ description: 'Whom the report is read for', examples: ['Acme Lending'] })),
});

/** The body of Get Report by Id and Report Reissue. */
export const LenderBody = Type.Object(
  { purpose: Type.Optional(Type.String({ description: 'FCRA permissible purpose code, two digits', examples: ['31'] })) },
  { xml: { name: 'lender' } },
);
