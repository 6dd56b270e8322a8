import Type from 'typebox';

const Flag = (description: string) => Type.Boolean({ description: `true when the institution is certified for ${description}` });
const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Branding = Type.Object(
  {
    logo: Type.String({
      description: 'Logo for white backgrounds, 375 x 72 SVG served by Ledgerlink',
      examples: ['http://127.0.0.1:8080/institution/assets/101732/logo.svg'],
    }),
    alternateLogo: Type.String({ description: 'Logo for coloured backgrounds, 375 x 72 SVG' }),
    icon: Type.String({ description: 'Square icon, SVG' }),
    primaryColor: Type.String({ description: 'Primary brand colour, hex', examples: ['#0167AE'] }),
    tile: Type.String({ description: 'Name tile, 160 x 72 SVG' }),
  },
  { description: 'Branding images (SVG) and colour' },
);

export const ProductionStatus = Type.Object(
  {
    overallStatus: Type.String({ examples: ['online'] }),
    transAgg: Type.String({ examples: ['online'] }),
    voa: Type.String({ examples: ['online'] }),
    voi: Type.String({ examples: ['online'] }),
    stateAgg: Type.String({ examples: ['online'] }),
    ach: Type.String({ examples: ['online'] }),
    aha: Type.String({ examples: ['investigating'] }),
  },
  { description: 'Status of each product at the institution: online or investigating' },
);

export const Institution = Type.Object(
  {
    id: Type.Integer({ examples: [101732] }),
    name: Type.String({ examples: ['FinBank'] }),
    transAgg: Flag('Transaction Aggregation'),
    ach: Flag('ACH account verification'),
    stateAgg: Flag('Statement Aggregation'),
    voi: Flag('Verification of Income'),
    voa: Flag('Verification of Assets'),
    aha: Flag('Account History Aggregation'),
    availBalance: Flag('Account Balance Check'),
    accountOwner: Flag('Account Owner'),
    studentLoanData: Flag('Student Loan Data'),
    loanPaymentDetails: Flag('Loan Payment Details'),
    liabilityData: Flag('Liability Data'),
    billPayData: Flag('Bill Pay Data'),
    accountTypeDescription: Type.String({
      description: 'Banking, Investments, Credit Cards/Accounts, Workplace Retirement, Mortgages and Loans, Insurance, or TestFI for test institutions',
    }),
    phone: Type.String({ examples: ['1-801-555-0100'] }),
    urlHomeApp: Type.String({ description: 'Home page' }),
    urlLogonApp: Type.String({ description: 'Login page' }),
    urlProductApp: Type.String(),
    oauthEnabled: Type.Boolean({ description: 'true when customers sign in at the institution through OAuth' }),
    urlForgotPassword: Type.String(),
    urlOnlineRegistration: Type.String(),
    class: Type.String({ description: 'banking, creditCards, wealth, retirement, loans, insurance or testfi' }),
    specialText: Type.String({ description: 'Text shown to customers before they sign in' }),
    specialInstructions: Nullable(Type.String({ description: 'Instructions for OAuth institutions' })),
    specialInstructionsTitle: Nullable(Type.String()),
    timeZone: Nullable(Type.String({ examples: ['America/Denver'] })),
    address: Type.Object(
      {
        addressLine1: Type.String(),
        addressLine2: Type.String(),
        city: Type.String(),
        state: Type.String({ description: 'Two-letter state or province code' }),
        postalCode: Type.String(),
        country: Type.String({ description: 'USA or CAN' }),
      },
      { description: 'Headquarters' },
    ),
    currency: Type.String({ examples: ['USD'] }),
    email: Type.String(),
    status: Type.String({ examples: ['online'] }),
    newInstitutionId: Nullable(Type.Integer({ description: 'The institution this one was merged into' })),
    oauthInstitutionId: Nullable(Type.Integer()),
    requiresServiceCallout: Type.Boolean(),
    externalData: Nullable(Type.Object({}, { additionalProperties: true })),
    displayName: Type.String(),
    branding: Branding,
    productionStatus: ProductionStatus,
  },
  { description: 'A financial institution' },
);

const paging = {
  found: Type.Integer({ description: 'How many records match in all' }),
  displaying: Type.Integer({ description: 'How many records this response has' }),
  moreAvailable: Type.Boolean({ description: 'true when more records follow: ask again with start increased by limit' }),
};

export const InstitutionList = Type.Object(
  {
    ...paging,
    createdDate: Type.Integer({ description: 'When the response was made, epoch seconds' }),
    institutions: Type.Array(Institution),
  },
  { xml: { name: 'root' } },
);

export const InstitutionWrapper = Type.Object({ institution: Institution }, { xml: { name: 'root' } });
export const BrandingWrapper = Type.Object({ branding: Branding }, { xml: { name: 'root' } });

export const CertifiedInstitution = Type.Object({
  name: Type.String({ examples: ['FinBank'] }),
  id: Type.Integer({ examples: [101732] }),
  trans_agg: Type.Boolean(),
  voa: Type.Boolean(),
  voi: Type.Boolean(),
  state_agg: Type.Boolean(),
  ach: Type.Boolean(),
  aha: Type.Boolean(),
  oauthEnabled: Type.Boolean({ description: 'true when customers sign in at the institution through OAuth' }),
  productionStatus: ProductionStatus,
});

export const CertifiedInstitutionList = Type.Object(
  {
    ...paging,
    requestedDate: Type.Integer({ description: 'When the response was made, epoch seconds' }),
    institutions: Type.Array(CertifiedInstitution),
  },
  { xml: { name: 'root' } },
);

const ChildInstitution = Type.Object({
  rssd: Type.Integer({ description: "The child institution's RSSD id" }),
  parentRSSD: Type.Integer({ description: "The parent institution's RSSD id" }),
  name: Type.String(),
  institutionId: Type.Integer(),
});

export const CertifiedInstitutionWithRssd = Type.Object({
  ...CertifiedInstitution.properties,
  rssd: Type.Integer({ description: "The Federal Reserve's RSSD id of the institution" }),
  childInstitutions: Type.Array(ChildInstitution),
});

export const CertifiedInstitutionWithRssdList = Type.Object(
  {
    ...paging,
    requestedDate: Type.Integer({ description: 'When the response was made, epoch seconds' }),
    institutions: Type.Array(CertifiedInstitutionWithRssd, {
      description: 'The certified institutions with a known RSSD id: none, as no source states one (docs/institutions.md)',
    }),
  },
  { xml: { name: 'root' } },
);

export const PagingQuery = {
  start: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Index of the first record of the page, from 1' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 25, description: 'Largest number of records in the page (1 to 1000)' })),
};

export const InstitutionQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: 255,
      description: 'Text found in the name, home page or login page (case and accents ignored). Omit to list all; blank is an error.',
      examples: ['finbank'],
    }),
  ),
  ...PagingQuery,
  type: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Only institutions certified for these products, comma separated: voa, voi, state_agg, ach, aha, trans_agg, avail_balance, account_owner',
    }),
  ),
  supportedCountries: Type.Optional(
    Type.String({ pattern: '^(\\*|[a-zA-Z]{2}(,[a-zA-Z]{2})*)$', description: 'Two-letter country codes, comma separated (us, ca), or * for all' }),
  ),
});

export const InstitutionIdParams = Type.Object({ institutionId: Type.Integer({ description: 'Institution id', examples: [101732] }) });

/** The reference types the routing number as an integer; a string keeps a number's leading zeros. */
export const RoutingNumberParams = Type.Object({
  routing_number: Type.String({
    description: 'An ABA routing number: nine digits whose check digit holds (leading zeros may be left out)',
    examples: ['124017322'],
  }),
});
