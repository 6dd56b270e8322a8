import type { Generated, Selectable } from 'kysely';

export interface RequestLogTable {
  id: Generated<number>;
  /** The partner whose app key the request carried (with a valid token, or without one when the key alone is valid). */
  partner_id: string | null;
  method: string;
  /** The URL path with its query string, truncated. */
  path: string;
  /** The matched route pattern, e.g. /aggregation/v1/customers/:customerId. */
  route: string | null;
  status: number;
  latency_ms: number;
  error_code: string | null;
  request_id: string;
  ip: string;
  created_at_ms: number;
  /**
   * The request's headers as `name: value` lines, credentials redacted; null when nothing but the summary was kept
   * (no partner, or the log was busy). The four columns below are kept (or not) together with it.
   */
  request_headers: string | null;
  /** The request body as text, secrets redacted, at most BODY_CAP characters; null when there was none or it is not text. */
  request_body: string | null;
  /** The whole request body's size in bytes; null when the body was not read (the request was refused before). */
  request_bytes: number | null;
  response_headers: string | null;
  response_body: string | null;
  response_bytes: number | null;
}

/** The columns of a detail: headers and bodies. */
export type RequestLogDetailColumn = 'request_headers' | 'request_body' | 'request_bytes' | 'response_headers' | 'response_body' | 'response_bytes';

/** An entry as lists show it: everything but its headers and bodies. */
export type RequestLogRow = Omit<Selectable<RequestLogTable>, RequestLogDetailColumn>;

/** An entry with its headers and bodies. */
export type RequestLogDetailRow = Selectable<RequestLogTable>;
