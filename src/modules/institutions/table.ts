import type { Selectable } from 'kysely';

/** A product flag stored as 0/1. */
type Flag = number;

/**
 * One institution of the catalogue. Booleans are 0/1 integers; `ps_*` columns are the production status
 * strings of each product. Branding URLs are not stored: they are built from the public URL when served.
 */
export interface InstitutionTable {
  id: number;
  name: string;
  display_name: string;
  account_type_description: string;
  class: string;
  status: string;
  url_home_app: string;
  url_logon_app: string;
  url_product_app: string;
  url_forgot_password: string;
  url_online_registration: string;
  oauth_enabled: Flag;
  phone: string;
  email: string;
  currency: string;
  special_text: string;
  special_instructions: string | null;
  special_instructions_title: string | null;
  time_zone: string | null;
  new_institution_id: number | null;
  oauth_institution_id: number | null;
  requires_service_callout: Flag;
  /** JSON text or null. */
  external_data: string | null;
  trans_agg: Flag;
  voa: Flag;
  voi: Flag;
  state_agg: Flag;
  ach: Flag;
  aha: Flag;
  avail_balance: Flag;
  account_owner: Flag;
  loan_payment_details: Flag;
  student_loan_data: Flag;
  liability_data: Flag;
  bill_pay_data: Flag;
  address_line1: string;
  address_line2: string;
  city: string;
  state: string;
  postal_code: string;
  /** ISO 3166-1 alpha-3: USA or CAN. */
  country: string;
  primary_color: string;
  ps_overall: string;
  ps_trans_agg: string;
  ps_voa: string;
  ps_voi: string;
  ps_state_agg: string;
  ps_ach: string;
  ps_aha: string;
  /** Popularity used to order equally good search matches (higher first); not part of the API. */
  search_rank: number;
  /** The catalogue version that last changed this row; null while it is as loaded. */
  changed_version: number | null;
}

export type InstitutionRow = Selectable<InstitutionTable>;

/** The single-row table whose counter changes whenever any institution changes (see catalog.service.ts). */
export interface InstitutionCatalogTable {
  id: number;
  version: number;
}

/** The largest id an institution column holds (32-bit integer on PostgreSQL); every catalogue id fits. */
export const MAX_STORED_INSTITUTION_ID = 2_147_483_647;

/** An institution of a source that lists its own (migration 0034). */
export interface ListedInstitutionTable {
  institution_id: number;
  source: string;
  key: string;
  /** The source's JSON about reaching the institution (ListedInstitution.connection). */
  connection: string;
  logo_url: string | null;
  /** 0 once the source no longer lists it. */
  listed: number;
  synced_at: number;
}

/** An institution's OFX Direct Connect server (see migration 0018). */
export interface OfxServerTable {
  institution_id: number;
  url: string;
  fid: string;
  org: string;
  broker_id: string | null;
  app_id: string | null;
  app_ver: string | null;
  ofx_version: number | null;
  /** 'directory': loaded from the directory that ships with Ledgerlink; 'operator': added or overridden by an operator. */
  source: 'directory' | 'operator';
  /** When an operator last set it; null for the directory's rows. */
  updated_at: number | null;
}
