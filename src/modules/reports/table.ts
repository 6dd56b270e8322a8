import type { Selectable } from 'kysely';
import type { ReportStatus, ReportType } from '../../contract/schemas/reports.js';

/** A report, and the job that computes it (migration 0037). */
export interface ReportTable {
  /** 12 lower-case letters and digits, a hyphen and the type in lower case: `u4hstnnak45g-voa`. */
  id: string;
  partner_id: string;
  customer_id: number;
  consumer_id: string;
  /** The same for every report of the customer: derived from the partner and customer ids. */
  portfolio_id: string;
  /** 10 lower-case letters and digits, the generation request. */
  request_id: string;
  type: ReportType;
  status: ReportStatus;
  /** The options asked for (ReportOptions), JSON. */
  options: string;
  /** Where the report-finished webhook goes; null when none was given. */
  callback_url: string | null;
  /** The header fields naming the partner and consumer (ReportHeader), sealed JSON. */
  header_encrypted: string;
  /** What the kind computed (ReportBody), sealed JSON; null until success. */
  body_encrypted: string | null;
  /** Why it failed: an error code of the catalogue and its message; null unless failure. */
  error_code: string | null;
  error_message: string | null;
  /** The customer's clock when it was asked for (createdDate). */
  created_at: number;
  /** The service clock when it finished. */
  finished_at: number | null;
  /** Computations started: a worker that crashed mid-way leaves its lease to end, and another tries again. */
  attempts: number;
  /** While a worker computes it: the end of its lease (service clock, epoch seconds). */
  locked_until: number | null;
  locked_by: string | null;
}

export type ReportRow = Selectable<ReportTable>;
/** A report as lists read it: without its body. */
export type ReportListRow = Omit<ReportRow, 'body_encrypted'>;
