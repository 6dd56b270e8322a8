import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../src/modules/aggregation/records.js';
import { monthOfDay } from '../../src/modules/reports/analysis/dates.js';
import { incomeAnalysis, insufficientFundsAnalysis, paymentHistoryAnalysis } from '../../src/modules/reports/analysis/lending.js';
import { DAY, linkProfile, nowOf, refresh } from '../helpers/aggregation.js';
import { testBankAnalysisInput } from '../helpers/analysis-input.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { FETCHED_DAYS, storedAnalysisInput } from '../helpers/report-generation.js';

describe('the lending analyses over what aggregation stored', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  /** A profile linked and refreshed, then read back through the API as a report reads it. */
  async function storedInput(profile: string) {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, profile);
    const accounts = (await refresh(ctx, partner, customerId)) as unknown as AccountRecord[];
    const now = nowOf(ctx);
    const input = await storedAnalysisInput(ctx, partner, customerId, accounts, FETCHED_DAYS);
    return { input, now, from: now - FETCHED_DAYS * DAY };
  }

  it("finds salaried's biweekly and monthly pay in the stored transactions", async () => {
    const { input } = await storedInput('salaried');
    const streams = incomeAnalysis(input)
      .accounts.flatMap((a) => a.incomeStreams)
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(streams.map((s) => [s.name, s.cadence.name, s.status, s.estimateInclusion, s.projectedNetAnnual])).toEqual([
      ['Tailspin Toys', 'biweekly', 'ACTIVE', 'HIGH', 58240],
      ['Wide World Importers', 'monthly', 'ACTIVE', 'HIGH', 7680],
    ]);
    expect(streams[0]!.transactions.every((t) => t.amount === 2240)).toBe(true);
  });

  it("finds overdrawn's fees and days below zero in the stored balance history as the bank's own books give them", async () => {
    const { input, now, from } = await storedInput('overdrawn');
    const [stored] = insufficientFundsAnalysis(input);
    const books = await testBankAnalysisInput('overdrawn', now);
    const [expected] = insufficientFundsAnalysis({ ...books, fromDate: from });
    expect(stored!.feeCount).toBeGreaterThan(0);
    expect([stored!.nsfFeeCount, stored!.overdraftFeeCount, stored!.feeTotal, stored!.returnedItemCount]).toEqual([
      expected!.nsfFeeCount,
      expected!.overdraftFeeCount,
      expected!.feeTotal,
      expected!.returnedItemCount,
    ]);
    expect(stored!.negativeBalanceDays).toBe(expected!.negativeBalanceDays);
    expect(stored!.negativeBalanceDays).toBeGreaterThan(0);
  });

  it("finds borrower's missed payments to the outside lender in the stored transactions", async () => {
    const { input } = await storedInput('borrower');
    const ondeck = paymentHistoryAnalysis(input).streams.find((s) => s.payee === 'OnDeck Capital')!;
    expect(ondeck.cadence).toBe('monthly');
    expect(ondeck.missedDays.length).toBeGreaterThanOrEqual(1);
    for (const day of ondeck.missedDays) expect(monthOfDay(day) % 5).toBe(0);
  });
});
