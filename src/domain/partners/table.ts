import type { Generated, Selectable } from 'kysely';

export type PartnerPlan = 'testdrive' | 'production';

export interface PartnerTable {
  id: string;
  name: string;
  plan: PartnerPlan;
  /** scrypt hash of the partner secret. */
  secret_hash: string;
  /** SHA-256 of the app key, for lookup. */
  app_key_hash: string;
  /** The app key encrypted with the master key, so the dashboard can show it again. */
  app_key_encrypted: string;
  failed_auth_count: Generated<number>;
  locked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface PartnerTokenTable {
  /** SHA-256 of the token. */
  token_hash: string;
  partner_id: string;
  created_at: number;
  expires_at: number;
}

export type PartnerRow = Selectable<PartnerTable>;
