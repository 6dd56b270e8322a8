import type { Generated, Selectable } from 'kysely';

/** The reference's statuses; Ledgerlink reaches all but Rejected and Returned, which only a real payment rail gives. */
export type MicroEntryStatus = 'Pending' | 'Completed' | 'Verified' | 'Failed' | 'Expired' | 'Rejected' | 'Returned';

export interface MicroEntryTable {
  /** Service-assigned; also the receiving account's id when no aggregated account of the customer matches. */
  id: Generated<number>;
  partner_id: string;
  customer_id: number;
  /** The receiving account: an aggregated account of the customer with the same numbers, or this row's own id. */
  account_id: number;
  routing_number: string;
  /** HMAC-SHA256 of the account number's digits with a key derived from the master key: finds the row, reveals nothing. */
  account_number_hash: string;
  account_number_last4: string;
  /** The receiver as given (MicroEntryReceiver), sealed. */
  receiver_encrypted: string;
  /** The two amounts in cents as JSON, sealed. */
  amounts_encrypted: string;
  institution_login_id: number | null;
  callback_url: string | null;
  status: MicroEntryStatus;
  failed_attempts: Generated<number>;
  /** Customer clock, epoch seconds. */
  initiated_at: number;
  /** When the deposits land (customer clock). */
  arrives_at: number;
  /** The aggregated account the deposits were seen on when they verified the entry by themselves. */
  auto_verified_account_id: number | null;
  updated_at: number;
}

export type MicroEntryRow = Selectable<MicroEntryTable>;
