import { expect } from 'vitest';
import type { AccountRecord, TransactionRecord } from '../../src/modules/aggregation/records.js';
import { analysisInputOf } from '../../src/modules/reports/analysis/from-records.js';
import type { AnalysisInput } from '../../src/modules/reports/analysis/types.js';
import { runDueReports } from '../../src/modules/reports/worker.js';
import { allTransactions, DAY, linkProfile, nowOf, refresh } from './aggregation.js';
import { createConsumer } from './consumers.js';
import type { TestContext, TestPartner } from './context.js';
import { addCustomer } from './customers.js';

/** What the initial aggregation of a test-bank login fetches (docs/aggregation.md). */
export const FETCHED_DAYS = 180;

/** A customer with a consumer and a profile linked and refreshed; its accounts as the API answers them. */
export async function profileCustomer(ctx: TestContext, partner: TestPartner, profile: string) {
  const customerId = await addCustomer(ctx, partner);
  await linkProfile(ctx, partner, customerId, profile);
  const accounts = (await refresh(ctx, partner, customerId)) as unknown as AccountRecord[];
  await createConsumer(ctx, partner, customerId);
  return { customerId, accounts };
}

/** What aggregation stored for the customer, read back through the API, as the analyses take it from `fromDays` back. */
export async function storedAnalysisInput(
  ctx: TestContext,
  partner: TestPartner,
  customerId: string,
  accounts: AccountRecord[],
  fromDays: number,
): Promise<AnalysisInput> {
  const now = nowOf(ctx);
  const transactions = (await allTransactions(ctx, partner, customerId, {
    fromDate: now - FETCHED_DAYS * DAY,
    toDate: now,
    includePending: false,
  })) as unknown as TransactionRecord[];
  const withActivity = [];
  for (const account of accounts) {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v1/customers/${customerId}/accounts/${account.id}/balances/history`,
      headers: partner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const balances = res.json<{ balances: { date: string; balance: number }[] }>().balances.map((b) => ({ day: b.date, balance: b.balance }));
    withActivity.push({ account, transactions: transactions.filter((t) => String(t.accountId) === String(account.id)), balances });
  }
  return analysisInputOf(withActivity, { from: now - fromDays * DAY, asOf: now });
}

/** POSTs a Generate Report call, expects 202, runs the worker and answers the report's id. */
export async function generateAndRun(ctx: TestContext, partner: TestPartner, url: string, payload = '{}'): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...partner.headers, accept: 'application/json', 'content-type': 'application/json' },
    payload,
  });
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json<{ status: string }>().status).toBe('inProgress');
  const { id } = res.json<{ id: string }>();
  await runDueReports(ctx.runtime);
  return id;
}

/** Get Report by customer, in JSON or XML. */
export const readReport = (ctx: TestContext, who: TestPartner, customerId: string, reportId: string, accept = 'application/json') =>
  ctx.app.inject({ method: 'GET', url: `/decisioning/v3/customers/${customerId}/reports/${reportId}`, headers: { ...who.headers, accept } });
