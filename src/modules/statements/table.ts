import type { Selectable } from 'kysely';

/** A pay statement a partner stored for a customer (migration 0044), offered again as an asset. */
export interface PayStatementTable {
  /** The asset id: a random UUID and the customer id, as the reference's asset ids. */
  id: string;
  partner_id: string;
  customer_id: number;
  /** The reference's label (lastPayPeriod, ...). */
  label: string;
  /** What its first bytes say it is: application/pdf, image/jpeg or image/png. */
  media_type: string;
  /** Of the document, in bytes. */
  size: number;
  created_at: number;
}

/** A piece of a pay statement's sealed document (encryptBytes, key derived from the master key), in order of `seq`. */
export interface PayStatementChunkTable {
  pay_statement_id: string;
  seq: number;
  content: Uint8Array;
}

export type PayStatementRow = Selectable<PayStatementTable>;
