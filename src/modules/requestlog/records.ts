/** Request log rows as the records the dashboard and the CLI answer. No queries. */
import type { Static } from 'typebox';
import type { CliRequest } from '../../contract/schemas/cli.js';
import type { RequestLogDetail, RequestLogEntry, RequestLogMessage } from '../../contract/schemas/dashboard.js';
import { BODY_CAP, NOT_STORED, parseHeaderLines } from './redact.js';
import type { RequestLogDetailRow, RequestLogRow } from './table.js';

export type RequestLogEntryRecord = Static<typeof RequestLogEntry>;
export type RequestLogDetailRecord = Static<typeof RequestLogDetail>;
type RequestLogMessageRecord = Static<typeof RequestLogMessage>;
export type CliRequestRecord = Static<typeof CliRequest>;

/** An entry as the dashboard's request log lists it. */
export function toRequestLogEntry(r: RequestLogRow): RequestLogEntryRecord {
  return {
    id: Number(r.id),
    method: r.method,
    path: r.path,
    status: r.status,
    latencyMs: Number(r.latency_ms),
    errorCode: r.error_code,
    requestId: r.request_id,
    at: Number(r.created_at_ms),
  };
}

/** One side of a call as stored: a body is there, or was not read, not text, or not kept at all (headers = null). */
function messageOf(headers: string | null, body: string | null, bytes: number | string | null, isRequest: boolean): RequestLogMessageRecord {
  const size = bytes === null ? null : Number(bytes);
  if (headers === null) return { headers: [], body: null, bytes: size, truncated: false, omitted: 'not-kept' };
  let omitted: RequestLogMessageRecord['omitted'] = null;
  if (body === null && size === null) omitted = isRequest ? 'not-read' : 'binary';
  else if (body === null && size !== 0) omitted = 'binary';
  // A body kept as a note of why it was not (NOT_STORED) is not a cut one, whatever its size.
  const truncated = body !== null && body !== NOT_STORED && size !== null && size > BODY_CAP;
  return { headers: parseHeaderLines(headers), body, bytes: size, truncated, omitted };
}

/** An entry with its request and answer, as the dashboard shows one. */
export function toRequestLogDetail(r: RequestLogDetailRow): RequestLogDetailRecord {
  return {
    entry: toRequestLogEntry(r),
    request: messageOf(r.request_headers, r.request_body, r.request_bytes, true),
    response: messageOf(r.response_headers, r.response_body, r.response_bytes, false),
  };
}

/** An entry as the CLI's log tail reads it: the dashboard's fields with the partner, the matched route and the client address. */
export function toCliRequestRecord(r: RequestLogRow): CliRequestRecord {
  return { ...toRequestLogEntry(r), partnerId: r.partner_id, route: r.route, ip: r.ip };
}
