import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueReports } from '../../src/modules/reports/worker.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { type AccountJson, linkProfile, refresh } from '../helpers/aggregation.js';
import { createConsumer } from '../helpers/consumers.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startListener, type Listener } from '../helpers/listener.js';
import { pdfText } from '../helpers/pdf-text.js';

interface StatementReportJson {
  id: string;
  portfolioId: string;
  type: string;
  status: string;
  title: string;
  customerId: number;
  consumerId: string;
  constraints: Record<string, unknown>;
  assetId?: string;
  errors?: { code: string; message: string }[];
}

const GENERATE = (customerId: string, query = '') => `/decisioning/v2/customers/${customerId}/statement${query}`;
const BY_CUSTOMER = (customerId: string, reportId: string) => `/decisioning/v3/customers/${customerId}/reports/${reportId}`;
const MULTIPLE = (customerId: string, accountId: string, index: string) =>
  `/aggregation/v3/customers/${customerId}/accounts/${accountId}/statement?index=${index}`;
const ASSET = (customerId: string, assetId: string) => `/aggregation/v1/customers/${customerId}/assets/${assetId}`;

describe('the statement report', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let listener: Listener;
  let customerId: string;
  let consumerId: string;
  let checking: AccountJson;

  beforeAll(async () => {
    ctx = await createTestContext();
    ctx.clock.set(Date.parse('2026-04-15T12:00:00Z'));
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    listener = await startListener();
    customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_02');
    checking = (await refresh(ctx, partner, customerId)).find((a) => a.type === 'checking')!;
    consumerId = await createConsumer(ctx, partner, customerId);
  }, 120_000);
  afterAll(async () => {
    await listener?.close();
    await ctx?.close();
  });

  const post = (who: TestPartner, url: string, payload: string, type = 'application/json', accept = 'application/json') =>
    ctx.app.inject({ method: 'POST', url, headers: { ...who.headers, accept, 'content-type': type }, payload });
  const get = (who: TestPartner, url: string, accept = 'application/json') => ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });
  const refused = (res: { statusCode: number; body: string }, status: number, code: string) =>
    expect([res.statusCode, JSON.parse(res.body).code], res.body).toEqual([status, code]);

  it('is in progress at once, then holds the statement asked for, whose asset and PDF are the statement, and calls back', async () => {
    const body = {
      statementReportData: { accountId: Number(checking.id), statementIndex: 2 },
      reportCustomFields: [{ label: 'loanID', value: '9', shown: true }],
    };
    const res = await post(partner, GENERATE(customerId, `?callbackUrl=${encodeURIComponent(listener.url)}`), JSON.stringify(body));
    expect(res.statusCode, res.body).toBe(202);
    const ack = res.json<StatementReportJson>();
    expect(ack).toMatchObject({ type: 'statement', status: 'inProgress', customerId: Number(customerId), consumerId, title: 'Statement Report' });
    expect(ack.id).toMatch(/^[a-z0-9]{12}-statement$/);
    expect(ack.constraints).toEqual(body);
    expect((await get(partner, BY_CUSTOMER(customerId, ack.id))).json<StatementReportJson>().status).toBe('inProgress');

    expect(await runDueReports(ctx.runtime)).toBe(1);
    const report = (await get(partner, BY_CUSTOMER(customerId, ack.id))).json<StatementReportJson>();
    expect(report.status).toBe('success');
    // The second statement in mid-April is February's, as the statement details name it.
    const details = (await get(partner, MULTIPLE(customerId, checking.id, '2'))).json<{ statements: { id: string }[] }>();
    expect(report.assetId).toBe(details.statements[0]!.id);
    expect(report.assetId).toBe(`statement-${checking.id}-20260201-20260228`);

    const asset = await get(partner, ASSET(customerId, report.assetId!));
    expect(asset.statusCode).toBe(200);
    expect(await pdfText(asset.rawPayload)).toContain('Statement period 02/01/2026 - 02/28/2026');
    // The report's PDF is that statement.
    const pdf = await get(partner, BY_CUSTOMER(customerId, ack.id), 'application/pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(pdf.rawPayload, asset.rawPayload)).toBe(0);

    const xml = await get(partner, BY_CUSTOMER(customerId, ack.id), 'application/xml');
    expect(xml.statusCode).toBe(200);
    const parsed = new XMLParser({ parseTagValue: false }).parse(xml.body) as { report: Record<string, unknown> };
    expect(parsed.report).toMatchObject({ type: 'statement', status: 'success', assetId: report.assetId });

    await drainDeliveries(ctx.runtime);
    const hook = listener.requests.map((r) => JSON.parse(r.body)).find((b) => b.payload?.reportId === ack.id);
    expect(hook).toMatchObject({ eventType: 'done', payload: { type: 'statement', status: 'success', portfolioId: ack.portfolioId } });
  });

  it('takes its body in XML, statementIndex 1 by default, and its in-progress PDF says so', async () => {
    const res = await post(
      partner,
      GENERATE(customerId),
      `<reportConstraints><statementReportData><accountId>${checking.id}</accountId></statementReportData></reportConstraints>`,
      'application/xml',
      'application/xml',
    );
    expect(res.statusCode, res.body).toBe(202);
    expect(res.body).toContain('<statementIndex>1</statementIndex>');
    const id = /<id>([^<]+)<\/id>/.exec(res.body)![1]!;
    const pending = await get(partner, BY_CUSTOMER(customerId, id), 'application/pdf');
    expect(await pdfText(pending.rawPayload)).toContain('still being generated');
    await runDueReports(ctx.runtime);
    expect((await get(partner, BY_CUSTOMER(customerId, id))).json<StatementReportJson>().assetId).toBe(`statement-${checking.id}-20260301-20260331`);
  });

  it('refuses, at once, an account the customer lacks, an index without a statement, a missing or malformed statementReportData, and a customer without consumer', async () => {
    const data = (accountId: number | string, statementIndex?: number) => JSON.stringify({ statementReportData: { accountId, statementIndex } });
    refused(await post(partner, GENERATE(customerId), data(999_999)), 400, '10010');
    refused(await post(partner, GENERATE(customerId), data(Number(checking.id), 24)), 404, '16201');
    refused(await post(partner, GENERATE(customerId), data(Number(checking.id), 25)), 400, '10010');
    refused(await post(partner, GENERATE(customerId), data('x')), 400, '10010');
    refused(await post(partner, GENERATE(customerId), '{}'), 400, '10005');
    const bare = await addCustomer(ctx, partner);
    refused(await post(partner, GENERATE(bare), data(Number(checking.id))), 400, '16000');
    // Another partner's customer, and another customer's account.
    refused(await post(stranger, GENERATE(customerId), data(Number(checking.id))), 404, '14001');
    await createConsumer(ctx, partner, bare);
    refused(await post(partner, GENERATE(bare), data(Number(checking.id))), 400, '10010');
  });

  it("is another partner's to read as an unknown report, and fails when its account is gone before it is computed", async () => {
    const customer = await addCustomer(ctx, partner);
    const linked = await linkProfile(ctx, partner, customer, 'profile_02');
    await refresh(ctx, partner, customer);
    await createConsumer(ctx, partner, customer);
    const account = linked.find((a) => a.type === 'checking')!;
    const res = await post(partner, GENERATE(customer), JSON.stringify({ statementReportData: { accountId: Number(account.id) } }));
    expect(res.statusCode, res.body).toBe(202);
    const { id } = res.json<StatementReportJson>();
    refused(await get(stranger, BY_CUSTOMER(customer, id)), 404, '14001');
    refused(await post(stranger, `/decisioning/v3/reports/${id}`, '{}'), 404, '14001');

    const del = await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customer}/accounts/${account.id}`, headers: partner.headers });
    expect(del.statusCode, del.body).toBe(204);
    await runDueReports(ctx.runtime);
    const failed = (await get(partner, BY_CUSTOMER(customer, id))).json<StatementReportJson>();
    expect(failed).toMatchObject({ status: 'failure', errors: [{ code: '16001' }] });
    expect(failed.assetId).toBeUndefined();
  });
});
