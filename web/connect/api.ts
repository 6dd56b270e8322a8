/** The Connect app's calls to Ledgerlink: every call carries the link it was opened with. */
import { type Method, request } from '../shared/api.js';

const linkQuery = window.location.search;

/** Calls /connect/api{path}; answers the JSON body, or throws ApiError with the service's code and message. */
export function api<T>(method: Exclude<Method, 'PUT'>, path: string, body?: unknown): Promise<T> {
  return request<T>(method, `/connect/api${path}`, body, {
    headers: { 'connect-link': linkQuery },
    unreachable: 'We could not reach the service. Check your connection and try again.',
  });
}

/** Sends a file as the body of a /connect/api call, with its media type (the file's own, or from its extension). */
export function upload<T>(path: string, file: Blob, contentType: string): Promise<T> {
  return request<T>('POST', `/connect/api${path}`, file, {
    headers: { 'connect-link': linkQuery, 'content-type': contentType },
    unreachable: 'We could not reach the service. Check your connection and try again.',
  });
}
