import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkProfile, refresh } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

interface Stream {
  normalizedPayeeName: string;
  transactionIds: string[];
  cadence: number;
  status: string;
  expectedNextTransactionDate: string;
  medianHistoricalAmount: number;
  countOfTransactions: number;
}
interface Answer {
  customerRecurringTransactions: { recurringOutflows: Stream[]; recurringInflows: Stream[] };
}

describe('recurring transactions', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let customerId: string;
  let checkingId: string;
  let savingsId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
    const accounts = await linkProfile(ctx, partner, customerId, 'profile_01');
    checkingId = accounts.find((a) => a.type === 'checking')!.id;
    savingsId = accounts.find((a) => a.type === 'savings')!.id;
    await refresh(ctx, partner, customerId);
  }, 60_000);
  afterAll(async () => ctx?.close());

  const ask = (who: TestPartner, body: object | undefined, accept = 'application/json', id = customerId) =>
    ctx.app.inject({
      method: 'POST',
      url: `/aggregation/customers/${id}/recurring-transactions`,
      headers: { ...who.headers, accept },
      ...(body ? { payload: body } : {}),
    });

  it("finds the profile's paycheck, rent and savings transfer with their cadences", async () => {
    const res = await ask(partner, {});
    expect(res.statusCode, res.body).toBe(200);
    const { recurringOutflows, recurringInflows } = res.json<Answer>().customerRecurringTransactions;
    const pay = recurringInflows.find((s) => /northwind/i.test(s.normalizedPayeeName));
    expect(pay).toMatchObject({ cadence: 14, medianHistoricalAmount: 1850, status: 'active' });
    expect(pay!.countOfTransactions).toBeGreaterThanOrEqual(10);
    const rent = recurringOutflows.find((s) => s.medianHistoricalAmount === 1450);
    expect(rent?.cadence).toBeGreaterThanOrEqual(28);
    expect(rent?.cadence).toBeLessThanOrEqual(31);
    expect(recurringInflows.some((s) => s.medianHistoricalAmount === 250)).toBe(true);
    for (const s of [...recurringOutflows, ...recurringInflows]) {
      expect(s.countOfTransactions).toBe(s.transactionIds.length);
      expect(s.expectedNextTransactionDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('looks only at the accounts asked for', async () => {
    const res = await ask(partner, { accountIds: [savingsId] });
    expect(res.statusCode, res.body).toBe(200);
    const { recurringOutflows, recurringInflows } = res.json<Answer>().customerRecurringTransactions;
    expect(recurringInflows.some((s) => /northwind/i.test(s.normalizedPayeeName))).toBe(false);
    expect(recurringInflows.some((s) => s.medianHistoricalAmount === 250)).toBe(true);
    expect(recurringOutflows.every((s) => s.medianHistoricalAmount !== 1450)).toBe(true);
    const both = await ask(partner, { accountIds: [savingsId, checkingId] });
    expect(both.statusCode).toBe(200);
  });

  it('answers in XML', async () => {
    const res = await ask(partner, {}, 'application/xml');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<recurringTransactionsDetails>');
    expect(res.body).toContain('<recurringInflows>');
    expect(res.body).toContain('<cadence>14</cadence>');
  });

  it("keeps each partner's customers its own and refuses bad input with 4xx", async () => {
    const codeOf = (r: Awaited<ReturnType<typeof ask>>) => [r.statusCode, r.json<{ code: string }>().code];
    expect(codeOf(await ask(stranger, {}))).toEqual([404, '14001']);
    expect(codeOf(await ask(partner, { accountIds: ['5011999999'] }))).toEqual([404, '14001']);
    expect(codeOf(await ask(partner, { accountIds: ['nope'] }))).toEqual([404, '14001']);
    const empty = await addCustomer(ctx, partner);
    expect(codeOf(await ask(partner, {}, 'application/json', empty))).toEqual([404, '16412']);
    expect((await ask(partner, { accountIds: { id: 'x' } })).statusCode).toBe(400);
    expect((await ask(partner, { accountIds: [{}] })).statusCode).toBe(400);
  });
});
