import { ErrorCatalogue, type ErrorName } from './catalogue.js';

/** An error with a catalogue code; thrown anywhere, rendered once by the HTTP error handler. */
export class ServiceError extends Error {
  readonly code: string;
  readonly status: number;
  readonly errorName: ErrorName;
  readonly headers: Record<string, string> | undefined;

  constructor(name: ErrorName, message?: string, headers?: Record<string, string>) {
    const def = ErrorCatalogue[name];
    super(message ?? def.message);
    this.name = 'ServiceError';
    this.errorName = name;
    this.code = def.code;
    this.status = def.status;
    this.headers = headers;
  }
}

/** Shorthand: `throw fail('ResourceNotFound', 'Customer not found.')`. */
export function fail(name: ErrorName, message?: string): ServiceError {
  return new ServiceError(name, message);
}
