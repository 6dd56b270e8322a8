import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AccountJson } from '../helpers/aggregation.js';
import { statementUploads } from '../helpers/statement-uploads.js';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/statements/mt940/${name}`, import.meta.url));
const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;

describe('MT940 statement uploads', () => {
  const { customer, uploadOk, transactionsOf } = statementUploads('2026-02-01T12:00:00Z');

  it('stores each account in its currency with its closing balance, and the statement lines with their signs and dates; a second upload adds nothing', async () => {
    const customerId = await customer();
    const file = fixture('swift-blocks.sta');
    const first = await uploadOk(customerId, file, { type: 'application/x-mt940' });
    expect(first).toMatchObject({ loginCreated: true, format: 'mt940', transactionsAdded: 4, transactionsAlreadyPresent: 0, problems: [] });
    expect(first.accounts.map((a: AccountJson) => [a.type, a.currency, a.balance, a.balanceDate, a.accountNumberDisplay])).toEqual([
      ['checking', 'EUR', 1945.55, day('2026-01-04'), '4300'],
      ['checking', 'USD', 575.25, day('2026-01-05'), '4300'],
    ]);
    expect(first.accounts[0].detail).toMatchObject({ availableBalanceAmount: 1900 });
    const [eur, usd] = first.accounts.map((a: AccountJson) => Number(a.id));

    const stored = await transactionsOf(customerId);
    expect(stored.map((t) => [t.accountId, t.amount, t.postedDate, t.transactionDate, t.description, t.memo, t.status])).toEqual([
      [eur, -250, day('2026-01-03'), day('2026-01-03'), 'Verhuur B.V.', 'Huur januari 2026', 'active'],
      [eur, 1200.5, day('2026-01-04'), day('2026-01-04'), 'Werkgever N.V.', 'Salaris december', 'active'],
      [eur, -4.95, day('2026-01-04'), day('2026-01-04'), 'Kosten betaalpakket', 'KOSTEN', 'active'],
      [usd, 75.25, day('2026-01-05'), day('2026-01-05'), 'Acme Supplies Inc.', 'RF18539007547034', 'active'],
    ]);

    // Told from its first bytes, as an upload with no Content-Type is.
    const again = await uploadOk(customerId, file);
    expect(again).toMatchObject({ loginCreated: false, format: 'mt940', transactionsAdded: 0, transactionsAlreadyPresent: 4 });
    expect(again.accounts.map((a: AccountJson) => Number(a.id))).toEqual([eur, usd]);
    expect(await transactionsOf(customerId)).toHaveLength(4);
  });

  it('reads a Latin-1 file sent as octet-stream: the booking date posted, the value date kept, reversals and duplicates as the file has them', async () => {
    const customerId = await customer();
    const german = await uploadOk(customerId, fixture('german-subfields.sta'), { type: 'application/octet-stream' });
    expect(german).toMatchObject({ format: 'mt940', transactionsAdded: 4, problems: [] });
    expect(german.accounts.map((a: AccountJson) => [a.currency, a.balance])).toEqual([['EUR', 4792.28]]);
    const swiss = await uploadOk(customerId, fixture('two-accounts.sta'), { type: 'text/x-mt940' });
    expect(swiss).toMatchObject({ loginCreated: false, transactionsAdded: 7, transactionsAlreadyPresent: 0 });

    const stored = await transactionsOf(customerId);
    const salary = stored.find((t) => t.description === 'Bäckerei Schröder KG');
    expect([salary?.amount, salary?.postedDate, salary?.transactionDate]).toEqual([2500, day('2026-01-02'), day('2025-12-31')]);
    expect(stored.find((t) => t.description === 'Verlag Nord')?.amount).toBe(12.5);
    // Two identical coffees of one day are two transactions.
    expect(stored.filter((t) => t.description === 'Kaffeebar Bahnhof').map((t) => t.amount)).toEqual([-8.4, -8.4]);

    const again = await uploadOk(customerId, fixture('two-accounts.sta'), { type: 'application/mt940' });
    expect(again).toMatchObject({ transactionsAdded: 0, transactionsAlreadyPresent: 7 });
    expect(await transactionsOf(customerId)).toHaveLength(11);
  });
});
