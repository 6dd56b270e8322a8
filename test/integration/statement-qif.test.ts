import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { allTransactions, type AccountJson, DAY, nowOf } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

const FINBANK = 101732;
const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/qif/${name}`, import.meta.url));

describe('QIF statement uploads', () => {
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
  const transactionsOf = (customerId: string) => allTransactions(ctx, partner, customerId, { fromDate: nowOf(ctx) - 400 * DAY, toDate: nowOf(ctx) + DAY });

  it('stores a Quicken export’s accounts and transactions with their signs, and a second upload adds nothing', async () => {
    const customerId = await addCustomer(ctx, partner);
    const first = await upload(customerId, fixture('quicken-us.qif'), 'application/qif');
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

    const again = await upload(customerId, fixture('quicken-us.qif'), 'application/x-qif');
    expect(again).toMatchObject({ format: 'qif', loginCreated: false, transactionsAdded: 0, transactionsAlreadyPresent: 12 });
    expect(again.accounts.map((a: AccountJson) => a.id)).toEqual(first.accounts.map((a: AccountJson) => a.id));
    expect(await transactionsOf(customerId)).toHaveLength(12);
  });

  it('stores a European file told from its first bytes in the currency the upload names', async () => {
    const customerId = await addCustomer(ctx, partner);
    const body = await upload(customerId, fixture('european-latin1.qif'), 'application/octet-stream', { currency: 'eur', accountName: 'Girokonto' });
    expect(body).toMatchObject({ format: 'qif', transactionsAdded: 4, problems: [] });
    expect(body.accounts.map((a: AccountJson) => [a.name, a.type, a.currency])).toEqual([['Girokonto', 'checking', 'EUR']]);
    expect((await transactionsOf(customerId)).map((t) => [t.amount, t.description])).toEqual([
      [-1234.56, 'Möbelhaus Müller'],
      [2450, 'Gehalt Januar'],
      [-12.5, 'Bäckerei Schäfer'],
      [-89.9, 'Stadtwerke'],
    ]);
    const again = await upload(customerId, fixture('european-latin1.qif'), 'text/qif', { currency: 'EUR', accountName: 'Girokonto' });
    expect(again).toMatchObject({ transactionsAdded: 0, transactionsAlreadyPresent: 4 });
  });

  it('stores an investment account’s trades with their units, price and kind', async () => {
    const customerId = await addCustomer(ctx, partner);
    const body = await upload(customerId, fixture('investment.qif'), 'text/x-qif', { currency: 'USD' });
    expect(body).toMatchObject({ format: 'qif', transactionsAdded: 8 });
    // Apple is sold and never bought in the file: no holding of it is derived.
    expect(body.problems).toEqual([{ line: 31, message: expect.stringMatching(/^The file takes 4 more units of "Apple Inc" out/) }]);
    expect(body.accounts.map((a: AccountJson) => [a.name, a.type, a.currency])).toEqual([['Brokerage', 'investment', 'USD']]);
    const bought = (await transactionsOf(customerId)).find((t) => t.description === 'Bought Vanguard 500 Index Admiral');
    expect(bought).toMatchObject({ amount: -4103.35, investmentTransactionType: 'purchased', ticker: 'VFIAX' });
    // Units and price are stored, and sent with TxPUSH notifications.
    const row = await ctx.runtime.database.kysely
      .selectFrom('transactions')
      .select(['unit_quantity', 'unit_value', 'fee_amount'])
      .where('id', '=', Number(bought!.id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ unit_quantity: 8, unit_value: 512.3, fee_amount: 4.95 });
  });
});
