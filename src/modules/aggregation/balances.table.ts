import type { Selectable } from 'kysely';

/** Where a day's balance comes from: read by a refresh, a statement file's closing balance, or derived from transactions. */
export type BalanceSource = 'refresh' | 'statement' | 'derived';

/** An account's balance on one UTC day (balances.service.ts). */
export interface AccountBalanceTable {
  account_id: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  balance: number;
  available_balance: number | null;
  currency: string;
  source: BalanceSource;
  /**
   * When the value it comes from was valid (customer clock, epoch seconds): the balance's date for an observed one,
   * that of the observed balance it was derived from for a derived one. A later one replaces an earlier one.
   */
  as_of: number;
  updated_at: number;
}

export type AccountBalanceRow = Selectable<AccountBalanceTable>;
