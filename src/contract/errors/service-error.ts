import type { Static } from 'typebox';
import type { ErrorDetails } from '../schemas/error.js';
import { ErrorCatalogue, type ErrorName } from './catalogue.js';

/** An error with a catalogue code; thrown anywhere, rendered once by the HTTP error handler. */
export class ServiceError extends Error {
  readonly code: string;
  readonly status: number;
  readonly errorName: ErrorName;
  readonly headers: Record<string, string> | undefined;
  /** What the client needs to correct its request, sent as the body's `details` (only where docs/errors.md says so). */
  readonly details: Static<typeof ErrorDetails> | undefined;

  constructor(name: ErrorName, message?: string, headers?: Record<string, string>, details?: Static<typeof ErrorDetails>) {
    const def = ErrorCatalogue[name];
    super(message ?? def.message);
    this.name = 'ServiceError';
    this.errorName = name;
    this.code = def.code;
    this.status = def.status;
    this.headers = headers;
    this.details = details;
  }
}

/** Shorthand: `throw fail('ResourceNotFound', 'Customer not found.')`. */
export function fail(name: ErrorName, message?: string): ServiceError {
  return new ServiceError(name, message);
}
