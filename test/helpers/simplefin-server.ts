/**
 * Calls of Ledgerlink's SimpleFIN server as a SimpleFIN client makes them, through app.inject: minting a setup token
 * through the partner API, claiming it, and reading `/accounts` with the access URL's Basic credentials.
 */
import type { TestContext, TestPartner } from './context.js';

export interface MintedToken {
  setupToken: string;
  claimUrl: string;
  expiresAt: number;
}

/** Mints a setup token for the customer (fails the test on anything but 201). */
export async function mintToken(ctx: TestContext, partner: TestPartner, customerId: string, body: { accountIds?: string[] } = {}): Promise<MintedToken> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/simplefin/tokens`,
    headers: { ...partner.headers, 'content-type': 'application/json' },
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`minting a SimpleFIN token failed: ${res.statusCode} ${res.body}`);
  return res.json<MintedToken>();
}

/** The path (and query) of a URL, for app.inject. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** POSTs to a claim URL as clients do (no body). */
export function claim(ctx: TestContext, claimUrl: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url: pathOf(claimUrl), headers });
}

/** Mints and claims: the access URL. */
export async function accessFor(ctx: TestContext, partner: TestPartner, customerId: string, body: { accountIds?: string[] } = {}): Promise<string> {
  const token = await mintToken(ctx, partner, customerId, body);
  const res = await claim(ctx, token.claimUrl);
  if (res.statusCode !== 200) throw new Error(`claiming a SimpleFIN token failed: ${res.statusCode} ${res.body}`);
  return res.body;
}

/** The Basic Authorization header of an access URL's credentials. */
export function basicAuth(accessUrl: string): string {
  const u = new URL(accessUrl);
  return `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
}

/** GET {access}/{what}?{query} with the access URL's credentials. */
export function readAccess(ctx: TestContext, accessUrl: string, what: 'accounts' | 'info', query = '') {
  const u = new URL(accessUrl);
  return ctx.app.inject({
    method: 'GET',
    url: `${u.pathname}/${what}${query ? `?${query}` : ''}`,
    headers: { authorization: basicAuth(accessUrl), accept: 'application/json' },
  });
}

export interface WireTransaction {
  id: string;
  posted: number;
  amount: string;
  description: string;
  payee: string;
  memo: string;
  transacted_at: number;
  pending?: boolean;
}

export interface WireAccount {
  org: { domain: string; name: string; 'sfin-url': string };
  id: string;
  name: string;
  currency: string;
  balance: string;
  'available-balance': string;
  'balance-date': number;
  transactions: WireTransaction[];
}

export interface WireAccountSet {
  errors: string[];
  errlist?: { code: string; msg: string }[];
  accounts: WireAccount[];
}
