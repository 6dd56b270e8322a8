/**
 * A refusal by the Ledgerlink API: the HTTP status and the `{code, message}` error body (see docs/errors.md of the
 * service; codes are strings of digits, e.g. "10023" for an expired token).
 */
export class LedgerlinkError extends Error {
  override readonly name = 'LedgerlinkError';

  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The error code from the body, as a string ("" when the body carried none). */
    readonly code: string,
    message: string,
    /** The call that was refused, e.g. `GET /aggregation/v1/customers/1005000000`. */
    readonly operation: string,
    /** Seconds from the Retry-After header, when the service sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Whether `error` is a LedgerlinkError, optionally with one of the given codes. */
export function isLedgerlinkError(error: unknown, ...codes: string[]): error is LedgerlinkError {
  return error instanceof LedgerlinkError && (codes.length === 0 || codes.includes(error.code));
}

/** Seconds to wait from a Retry-After header (delta seconds or an HTTP date), measured against `nowMs`. */
export function retryAfterSeconds(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** Reads an error answer into a LedgerlinkError; bodies that are not `{code, message}` JSON keep the status text. */
export async function errorFromResponse(response: Response, operation: string, nowMs: number): Promise<LedgerlinkError> {
  const text = await response.text().catch(() => '');
  let code = '';
  let message = text.slice(0, 500) || response.statusText || `HTTP ${response.status}`;
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (body && typeof body === 'object') {
      if (typeof body.code === 'string' || typeof body.code === 'number') code = String(body.code);
      if (typeof body.message === 'string') message = body.message;
    }
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): the status and text are all there is.
  }
  return new LedgerlinkError(response.status, code, message, operation, retryAfterSeconds(response.headers.get('retry-after'), nowMs));
}
