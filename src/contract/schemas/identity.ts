/**
 * The Identity operations' shapes (docs/payments.md): an account's owner (v1), its holders with addresses, e-mails and
 * phones (v3), and owner verification: values from elsewhere matched against the holders, with scores.
 */
import Type from 'typebox';
import { RequiredString } from './common.js';

const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);
const Str = (description: string, example: string) => Type.String({ description, examples: [example] });

export const AccountOwner = Type.Object(
  {
    ownerName: Str('The owners as the institution writes them on the account: several owners in one string', 'Sam and Taylor Rivera'),
    ownerAddress: Str("The first holder's address on one line", '782 Willow Creek Rd Columbus OH 43214'),
    asOfDate: O(Type.Integer({ description: 'When the institution last gave the owners, epoch seconds', examples: [1768478400] })),
  },
  { xml: { name: 'accountOwner' }, description: "The account's owner (AccountOwner)" },
);

const addressFields = {
  ownerAddress: O(Str('The whole address on one line', '782 Willow Creek Rd Columbus OH 43214')),
  type: O(Str('Home, Business or Mailing', 'Home')),
  line1: O(Str('Address line 1', '782 Willow Creek Rd')),
  line2: O(Str('Address line 2', 'Apt 3')),
  line3: O(Str('Address line 3', '')),
  city: O(Str('City', 'Columbus')),
  state: O(Str('State or province', 'OH')),
  postalCode: O(Str('ZIP or postal code', '43214')),
  country: O(Str('ISO 3166-1 alpha-2', 'US')),
};

const emailFields = {
  isPrimary: Type.Boolean({ description: 'The primary address' }),
  email: Str('An e-mail address', 'sam.rivera@example.com'),
  emailType: O(Str('Personal or Business', 'Personal')),
};

const phoneFields = {
  type: Str('HOME, BUSINESS, CELL or FAX', 'CELL'),
  country: O(Str('Country calling code', '1')),
  phone: Str('The phone number', '614-555-0121'),
};

const nameFields = {
  relationship: O(Str('How the holder stands to the account: PRIMARY, PRIMARY_JOINT, SECONDARY_JOINT, BUSINESS, AUTHORIZED_USER...', 'PRIMARY_JOINT')),
  ownerName: Str("The holder's whole name as the institution writes it", 'Samuel A Rivera Jr'),
  firstName: O(Str('First name (people)', 'Samuel')),
  middleName: O(Str('Middle name or initial', 'A')),
  lastName: O(Str('Last name', 'Rivera')),
  suffix: O(Str('Generational or academic suffix', 'Jr')),
  nameClassification: Str('person or business', 'person'),
  nameClassificationconfidencescore: Type.Number({
    minimum: 0,
    maximum: 1,
    description: '1: the institution itself says whether the holder is a person or a business',
    examples: [1],
  }),
  nameClassificationConfidenceScore: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'The same, as the reference spells it in its list of required fields (docs/compatibility.md)',
    examples: [1],
  }),
};

export const AccountOwnerHolders = Type.Object(
  {
    holders: Type.Array(
      Type.Object(
        {
          ...nameFields,
          addresses: Type.Array(Type.Object(addressFields, { description: 'An address of the holder' })),
          emails: Type.Array(Type.Object(emailFields, { description: 'An e-mail address of the holder' })),
          phones: Type.Array(Type.Object(phoneFields, { description: 'A phone number of the holder' })),
        },
        { description: 'An owner of the account (AccountOwnerDetails)' },
      ),
      { description: "The account's owners" },
    ),
  },
  { xml: { name: 'accountOwnerHolders' }, description: "The account's owners with their addresses, e-mails and phones (AccountOwnerHolders)" },
);

export const OwnerDetailsQuery = Type.Object({
  withInsights: O(Type.Boolean({ description: 'Accepted; no identity insights are given (docs/payments.md)' })),
});

export const OwnerMatchQuery = Type.Object({
  insights: O(Type.Boolean({ description: 'Accepted; no identity insights are given (docs/payments.md)' })),
});

export const OwnerMatchRequest = Type.Object(
  {
    ownerName: O(Type.String({ description: 'Accepted; the name is matched from `name`', examples: ['Samuel A Rivera Jr'] })),
    name: Type.Object(
      {
        firstName: RequiredString({ description: 'First name', examples: ['Samuel'] }),
        middleName: O(Type.String({ description: 'Middle name or initial', examples: ['A'] })),
        lastName: RequiredString({ description: 'Last name', examples: ['Rivera'] }),
        suffix: O(Type.String({ description: 'Suffix', examples: ['Jr'] })),
      },
      { description: 'The name to match' },
    ),
    address: O(
      Type.Object(
        {
          line1: O(Type.String({ examples: ['782 Willow Creek Road'] })),
          line2: O(Type.String({ examples: [''] })),
          line3: O(Type.String()),
          city: O(Type.String({ examples: ['Columbus'] })),
          state: O(Type.String({ examples: ['OH'] })),
          country: O(Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2', examples: ['US'] })),
          postalCode: O(Type.String({ examples: ['43214'] })),
          type: O(Type.String({ minLength: 1, maxLength: 50, description: 'Home, Business or Mailing', examples: ['Home'] })),
        },
        { description: 'The address to match' },
      ),
    ),
    phone: O(Type.String({ pattern: '^\\d+$', maxLength: 10, description: 'The phone number to match: digits only', examples: ['6145550121'] })),
    email: O(Type.String({ description: 'The e-mail address to match', examples: ['sam.rivera@example.com'] })),
  },
  { xml: { name: 'accountOwnerVerificationMatching' }, description: 'Values from another source than the account, to match against its owners' },
);

const Score = (what: string) =>
  Type.Integer({ minimum: 0, maximum: 100, description: `How well ${what} matches, 0 to 100 (docs/payments.md)`, examples: [100] });

export const OwnerMatchResults = Type.Object(
  {
    holders: Type.Array(
      Type.Object(
        {
          ...nameFields,
          nameScores: Type.Object(
            {
              ownerName: Score("the given name's parts together match the holder's whole name"),
              firstName: O(Score('the first name')),
              middleName: O(Score('the middle name')),
              lastName: O(Score('the last name')),
              suffix: O(Score('the suffix')),
            },
            { description: 'Scores of the given name' },
          ),
          addresses: Type.Array(
            Type.Object(
              {
                ...addressFields,
                addressScores: O(
                  Type.Object(
                    {
                      ownerAddress: O(Score("the given address's parts together match the whole address")),
                      type: O(Score('the type')),
                      line1: O(Score('line 1')),
                      line2: O(Score('line 2')),
                      line3: O(Score('line 3')),
                      city: O(Score('the city')),
                      country: O(Score('the country')),
                      postalCode: O(Score('the postal code')),
                      state: O(Score('the state')),
                    },
                    { description: 'Scores of the given address: one per part given' },
                  ),
                ),
              },
              { description: 'An address of the holder, with the scores of the given address' },
            ),
          ),
          emails: Type.Array(
            Type.Object(
              { ...emailFields, emailScores: O(Type.Object({ email: Score('the e-mail address') })) },
              { description: 'An e-mail address of the holder' },
            ),
          ),
          phones: Type.Array(
            Type.Object({ ...phoneFields, phoneScores: O(Type.Object({ phone: Score('the phone number') })) }, { description: 'A phone number of the holder' }),
          ),
        },
        { description: 'An owner of the account with the scores of the given values (AccountOwnerVerificationMatchingDetails)' },
      ),
      { description: "The account's owners" },
    ),
  },
  { xml: { name: 'accountOwnerVerificationMatchResults' }, description: 'The owners with the match scores of the given values' },
);
