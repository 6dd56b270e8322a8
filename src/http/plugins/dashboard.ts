import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenMatches, findSession, type DashboardSession } from '../../modules/dashboard/sessions.service.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Runtime } from '../../platform/dependencies.js';

/** 'guest': sign-in, sign-up, settings (same-origin check only); 'session': a signed-in partner. */
export type DashboardAccess = 'guest' | 'session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in partner's dashboard session (routes of the dashboard's session scope). */
    dashboard: DashboardSession & { sessionId: string };
  }
}

export const SESSION_COOKIE = 'ledgerlink_dashboard';
export const CSRF_HEADER = 'x-csrf-token';

/** The session id from the Cookie header, if any. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Sets (or, with maxAge 0, clears) the session cookie: HttpOnly, SameSite=Strict, scoped to /dashboard, Secure over TLS. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${SESSION_COOKIE}=${value}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`);
}

/** The origins the dashboard is served at: the one the request came to, and the configured public URL's. */
function ownOrigins(request: FastifyRequest, publicUrl: string): Set<string> {
  const origins = new Set([`${request.protocol}://${request.host}`]);
  try {
    origins.add(new URL(publicUrl).origin);
  } catch {
    // An unusable public URL adds nothing.
  }
  return origins;
}

/**
 * Refuses state-changing calls that a browser did not send from the dashboard itself: Sec-Fetch-Site must say
 * same-origin and Origin must be the dashboard's, when present; with neither header the call is refused.
 */
function checkSameOrigin(request: FastifyRequest, publicUrl: string): void {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (site === undefined && origin === undefined)
    throw new ServiceError('DashboardOriginRefused', 'Dashboard changes must come from the dashboard page (no Origin or Sec-Fetch-Site header).');
  if (site !== undefined && site !== 'same-origin')
    throw new ServiceError('DashboardOriginRefused', `Cross-site requests to the dashboard are refused (Sec-Fetch-Site: ${String(site).slice(0, 40)}).`);
  if (origin !== undefined && !ownOrigins(request, publicUrl).has(origin))
    throw new ServiceError('DashboardOriginRefused', "Cross-site requests to the dashboard are refused (the Origin is not the dashboard's).");
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * The dashboard's guard for the routes of a scope: security headers, the same-origin check on every change and,
 * for 'session', the session cookie and, on changes, the session's CSRF token in X-CSRF-Token. Runs before the
 * body is read.
 */
export function guardDashboard(scope: FastifyInstance, runtime: Runtime, access: DashboardAccess): void {
  scope.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    const changes = request.method !== 'GET' && request.method !== 'HEAD';
    if (changes) checkSameOrigin(request, runtime.config.publicUrl);
    if (access === 'guest') return;
    const sessionId = sessionCookieOf(request);
    let session: DashboardSession;
    try {
      session = await findSession(runtime, sessionId);
    } catch (e) {
      // A stale cookie is dropped, so the browser stops sending it.
      if (sessionId !== undefined) setSessionCookie(request, reply, '', 0);
      throw e;
    }
    const presented = request.headers[CSRF_HEADER];
    if (changes && !csrfTokenMatches(session, typeof presented === 'string' ? presented : undefined)) throw new ServiceError('DashboardCsrfRefused');
    request.dashboard = { ...session, sessionId: sessionId! };
  });
}
