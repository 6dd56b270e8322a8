import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AccountJson } from '../helpers/aggregation.js';
import { statementUploads } from '../helpers/statement-uploads.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url));

describe('CSV exports from outside the US are stored in the currency they name', () => {
  const files = statementUploads('2026-12-01T12:00:00Z');
  const upload = (customerId: string, file: Buffer, query?: Record<string, string>) => files.upload(customerId, file, { type: 'text/csv', query });
  const stored = async (customerId: string) =>
    (
      await files.ctx.runtime.database.kysely
        .selectFrom('accounts')
        .select(['currency', 'balance'])
        .where('customer_id', '=', Number(customerId))
        .orderBy('id')
        .execute()
    ).map((r) => ({ currency: r.currency, balance: Number(r.balance) }));
  const served = async (customerId: string) => {
    const res = await files.ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: files.partner.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ accounts: AccountJson[] }>().accounts.map((a) => (a as { currency?: string }).currency);
  };

  it('a German export with a Waehrung column is stored in EUR, its amounts as written', async () => {
    const customerId = await files.customer();
    const res = await upload(customerId, fixture('sparkasse-de.csv'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ format: 'csv', transactionsAdded: 5, problems: [], accounts: [{ currency: 'EUR' }] });
    expect((await stored(customerId)).map((a) => a.currency)).toEqual(['EUR']);
    expect(await served(customerId)).toEqual(['EUR']);
    const amounts = await files.ctx.runtime.database.kysely
      .selectFrom('transactions')
      .select('amount')
      .where('customer_id', '=', Number(customerId))
      .orderBy('amount')
      .execute();
    expect(amounts.map((r) => Number(r.amount))).toEqual([-1150, -72, -54.38, -4.95, 3120]);
  });

  it('a UK export whose headers say GBP is stored in GBP with its balance', async () => {
    const customerId = await files.customer();
    const res = await upload(customerId, fixture('uk-gbp.csv'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ transactionsAdded: 4, problems: [], accounts: [{ currency: 'GBP' }] });
    expect(await stored(customerId)).toEqual([{ currency: 'GBP', balance: 2104.55 }]);
    expect(await served(customerId)).toEqual(['GBP']);
  });

  it('the currency option still wins, and a file naming none is USD with a problem that says so', async () => {
    const customerId = await files.customer();
    const asked = await upload(customerId, fixture('uk-gbp.csv'), { currency: 'eur', accountName: 'Asked' });
    expect([asked.statusCode, asked.json().accounts[0].currency]).toEqual([200, 'EUR']);
    const none = await upload(customerId, Buffer.from('Datum;Omschrijving;Bedrag\n30.10.2026;ALBERT HEIJN;-23,47\n'), { accountName: 'None' });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toMatchObject({ accounts: [{ currency: 'USD' }], problems: [{ message: expect.stringMatching(/^The file names no currency/) }] });
    expect((await stored(customerId)).map((a) => a.currency)).toEqual(['EUR', 'USD']);
  });
});
