import type { Generated, Selectable } from 'kysely';

/** A listener `ledgerlink listen --partner` registered: it receives a copy of the partner's push and webhook deliveries. */
export interface SandboxListenerTable {
  id: Generated<number>;
  partner_id: string;
  /** Where the copies go (the listen process's own URL). */
  url: string;
  created_at: number;
  /** The registration lapses here unless the listener renews it (epoch seconds, service clock). */
  expires_at: number;
}

export type SandboxListenerRow = Selectable<SandboxListenerTable>;
