/**
 * Ledgerlink as a SimpleFIN server (a Ledgerlink extension, docs/simplefin-server.md): setup tokens a partner mints
 * for one customer and the accesses their claims made; and the protocol's own Account Set, which the SimpleFIN scope
 * answers (`/simplefin/accounts`), written with every amount as a string of two decimals.
 */
import Type from 'typebox';

const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);

/** How long a setup token may be claimed, and how much a partner may ask for at once. */
export const SIMPLEFIN_LIMITS = {
  tokenTtlSeconds: 3600,
  accountIds: 100,
} as const;

export const SimplefinTokenBody = Type.Object(
  {
    accountIds: O(
      Type.Array(Type.String({ pattern: '^\\d{1,16}$', description: 'Account id', examples: ['5011648377'] }), {
        maxItems: SIMPLEFIN_LIMITS.accountIds,
        uniqueItems: true,
        examples: [['5011648377']],
        description: "Only these of the customer's accounts; absent: all of them, those linked later included",
      }),
    ),
  },
  { additionalProperties: false, xml: { name: 'simplefinToken' } },
);

export const SimplefinToken = Type.Object(
  {
    setupToken: Type.String({
      description: 'The base64 of the claim URL: what the user pastes into the SimpleFIN client. Shown once',
      examples: ['aHR0cHM6Ly9sZWRnZXJsaW5rLmV4YW1wbGUub3JnL3NpbXBsZWZpbi9jbGFpbS9Bc0RmMTIz'],
    }),
    claimUrl: Type.String({
      description: 'Where the client claims the access URL (POST, once)',
      examples: ['https://ledgerlink.example.org/simplefin/claim/AsDf123'],
    }),
    expiresAt: Type.Integer({ description: 'Epoch seconds: the token cannot be claimed after this', examples: [1768482000] }),
  },
  { xml: { name: 'simplefinToken' } },
);

export const SimplefinAccess = Type.Object(
  {
    id: Type.String({ description: 'Access id', examples: ['9300000000'] }),
    customerId: Type.String({ examples: ['1005061234'] }),
    accountIds: O(Type.Array(Type.String(), { description: "The accounts it reads; absent: all of the customer's" })),
    createdDate: Type.Integer({ description: 'Epoch seconds: when the setup token was claimed', examples: [1768478400] }),
    lastUsedDate: O(Type.Integer({ description: 'Epoch seconds: its last request' })),
    revokedDate: O(Type.Integer({ description: 'Epoch seconds: when it was revoked' })),
    requests: Type.Integer({ description: 'Requests it made, all days', examples: [12] }),
    requestsToday: Type.Integer({ description: '`/accounts` requests of the current UTC day, counted against the daily budget' }),
    dailyBudget: Type.Integer({ description: '`/accounts` requests it may make per UTC day (LEDGERLINK_SIMPLEFIN_DAILY_REQUESTS)' }),
  },
  { xml: { name: 'access' } },
);

export const SimplefinAccessList = Type.Object({ accesses: Type.Array(SimplefinAccess) }, { xml: { name: 'root' } });

export const SimplefinAccessParams = Type.Object({
  customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
  accessId: Type.String({ description: 'Access id', examples: ['9300000000'] }),
});

/** The query of `GET {access}/accounts`, as the protocol names it. */
export const SimplefinAccountsQuery = Type.Object({
  'start-date': O(Type.Integer({ minimum: 0, description: 'Epoch seconds: transactions posted on or after' })),
  'end-date': O(Type.Integer({ minimum: 0, description: 'Epoch seconds: transactions posted before (a future end is fine)' })),
  pending: O(Type.Integer({ minimum: 0, maximum: 1, description: '1: include pending transactions' })),
  'balances-only': O(Type.Integer({ minimum: 0, maximum: 1, description: '1: no transactions (every account still has `transactions: []`)' })),
  account: O(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: 'Only these account ids (repeatable)' })),
  version: O(Type.String({ maxLength: 8, description: 'Accepted and ignored: the answer is v1 with the v2 `errlist` beside `errors`' })),
});

export const SimplefinWireTransaction = Type.Object({
  id: Type.String(),
  posted: Type.Integer(),
  amount: Type.String(),
  description: Type.String(),
  payee: Type.String(),
  memo: Type.String(),
  transacted_at: Type.Integer(),
  pending: O(Type.Boolean()),
});

export const SimplefinWireAccount = Type.Object({
  org: Type.Object({ domain: Type.String(), name: Type.String(), 'sfin-url': Type.String(), url: O(Type.String()) }),
  id: Type.String(),
  name: Type.String(),
  currency: Type.String(),
  balance: Type.String(),
  'available-balance': Type.String(),
  'balance-date': Type.Integer(),
  transactions: Type.Array(SimplefinWireTransaction),
});

export const SimplefinWireError = Type.Object({ code: Type.String(), msg: Type.String() });

/** The Account Set (v1 shape, with the v2 errlist beside `errors`). */
export const SimplefinAccountSet = Type.Object({
  errors: Type.Array(Type.String()),
  errlist: Type.Array(SimplefinWireError),
  accounts: Type.Array(SimplefinWireAccount),
});

export const SimplefinInfo = Type.Object({ versions: Type.Array(Type.String()) });

export type SimplefinTokenRecord = Type.Static<typeof SimplefinToken>;
export type SimplefinAccessRecord = Type.Static<typeof SimplefinAccess>;
export type SimplefinAccountSetRecord = Type.Static<typeof SimplefinAccountSet>;
export type SimplefinWireAccountRecord = Type.Static<typeof SimplefinWireAccount>;
export type SimplefinWireTransactionRecord = Type.Static<typeof SimplefinWireTransaction>;
