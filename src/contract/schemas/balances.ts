/** An account's daily balance history (Ledgerlink extension): GET .../accounts/{accountId}/balances/history. */
import Type from 'typebox';
import { MAX_EPOCH } from './transactions.js';

export const DailyBalance = Type.Object(
  {
    date: Type.String({ description: 'The day, UTC (YYYY-MM-DD)', pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: ['2026-11-28'] }),
    balance: Type.Number({ description: "The account's balance that day, in its currency (negative for cards, loans and credit lines)", examples: [2450.17] }),
    availableBalance: Type.Optional(
      Type.Number({ description: 'The available balance, when the source stated one for that day (checking and savings refreshes, statement files)' }),
    ),
    currency: Type.String({ description: 'ISO 4217', examples: ['USD'] }),
    source: Type.Union([Type.Literal('refresh'), Type.Literal('statement'), Type.Literal('derived')], {
      description:
        "refresh: the balance a refresh (or sign-in) read that day; statement: a statement file's closing balance at its date; derived: worked out backwards from the account's posted transactions and a later observed balance",
    }),
  },
  { xml: { name: 'balance' } },
);

export const BalanceHistory = Type.Object(
  { balances: Type.Array(DailyBalance, { description: 'One per day that has a balance, oldest first' }) },
  { xml: { name: 'balanceHistory' }, description: "An account's daily balances" },
);

export const BalanceHistoryQuery = Type.Object({
  fromDate: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_EPOCH, description: 'Days from the one holding this time (epoch seconds, UTC day); the earliest when absent' }),
  ),
  toDate: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_EPOCH,
      description: 'Days up to the one holding this time (epoch seconds, UTC day), inclusive; the latest when absent',
    }),
  ),
});
