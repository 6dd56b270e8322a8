import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueReports } from '../../src/modules/reports/worker.js';
import { linkProfile, refresh } from '../helpers/aggregation.js';
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
});
