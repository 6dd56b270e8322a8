import type { Selectable } from 'kysely';

/** A statement file as uploaded, kept to be offered again as an asset (statement-files.service.ts). */
export interface StatementFileTable {
  /** The asset id: `file-` and a random UUID. */
  id: string;
  partner_id: string;
  customer_id: number;
  /** The format it was read as (STATEMENT_FORMATS). */
  format: string;
  /** The media type it is offered again in: its format's. */
  media_type: string;
  /** Of the content: the same file uploaded again by the same customer is kept once. */
  sha256: string;
  size: number;
  /** Empty: the content is in statement_file_chunks (migration 0045). */
  content: Uint8Array;
  created_at: number;
  /** When the upload that wrote its pieces ended (its last transaction); null while they are written, or if it never did. */
  stored_at: number | null;
}

/** A piece of a kept statement file's content, in order of `seq` from 0. */
export interface StatementFileChunkTable {
  file_id: string;
  seq: number;
  content: Uint8Array;
}

/** The statement period an uploaded file gave one of its accounts: its first to its last transaction day. */
export interface StatementPeriodTable {
  account_id: number;
  /** The start of the first day (UTC, epoch seconds). */
  period_start: number;
  /** The last second of the last day (UTC, epoch seconds). */
  period_end: number;
  file_id: string;
  created_at: number;
}

export type StatementFileRow = Selectable<StatementFileTable>;
export type StatementPeriodRow = Selectable<StatementPeriodTable>;
