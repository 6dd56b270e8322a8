import Type from 'typebox';
import { RequiredString } from './common.js';

/**
 * Account Validation Assistance (docs/micro-entries.md): two deposits of less than a dollar to an account named by
 * routing and account number, which the customer confirms by their amounts. Formats (routing number check digit,
 * account number digits, account type, URL) are checked by the service, which names the field.
 */

export const MICRO_ENTRY_STATUSES = ['Pending', 'Completed', 'Verified', 'Failed', 'Expired', 'Rejected', 'Returned'] as const;
export const MICRO_ENTRY_ACCOUNT_TYPES = ['personalChecking', 'businessChecking', 'personalSavings', 'businessSavings', 'checking', 'savings'] as const;

const Status = Type.String({
  description:
    'Pending: not deposited yet; Completed: deposited, waiting for the amounts; Verified: the amounts matched; Failed: too many wrong attempts; Expired: not verified in time; Rejected, Returned: refused by the receiving bank (never in the sandbox)',
  examples: ['Pending'],
});
const StatusDescription = Type.String({ description: 'The status in words', examples: ['Micro entries initiated; they arrive within one day.'] });
const RailType = Type.String({ description: 'The rail the deposits go by: ach', examples: ['ach'] });

export const MicroEntryReceiver = Type.Object(
  {
    routingNumber: RequiredString({ description: 'ABA routing number of the receiving bank: nine digits with a valid check digit', examples: ['124017322'] }),
    accountNumber: RequiredString({ description: 'The receiving account number: 4 to 17 digits (spaces and hyphens ignored)', examples: ['6894636820'] }),
    accountType: RequiredString({ description: `One of ${MICRO_ENTRY_ACCOUNT_TYPES.join(', ')}`, examples: ['personalChecking'] }),
    name: RequiredString({ description: 'Name of the customer (the account holder), at most 255 characters', examples: ['Jane Smith'] }),
    memo: Type.Optional(Type.String({ description: 'Memo of the deposit transactions, at most 80 characters', examples: ['Acme account check'] })),
  },
  { description: 'The account receiving the micro entries' },
);

export const MicroEntryInitiation = Type.Object(
  {
    institutionLoginId: Type.Optional(
      Type.String({
        description:
          'An institution login of the customer holding the receiving account: when the deposits show up on one of its aggregated accounts, the entries verify themselves',
        examples: ['6000000001'],
      }),
    ),
    receiver: MicroEntryReceiver,
    callbackUrl: Type.Optional(
      Type.String({ description: 'Where status changes are posted (through the outbox)', examples: ['https://partner.example/micro'] }),
    ),
  },
  { xml: { name: 'microDepositInitiation' } },
);

export const InitiatedMicroEntries = Type.Object(
  {
    accountId: Type.String({ description: 'The receiving account: use it to verify and to read the status', examples: ['5090000001'] }),
    status: Status,
    depositCount: Type.Integer({ description: 'Number of micro entries: 2', examples: [2] }),
    statusDescription: StatusDescription,
    railType: RailType,
  },
  { xml: { name: 'initiatedMicroDeposit' } },
);

export const MicroEntryVerification = Type.Object(
  {
    amounts: Type.Array(Type.Number({ description: 'An amount in dollars', examples: [0.12] }), {
      description: 'The two amounts received, in any order',
      maxItems: 10,
      xml: { name: 'amounts' },
    }),
  },
  { xml: { name: 'microDepositVerification' } },
);

export const VerifiedMicroEntries = Type.Object({ status: Status, statusDescription: StatusDescription }, { xml: { name: 'verifiedMicroDeposit' } });

export const MicroEntryDetails = Type.Object(
  {
    status: Status,
    statusDescription: StatusDescription,
    creationDate: Type.String({ description: 'When the entries were initiated, customer clock, UTC without a zone', examples: ['2026-01-15T12:00:00'] }),
    routingNumber: Type.String({ description: 'Routing number of the receiving bank', examples: ['124017322'] }),
    accountNumberLast4: Type.String({ description: 'The last four digits of the receiving account number', examples: ['6820'] }),
    autoVerifiedAccount: Type.Optional(
      Type.Integer({ description: 'The aggregated account the deposits were seen on, when that verified them', examples: [5011000001] }),
    ),
    railType: RailType,
  },
  { xml: { name: 'microDepositDetails' } },
);

export const MicroEntryAccountParams = Type.Object({
  customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
  accountId: Type.String({ description: 'The receiving account id given by the initiation', examples: ['5090000001'] }),
});

/** The body of a micro entry callback (docs/micro-entries.md). */
export const MicroEntryCallback = Type.Object(
  {
    eventType: Type.String({ examples: ['microentry.status'] }),
    eventId: Type.String(),
    customerId: Type.String(),
    accountId: Type.String(),
    status: Status,
    statusDescription: StatusDescription,
    eventTime: Type.Integer({ description: 'Customer clock, epoch seconds' }),
  },
  { xml: { name: 'microDepositEvent' } },
);
