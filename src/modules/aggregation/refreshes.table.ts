import type { Selectable } from 'kysely';

export type TransactionRefreshStatus = 'NEW' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
export type TransactionRefreshMode = 'standard' | 'historic' | 'custom';

/** What one account of a transaction refresh came to; absent fields are not known yet. */
export interface TransactionRefreshResult {
  accountId: number;
  institutionLoginId: number;
  institutionId: number;
  /** 0 once refreshed; the aggregation status code of a failure. */
  code?: number;
  message?: string;
  /** Epoch seconds of the success. */
  successAt?: number;
}

export interface TransactionRefreshTable {
  /** A UUID. */
  id: string;
  partner_id: string;
  customer_id: number;
  institution_login_id: number | null;
  /** JSON array of the account ids asked for (numbers). */
  account_ids: string;
  mode: TransactionRefreshMode;
  /** Customer clock, epoch seconds; only for the custom mode. */
  from_date: number | null;
  to_date: number | null;
  status: TransactionRefreshStatus;
  /** JSON array of TransactionRefreshResult, one per account. */
  results: string;
  created_at: number;
  updated_at: number;
}

export type TransactionRefreshRow = Selectable<TransactionRefreshTable>;
