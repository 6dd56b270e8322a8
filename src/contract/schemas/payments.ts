/**
 * The Payments operations' answers (docs/payments.md): ACH details (v1, and v3's payment instructions), an account's
 * available balance (stored and live) and a loan's payment details, in the reference's shapes.
 */
import Type from 'typebox';

const AccountNumber = (description: string) => Type.String({ description, examples: ['6894636820'] });
const RoutingNumber = Type.String({ description: 'The ABA routing number of the institution for this account', examples: ['124017322'] });

export const AchDetails = Type.Object(
  {
    routingNumber: RoutingNumber,
    realAccountNumber: AccountNumber('The full account number for ACH transfers from and to this account, its digits only'),
  },
  { xml: { name: 'achDetails' }, description: 'The routing and account numbers to initiate ACH transfers (ACHDetails)' },
);

const Descriptor = Type.Object(
  {
    type: Type.String({ description: 'What the value is: routingNumber', examples: ['routingNumber'] }),
    value: Type.String({ description: 'The routing number', examples: ['124017322'] }),
  },
  { description: 'A descriptor of the payment instruction' },
);

export const PaymentInstruction = Type.Object(
  {
    type: Type.String({ description: 'The payment type: ach (RTP and FedNow capabilities are not known to any source Ledgerlink reads)', examples: ['ach'] }),
    accountNumber: AccountNumber('The full account number, its digits only'),
    tanEnabled: Type.Boolean({ description: 'false: the number is the account number itself, not a tokenised one' }),
    descriptors: Type.Array(Descriptor, { description: 'The routing number' }),
  },
  { description: 'How to pay into or out of the account by one payment type' },
);

export const PaymentInstructions = Type.Object(
  { paymentInstruction: Type.Array(PaymentInstruction, { description: 'One instruction per payment type the account supports' }) },
  { xml: { name: 'paymentInstructions' }, description: 'ACH details with the payment types of the account (PaymentInstructions)' },
);

const Epoch = (description: string) => Type.Integer({ description, examples: [1768478400] });

export const AvailableBalance = Type.Object(
  {
    id: Type.Integer({ description: 'The account id', examples: [5011648377] }),
    realAccountNumberLast4: Type.String({ description: 'The last four digits of the account number; empty when the source gives none', examples: ['0001'] }),
    availableBalance: Type.Number({
      description: 'The available balance: the cleared balance less pending debits, as the source states it',
      examples: [3412.5],
    }),
    availableBalanceDate: Epoch('When the available balance was valid, epoch seconds'),
    clearedBalance: Type.Number({ description: 'The cleared (posted, ledger) balance', examples: [3480.25] }),
    clearedBalanceDate: Epoch('When the cleared balance was valid, epoch seconds'),
    aggregationStatusCode: Type.Integer({ description: 'The status of the last aggregation of the account (0: success)', examples: [0] }),
    currency: Type.String({ description: 'ISO 4217', examples: ['USD'] }),
  },
  { xml: { name: 'availableBalance' }, description: "A deposit account's available and cleared balances (AvailableBalance)" },
);

export const AvailableBalanceLiveQuery = Type.Object({
  balance_cache_interval: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1440,
      description:
        'Minutes: a balance read from the institution at most this long ago is answered as it is; an older one is read again first. 0: always read again. 30 when absent.',
      examples: [30],
    }),
  ),
});

const LoanFields = {
  accountId: Type.String({ description: 'The account id', examples: ['5011648377'] }),
  loanNumber: Type.String({ description: "The institution's number of the loan", examples: ['9880674336'] }),
  loanPaymentNumber: Type.String({ description: 'The number to quote with a manual payment (not an ACH number)', examples: ['98806743369'] }),
  loanPaymentAddress: Type.String({
    description: 'Where manual payments are sent, on one line',
    examples: ['FinBank Home Lending, PO Box 24810, Salt Lake City, UT 84130'],
  }),
  loanFuturePayoffAmount: Type.Optional(Type.Number({ description: 'What pays the loan off at loanFuturePayoffDate', examples: [406815.78] })),
  loanFuturePayoffDate: Type.Optional(Type.String({ format: 'date-time', description: 'When the payoff amount applies', examples: ['2026-01-15T12:00:00Z'] })),
};

export const LoanPaymentDetails = Type.Object(
  {
    loanNumber: LoanFields.loanNumber,
    loanPaymentNumber: LoanFields.loanPaymentNumber,
    loanPaymentAddress: LoanFields.loanPaymentAddress,
    accountDetail: Type.Object(
      {
        accountId: LoanFields.accountId,
        accountNumber: Type.String({ description: "The institution's number of the loan account", examples: ['9880674336'] }),
        accountPaymentNumber: LoanFields.loanPaymentNumber,
        accountPaymentAddress: LoanFields.loanPaymentAddress,
        accountFuturePayoffAmount: LoanFields.loanFuturePayoffAmount,
        accountFuturePayoffDate: LoanFields.loanFuturePayoffDate,
        loanDetail: Type.Array(Type.Object(LoanFields, { description: 'A loan of the account' }), { description: 'The loans of the account: one' }),
      },
      { description: 'The loan account' },
    ),
  },
  { xml: { name: 'loanPaymentDetails' }, description: 'How to pay a loan manually (LoanPaymentDetails)' },
);
