import { randomBytes } from 'node:crypto';
import type { TestContext, TestPartner } from './context.js';

let counter = 0;

/** A username nobody has used in this test run. */
export function uniqueUsername(prefix = 'customer'): string {
  counter += 1;
  return `${prefix}_${counter}_${randomBytes(3).toString('hex')}`;
}

/** Adds a customer through the API (testing by default) and returns its id. */
export async function addCustomer(
  ctx: TestContext,
  partner: TestPartner,
  options: { type?: 'testing' | 'active'; username?: string; firstName?: string; lastName?: string } = {},
): Promise<string> {
  const { type = 'testing', username = uniqueUsername(), ...names } = options;
  const res = await ctx.app.inject({ method: 'POST', url: `/aggregation/v2/customers/${type}`, headers: partner.headers, payload: { username, ...names } });
  if (res.statusCode !== 201) throw new Error(`adding a customer failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}
