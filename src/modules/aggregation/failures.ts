/** Aggregation status codes as API errors: the error code is the status code itself (docs/aggregation.md). */
import type { AggregationFailureCode } from '../../connectors/connector.js';
import type { ErrorName } from '../../contract/errors/catalogue.js';
import { ServiceError } from '../../contract/errors/service-error.js';

const ERROR_OF: Record<AggregationFailureCode, ErrorName> = {
  102: 'InstitutionUnavailable',
  103: 'InstitutionCredentialsInvalid',
  108: 'InstitutionUserActionRequired',
  109: 'InstitutionPasswordChangeRequired',
  185: 'MfaAnswerRequired',
  187: 'MfaAnswerIncorrect',
  945: 'InstitutionAuthorizationExpired',
  946: 'InstitutionAuthorizationExpired',
  947: 'InstitutionAuthorizationExpired',
  948: 'InstitutionAuthorizationExpired',
};

/** Codes only the user can clear (by signing in again through Connect Fix); 102 clears by itself. */
export const USER_FIXABLE_CODES: ReadonlySet<number> = new Set([103, 108, 109, 185, 187, 945, 946, 947, 948]);

/** The API error for an aggregation failure; the message carries the institution's words and the status code. */
export function aggregationError(code: number, message: string): ServiceError {
  const name = ERROR_OF[code as AggregationFailureCode] ?? 'InstitutionUnavailable';
  return new ServiceError(name, `${message} (aggregation status ${code})`);
}
