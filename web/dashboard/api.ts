/** The dashboard's calls to /dashboard/api: the session cookie goes by itself; changes carry the CSRF token. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

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

/** Calls /dashboard/api{path}; answers the JSON body, or throws ApiError with the service's code and message. */
export async function api<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/dashboard/api${path}`, { method, headers, credentials: 'same-origin', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch {
    throw new ApiError(0, 'network', 'The service could not be reached. Check that Ledgerlink is running and try again.');
  }
  if (res.status === 204) return undefined as T;
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = new ApiError(res.status, String(json.code ?? res.status), String(json.message ?? 'Something went wrong.'));
    if (error.code === '14100' || error.code === '14101') onSignedOut(error.message);
    throw error;
  }
  return json as T;
}
