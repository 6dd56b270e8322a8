import type { TestContext, TestPartner } from './context.js';

export const DAY = 86_400;

/** The sign-in form public setup scripts send: user id and password fields with the institution's ids. */
export function loginForm(institutionId: number, username: string, password = username) {
  return {
    credentials: [
      { id: `${institutionId}001`, name: 'Banking Userid', value: username },
      { id: `${institutionId}002`, name: 'Banking Password', value: password },
    ],
  };
}

export interface AccountJson {
  id: string;
  name: string;
  type: string;
  balance: number;
  institutionLoginId: number;
  aggregationStatusCode: number;
  aggregationAttemptDate?: number;
  aggregationSuccessDate?: number;
  detail?: Record<string, unknown>;
  position?: Array<Record<string, unknown> & { id: number }>;
  [key: string]: unknown;
}

export interface TransactionJson {
  id: number;
  accountId: number;
  status: string;
  amount: number;
  transactionDate: number;
  postedDate?: number;
  [key: string]: unknown;
}

/** Links every account of a profile through addall; returns the accounts (fails the test on anything but 200). */
export async function linkProfile(ctx: TestContext, partner: TestPartner, customerId: string, profile: string, institutionId = 101732): Promise<AccountJson[]> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/institutions/${institutionId}/accounts/addall`,
    headers: partner.headers,
    payload: loginForm(institutionId, profile),
  });
  if (res.statusCode !== 200) throw new Error(`addall failed: ${res.statusCode} ${res.body}`);
  return res.json<{ accounts: AccountJson[] }>().accounts;
}

/** Refresh Customer Accounts (v1, synchronous). */
export async function refresh(ctx: TestContext, partner: TestPartner, customerId: string): Promise<AccountJson[]> {
  const res = await ctx.app.inject({ method: 'POST', url: `/aggregation/v1/customers/${customerId}/accounts`, headers: partner.headers, payload: {} });
  if (res.statusCode !== 200) throw new Error(`refresh failed: ${res.statusCode} ${res.body}`);
  return res.json<{ accounts: AccountJson[] }>().accounts;
}

/** Every transaction of the customer in [from, to], read page by page. */
export async function allTransactions(
  ctx: TestContext,
  partner: TestPartner,
  customerId: string,
  query: { fromDate: number; toDate: number; sort?: 'asc' | 'desc'; includePending?: boolean; limit?: number },
): Promise<TransactionJson[]> {
  const out: TransactionJson[] = [];
  const limit = query.limit ?? 1000;
  for (let start = 1; ; start += limit) {
    const qs = new URLSearchParams({
      fromDate: String(query.fromDate),
      toDate: String(query.toDate),
      start: String(start),
      limit: String(limit),
      sort: query.sort ?? 'asc',
      includePending: String(query.includePending ?? true),
    });
    const res = await ctx.app.inject({ method: 'GET', url: `/aggregation/v3/customers/${customerId}/transactions?${qs}`, headers: partner.headers });
    if (res.statusCode !== 200) throw new Error(`transactions failed: ${res.statusCode} ${res.body}`);
    const body = res.json<{ transactions: TransactionJson[]; moreAvailable: string }>();
    out.push(...body.transactions);
    if (body.moreAvailable !== 'true') return out;
  }
}

/** The customer's clock now, in epoch seconds (the test clock; no offset unless the test moved it). */
export function nowOf(ctx: TestContext): number {
  return Math.floor(ctx.clock.now() / 1000);
}
