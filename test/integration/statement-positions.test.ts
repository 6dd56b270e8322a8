import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AccountJson } from '../helpers/aggregation.js';
import { statementUploads } from '../helpers/statement-uploads.js';

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
  const files = statementUploads('2026-12-01T12:00:00Z');
  const { customer, uploadOk } = files;
  const account = async (customerId: string, accountId: string): Promise<AccountJson> => {
    const res = await files.ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v2/customers/${customerId}/accounts/${accountId}`,
      headers: { ...files.partner.headers, accept: 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const held = (a: AccountJson) => (a.position ?? []).map((p) => [p.symbol, p.fundName, p.units, p.unitPrice, p.marketValue]);

  it('stores an OFX file’s positions in the account’s details; an older file keeps them, a newer one replaces them', async () => {
    const customerId = await customer();
    const first = await uploadOk(customerId, Buffer.from(brokerage, 'latin1'), { type: 'application/x-ofx' });
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
    await uploadOk(customerId, brokerageAsOf('20240531', 7), { type: 'application/x-ofx' });
    const afterOlder = await account(customerId, accountId);
    expect(afterOlder.balance).toBe(18741.46);
    expect(afterOlder.position!.map((p) => p.id)).toEqual(ids);
    expect(held(afterOlder)).toEqual(held(stored));

    // A newer one replaces them as a refresh does: the same security keeps its position id, a holding gone is removed.
    await uploadOk(customerId, brokerageAsOf('20240712', 12), { type: 'application/x-ofx' });
    const afterNewer = await account(customerId, accountId);
    expect(held(afterNewer)).toEqual([
      ['AAPL', 'Apple Inc.', 12, 200, '2400.00'],
      ['VFIAX', 'Vanguard 500 Index Fund Admiral', 20.1, 500.1, '10052.01'],
    ]);
    expect(afterNewer.position!.map((p) => p.id)).toEqual(ids.slice(0, 2));
    expect(afterNewer.balance).toBe(13988.46);
  });

  it('stores the holdings a QIF file’s trades add up to', async () => {
    const customerId = await customer();
    const body = await uploadOk(customerId, holdings, { type: 'application/qif', query: { currency: 'USD' } });
    expect(body.problems).toEqual([]);
    const stored = await account(customerId, body.accounts[0].id);
    expect(stored).toMatchObject({ type: 'investment', balance: 8550 });
    expect(held(stored)).toEqual([
      ['VTI', 'Vanguard Total Stock Market ETF', 25, 300, '7500.00'],
      ['FCNTX', 'Fidelity Contrafund', 52.5, 20, '1050.00'],
    ]);
  });
});
