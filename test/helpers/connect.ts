import type { LightMyRequestResponse } from 'fastify';
import type { TestContext, TestPartner } from './context.js';

export type LinkVariant = 'full' | 'lite' | 'fix' | 'email';
const PATHS: Record<LinkVariant, string> = {
  full: '/connect/v2/generate',
  lite: '/connect/v2/generate/lite',
  fix: '/connect/v2/generate/fix',
  email: '/connect/v2/send/email',
};

/** Calls a generate operation (the partner's own id filled in); answers the raw response. */
export function generate(ctx: TestContext, partner: TestPartner, variant: LinkVariant, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'POST', url: PATHS[variant], headers: partner.headers, payload: { partnerId: partner.partnerId, ...body } });
}

/** Generates a link and answers it; fails the test on anything but 200. */
export async function linkFor(ctx: TestContext, partner: TestPartner, variant: LinkVariant, body: Record<string, unknown>): Promise<string> {
  const res = await generate(ctx, partner, variant, body);
  if (res.statusCode !== 200) throw new Error(`generating a ${variant} link failed: ${res.statusCode} ${res.body}`);
  return res.json<{ link: string }>().link;
}

/** The path and query of a link, to inject as a browser would open it. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** A call of the Connect app's JSON API, carrying the link as the app does. */
export function appCall(ctx: TestContext, link: string, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url: `/connect/api${path}`,
    headers: { 'connect-link': new URL(link).search, accept: 'application/json' },
    ...(payload ? { payload } : {}),
  });
}

/** The same, failing the test unless the call succeeds; answers the JSON body. */
export async function appOk<T = any>(ctx: TestContext, link: string, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object): Promise<T> {
  const res = await appCall(ctx, link, method, path, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${path} failed: ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : undefined) as T;
}

/** The sign-in form of a test institution filled in with a profile. */
export const profileForm = (institutionId: number, profile: string) => [
  { id: `${institutionId}001`, value: profile },
  { id: `${institutionId}002`, value: profile },
];

/** Decodes a quoted-printable MIME part (what nodemailer uses for long lines). */
export function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
