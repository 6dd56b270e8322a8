import Type from 'typebox';
import { accountFields, CustomerIdParam } from './accounts.js';
import { RequiredString } from './common.js';
import { MAX_EPOCH, transactionFields } from './transactions.js';

const Amount = (description: string) => Type.Number({ description });

/** A transaction as push notifications carry it: the Transaction record plus the amounts only pushes show. */
export const PushTransaction = Type.Object(
  {
    ...transactionFields,
    bonusAmount: Amount('0 when the institution gives none'),
    escrowAmount: Amount('0 when the institution gives none'),
    feeAmount: Amount('0 when the institution gives none'),
    interestAmount: Amount('0 when the institution gives none'),
    principalAmount: Amount('0 when the institution gives none'),
    unitQuantity: Amount('0 when the institution gives none'),
    unitValue: Amount('0 when the institution gives none'),
  },
  { xml: { name: 'transaction' } },
);

const PushAccount = Type.Object(accountFields, { xml: { name: 'account' } });

const eventOf = <T extends Type.TSchema>(cls: 'account' | 'transaction', record: T) =>
  Type.Object(
    {
      class: Type.Literal(cls),
      type: Type.Union([Type.Literal('created'), Type.Literal('modified'), Type.Literal('deleted')]),
      records: Type.Array(record, { xml: { wrapped: true }, minItems: 1 }),
    },
    { xml: { name: 'event' } },
  );

/** The body of an account notification: JSON `{event: {...}}`, XML `<event>` with `<records><account>...`. */
export const AccountEvent = eventOf('account', PushAccount);
/** The body of a transaction notification: JSON `{event: {...}}`, XML `<event>` with `<records><transaction>...`. */
export const TransactionEvent = eventOf('transaction', PushTransaction);

export const SubscriptionRecord = Type.Object(
  {
    id: Type.Integer({ description: 'Subscription id', examples: [17554874] }),
    accountId: Type.Integer({ description: 'The account', examples: [5011648377] }),
    type: Type.String({ description: '"account" or "transaction": the class of events this subscription receives' }),
    callbackUrl: Type.String({ description: 'The listener URL', examples: ['https://www.example.com/txpush/listener'] }),
    signingKey: Type.String({
      description: 'Standard Webhooks signing key (`whsec_` + base64) for the webhook-signature header of every notification',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  },
  { xml: { name: 'subscription' } },
);

export const TxPushSubscriptions = Type.Object(
  { subscriptions: Type.Array(SubscriptionRecord) },
  { xml: { name: 'subscriptions' }, description: "The account's two new subscriptions, one per event class" },
);

export const TxPushSubscriptionParameters = Type.Object(
  {
    callbackUrl: RequiredString({
      maxLength: 2048,
      description: 'The listener URL: https on port 443 (http on port 80 for test institution accounts on the Test Drive plan)',
      examples: ['https://www.example.com/txpush/listener'],
    }),
  },
  { xml: { name: 'subscription' } },
);

const Epoch = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_EPOCH, description });

export const TestTxPushTransaction = Type.Object(
  {
    amount: Type.Number({ minimum: -1e12, maximum: 1e12, description: 'Debits negative, credits positive', examples: [-4.25] }),
    description: RequiredString({ maxLength: 255, examples: ['a testing transaction description'] }),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('pending')], { default: 'active', description: '"active" (default) or "pending"' })),
    postedDate: Type.Optional(Epoch('Epoch seconds; defaults to transactionDate. For a pending transaction, the date it is expected to post')),
    transactionDate: Epoch('Epoch seconds'),
  },
  { xml: { name: 'transaction' }, description: 'A fake transaction for TxPUSH testing' },
);

export const CreatedTestTxPushTransaction = Type.Object(
  {
    id: Type.Integer({ description: "The new transaction's id", examples: [20000012345] }),
    createdDate: Type.Integer({ description: 'Epoch seconds' }),
  },
  { xml: { name: 'transaction' } },
);

export const SubscriptionParams = Type.Object({ ...CustomerIdParam, subscriptionId: Type.String({ description: 'Subscription id', examples: ['17554874'] }) });
