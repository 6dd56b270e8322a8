import Type from 'typebox';

/** Get Recurring Transactions (docs/aggregation.md, "Recurring transactions"): the request and the streams found. */

export const RecurringTransactionsRequest = Type.Object(
  {
    accountIds: Type.Optional(
      Type.Array(Type.String({ description: 'An account id of the customer', examples: ['5011648377'] }), {
        description: 'The accounts to look at (at most 1000); all of the customer’s accounts when absent or empty',
        maxItems: 1000,
      }),
    ),
  },
  { xml: { name: 'accountIds' } },
);

const Money = (description: string) => Type.Number({ description: `${description}, in dollars (a magnitude: the list says the direction)`, examples: [15.99] });

const streamFields = (direction: string) => ({
  normalizedPayeeName: Type.String({ description: 'The payee, as the newest transaction of the stream names it', examples: ['Netflix'] }),
  transactionCategories: Type.Array(Type.String({ examples: ['Entertainment'] }), { description: 'The categories of its transactions' }),
  transactionIds: Type.Array(Type.String({ examples: ['20000000123'] }), { description: `The ${direction} transactions of the stream, oldest first` }),
  cadence: Type.Integer({ description: 'Mean number of days between its transactions', examples: [30] }),
  status: Type.String({ description: 'active, or inactive when the next transaction is overdue by more than half a cadence', examples: ['active'] }),
  expectedNextTransactionDate: Type.String({ format: 'date', description: 'The last date plus the cadence', examples: ['2026-02-14'] }),
  expectedNextTransactionAmount: Money('The median of the last three amounts'),
  minimumHistoricalAmount: Money('The smallest amount'),
  maximumHistoricalAmount: Money('The largest amount'),
  meanHistoricalAmount: Money('The mean amount'),
  medianHistoricalAmount: Money('The median amount'),
  countOfTransactions: Type.Integer({ description: 'Number of transactions in the stream', examples: [6] }),
});

export const RecurringTransactions = Type.Object(
  {
    customerRecurringTransactions: Type.Object({
      recurringOutflows: Type.Array(Type.Object(streamFields('debit'), { description: 'A recurring debit stream' })),
      recurringInflows: Type.Array(Type.Object(streamFields('credit'), { description: 'A recurring credit stream' })),
    }),
  },
  { xml: { name: 'recurringTransactionsDetails' } },
);
