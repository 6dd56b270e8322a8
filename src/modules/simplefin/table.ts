import type { Generated, Selectable } from 'kysely';

/** A setup token minted for one customer (service.ts): single use, until `expires_at`. */
export interface SimplefinSetupTokenTable {
  /** SHA-256 of the token's secret part (the last segment of its claim URL). */
  token_hash: string;
  partner_id: string;
  customer_id: number;
  /** JSON array of account ids the access will serve; null for all of the customer's accounts. */
  account_ids: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** An access a claim made: Basic credentials (hashes only) reading one customer's accounts. */
export interface SimplefinAccessTable {
  /** Service-assigned, from 9300000000 up. */
  id: Generated<number>;
  username_hash: string;
  password_hash: string;
  partner_id: string;
  customer_id: number;
  account_ids: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** The UTC day (days since the epoch) `budget_used` counts `/accounts` requests of. */
  budget_day: Generated<number>;
  budget_used: Generated<number>;
  /** Every request the access made, all days. */
  requests: Generated<number>;
}

export type SimplefinSetupTokenRow = Selectable<SimplefinSetupTokenTable>;
export type SimplefinAccessRow = Selectable<SimplefinAccessTable>;
