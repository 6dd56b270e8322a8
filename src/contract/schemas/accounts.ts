import Type from 'typebox';
import { RequiredString } from './common.js';

const Epoch = (description = 'Epoch seconds') => Type.Integer({ description });
const Num = (description?: string) => Type.Number(description ? { description } : {});
const Str = (description?: string) => Type.String(description ? { description } : {});
const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);

/** The detail object: the fields of the account's type (checking and savings, loans, lines of credit, investments). */
export const AccountDetail = Type.Object(
  {
    // checking, savings
    availableBalanceAmount: O(Num('checking, savings, loan: the balance minus pending debits')),
    periodInterestRate: O(Str('checking, savings: APY in percent, as a decimal string')),
    // loan, mortgage
    payoffAmount: O(Num()),
    principalBalance: O(Num()),
    escrowBalance: O(Num()),
    interestRate: O(Str('loan, mortgage, lineOfCredit: percent, as a decimal string')),
    autoPayEnrolled: O(Str('Y or N')),
    collateral: O(Str()),
    currentSchool: O(Str()),
    firstMortgage: O(Str('Y or N')),
    originalSchool: O(Str()),
    recurringPaymentAmount: O(Num()),
    lender: O(Str()),
    endingBalanceAmount: O(Num()),
    loanTermType: O(Str()),
    paymentsMade: O(Type.Integer()),
    balloonAmount: O(Num()),
    projectedInterest: O(Num()),
    interestPaidLtd: O(Num()),
    interestRateType: O(Str()),
    loanPaymentType: O(Str()),
    paymentsRemaining: O(Type.Integer()),
    loanMinAmtDue: O(Num()),
    loanPaymentFreq: O(Str()),
    paymentMinAmount: O(Num('loan, lineOfCredit')),
    loanMinAmtDueDate: O(Epoch()),
    firstPaymentDate: O(Epoch()),
    // investment, investmentTaxDeferred, roth
    marginBalance: O(Num()),
    availableCashBalance: O(Num()),
    currentBalance: O(Num()),
    vestedBalance: O(Num()),
    currentLoanBalance: O(Num()),
    loanRate: O(Num()),
    marginAllowed: O(Type.Boolean()),
    cashAccountAllowed: O(Type.Boolean()),
    employeeDeferPreTaxAmount: O(Num()),
    employeePreTaxAmount: O(Num()),
    employeePreTaxPercentage: O(Num()),
    employerYearToDate: O(Num()),
    rolloverContributionAmount: O(Num()),
    allowedCheckWriting: O(Str('ALLOW or DENY')),
    allowedOptionTrade: O(Str('ALLOW or DENY')),
    dailyChange: O(Num()),
    margin: O(Num()),
    percentageChange: O(Num()),
    loanPaymentAmount: O(Num()),
    loanNextPaymentDate: O(Epoch()),
    // lineOfCredit
    creditAvailableAmount: O(Num()),
    statementCloseBalance: O(Num()),
    locPrincipalBalance: O(Num()),
    paymentDueDate: O(Epoch()),
    statementEndDate: O(Epoch()),
    // any type, from sources that reach several institutions
    institutionName: O(Str("The institution that holds the account, where the source reaches several (a SimpleFIN bridge names each account's bank)")),
  },
  { description: 'Fields that depend on the account type; credit cards have no detail object unless the source names their institution' },
);

/** An investment holding (the interface's Position). */
export const Position = Type.Object(
  {
    id: Type.Integer({ description: 'Service-assigned, stable while the holding exists' }),
    symbol: Str(),
    fundName: Str(),
    quantity: Num(),
    marketValue: Str('Decimal string'),
    changePercent: Num(),
    costBasis: Num(),
    dailyChange: Num(),
    memo: Str(),
    empPretaxContribAmount: Num(),
    heldInAccount: Str('Decimal string'),
    holdType: Str(),
    maturityValue: Num(),
    units: Num(),
    unitPrice: Num(),
    type: Str(),
    status: Str(),
    invSecurityType: Str(),
    securityCurrencyRate: Str('Decimal string'),
    averageCost: Num(),
    cashAccount: Type.Boolean(),
    faceValue: Num(),
    holdingId: Str(),
    securitySubType: Str(),
    rate: Num(),
    unitType: Str(),
    todayGLDollar: Num(),
    todayGLPercent: Num(),
    totalGLDollar: Num(),
    totalGLPercent: Num(),
    costBasisPerShare: Num(),
    enterpriseSymbol: Str(),
    localMarketValue: Num(),
    localPrice: Num(),
    securityId: Str(),
    reinvestmentCapGains: Str('Decimal string'),
    reinvestmentDividend: Str('Decimal string'),
    expirationDate: O(Epoch('Only for securities that mature or expire')),
    originalPurchaseDate: Epoch(),
  },
  { xml: { name: 'position' } },
);

export const accountFields = {
  id: Type.String({ examples: ['5011648377'] }),
  number: Type.String({
    description: 'Account number from the institution, masked: only its last four letters or digits show, the ones before them are X',
    examples: ['XXXXXX7890'],
  }),
  realAccountNumberLast4: O(Type.String({ description: 'Last four digits of the real account number; ACH-capable accounts only' })),
  accountNumberDisplay: Type.String({ examples: ['7528'] }),
  name: Type.String({ examples: ['Super Checking'] }),
  accountNickname: Type.String(),
  balance: Type.Number({ description: 'Cleared balance at balanceDate; negative for loans, cards and credit lines' }),
  type: Type.String({ description: 'checking, savings, creditCard, loan, mortgage, lineOfCredit, investment, investmentTaxDeferred or roth' }),
  status: Type.String({ examples: ['active'] }),
  aggregationStatusCode: Type.Integer({ description: '0, or the aggregation status code of the last failed attempt (docs/aggregation.md)' }),
  customerId: Type.String(),
  institutionId: Type.String(),
  institutionLoginId: Type.Integer(),
  currency: Type.String({ examples: ['USD'] }),
  balanceDate: Epoch(),
  aggregationSuccessDate: O(Epoch('Last successful aggregation; absent before the first')),
  aggregationAttemptDate: O(Epoch('Last aggregation attempt; absent before the first')),
  createdDate: Epoch(),
  lastUpdatedDate: Epoch(),
  lastTransactionDate: O(Epoch()),
  oldestTransactionDate: O(Epoch()),
  displayPosition: Type.Integer(),
  financialinstitutionAccountStatus: Type.String({ examples: ['OPEN'] }),
  marketSegment: Type.String({ description: 'personal or business' }),
  authorizationStartDate: O(Epoch('When the customer gave the consent the account is read under; only where consents end (PSD2 banks)')),
  authorizationEndDate: O(Epoch('When that consent ends: after it, Connect Fix asks the customer to consent again')),
  authorizationExpires: O(Type.Boolean({ description: 'Whether the consent has an end date (present only when it has)' })),
  authorizationExpiring: O(
    Type.Boolean({
      description:
        'Ledgerlink extension: true from seven days before authorizationEndDate until a new consent; turning true is an account modification, notified to TxPUSH subscribers (docs/aggregation.md)',
    }),
  ),
  detail: O(AccountDetail),
  position: O(Type.Array(Position, { description: 'Holdings of investment accounts' })),
};

const AccountItem = Type.Object(accountFields, { xml: { name: 'account' } });
export const Account = Type.Object(accountFields, { xml: { name: 'account' }, description: 'A customer account (CustomerAccount)' });
export const AccountList = Type.Object({ accounts: Type.Array(AccountItem) }, { xml: { name: 'accounts' } });

const simpleFields = {
  id: Type.String({ examples: ['5011648377'] }),
  accountNumberDisplay: Type.String(),
  name: Type.String(),
  type: Type.String(),
  aggregationStatusCode: Type.Integer(),
  status: Type.String(),
  customerId: Type.String(),
  institutionId: Type.String(),
  aggregationSuccessDate: O(Epoch()),
  aggregationAttemptDate: O(Epoch()),
  createdDate: Epoch(),
  currency: Type.String(),
  institutionLoginId: Type.Integer(),
  displayPosition: Type.Integer(),
};
export const AccountSimple = Type.Object(simpleFields, { xml: { name: 'account' }, description: 'The basic fields of an account (CustomerAccountSimple)' });
export const AccountSimpleList = Type.Object({ accounts: Type.Array(Type.Object(simpleFields, { xml: { name: 'account' } })) }, { xml: { name: 'accounts' } });

export const CustomerIdParam = { customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }) };
export const AccountParams = Type.Object({ ...CustomerIdParam, accountId: Type.String({ description: 'Account id', examples: ['5011648377'] }) });
export const InstitutionLoginParams = Type.Object({
  ...CustomerIdParam,
  institutionLoginId: Type.String({ description: 'Institution login id', examples: ['6000000000'] }),
});
/** Institution ids are 32-bit integers. */
// Institution ids are 64-bit in the reference: any safe integer is a well-formed id (an unknown one names nothing).
export const InstitutionIdParam = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Institution id', examples: [102105] });
export const CustomerInstitutionParams = Type.Object({ ...CustomerIdParam, institutionId: InstitutionIdParam });

/** One field of a sign-in form as the legacy addall call sends it. */
export const LoginField = Type.Object(
  {
    id: RequiredString({ description: 'Field id: <institutionId>001 for the user id, <institutionId>002 for the password', examples: ['102105001'] }),
    name: Type.Optional(Type.String({ examples: ['Banking Userid'] })),
    value: Type.String({ examples: ['profile_03'] }),
  },
  { xml: { name: 'loginField' } },
);

export const AddAllBody = Type.Object(
  { credentials: Type.Array(LoginField, { minItems: 1, xml: { wrapped: true }, description: "The institution's sign-in form, filled in" }) },
  { xml: { name: 'accounts' } },
);

/** An MFA question as the legacy 203 response carries it. */
export const MfaQuestion = Type.Object(
  {
    id: Type.String({ description: 'Question id; send it back with the answer', examples: ['pet'] }),
    text: Type.String({ description: 'The question', examples: ['What is the name of your first pet?'] }),
    image: O(Type.String({ description: 'An image to look at (data URL)' })),
    choices: O(
      Type.Array(Type.Object({ value: Type.String(), choice: Type.String() }, { xml: { name: 'choice' } }), {
        xml: { wrapped: true },
        description: 'Options: answer with a value',
      }),
    ),
  },
  { xml: { name: 'question' } },
);

export const MfaChallenges = Type.Object(
  { questions: Type.Array(MfaQuestion, { xml: { wrapped: true } }) },
  { xml: { name: 'mfaChallenges' }, description: 'The institution asks MFA questions: answer them with the MFA-Session header of this response' },
);

export const MfaAnswersBody = Type.Object(
  {
    mfaChallenges: O(
      Type.Object({
        questions: Type.Array(
          Type.Object(
            { id: O(Type.String({ examples: ['pet'] })), text: O(Type.String()), answer: Type.String({ examples: ['rex'] }) },
            { xml: { name: 'question' } },
          ),
          { xml: { wrapped: true } },
        ),
      }),
    ),
    questions: O(
      Type.Array(Type.Object({ id: O(Type.String()), text: O(Type.String()), answer: Type.String() }, { xml: { name: 'question' } }), {
        xml: { wrapped: true },
      }),
    ),
  },
  { xml: { name: 'accounts' }, description: 'The answers, each with its question id (or its text), under mfaChallenges.questions (or questions)' },
);

export const MfaSessionHeaders = Type.Object({ 'mfa-session': RequiredString({ description: 'The MFA-Session header of the 203 response' }) });
