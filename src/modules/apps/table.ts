import type { Generated, Selectable } from 'kysely';

/** P pending, A approved, R rejected (the reference's letters; D and S are never set here). */
export type AppStatusLetter = 'P' | 'A' | 'R';

/** A partner's app registration: its pre-app id is the row id. */
export interface AppRegistrationTable {
  id: Generated<number>;
  partner_id: string;
  /** A UUID given when the registration is first approved; it stays through later modifications. */
  application_id: string | null;
  status: AppStatusLetter;
  /** Why the status is what it is (the approval or the rejection reason). */
  note: string | null;
  app_name: string;
  /** The registration as submitted (the Application body), JSON. */
  details: string;
  /** Sandbox mode: when a pending registration becomes approved (runtime clock, epoch seconds); null in production. */
  approve_at: number | null;
  created_at: number;
  /** When the registration was last submitted (at registration and at each modification). */
  submitted_at: number;
  modified_at: number;
}

export type AppRegistrationRow = Selectable<AppRegistrationTable>;

/** A third-party access key: the granting partner's customer, the partner it is granted to, the hash of the key. */
export interface ThirdPartyAccessKeyTable {
  /** The consent receipt id, `cr_` and random characters. */
  receipt_id: string;
  partner_id: string;
  customer_id: number;
  third_party_partner_id: string;
  /** SHA-256 of the key (the proof's signature), hex; the key itself is shown once. */
  key_hash: string;
  /** ThirdPartyAccessProvenance as given (a client's address and cookie), JSON sealed like other secrets; null without one. */
  provenance_encrypted: string | null;
  created_at: number;
  /** When the current key was issued (generation or the latest update). */
  issued_at: number;
  revoked_at: number | null;
}

export type ThirdPartyAccessKeyRow = Selectable<ThirdPartyAccessKeyTable>;

/** One product the key grants on one account, in its time frame, with its calls counted. */
export interface ThirdPartyAccessProductTable {
  receipt_id: string;
  position: number;
  product: string;
  account_id: number;
  payor_id: string | null;
  max_calls: number | null;
  calls: Generated<number>;
  start_at: number;
  end_at: number;
}

export type ThirdPartyAccessProductRow = Selectable<ThirdPartyAccessProductTable>;
