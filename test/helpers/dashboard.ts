import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from './context.js';

/** The dashboard's origin as inject() sees it (Host localhost:80). */
export const DASHBOARD_ORIGIN = 'http://localhost:80';
/** Headers a browser sends with a same-origin fetch from the dashboard page. */
export const SAME_ORIGIN = { origin: DASHBOARD_ORIGIN, 'sec-fetch-site': 'same-origin', accept: 'application/json' };

/** The session cookie's value from a Set-Cookie header, or undefined. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('ledgerlink_dashboard='));
  return header?.split(';')[0]?.split('=')[1] || undefined;
}

export interface DashboardBrowser {
  cookie: string;
  csrfToken: string;
  /** A same-origin call carrying the cookie and, for changes, the CSRF token. */
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** Signs in to the dashboard as a browser would and answers a client holding the session. */
export async function dashboardSignIn(ctx: TestContext, partnerId: string, partnerSecret: string): Promise<DashboardBrowser> {
  const res = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/signin', headers: SAME_ORIGIN, payload: { partnerId, partnerSecret } });
  if (res.statusCode !== 200) throw new Error(`dashboard sign-in failed: ${res.statusCode} ${res.body}`);
  return dashboardClient(ctx, sessionCookie(res)!, res.json().csrfToken);
}

/** A client holding a session cookie and CSRF token. */
export function dashboardClient(ctx: TestContext, cookie: string, csrfToken: string): DashboardBrowser {
  return {
    cookie,
    csrfToken,
    call: (method, url, payload, headers = {}) =>
      ctx.app.inject({
        method,
        url,
        headers: { ...SAME_ORIGIN, cookie: `ledgerlink_dashboard=${cookie}`, ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }), ...headers },
        ...(payload ? { payload } : {}),
      }),
  };
}
