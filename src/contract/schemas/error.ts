import Type from 'typebox';
import { StatementColumnMapping } from './column-mapping.js';

/** An existing account an incoming one may be (AccountMatchUncertain). */
export const AccountMatchCandidate = Type.Object(
  {
    accountId: Type.String({ description: 'The existing account: send it in `sameAs` when it is the same account', examples: ['5011000003'] }),
    name: Type.String({ examples: ['Everyday Checking'] }),
    type: Type.String({ examples: ['checking'] }),
    accountNumberDisplay: Type.String({ description: 'Its last four', examples: ['2632'] }),
    institutionId: Type.String({ examples: ['101732'] }),
    institutionName: Type.String({ description: "Its institution's name (empty when the catalogue has none)", examples: ['FinBank'] }),
    institutionLoginId: Type.Integer({ examples: [6000000042] }),
    matchedBy: Type.Union([Type.Literal('accountNumber'), Type.Literal('lastFour'), Type.Literal('transactionIds'), Type.Literal('amounts')], {
      description:
        'What the two have in common: `accountNumber` or `lastFour` (and type) at another institution, or at the same one with more than one such account; `transactionIds`, transaction ids (OFX FITIDs) both hold; `amounts`, amounts and dates both hold where one has no account number',
      examples: ['lastFour'],
    }),
  },
  { xml: { name: 'candidate' } },
);

/** An incoming account (a statement file's, a sign-in's) that may be one the customer already has. */
export const AccountMatchQuestion = Type.Object(
  {
    ref: Type.String({
      description: 'The incoming account, as `sameAs` names it (a handle, the same in every upload or sign-in of the same account)',
      examples: ['q1Yz0l4cQ2gC3n0F0bXW8g'],
    }),
    name: Type.String({ examples: ['Checking'] }),
    type: Type.String({ examples: ['checking'] }),
    accountNumberDisplay: Type.String({ description: 'Its last four, empty when it states no number', examples: ['2632'] }),
    candidates: Type.Array(AccountMatchCandidate, { xml: { wrapped: true } }),
  },
  { xml: { name: 'account' } },
);

/**
 * What a client needs to correct its request, carried by the errors that say so in docs/errors.md: today the
 * statement-file errors, whose CSV file's columns and first rows let a client ask the user for a column mapping.
 */
export const ErrorDetails = Type.Object(
  {
    headers: Type.Optional(
      Type.Array(Type.String({ xml: { name: 'header' } }), {
        description: "The CSV file's column names (`Column 1`, `Column 2`, ... when it has no header row)",
        examples: [['Posted', 'Payee', 'Out', 'In']],
        xml: { wrapped: true },
      }),
    ),
    headerRow: Type.Optional(
      Type.Integer({
        minimum: -1,
        description: "Which of the non-blank rows holds the column names, from 0; -1 for none (the mapping's `headerRow`)",
        examples: [0],
      }),
    ),
    sample: Type.Optional(
      Type.Array(Type.Array(Type.String({ xml: { name: 'cell' } }), { xml: { name: 'row', wrapped: true } }), {
        description: 'The first rows below the column names, cell by cell',
        examples: [[['03/02/2026', 'COFFEE ROASTERS', '4.50', '']]],
        xml: { wrapped: true },
      }),
    ),
    mapping: Type.Optional(
      Type.Object(StatementColumnMapping.properties, {
        description:
          "With `ask`: the column mapping the file would be read with, for the client to complete with what `ask` names and send as the upload's `mapping`",
        xml: { name: 'mapping' },
      }),
    ),
    ask: Type.Optional(
      Type.Array(Type.Union([Type.Literal('sign'), Type.Literal('sameAs')], { xml: { name: 'question' } }), {
        description:
          'What the file cannot tell and the user must: `sign`, whether the file writes purchases and money out as positive amounts (send `mapping` with `negate` true) or negative ones (`negate` false); `sameAs`, whether the accounts in `sameAs` are accounts the customer already has (send `sameAs`)',
        examples: [['sign']],
        xml: { wrapped: true },
      }),
    ),
    sameAs: Type.Optional(
      Type.Array(AccountMatchQuestion, {
        description:
          'With `ask: ["sameAs"]` (AccountMatchUncertain): each incoming account that may be one the customer already has, with the candidates. Answer with the request\'s `sameAs`: `{"<ref>": "<accountId>"}` for the same account, `{"<ref>": "new"}` for another',
        xml: { wrapped: true },
      }),
    ),
    errors: Type.Optional(
      Type.Array(Type.String({ xml: { name: 'error' } }), {
        description: 'Every problem found, each naming the field it is about',
        examples: [['amount: no column is named "Amt"; the columns are: Posted, Payee, Out, In.']],
        xml: { wrapped: true },
      }),
    ),
    formats: Type.Optional(
      Type.Array(Type.String({ xml: { name: 'format' } }), {
        description: 'The statement file formats Ledgerlink reads, as a person names them',
        examples: [['OFX, QFX (Quicken)', 'CSV']],
        xml: { wrapped: true },
      }),
    ),
  },
  { description: 'Only on the errors docs/errors.md says carry it' },
);

/** The body of every error response, JSON `{code, message}` or XML `<error><code/><message/></error>`. */
export const ErrorBody = Type.Object(
  {
    code: Type.String({ description: 'Error code from the catalogue (docs/errors.md)', examples: ['10005'] }),
    message: Type.String({ description: 'What went wrong, in words', examples: ['Missing parameter (partnerId)'] }),
    details: Type.Optional(ErrorDetails),
  },
  { $id: 'ErrorBody', xml: { name: 'error' }, description: 'An error' },
);
