import Type, { type Static } from 'typebox';
import { brandingAssetUrl } from '../../domain/institutions/branding.js';
import type { InstitutionSearch } from '../../domain/institutions/service.js';
import type { InstitutionRow } from '../../domain/institutions/table.js';

const Flag = (description: string) => Type.Boolean({ description: `true when the institution is certified for ${description}` });
const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Branding = Type.Object(
  {
    logo: Type.String({ description: 'Logo for white backgrounds, 375 x 72 SVG served by Ledgerlink', examples: ['http://127.0.0.1:8080/institution/assets/101732/logo.svg'] }),
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
    accountTypeDescription: Type.String({ description: 'Banking, Investments, Credit Cards/Accounts, Workplace Retirement, Mortgages and Loans, Insurance, or TestFI for test institutions' }),
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

export const PagingQuery = {
  start: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Index of the first record of the page, from 1' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 25, description: 'Largest number of records in the page (1 to 1000)' })),
};

export const InstitutionQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Text found in the name, home page or login page (case and accents ignored). Omit to list all; blank is an error.', examples: ['finbank'] })),
  ...PagingQuery,
  type: Type.Optional(Type.String({ maxLength: 200, description: 'Only institutions certified for these products, comma separated: voa, voi, state_agg, ach, aha, trans_agg, avail_balance, account_owner' })),
  supportedCountries: Type.Optional(Type.String({ pattern: '^(\\*|[a-zA-Z]{2}(,[a-zA-Z]{2})*)$', description: 'Two-letter country codes, comma separated (us, ca), or * for all' })),
});

/** The query of the institution lists as the service takes it, with the documented defaults. */
export function institutionSearchOf(q: Static<typeof InstitutionQuery>): InstitutionSearch {
  return { search: q.search, start: q.start ?? 1, limit: q.limit ?? 25, type: q.type, supportedCountries: q.supportedCountries };
}

export const InstitutionIdParams = Type.Object({ institutionId: Type.Integer({ description: 'Institution id', examples: [101732] }) });

const flag = (v: number) => v === 1;

export function toBranding(row: InstitutionRow, publicUrl: string): Static<typeof Branding> {
  return {
    logo: brandingAssetUrl(publicUrl, row.id, 'logo'),
    alternateLogo: brandingAssetUrl(publicUrl, row.id, 'alternateLogo'),
    icon: brandingAssetUrl(publicUrl, row.id, 'icon'),
    primaryColor: row.primary_color,
    tile: brandingAssetUrl(publicUrl, row.id, 'tile'),
  };
}

/** An institution record as the API shows it; branding URLs point at this service's public URL. */
export function toInstitution(row: InstitutionRow, publicUrl: string): Static<typeof Institution> {
  return {
    id: row.id,
    name: row.name,
    transAgg: flag(row.trans_agg),
    ach: flag(row.ach),
    stateAgg: flag(row.state_agg),
    voi: flag(row.voi),
    voa: flag(row.voa),
    aha: flag(row.aha),
    availBalance: flag(row.avail_balance),
    accountOwner: flag(row.account_owner),
    studentLoanData: flag(row.student_loan_data),
    loanPaymentDetails: flag(row.loan_payment_details),
    liabilityData: flag(row.liability_data),
    billPayData: flag(row.bill_pay_data),
    accountTypeDescription: row.account_type_description,
    phone: row.phone,
    urlHomeApp: row.url_home_app,
    urlLogonApp: row.url_logon_app,
    urlProductApp: row.url_product_app,
    oauthEnabled: flag(row.oauth_enabled),
    urlForgotPassword: row.url_forgot_password,
    urlOnlineRegistration: row.url_online_registration,
    class: row.class,
    specialText: row.special_text,
    specialInstructions: row.special_instructions,
    specialInstructionsTitle: row.special_instructions_title,
    timeZone: row.time_zone,
    address: { addressLine1: row.address_line1, addressLine2: row.address_line2, city: row.city, state: row.state, postalCode: row.postal_code, country: row.country },
    currency: row.currency,
    email: row.email,
    status: row.status,
    newInstitutionId: row.new_institution_id,
    oauthInstitutionId: row.oauth_institution_id,
    requiresServiceCallout: flag(row.requires_service_callout),
    externalData: row.external_data === null ? null : (JSON.parse(row.external_data) as Record<string, unknown>),
    displayName: row.display_name,
    branding: toBranding(row, publicUrl),
    productionStatus: productionStatusOf(row),
  };
}

function productionStatusOf(row: InstitutionRow): Static<typeof ProductionStatus> {
  return { overallStatus: row.ps_overall, transAgg: row.ps_trans_agg, voa: row.ps_voa, voi: row.ps_voi, stateAgg: row.ps_state_agg, ach: row.ps_ach, aha: row.ps_aha };
}

export function toCertifiedInstitution(row: InstitutionRow): Static<typeof CertifiedInstitution> {
  return {
    name: row.name, id: row.id, trans_agg: flag(row.trans_agg), voa: flag(row.voa), voi: flag(row.voi), state_agg: flag(row.state_agg), ach: flag(row.ach), aha: flag(row.aha),
    oauthEnabled: flag(row.oauth_enabled), productionStatus: productionStatusOf(row),
  };
}
