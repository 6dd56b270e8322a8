/** Pay statements (docs/statements.md, "Pay statements"): what Store Customer Pay Statement takes and answers. */
import Type from 'typebox';
import { RequiredString } from './common.js';

export const PayStatement = Type.Object(
  {
    label: RequiredString({
      maxLength: 100,
      description:
        'Which pay statement it is: lastPayPeriod, lastPayPeriodMinusOne, lastPayPeriodMinusTwo, previousYearLastPayPeriod, previousYear2LastPayPeriod or earliestPayPeriod',
      examples: ['lastPayPeriod'],
    }),
    statement: RequiredString({
      description: 'The document, Base64 (line breaks allowed): a PDF, JPEG or PNG file of at most 5 MB',
      examples: ['JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoK'],
    }),
  },
  { xml: { name: 'payStatement' }, description: 'A pay statement document and its label' },
);

export const Asset = Type.Object(
  {
    assetId: Type.String({
      description: 'The stored document, for Get Asset by Customer and ID',
      examples: ['097545c5-1c2a-4f20-a5ef-77f0820344c9-1005061234'],
    }),
  },
  { xml: { name: 'asset' }, description: 'An asset' },
);
