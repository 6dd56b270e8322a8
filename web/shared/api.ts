/** The browser apps' calls to Ledgerlink's JSON APIs: JSON in and out, failures as ApiError with the service's code. */

/** A failed call: the HTTP status (0 when no answer came) with the service's error code, message and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** What some errors carry to correct the request (the error body's `details`). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Calls `url` with `body` as JSON (when given; a Blob, such as a chosen file, is sent as it is, with its type) and
 * `headers`; answers the JSON body (undefined for 204), or throws ApiError with the service's code, message and
 * details, or with code `network` and `unreachable` when no answer came.
 */
export async function request<T>(method: Method, url: string, body: unknown, options: { headers?: Record<string, string>; unreachable: string }): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const raw = body instanceof Blob;
  if (body !== undefined) headers['content-type'] ??= raw ? body.type || 'application/octet-stream' : 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: raw ? body : JSON.stringify(body) } : {}),
    });
  } catch {
    throw new ApiError(0, 'network', options.unreachable);
  }
  if (res.status === 204) return undefined as T;
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, String(json.code ?? res.status), String(json.message ?? 'Something went wrong.'), json.details);
  return json as T;
}
