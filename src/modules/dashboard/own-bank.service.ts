/**
 * The "Your own bank data" page (docs/dashboard.md): the checks it walks through (the partner's plan, its active
 * customers and whether they have linked anything yet) and the active customer it creates.
 */
import type { Engine } from '../aggregation/engine.js';
import { listInstitutionLogins } from '../aggregation/linking.service.js';
import { createCustomer, listCustomers, type CustomerContext } from '../customers/service.js';
import type { Caller } from '../partners/service.js';
import { customerSummary } from './customers.service.js';

/** How many active customers the page lists. */
const SHOWN = 5;

/** The partner's plan, the service's mode, and its first active customers with what each has linked. */
export async function ownBankOverview(engine: Engine, caller: Caller) {
  const page = await listCustomers(engine.database.kysely, caller.partnerId, { type: 'active', start: 1, limit: SHOWN });
  return {
    plan: caller.plan,
    serviceMode: engine.config.mode,
    activeCustomers: {
      found: page.found,
      customers: await Promise.all(
        page.customers.map(async (c) => {
          const logins = await listInstitutionLogins(engine, caller.partnerId, String(c.id));
          return { ...customerSummary(c), institutionLogins: logins.length, accounts: logins.reduce((n, l) => n + l.accounts.length, 0) };
        }),
      ),
    },
  };
}

/** Adds an active customer of the signed-in partner, by the rules of Add Customer (a Test Drive partner: 14060). */
export async function createActiveCustomer(ctx: CustomerContext, caller: Caller, input: { username: string; firstName?: string; lastName?: string }) {
  return customerSummary(await createCustomer(ctx, caller, 'active', input));
}
