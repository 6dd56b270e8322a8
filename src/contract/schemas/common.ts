import Type from 'typebox';
import { ErrorBody } from './error.js';

/** A required string that must not be blank (blank or white space reads as missing, code 10005). */
export const RequiredString = (options: Record<string, unknown> = {}) => Type.String({ minLength: 1, pattern: '\\S', ...options });

/** The error responses an operation can give, keyed by status, for schemas and the OpenAPI description. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  const out: Record<number, typeof ErrorBody> = {};
  for (const s of statuses) out[s] = ErrorBody;
  return out;
}

/** The empty body of 204 responses. */
export const NoContent = Type.Null({ description: 'No content' });
