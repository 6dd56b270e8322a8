import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueReports } from '../../src/modules/reports/worker.js';
import { DAY, linkProfile, nowOf, refresh } from '../helpers/aggregation.js';
import { createConsumer } from '../helpers/consumers.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

interface IncomeStreamJson {
  name: string;
  status: string;
  estimateInclusion: string;
  confidence: number;
  cadence: { days: number };
  projectedNetAnnual: number;
  transactions: { amount: number }[];
}

describe('VOA with income', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let customerId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'salaried');
    await refresh(ctx, partner, customerId);
    await createConsumer(ctx, partner, customerId);
  }, 120_000);
  afterAll(() => ctx?.close());

  const read = (who: TestPartner, reportId: string, accept = 'application/json') =>
    ctx.app.inject({ method: 'GET', url: `/decisioning/v3/customers/${customerId}/reports/${reportId}`, headers: { ...who.headers, accept } });

  it("reports salaried's biweekly and monthly pay as income streams, with their summary, once the worker computed it", async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/decisioning/v2/customers/${customerId}/voaHistory`,
      headers: { ...partner.headers, accept: 'application/json', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode, res.body).toBe(202);
    const { id } = res.json<{ id: string }>();
    await runDueReports(ctx.runtime);
    const report = (await read(partner, id)).json<{
      status: string;
      income: { confidenceType: string; incomeEstimate: { projectedNetAnnual: number } }[];
      institutions: { accounts: { type: string; incomeStreams?: IncomeStreamJson[] }[] }[];
    }>();
    expect(report.status).toBe('success');
    const checking = report.institutions.flatMap((i) => i.accounts).find((a) => a.type === 'checking')!;
    const streams = [...checking.incomeStreams!].sort((a, b) => a.name.localeCompare(b.name));
    expect(streams.map((s) => [s.name, s.cadence.days, s.status, s.estimateInclusion, s.projectedNetAnnual])).toEqual([
      ['Tailspin Toys', 14, 'ACTIVE', 'HIGH', 2240 * 26],
      ['Wide World Importers', 30, 'ACTIVE', 'HIGH', 640 * 12],
    ]);
    expect(streams[0]!.transactions.every((t) => t.amount === 2240)).toBe(true);
    expect(report.income).toEqual([
      expect.objectContaining({ confidenceType: 'HIGH', incomeEstimate: expect.objectContaining({ projectedNetAnnual: 65920 }) }),
    ]);

    const xml = await read(partner, id, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<name>Tailspin Toys</name>');
    expect((await read(stranger, id)).statusCode).toBe(404);
  });

  const generate = async (payload: object) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/decisioning/v2/customers/${customerId}/voaHistory`,
      headers: { ...partner.headers, accept: 'application/json', 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    return res;
  };
  const streamDates = async (payload: object) => {
    const res = await generate(payload);
    expect(res.statusCode, res.body).toBe(202);
    const { id } = res.json<{ id: string }>();
    await runDueReports(ctx.runtime);
    const report = (await read(partner, id)).json<{
      institutions: { accounts: { type: string; transactions: { postedDate: number }[]; incomeStreams?: IncomeStreamJson[] }[] }[];
    }>();
    const checking = report.institutions.flatMap((i) => i.accounts).find((a) => a.type === 'checking')!;
    const tailspin = checking.incomeStreams!.find((s) => s.name === 'Tailspin Toys')!;
    return {
      listed: checking.transactions.map((t) => t.postedDate),
      income: (tailspin.transactions as unknown as { postedDate: number }[]).map((t) => t.postedDate),
    };
  };

  it('reads the income of 24 months whatever its own period, and from incomeFromDate when given', async () => {
    const now = nowOf(ctx);
    const { listed, income } = await streamDates({});
    // The report lists its own 61 days of transactions; the pay it finds goes back as far as the stored history.
    expect(Math.min(...listed)).toBeGreaterThanOrEqual(now - 61 * DAY);
    expect(Math.min(...income)).toBeLessThan(now - 61 * DAY);
    expect(income.length).toBeGreaterThan(5);

    const narrowed = await streamDates({ incomeFromDate: now - 100 * DAY });
    expect(Math.min(...narrowed.income)).toBeGreaterThanOrEqual(now - 100 * DAY);
    expect(narrowed.income.length).toBeLessThan(income.length);
    expect(narrowed.listed).toEqual(listed);

    const future = await generate({ incomeFromDate: now + 10 * DAY });
    expect([future.statusCode, future.json<{ code: string }>().code]).toEqual([400, '16002']);
  });
});
