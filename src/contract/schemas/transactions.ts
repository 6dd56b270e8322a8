import Type from 'typebox';

/** The largest page of transactions one request may ask for. */
export const MAX_TRANSACTIONS_LIMIT = 1000;

const Epoch = (description = 'Epoch seconds') => Type.Integer({ description });
/** The last second of the year 9999: dates beyond it are refused (400) rather than passed to the database. */
export const MAX_EPOCH = 253402300799;
const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);

export const Categorization = Type.Object({
  normalizedPayeeName: Type.String({ examples: ['Starbucks'] }),
  category: Type.String({ examples: ['Coffee Shops'] }),
  bestRepresentation: Type.String(),
  country: Type.String({ description: 'ISO 3166-1 alpha-3', examples: ['USA'] }),
});

export const transactionFields = {
  id: Type.Integer({ examples: [20000012345] }),
  amount: Type.Number({ description: 'Debits negative, credits positive' }),
  accountId: Type.Integer(),
  customerId: Type.Integer(),
  status: Type.String({ description: 'active (posted) or pending' }),
  description: Type.String(),
  memo: O(Type.String()),
  type: O(Type.String({ examples: ['pointOfSale'] })),
  transactionDate: O(Epoch()),
  postedDate: Epoch('When the transaction posted; while it is pending, its transaction date (it moves to the posting date when the institution posts it)'),
  createdDate: Epoch('When the service stored it'),
  checkNum: O(Type.String()),
  categorization: O(Categorization),
  investmentTransactionType: O(Type.String()),
  ticker: O(Type.String()),
  securityId: O(Type.String()),
  pendingTransactionId: O(
    Type.Integer({
      description:
        'Ledgerlink extension: on a posted transaction that replaced a pending one of the same account under another id, the id of that pending transaction (deleted when this one arrived; docs/aggregation.md, "Pending to posted")',
      examples: [20000012340],
    }),
  ),
  transferTransactionId: O(
    Type.Integer({
      description:
        'Ledgerlink extension: the other side of a transfer between two of the customer\'s own accounts (the opposite amount, a few days apart); both sides carry the category Transfer, or Credit Card Payment for a card\'s payment (docs/aggregation.md, "Transfers")',
      examples: [20000012346],
    }),
  ),
  source: O(
    Type.String({
      description:
        'Ledgerlink extension: where the transaction came from: `testbank`, `simplefin`, `ofx` (a live connection) or `statement` (an uploaded file). Absent for transactions stored before sources were kept. A transaction another source sends again is not stored twice (docs/aggregation.md, "One account, several sources")',
      examples: ['ofx'],
    }),
  ),
};

export const Transaction = Type.Object(transactionFields, { xml: { name: 'transaction' }, description: 'A transaction' });

export const TransactionList = Type.Object(
  {
    found: Type.Integer({ description: 'How many transactions match in all' }),
    displaying: Type.Integer({ description: 'How many this page has' }),
    moreAvailable: Type.String({ description: '"true" when more follow (ask again with start increased by limit), else "false"' }),
    fromDate: Type.String({ description: 'The fromDate asked for, epoch seconds' }),
    toDate: Type.String({ description: 'The toDate asked for, epoch seconds' }),
    sort: Type.String({ description: 'asc or desc' }),
    transactions: Type.Array(Type.Object(transactionFields, { xml: { name: 'transaction' } })),
  },
  { xml: { name: 'transactions' } },
);

export const TransactionQuery = {
  fromDate: Type.Integer({
    minimum: 0,
    maximum: MAX_EPOCH,
    description: 'Transactions dated at or after this (epoch seconds); see docs/aggregation.md for which date',
  }),
  toDate: Type.Integer({ minimum: 0, maximum: MAX_EPOCH, description: 'Transactions dated at or before this (epoch seconds)' }),
  start: O(Type.Integer({ minimum: 1, maximum: 2147483647, default: 1, description: 'Index of the first transaction of the page, from 1' })),
  limit: O(Type.Integer({ minimum: 1, maximum: MAX_TRANSACTIONS_LIMIT, default: 25, description: `Largest page (1 to ${MAX_TRANSACTIONS_LIMIT})` })),
  sort: O(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc', description: 'Date order: asc or desc' })),
  includePending: O(Type.Boolean({ default: false, description: 'Include pending transactions' })),
};

export const UniqueTransactionIdParams = Type.Object({
  customerId: Type.String({ description: 'Customer id' }),
  uniqueTransactionId: Type.String({
    description: "The account's id and the transaction's, joined by a hyphen: accountId-transactionId",
    examples: ['5011648377-20000012345'],
  }),
});

export const TransactionIdParams = Type.Object({
  customerId: Type.String({ description: 'Customer id' }),
  transactionId: Type.String({ description: 'Transaction id', examples: ['20000012345'] }),
});
