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
  /** Authentication attempts reserved and not yet decided: they count towards the lock-out while they run. */
  auth_pending: Generated<number>;
  /** When the latest attempt was reserved (epoch seconds); older reservations are taken as abandoned. */
  auth_pending_at: Generated<number>;
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

/** Dashboard sign-in throttles, one row per key (`partner:<id as typed>` or `address:<client address>`). */
export interface SignInThrottleTable {
  key: string;
  /** Failures since the last cool-down (or, for a partner id, the last success). */
  failures: Generated<number>;
  /** Attempts reserved and not yet decided. */
  pending: Generated<number>;
  pending_at: Generated<number>;
  /** Epoch seconds until which every sign-in with this key is refused. */
  blocked_until: Generated<number>;
  /** Cool-downs served in a row: each one lasts twice the one before. */
  rounds: Generated<number>;
  updated_at: number;
}
