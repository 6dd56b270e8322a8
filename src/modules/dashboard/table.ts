import type { Selectable } from 'kysely';

export interface DashboardSessionTable {
  /** SHA-256 of the session id the browser holds in its cookie. */
  id_hash: string;
  partner_id: string;
  created_at: number;
  expires_at: number;
}

export type DashboardSessionRow = Selectable<DashboardSessionTable>;
