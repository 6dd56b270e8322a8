import type { Generated, Selectable } from 'kysely';

export interface RequestLogTable {
  id: Generated<number>;
  /** The authenticated partner, when the request got that far. */
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
}

export type RequestLogRow = Selectable<RequestLogTable>;
