import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { startSession } from '../../../modules/dashboard/sessions.js';
import { getPartnerRecord } from '../../../modules/partners/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import { setSessionCookie } from '../../plugins/dashboard.js';
import { errorResponses } from '../../../contract/schemas/common.js';

/** Route options of the dashboard's JSON API: outside the partner API (no token, JSON only, not described), a signed-in partner. */
export const DASHBOARD_API = { config: { auth: 'none', negotiate: false, dashboard: 'session' } } as const;
/** Sign-in and sign-up: no session yet, but the same-origin check and the authentication rate limit. */
export const DASHBOARD_GUEST = { config: { auth: 'none', negotiate: false, dashboard: 'guest', rateLimit: 'auth' } } as const;

/** Responses of a dashboard call: its JSON answer (free-form; only the dashboard reads it) and the errors every call can give. */
export const dashboardResponses = (...more: number[]) => ({ 200: Type.Unknown(), 204: Type.Null(), ...errorResponses(400, 401, 403, 404, ...more) });

/** What the dashboard shows of the signed-in partner, with the session's CSRF token. */
export async function sessionView(runtime: Runtime, session: { partnerId: string; expiresAt: number; csrfToken: string }) {
  const partner = await getPartnerRecord(runtime, session.partnerId);
  return {
    partner: {
      partnerId: partner.id,
      name: partner.name,
      plan: partner.plan,
      lockedAt: partner.locked_at === null ? null : Number(partner.locked_at),
      failedAuthentications: partner.failed_auth_count,
      createdDate: Number(partner.created_at),
    },
    expiresAt: session.expiresAt,
    csrfToken: session.csrfToken,
  };
}

/** Starts a session for a partner who just signed in or up, sets its cookie and answers what the dashboard shows. */
export async function signedIn(runtime: Runtime, request: FastifyRequest, reply: FastifyReply, partnerId: string) {
  const { sessionId, session } = await startSession(runtime, partnerId);
  setSessionCookie(request, reply, sessionId, runtime.config.dashboardSessionTtlSeconds);
  return sessionView(runtime, session);
}
