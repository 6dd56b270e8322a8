/** The dashboard's calls to /dashboard/api: the session cookie goes by itself; changes carry the CSRF token. */
import { ApiError, type Method, request } from '../shared/api.js';

let csrfToken = '';

/** Remembers the session's CSRF token (from sign-in, sign-up or GET /session). */
export function useCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when the session is gone (signed out elsewhere, expired): the app shows the sign-in page. */
let onSignedOut: (message: string) => void = () => undefined;
export function whenSignedOut(handler: (message: string) => void): void {
  onSignedOut = handler;
}

/** Whether a failure means the session is gone (none, or expired). */
export function isSignedOut(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === '14100' || error.code === '14101');
}

/** Calls /dashboard/api{path}; answers the JSON body, or throws ApiError with the service's code and message. */
export async function api<T>(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  try {
    return await request<T>(method, `/dashboard/api${path}`, body, {
      headers: method !== 'GET' ? { ...headers, 'x-csrf-token': csrfToken } : headers,
      unreachable: 'The service could not be reached. Check that Ledgerlink is running and try again.',
    });
  } catch (e) {
    if (isSignedOut(e)) onSignedOut(e.message);
    throw e;
  }
}

/**
 * POSTs a file as the body of a /dashboard/api call. Always as octet-stream: browsers label statement files
 * unreliably, and the service tells the format from the first bytes.
 */
export function uploadFile<T>(path: string, file: Blob): Promise<T> {
  return api<T>('POST', path, file, { 'content-type': 'application/octet-stream' });
}
