import Type from 'typebox';

/** Transaction refreshes (docs/aggregation.md, "Transaction refreshes"): a refresh request by id and its status. */

export const TRANSACTION_REFRESH_MODES = ['standard', 'historic', 'custom'] as const;

const DateTime = (description: string) => Type.String({ format: 'date-time', description, examples: ['2026-01-15T12:00:00.000Z'] });
const Mode = Type.String({
  description: 'standard (the last 6 months), historic (2 years) or custom (fromDate to toDate); standard when absent',
  examples: ['standard'],
});
const Status = Type.String({ description: 'NEW, IN_PROGRESS, COMPLETED (at least one account refreshed) or FAILED (none)', examples: ['COMPLETED'] });
const RefreshId = Type.String({ format: 'uuid', description: 'The refresh request', examples: ['bec83f1a-5f65-44f5-8f00-b4a0fc60c2cc'] });

export const TransactionRefreshRequest = Type.Object(
  {
    institutionLoginId: Type.Optional(Type.String({ description: 'Refresh every account of this institution login', examples: ['6000000001'] })),
    accountIds: Type.Optional(
      Type.Array(Type.String({ examples: ['5011648377'] }), {
        description: 'Refresh these accounts (preferred over institutionLoginId); at most 100',
        maxItems: 100,
      }),
    ),
    mode: Type.Optional(Mode),
    fromDate: Type.Optional(DateTime('custom mode: the first day to load (at most 2 years back)')),
    toDate: Type.Optional(DateTime('custom mode: the last day to load; now when absent')),
  },
  { xml: { name: 'transactionRefresh' } },
);

export const TransactionRefreshInitiated = Type.Object(
  {
    refreshId: RefreshId,
    customerId: Type.String({ examples: ['1005061234'] }),
    institutionLoginId: Type.Optional(Type.String({ examples: ['6000000001'] })),
    accountIds: Type.Array(Type.String({ examples: ['5011648377'] }), { description: 'The accounts the refresh covers' }),
    mode: Mode,
    fromDate: Type.Optional(DateTime('The first day loaded')),
    toDate: Type.Optional(DateTime('The last day loaded')),
    status: Status,
    createdAt: DateTime('When the request was made (customer clock)'),
  },
  { xml: { name: 'transactionRefresh' } },
);

export const TransactionRefreshAccount = Type.Object(
  {
    accountId: Type.String({ examples: ['5011648377'] }),
    institutionLoginId: Type.String({ examples: ['6000000001'] }),
    institutionId: Type.String({ examples: ['101732'] }),
    aggregationStatusCode: Type.Optional(Type.Integer({ description: '0 once refreshed', examples: [0] })),
    aggregationSuccessDate: Type.Optional(DateTime('When the account was refreshed')),
    code: Type.Optional(Type.Integer({ description: 'The aggregation status code of a failure', examples: [103] })),
    message: Type.Optional(Type.String({ description: 'Why it failed', examples: ['The institution rejected the saved credentials.'] })),
  },
  { description: 'One account of the refresh: no status fields yet while it waits' },
);

export const TransactionRefreshStatus = Type.Object(
  {
    refreshId: RefreshId,
    customerId: Type.String({ examples: ['1005061234'] }),
    accounts: Type.Array(TransactionRefreshAccount),
    mode: Mode,
    status: Status,
    totalCount: Type.Integer({ examples: [2] }),
    successCount: Type.Integer({ examples: [1] }),
    failedCount: Type.Integer({ examples: [1] }),
  },
  { xml: { name: 'transactionRefreshStatus' } },
);

export const TransactionRefreshParams = Type.Object({
  customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
  refreshId: Type.String({ description: 'The refresh id given by Refresh Transactions', examples: ['bec83f1a-5f65-44f5-8f00-b4a0fc60c2cc'] }),
});
