/** Institution rows as the contract's records. No queries. */
import type { Static } from 'typebox';
import type { Branding, CertifiedInstitution, Institution, ProductionStatus } from '../../contract/schemas/institutions.js';
import { brandingAssetUrl } from './branding.js';
import type { InstitutionRow } from './table.js';

export type InstitutionRecord = Static<typeof Institution>;
export type BrandingRecord = Static<typeof Branding>;
export type CertifiedInstitutionRecord = Static<typeof CertifiedInstitution>;

const flag = (v: number) => v === 1;

/** An institution's branding: images served at this service's public URL, and its colour. */
export function toBrandingRecord(row: InstitutionRow, publicUrl: string): BrandingRecord {
  return {
    logo: brandingAssetUrl(publicUrl, row.id, 'logo'),
    alternateLogo: brandingAssetUrl(publicUrl, row.id, 'alternateLogo'),
    icon: brandingAssetUrl(publicUrl, row.id, 'icon'),
    primaryColor: row.primary_color,
    tile: brandingAssetUrl(publicUrl, row.id, 'tile'),
  };
}

/** An institution record as the API shows it; branding URLs point at this service's public URL. */
export function toInstitutionRecord(row: InstitutionRow, publicUrl: string): InstitutionRecord {
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
    address: {
      addressLine1: row.address_line1,
      addressLine2: row.address_line2,
      city: row.city,
      state: row.state,
      postalCode: row.postal_code,
      country: row.country,
    },
    currency: row.currency,
    email: row.email,
    status: row.status,
    newInstitutionId: row.new_institution_id,
    oauthInstitutionId: row.oauth_institution_id,
    requiresServiceCallout: flag(row.requires_service_callout),
    externalData: row.external_data === null ? null : (JSON.parse(row.external_data) as Record<string, unknown>),
    displayName: row.display_name,
    branding: toBrandingRecord(row, publicUrl),
    productionStatus: productionStatusOf(row),
  };
}

function productionStatusOf(row: InstitutionRow): Static<typeof ProductionStatus> {
  return {
    overallStatus: row.ps_overall,
    transAgg: row.ps_trans_agg,
    voa: row.ps_voa,
    voi: row.ps_voi,
    stateAgg: row.ps_state_agg,
    ach: row.ps_ach,
    aha: row.ps_aha,
  };
}

/** An institution as the certified list shows it: its certifications under the reference's snake_case names. */
export function toCertifiedInstitutionRecord(row: InstitutionRow): CertifiedInstitutionRecord {
  return {
    name: row.name,
    id: row.id,
    trans_agg: flag(row.trans_agg),
    voa: flag(row.voa),
    voi: flag(row.voi),
    state_agg: flag(row.state_agg),
    ach: flag(row.ach),
    aha: flag(row.aha),
    oauthEnabled: flag(row.oauth_enabled),
    productionStatus: productionStatusOf(row),
  };
}
