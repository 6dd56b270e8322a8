import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import type { AccountJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

const FINBANK = 101732;
const brokerage = readFileSync(new URL('../fixtures/ofx/brokerage-1.0.2.ofx', import.meta.url), 'latin1');
const holdings = readFileSync(new URL('../fixtures/statements/qif/holdings.qif', import.meta.url));

/** The brokerage statement as of another day, its Apple holding changed and its bond holding gone. */
function brokerageAsOf(day: string, appleUnits: number): Buffer {
  const text = brokerage
    .replaceAll('20240705', day)
    .replace(/<UNITS>10(\r?\n)<UNITPRICE>221\.55(\r?\n)<MKTVAL>2215\.50/, `<UNITS>${appleUnits}$1<UNITPRICE>200.00$2<MKTVAL>${(appleUnits * 200).toFixed(2)}`)
    .replace(/<POSDEBT>[\s\S]*?<\/POSDEBT>\r?\n/, '');
  return Buffer.from(text, 'latin1');
}

describe('investment positions of uploaded statement files', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    ctx.clock.set(Date.parse('2026-12-01T12:00:00Z'));
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  const upload = async (customerId: string, file: Buffer, type: string, query: Record<string, string> = {}) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/${FINBANK}/statements?${new URLSearchParams(query)}`,
      headers: { ...partner.headers, accept: 'application/json', 'content-type': type },
      payload: file,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const account = async (customerId: string, accountId: string): Promise<AccountJson> => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v2/customers/${customerId}/accounts/${accountId}`,
      headers: { ...partner.headers, accept: 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const held = (a: AccountJson) => (a.position ?? []).map((p) => [p.symbol, p.fundName, p.units, p.unitPrice, p.marketValue]);

  it('stores an OFX file’s positions in the account’s details; an older file keeps them, a newer one replaces them', async () => {
    const customerId = await addCustomer(ctx, partner);
    const first = await upload(customerId, Buffer.from(brokerage, 'latin1'), 'application/x-ofx');
    expect(first.accounts.map((a: AccountJson) => [a.type, a.balance])).toEqual([['investment', 18741.46]]);
    const accountId = first.accounts[0].id as string;
    const stored = await account(customerId, accountId);
    expect(held(stored)).toEqual([
      ['AAPL', 'Apple Inc.', 10, 221.55, '2215.50'],
      ['VFIAX', 'Vanguard 500 Index Fund Admiral', 20.1, 500.1, '10052.01'],
      ['912828ZT0', 'US Treasury Note 0.25% 05/31/2025', 5000, 98.75, '4937.50'],
    ]);
    for (const p of stored.position!) {
      expect(p).toMatchObject({ id: expect.any(Number), securityId: expect.any(String), quantity: p.units });
      expect(p).not.toHaveProperty('ref');
    }
    const ids = stored.position!.map((p) => p.id);

    // An older statement uploaded later: its positions are not the account's now, as its balance is not.
    await upload(customerId, brokerageAsOf('20240531', 7), 'application/x-ofx');
    const afterOlder = await account(customerId, accountId);
    expect(afterOlder.balance).toBe(18741.46);
    expect(afterOlder.position!.map((p) => p.id)).toEqual(ids);
    expect(held(afterOlder)).toEqual(held(stored));

    // A newer one replaces them as a refresh does: the same security keeps its position id, a holding gone is removed.
    await upload(customerId, brokerageAsOf('20240712', 12), 'application/x-ofx');
    const afterNewer = await account(customerId, accountId);
    expect(held(afterNewer)).toEqual([
      ['AAPL', 'Apple Inc.', 12, 200, '2400.00'],
      ['VFIAX', 'Vanguard 500 Index Fund Admiral', 20.1, 500.1, '10052.01'],
    ]);
    expect(afterNewer.position!.map((p) => p.id)).toEqual(ids.slice(0, 2));
    expect(afterNewer.balance).toBe(13988.46);
  });

  it('stores the holdings a QIF file’s trades add up to', async () => {
    const customerId = await addCustomer(ctx, partner);
    const body = await upload(customerId, holdings, 'application/qif', { currency: 'USD' });
    expect(body.problems).toEqual([]);
    const stored = await account(customerId, body.accounts[0].id);
    expect(stored).toMatchObject({ type: 'investment', balance: 8550 });
    expect(held(stored)).toEqual([
      ['VTI', 'Vanguard Total Stock Market ETF', 25, 300, '7500.00'],
      ['FCNTX', 'Fidelity Contrafund', 52.5, 20, '1050.00'],
    ]);
  });
});
