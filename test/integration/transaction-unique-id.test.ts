import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { allTransactions, DAY, linkProfile, nowOf, refresh, type TransactionJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

const path = (customerId: string, uniqueId: string) => `/aggregation/customers/${customerId}/transactions/${encodeURIComponent(uniqueId)}`;

describe('a transaction by its unique transaction id', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let customerId: string;
  let transactions: TransactionJson[];

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_02');
    await refresh(ctx, partner, customerId);
    const now = nowOf(ctx);
    transactions = await allTransactions(ctx, partner, customerId, { fromDate: now - 90 * DAY, toDate: now, limit: 100 });
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  const call = (who: TestPartner, url: string, accept = 'application/json') => ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });
  const refused = async (who: TestPartner, url: string, status: number, code: string) => {
    const res = await call(who, url);
    expect([res.statusCode, res.json<{ code: string }>().code], res.body).toEqual([status, code]);
  };

  it('answers accountId-transactionId with the record Get Customer Transaction gives, in JSON and XML', async () => {
    const tx = transactions[0]!;
    const res = await call(partner, path(customerId, `${tx.accountId}-${tx.id}`));
    expect(res.statusCode, res.body).toBe(200);
    const byId = await call(partner, `/aggregation/v2/customers/${customerId}/transactions/${tx.id}`);
    expect(res.json()).toEqual(byId.json());

    const xml = await call(partner, path(customerId, `${tx.accountId}-${tx.id}`), 'application/xml');
    expect(xml.statusCode, xml.body).toBe(200);
    const parsed = new XMLParser({ parseTagValue: false }).parse(xml.body);
    expect(String(parsed.transaction.id)).toBe(String(tx.id));
  });

  it("answers 404 for another account's id, another customer's and another partner's, unknown ids", async () => {
    const tx = transactions[0]!;
    const otherAccount = transactions.find((t) => t.accountId !== tx.accountId)!;
    await refused(partner, path(customerId, `${otherAccount.accountId}-${tx.id}`), 404, '14001');
    await refused(partner, path(customerId, `${tx.accountId}-999999999999`), 404, '14001');
    const other = await addCustomer(ctx, partner);
    await refused(partner, path(other, `${tx.accountId}-${tx.id}`), 404, '14001');
    await refused(stranger, path(customerId, `${tx.accountId}-${tx.id}`), 404, '14001');
  });

  it('refuses an id that is not two ids joined by a hyphen with 10010', async () => {
    const tx = transactions[0]!;
    for (const bad of [String(tx.id), `${tx.accountId}_${tx.id}`, `${tx.accountId}-${tx.id}-1`, `-${tx.id}`, 'x-y'])
      await refused(partner, path(customerId, bad), 400, '10010');
  });
});
