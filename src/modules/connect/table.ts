import type { Selectable } from 'kysely';

/** The Connect variants: Full, Lite, Fix, a Full link sent by e-mail, and the micro entry verification. */
export type ConnectLinkType = 'full' | 'lite' | 'fix' | 'email' | 'microentry';

export interface ConnectLinkTable {
  /** Random; carried in the link as `linkId`. */
  id: string;
  partner_id: string;
  customer_id: number;
  type: ConnectLinkType;
  /** Lite: the institution to sign in at. */
  institution_id: number | null;
  /** Fix: the institution login to repair. */
  institution_login_id: number | null;
  /** Micro entry verification: the receiving account whose amounts the customer enters. */
  micro_entry_account_id: number | null;
  experience: string;
  language: string | null;
  redirect_uri: string | null;
  webhook: string | null;
  webhook_content_type: string;
  /** JSON object, copied into every webhook body. */
  webhook_data: string | null;
  /** JSON object of extra webhook headers, encrypted (they often carry the receiver's own credentials). */
  webhook_headers_encrypted: string | null;
  single_use: number;
  /** Epoch milliseconds, as the link's timestamp and ttl. */
  created_at_ms: number;
  expires_at_ms: number;
  /** Epoch seconds when a single-use link completed. */
  used_at: number | null;
  /** Connect Components: the partner's configuration that narrows the accounts offered. */
  configuration_id: string | null;
  /** Connect Components: carried by every Connect event of the session, so the partner can tell its events apart. */
  event_stream_id: string | null;
  /** Joint borrower links: the joint borrower's customer (customer_id is the primary borrower's). */
  joint_customer_id: number | null;
}

export interface ConnectExperienceTable {
  partner_id: string;
  name: string;
  app_name: string;
  logo_url: string | null;
  /** #rrggbb */
  primary_color: string;
  created_at: number;
  updated_at: number;
}

/** A Connect Components configuration: filters applied to the accounts a session offers. */
export interface ConnectComponentConfigurationTable {
  /** UUID. */
  id: string;
  partner_id: string;
  /** JSON array of account types (as the accounts' `type`), or null for no filter. */
  filter_accounts: string | null;
  /** JSON array of `personal`, `business`, `unknown`, or null for no filter. */
  account_classification_types: string | null;
  ao_required: number;
  created_at: number;
}

export type ConnectLinkRow = Selectable<ConnectLinkTable>;
export type ConnectComponentConfigurationRow = Selectable<ConnectComponentConfigurationTable>;
export type ConnectExperienceRow = Selectable<ConnectExperienceTable>;
