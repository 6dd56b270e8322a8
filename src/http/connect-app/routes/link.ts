import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { openLink } from '../../../modules/connect/links.js';
import type { ConnectLinkRow } from '../../../modules/connect/table.js';
import { ServiceError } from '../../../contract/errors/service-error.js';
import type { Runtime } from '../../../platform/dependencies.js';
import { errorResponses } from '../../../contract/schemas/common.js';

/** The header the Connect app sends its link's query string in, on every call. */
export const LINK_HEADER = 'connect-link';

/**
 * The verified link of a Connect app call: signature, expiry and single use are checked on every call, so a
 * link that expires or is used while the app is open stops working too.
 */
export async function linkOf(runtime: Runtime, request: FastifyRequest): Promise<ConnectLinkRow> {
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

/** Route options shared by the Connect app's JSON API: outside the partner API (no token, JSON only, not described). */
export const APP_API = { config: { auth: 'none', negotiate: false } } as const;

/** Responses of a Connect app call: its JSON answer (free-form; only the app reads it) and the errors every call can give. */
export const appErrors = (...more: number[]) => ({ 200: Type.Unknown(), 204: Type.Null(), ...errorResponses(400, 403, 404, 409, 410, ...more) });

export const SessionParams = Type.Object({ sessionId: Type.String({ maxLength: 64 }) });
