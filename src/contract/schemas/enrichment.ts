/**
 * Transaction data enrichment (docs/enrichment.md): transactions a partner posts in, answered with the category and
 * payee Ledgerlink gives its own stored transactions, in the reference's shapes.
 */
import Type from 'typebox';

/** The most transactions one request may hold, as the reference has it. */
export const MAX_ENRICH_TRANSACTIONS = 1000;

const Text = (maxLength: number, description: string, minLength = 0) => Type.String({ minLength, maxLength, description });

const MerchantInformation = Type.Object(
  {
    merchantDescriptor: Type.Optional(Text(50, 'The card network merchant name, city and state, run together')),
    name: Type.Optional(Text(256, "The merchant's name")),
    line1: Type.Optional(Text(100, 'Line 1 of the address')),
    city: Type.Optional(Text(50, 'City')),
    state: Type.Optional(Text(3, 'State')),
    postalCode: Type.Optional(Text(10, 'Postal code')),
    country: Type.Optional(Text(3, 'Country')),
    phoneNumber: Type.Optional(Text(20, 'Phone number')),
    website: Type.Optional(Text(256, 'Website')),
    merchantCategoryCode: Type.Optional(Text(4, 'Merchant category code')),
    merchantCategoryName: Type.Optional(Text(256, 'Merchant category name')),
  },
  { description: 'Merchant details the partner knows; passed back as given' },
);

const payloadFields = {
  externalCustomerId: Text(100, "The partner's own (hashed) customer id, passed back", 1),
  externalAccountId: Text(100, "The partner's own (hashed) account id, passed back", 1),
  accountType: Text(511, 'checking, savings, creditCard, brokerageAccount, healthSavingsAccount or unknown', 1),
  externalTransactionId: Text(100, "The partner's own transaction id, passed back", 1),
  postedTimestamp: Type.Optional(Text(32, 'When the transaction posted (ISO 8601), passed back')),
  transactionTimestamp: Text(32, 'When the transaction happened (ISO 8601), passed back', 1),
  description: Text(1024, "The institution's description of the transaction", 1),
  memo: Type.Optional(Text(511, 'The memo, read with the description')),
  amount: Type.Number({ description: 'Negative for money out, positive for money in' }),
  transactionFee: Type.Optional(Type.Number({ description: 'A fee, passed back' })),
  type: Type.Optional(Text(32, 'The transaction type (debit, credit, atm, check, pointOfSale, ...; any case)')),
  directionIndicator: Type.Optional(Text(32, 'Debit or Credit, passed back')),
  additionalDetails: Type.Optional(
    Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 1024 }), { description: 'Key and value pairs, passed back', maxProperties: 20 }),
  ),
  cardAcceptorId: Type.Optional(Text(15, 'The card acceptor id, passed back')),
  inputIsRecurringTransaction: Type.Optional(Type.Boolean({ description: 'Passed back' })),
  inputMerchantInformation: Type.Optional(MerchantInformation),
};

export const EnrichTransactionPayload = Type.Object(payloadFields);

export const EnrichTransactionsRequest = Type.Object(
  {
    transactions: Type.Array(EnrichTransactionPayload, {
      minItems: 1,
      maxItems: MAX_ENRICH_TRANSACTIONS,
      description: `The transactions to enrich: 1 to ${MAX_ENRICH_TRANSACTIONS}`,
    }),
  },
  {
    examples: [
      {
        transactions: [
          {
            externalCustomerId: 'c8a1f3',
            externalAccountId: '9b2e77',
            accountType: 'checking',
            externalTransactionId: 'T1',
            transactionTimestamp: '2026-01-12T11:00:00Z',
            description: 'STARBUCKS STORE 06565 LITTLETON CO 01/12',
            amount: -13.26,
            type: 'debit',
          },
        ],
      },
    ],
  },
);

const Entity = Type.Object({
  name: Type.String({ description: 'The payee as people read it, as Ledgerlink names the payees of stored transactions', examples: ['Starbucks'] }),
  category: Type.String({ description: "The payee's category", examples: ['Coffee Shops'] }),
});

export const EnrichedTransaction = Type.Object({
  ...payloadFields,
  transactionCategory: Type.String({ description: 'The category, as stored transactions get it (categorization.category)', examples: ['Coffee Shops'] }),
  entities: Type.Array(Entity, { description: 'The payee, when the description names one' }),
});

export const EnrichedTransactions = Type.Object(
  { transactions: Type.Array(EnrichedTransaction, { description: 'The transactions, in the order given, enriched' }) },
  { xml: { name: 'root' } },
);
