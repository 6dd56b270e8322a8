import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { asBorrower, type Borrower, openLink } from '../../../modules/connect/links.service.js';
import type { ConnectLinkRow } from '../../../modules/connect/table.js';
import { ServiceError } from '../../../contract/errors/service-error.js';
import type { Runtime } from '../../../platform/dependencies.js';
import { errorResponses, NoContent } from '../../../contract/schemas/common.js';

/** The header the Connect app sends its link's query string in, on every call. */
export const LINK_HEADER = 'connect-link';

/** The header naming the borrower a joint borrower link's call acts for: `primary` (the default) or `jointBorrower`. */
export const BORROWER_HEADER = 'connect-borrower';

function borrowerOf(request: FastifyRequest): Borrower {
  const value = request.headers[BORROWER_HEADER];
  if (value === undefined || value === 'primary') return 'primary';
  if (value === 'jointBorrower') return value;
  throw new ServiceError('InvalidParameter', 'Invalid parameter (Connect-Borrower): primary or jointBorrower.');
}

/**
 * The verified link of a Connect app call, acting for the borrower the call names (a joint borrower link; others
 * have only their customer): signature, expiry and single use are checked on every call, so a link that expires or
 * is used while the app is open stops working too.
 */
export async function linkOf(runtime: Runtime, request: FastifyRequest): Promise<ConnectLinkRow> {
  return asBorrower(await openedLinkOf(runtime, request), borrowerOf(request));
}

/** The verified link of a Connect app call, as it was generated (for its primary borrower). */
export async function openedLinkOf(runtime: Runtime, request: FastifyRequest): Promise<ConnectLinkRow> {
  const header = request.headers[LINK_HEADER];
  if (typeof header !== 'string' || header.length === 0 || header.length > 8192) throw new ServiceError('ConnectLinkInvalid');
  // No prototype, so `__proto__` and the like are parameters like any other (see openLink).
  const params: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [k, v] of new URLSearchParams(header.replace(/^\?/, ''))) {
    const prior = params[k];
    params[k] = prior === undefined ? v : [prior].flat().concat(v);
  }
  return openLink(runtime.database.kysely, runtime, params);
}

/**
 * Responses of a Connect app call: its answer (200, a schema of src/contract/schemas/connect-app.ts, which the browser's types
 * are generated from) and the errors every call can give.
 */
export const appErrors = <T extends Type.TSchema>(ok: T, ...more: number[]) => ({ 200: ok, ...errorResponses(400, 403, 404, 409, 410, ...more) });
/** Responses of a Connect app call that answers nothing (204), with the errors every call can give. */
export const appNoContent = (...more: number[]) => ({ 204: NoContent, ...errorResponses(400, 403, 404, 409, 410, ...more) });

export const SessionParams = Type.Object({ sessionId: Type.String({ maxLength: 64 }) });
