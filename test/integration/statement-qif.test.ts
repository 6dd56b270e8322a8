import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AccountJson } from '../helpers/aggregation.js';
import { statementUploads } from '../helpers/statement-uploads.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/qif/${name}`, import.meta.url));

describe('QIF statement uploads', () => {
  const files = statementUploads('2026-12-01T12:00:00Z');
  const { customer, uploadOk, transactionsOf } = files;

  it('stores a Quicken export’s accounts and transactions with their signs, and a second upload adds nothing', async () => {
    const customerId = await customer();
    const first = await uploadOk(customerId, fixture('quicken-us.qif'), { type: 'application/qif' });
    expect(first).toMatchObject({ format: 'qif', loginCreated: true, transactionsAdded: 12, transactionsAlreadyPresent: 0 });
    expect(first.problems).toEqual([{ message: expect.stringMatching(/^The file names no currency/) }]);
    expect(first.accounts.map((a: AccountJson) => [a.name, a.type, a.currency, a.balance])).toEqual([
      ['Everyday Checking', 'checking', 'USD', 2894.13],
      ['Rewards Visa', 'creditCard', 'USD', 0],
    ]);
    const [checking, card] = first.accounts.map((a: AccountJson) => Number(a.id));
    const stored = await transactionsOf(customerId);
    const of = (accountId: number) => stored.filter((t) => t.accountId === accountId).map((t) => [t.amount, t.description]);
    expect(of(card)).toEqual([
      [-54.2, 'FUEL STOP 221'],
      [-1023.99, 'ELECTRONICS WAREHOUSE'],
      [350, 'PAYMENT THANK YOU'],
      [19.99, 'REFUND ONLINE STORE'],
    ]);
    expect(of(checking)).toEqual([
      [-1250, 'Riverside Property Management'],
      [3120.55, 'ACME CORP PAYROLL'],
      [-86.4, 'GREEN GROCER'],
      [-4.5, 'COFFEE ROASTERS'],
      [-4.5, 'COFFEE ROASTERS'],
      [-200, 'ATM WITHDRAWAL MAIN ST'],
      [-350, 'Transfer to Rewards Visa'],
      [-12.35, 'STREAMING SERVICE'],
    ]);

    const again = await uploadOk(customerId, fixture('quicken-us.qif'), { type: 'application/x-qif' });
    expect(again).toMatchObject({ format: 'qif', loginCreated: false, transactionsAdded: 0, transactionsAlreadyPresent: 12 });
    expect(again.accounts.map((a: AccountJson) => a.id)).toEqual(first.accounts.map((a: AccountJson) => a.id));
    expect(await transactionsOf(customerId)).toHaveLength(12);
  });

  it('stores a European file told from its first bytes in the currency the upload names', async () => {
    const customerId = await customer();
    const body = await uploadOk(customerId, fixture('european-latin1.qif'), {
      type: 'application/octet-stream',
      query: { currency: 'eur', accountName: 'Girokonto' },
    });
    expect(body).toMatchObject({ format: 'qif', transactionsAdded: 4, problems: [] });
    expect(body.accounts.map((a: AccountJson) => [a.name, a.type, a.currency])).toEqual([['Girokonto', 'checking', 'EUR']]);
    expect((await transactionsOf(customerId)).map((t) => [t.amount, t.description])).toEqual([
      [-1234.56, 'Möbelhaus Müller'],
      [2450, 'Gehalt Januar'],
      [-12.5, 'Bäckerei Schäfer'],
      [-89.9, 'Stadtwerke'],
    ]);
    const again = await uploadOk(customerId, fixture('european-latin1.qif'), { type: 'text/qif', query: { currency: 'EUR', accountName: 'Girokonto' } });
    expect(again).toMatchObject({ transactionsAdded: 0, transactionsAlreadyPresent: 4 });
  });

  it('stores an investment account’s trades with their units, price and kind', async () => {
    const customerId = await customer();
    const body = await uploadOk(customerId, fixture('investment.qif'), { type: 'text/x-qif', query: { currency: 'USD' } });
    expect(body).toMatchObject({ format: 'qif', transactionsAdded: 8 });
    // Apple is sold and never bought in the file: no holding of it is derived.
    expect(body.problems).toEqual([{ line: 31, message: expect.stringMatching(/^The file takes 4 more units of "Apple Inc" out/) }]);
    expect(body.accounts.map((a: AccountJson) => [a.name, a.type, a.currency])).toEqual([['Brokerage', 'investment', 'USD']]);
    const bought = (await transactionsOf(customerId)).find((t) => t.description === 'Bought Vanguard 500 Index Admiral');
    expect(bought).toMatchObject({ amount: -4103.35, investmentTransactionType: 'purchased', ticker: 'VFIAX' });
    // Units and price are stored, and sent with TxPUSH notifications.
    const row = await files.ctx.runtime.database.kysely
      .selectFrom('transactions')
      .select(['unit_quantity', 'unit_value', 'fee_amount'])
      .where('id', '=', Number(bought!.id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ unit_quantity: 8, unit_value: 512.3, fee_amount: 4.95 });
  });
});
