/** The Connect app's calls to Ledgerlink: every call carries the link it was opened with. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const linkQuery = window.location.search;

/** Calls /connect/api{path}; answers the JSON body, or throws ApiError with the service's code and message. */
export async function api<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/connect/api${path}`, {
      method,
      headers: { 'connect-link': linkQuery, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new ApiError(0, 'network', 'We could not reach the service. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, String(json.code ?? res.status), String(json.message ?? 'Something went wrong.'));
  return json as T;
}
