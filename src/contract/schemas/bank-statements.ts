/**
 * The Bank Statements operations' parameters and answers (docs/statements.md): an account's statement as a PDF file,
 * the details of several of its statements, and stored assets (generated statements and uploaded statement files).
 */
import Type from 'typebox';
import { CustomerIdParam } from './accounts.js';

/** The most statements an account offers, counted back from the latest (the reference's 1 to 24). */
export const MAX_STATEMENT_INDEX = 24;

export const StatementIndexQuery = Type.Object({
  index: Type.Integer({
    minimum: 1,
    maximum: MAX_STATEMENT_INDEX,
    default: 1,
    description: `Which statement: 1 is the most recent, each next one the statement before (1 to ${MAX_STATEMENT_INDEX})`,
    examples: [1],
  }),
});

export const StatementIndexesQuery = Type.Object({
  index: Type.String({
    default: '1',
    maxLength: 200,
    description: `Comma-separated indexes of statements, each 1 to ${MAX_STATEMENT_INDEX} (1 is the most recent)`,
    examples: ['1,2'],
  }),
});

export const AssetParams = Type.Object({
  ...CustomerIdParam,
  assetId: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'An asset id, from Get Customer Account Multiple Statement Details',
    examples: ['statement-5011648377-20261001-20261031'],
  }),
});

export const CustomerAccountMultipleStatement = Type.Object(
  {
    id: Type.Optional(
      Type.String({ description: 'The asset id of the statement, for Get Asset by Customer and ID', examples: ['statement-5011648377-20261001-20261031'] }),
    ),
    description: Type.Optional(Type.String({ description: 'The period the statement covers, MM/DD/YYYY - MM/DD/YYYY', examples: ['10/01/2026 - 10/31/2026'] })),
    asOfDate: Type.Integer({ description: 'When the statement was asked for (the customer clock), epoch seconds', examples: [1764460800] }),
    documentDate: Type.Optional(Type.String({ description: "The statement's date, the last day of its period (YYYY-MM-DD)", examples: ['2026-10-31'] })),
    index: Type.String({ description: 'The index asked for (1 to 24)', examples: ['1'] }),
    code: Type.Optional(
      Type.String({
        description: 'Why there is no statement at this index: the code of the error Get Customer Account Statement answers',
        examples: ['16201'],
      }),
    ),
    message: Type.Optional(Type.String({ description: 'Why there is no statement at this index', examples: ['statement not found.'] })),
  },
  { xml: { name: 'statement' }, description: 'One statement of the account, or why there is none at its index' },
);

export const CustomerAccountMultipleStatements = Type.Object(
  { statements: Type.Array(CustomerAccountMultipleStatement, { description: 'One entry per index asked for, in the order asked' }) },
  { xml: { name: 'statements' }, description: "Details of an account's statements (CustomerAccountMultipleStatements)" },
);
