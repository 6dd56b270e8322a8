/** The Connect app's calls to Ledgerlink: every call carries the link it was opened with. */
import { type Method, request } from '../shared/api.js';

const linkQuery = window.location.search;
/** A joint borrower link: whose accounts the calls act for (the primary borrower's until the user picks the other). */
let borrower: 'primary' | 'jointBorrower' = 'primary';

/** Makes every later call act for this borrower of a joint borrower link. */
export function setBorrower(value: 'primary' | 'jointBorrower'): void {
  borrower = value;
}

function linkHeaders(): Record<string, string> {
  return borrower === 'primary' ? { 'connect-link': linkQuery } : { 'connect-link': linkQuery, 'connect-borrower': borrower };
}

/** Calls /connect/api{path}; answers the JSON body, or throws ApiError with the service's code and message. */
export function api<T>(method: Exclude<Method, 'PUT'>, path: string, body?: unknown): Promise<T> {
  return request<T>(method, `/connect/api${path}`, body, {
    headers: linkHeaders(),
    unreachable: 'We could not reach the service. Check your connection and try again.',
  });
}

/** Sends a file as the body of a /connect/api call, with its media type (the file's own, or from its extension). */
export function upload<T>(path: string, file: Blob, contentType: string): Promise<T> {
  return request<T>('POST', `/connect/api${path}`, file, {
    headers: { ...linkHeaders(), 'content-type': contentType },
    unreachable: 'We could not reach the service. Check your connection and try again.',
  });
}
