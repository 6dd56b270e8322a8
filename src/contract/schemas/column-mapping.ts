/**
 * A CSV statement file's column mapping as an object: what an upload's `mapping` query parameter holds as JSON, and
 * what a 14112 answer proposes in `details.mapping` for the user to complete (docs/connectors.md, "The column
 * mapping"). Its own file, so the error details and the upload's schemas can both use it.
 */
import Type from 'typebox';

const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);

/** A column: its header text (case and spacing aside) or its position from 0. */
const Column = (description: string) =>
  O(
    Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer({ minimum: 0 })], {
      description: `${description}: the column's header text or its position from 0`,
    }),
  );

/** The fields of a column mapping, each optional here: a proposal may lack what the user is asked for. */
export const StatementColumnMapping = Type.Object(
  {
    date: Column('The transaction date'),
    description: Column('The description'),
    amount: Column('A signed amount (else `debit` and/or `credit`)'),
    debit: Column('Unsigned amounts of money out'),
    credit: Column('Unsigned amounts of money in'),
    memo: Column('A memo or notes'),
    checkNum: Column('The check number'),
    account: Column("Each row's account name"),
    accountNumber: Column("Each row's account or card number"),
    type: Column("The bank's kind of transaction; debit/credit (DR/CR, Af/Bij, S/H) there gives the amount's sign, which `negate` never flips"),
    postedDate: Column('The posting date'),
    balance: Column('The running balance'),
    status: Column('A status (pending rows are left out)'),
    currency: Column("Each row's ISO 4217 currency code"),
    dateOrder: O(Type.Union([Type.Literal('mdy'), Type.Literal('dmy'), Type.Literal('ymd')], { description: 'How dates such as 03/04/2026 are read' })),
    negate: O(
      Type.Boolean({
        description:
          'true: the file writes purchases and money out as positive amounts (many card exports), so every sign is flipped; false: it writes them negative. Stating it answers the sign question of a 14112',
      }),
    ),
    headerRow: O(Type.Integer({ minimum: -1, description: 'The header row, from 0 among the non-blank rows; -1 for a file without one' })),
  },
  {
    description: 'A column mapping, as `mapping` takes it (as JSON)',
    examples: [{ date: 'Date', description: 'Description', amount: 'Amount', headerRow: 0 }],
  },
);
