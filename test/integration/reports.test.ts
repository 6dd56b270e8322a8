import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectReports } from '../../src/modules/reports/repository.js';
import { runDueReports, startReportWorker } from '../../src/modules/reports/worker.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { DAY, linkProfile, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { createConsumer } from '../helpers/consumers.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { dashboardSignIn } from '../helpers/dashboard.js';
import { addCustomer } from '../helpers/customers.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';
import { pdfText } from '../helpers/pdf-text.js';

interface ReportJson {
  id: string;
  portfolioId: string;
  customerId: number;
  consumerId: string;
  requesterName: string;
  type: string;
  status: string;
  title: string;
  createdDate: number;
  constraints: Record<string, unknown>;
  errors?: { code: string; message: string }[];
  startDate?: number;
  endDate?: number;
  days?: number;
  seasoned?: boolean;
  consolidatedAvailableBalance?: number;
  assets?: Record<string, number>;
  income?: unknown[];
  institutions?: {
    id: number;
    name: string;
    accounts: (Record<string, unknown> & {
      id: number;
      type: string;
      balance: number;
      availableBalance: number;
      transactions: { id: number; amount: number; postedDate: number; description: string; category?: string }[];
      asset?: Record<string, number>;
    })[];
  }[];
}

const GENERATE = (customerId: string, path: string, query = '') => `/decisioning/v2/customers/${customerId}/${path}${query}`;
const BY_CUSTOMER = (customerId: string, reportId: string) => `/decisioning/v3/customers/${customerId}/reports/${reportId}`;

/** The mean of the daily balances over [fromDay, toDay], each day the latest known on or before it (docs/reports.md). */
function averageDaily(history: { date: string; balance: number }[], fromDay: string, toDay: string): number {
  let sum = 0;
  let days = 0;
  let current: number | undefined;
  let i = 0;
  const sorted = [...history].sort((a, b) => a.date.localeCompare(b.date));
  for (let t = Date.parse(`${fromDay}T00:00:00Z`); t <= Date.parse(`${toDay}T00:00:00Z`); t += DAY * 1000) {
    const day = new Date(t).toISOString().slice(0, 10);
    while (i < sorted.length && sorted[i]!.date <= day) current = sorted[i++]!.balance;
    if (current === undefined) continue;
    sum += current;
    days += 1;
  }
  return Math.round((sum / days) * 100) / 100;
}

const dayOf = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);

describe('reports', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let listener: Listener;
  let customerId: string;
  let consumerId: string;
  let accounts: AccountJson[];

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    listener = await startListener();
    customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_01');
    accounts = await refresh(ctx, partner, customerId);
    consumerId = await createConsumer(ctx, partner, customerId);
  }, 120_000);
  afterAll(async () => {
    await listener?.close();
    await ctx?.close();
  });

  const call = (who: TestPartner, method: 'GET' | 'POST', url: string, options: { accept?: string; payload?: object } = {}) =>
    ctx.app.inject({
      method,
      url,
      headers: { ...who.headers, accept: options.accept ?? 'application/json', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'POST' ? { payload: JSON.stringify(options.payload ?? {}) } : {}),
    });
  const generate = async (path: string, payload: object = {}, query = '', who = partner, customer = customerId): Promise<ReportJson> => {
    const res = await call(who, 'POST', GENERATE(customer, path, query), { payload });
    expect(res.statusCode, res.body).toBe(202);
    return res.json<ReportJson>();
  };
  const read = async (reportId: string, who = partner): Promise<ReportJson> => {
    const res = await call(who, 'GET', BY_CUSTOMER(customerId, reportId));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ReportJson>();
  };
  const refused = async (res: { statusCode: number; body: string }, status: number, code: string) => {
    expect([res.statusCode, JSON.parse(res.body).code], res.body).toEqual([status, code]);
  };

  it('generates a VOA in progress, computes it on the worker, and delivers the callback through the outbox', async () => {
    const ack = await generate(
      'voa',
      { showNsf: true, reportCustomFields: [{ label: 'loanID', value: '12345', shown: true }] },
      `?callbackUrl=${encodeURIComponent(listener.url)}`,
    );
    expect(ack).toMatchObject({ type: 'voa', status: 'inProgress', customerId: Number(customerId), consumerId, customerType: 'testing' });
    expect(ack.id).toMatch(/^[a-z0-9]{12}-voa$/);
    expect(ack.portfolioId).toMatch(/^[a-z0-9]{12}-1-port$/);
    expect(ack.constraints).toEqual({ showNsf: true, reportCustomFields: [{ label: 'loanID', value: '12345', shown: true }] });
    expect((await read(ack.id)).status).toBe('inProgress');

    expect(await runDueReports(ctx.runtime)).toBe(1);
    const report = await read(ack.id);
    expect(report.status).toBe('success');
    expect(report.portfolioId).toBe(ack.portfolioId);
    const eligible = accounts.filter((a) => ['checking', 'savings'].includes(a.type));
    expect(report.institutions!.flatMap((i) => i.accounts.map((a) => a.id)).sort()).toEqual(eligible.map((a) => Number(a.id)).sort());

    await drainDeliveries(ctx.runtime);
    const hook = listener.requests.find((r) => JSON.parse(r.body).payload?.reportId === ack.id);
    expect(hook, 'the report webhook').toBeDefined();
    expect(JSON.parse(hook!.body)).toMatchObject({
      customerId,
      eventType: 'done',
      payload: { reportId: ack.id, portfolioId: ack.portfolioId, consumerId, type: 'voa', status: 'success' },
    });
    expect(hook!.headers['webhook-signature']).toMatch(/^v1,/);
    // Nothing left to compute.
    expect(await runDueReports(ctx.runtime)).toBe(0);
  });

  it('computes the VOA figures from the aggregated balances and transactions (the worked example of docs/reports.md)', async () => {
    const checking = accounts.find((a) => a.type === 'checking')!;
    // An insufficient funds fee today, for the NSF counts.
    const fee = await call(partner, 'POST', `/aggregation/v1/customers/${customerId}/accounts/${checking.id}/transactions`, {
      payload: { amount: -35, description: 'NSF FEE RETURNED ITEM', transactionDate: nowOf(ctx) },
    });
    expect(fee.statusCode, fee.body).toBe(201);
    const ack = await generate('voa', { showNsf: true });
    await runDueReports(ctx.runtime);
    const report = await read(ack.id);
    const account = report.institutions!.flatMap((i) => i.accounts).find((a) => a.id === Number(checking.id))!;
    const now = nowOf(ctx);

    const history = await call(
      partner,
      'GET',
      `/aggregation/v1/customers/${customerId}/accounts/${checking.id}/balances/history?fromDate=${now - 400 * DAY}&toDate=${now}`,
    );
    const balances = history.json<{ balances: { date: string; balance: number }[] }>().balances;
    expect(balances.length).toBeGreaterThan(60);
    expect(account.asset!.twoMonthAverage).toBe(averageDaily(balances, dayOf(now - 60 * DAY), dayOf(now)));
    expect(account.asset!.sixMonthAverage).toBe(averageDaily(balances, dayOf(now - 181 * DAY), dayOf(now)));
    expect(account.asset!.currentBalance).toBe(account.balance);
    expect(account.totNumberInsufficientFundsFeeDebitTxAccount).toBe(1);
    expect(account.totNumberInsufficientFundsFeeDebitTxOver2MonthsAccount).toBe(1);
    expect(account.totNumberDaysSinceMostRecentInsufficientFundsFeeDebitTxAccount).toBe(0);
    expect(account.transactions.some((t) => t.description === 'NSF FEE RETURNED ITEM' && t.amount === -35)).toBe(true);
    // Twelve months of transactions, oldest first; the report's dates are its first and last transactions'.
    const dates = account.transactions.map((t) => t.postedDate);
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(Math.min(...dates)).toBeGreaterThanOrEqual(now - 365 * DAY);
    expect(report.endDate).toBe(Math.max(...report.institutions!.flatMap((i) => i.accounts.flatMap((a) => a.transactions.map((t) => t.postedDate)))));
    expect(report.seasoned).toBe(report.days! > 180);
    expect(report.days).toBe(Math.round((report.endDate! - report.startDate!) / DAY));
    const all = report.institutions!.flatMap((i) => i.accounts);
    const sum = (values: number[]) => Math.round(values.reduce((s, v) => s + v, 0) * 100) / 100;
    expect(report.consolidatedAvailableBalance).toBe(sum(all.map((a) => a.availableBalance)));
    expect(report.assets!.twoMonthAverage).toBe(sum(all.map((a) => a.asset!.twoMonthAverage!)));
  });

  it('lists the reports of the customer and of the consumer, newest first', async () => {
    ctx.clock.advance(60_000);
    const latest = await generate('assetSummary');
    for (const url of [`/decisioning/v1/customers/${customerId}/reports`, `/decisioning/v1/consumers/${consumerId}/reports`]) {
      const res = await call(partner, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      const { reports } = res.json<{ reports: { id: string; type: string; status: string; consumerId: string }[] }>();
      expect(reports[0]).toMatchObject({ id: latest.id, type: 'assetSummary', status: 'inProgress', consumerId });
      expect(reports.filter((r) => r.type === 'voa').every((r) => r.status === 'success')).toBe(true);
    }
    await runDueReports(ctx.runtime);
    // A list reads the reports' rows without their bodies, which can be megabytes each.
    const listed = await selectReports(ctx.runtime.database.kysely, partner.partnerId, { consumerId });
    expect(listed.length).toBeGreaterThan(1);
    expect(listed.filter((row) => 'body_encrypted' in row)).toEqual([]);
    const byConsumer = await call(partner, 'GET', `/decisioning/v3/consumers/${consumerId}/reports/${latest.id}`);
    expect(byConsumer.json<ReportJson>()).toMatchObject({ id: latest.id, status: 'success' });
    const prequal = byConsumer.json<ReportJson>().institutions!.flatMap((i) => i.accounts);
    expect(prequal.every((a) => a.transactions.length === 0)).toBe(true);
    expect(prequal.find((a) => a.type === 'checking')).toHaveProperty('totNumberInsufficientFundsFeeDebitTxOver6MonthsAccount', 1);
  });

  it('starts a report as soon as it is asked for, not at the next poll of the worker', async () => {
    // A worker that would otherwise look again only after a minute.
    const worker = startReportWorker({ ...ctx.runtime, config: { ...ctx.runtime.config, workerPollMs: 60_000 } });
    try {
      // The first report may be found by the worker's first pass; the second comes while it waits for its next.
      for (const path of ['voa', 'voa']) {
        const report = await generate(path);
        await waitFor(`report ${report.id} to finish`, async () => (await read(report.id)).status === 'success');
      }
    } finally {
      await worker.stop();
    }
  });

  it('keeps reports to their partner: another partner gets 404 on every read', async () => {
    const ack = await generate('preQualVoa');
    const strangerCustomer = await addCustomer(ctx, stranger);
    for (const [method, url] of [
      ['GET', BY_CUSTOMER(customerId, ack.id)],
      ['GET', BY_CUSTOMER(strangerCustomer, ack.id)],
      ['GET', `/decisioning/v3/consumers/${consumerId}/reports/${ack.id}`],
      ['POST', `/decisioning/v3/reports/${ack.id}`],
      ['POST', `/decisioning/v1/reports/${ack.id}/partners`],
      ['GET', `/decisioning/v1/customers/${customerId}/reports`],
      ['GET', `/decisioning/v1/consumers/${consumerId}/reports`],
    ] as const)
      await refused(await call(stranger, method, url), 404, '14001');
    // The owner reads it by id alone, and reissues it.
    expect((await call(partner, 'POST', `/decisioning/v3/reports/${ack.id}?purpose=31`)).json<ReportJson>().id).toBe(ack.id);
    expect((await call(partner, 'POST', `/decisioning/v1/reports/${ack.id}/partners`, { payload: { purpose: '31' } })).json<ReportJson>().id).toBe(ack.id);
    await refused(await call(partner, 'POST', `/decisioning/v3/reports/${ack.id}?purpose=abc`), 400, '16003');
    // A report of another customer of the same partner is not found under this one.
    const other = await addCustomer(ctx, partner);
    await refused(await call(partner, 'GET', BY_CUSTOMER(other, ack.id)), 404, '14001');
    await runDueReports(ctx.runtime);
  });

  it('refuses what the reference refuses: no consumer, no eligible account, bad dates and account ids', async () => {
    const bare = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, bare, 'student');
    await refused(await call(partner, 'POST', GENERATE(bare, 'voa')), 400, '16000');
    await createConsumer(ctx, partner, bare);
    await refused(await call(partner, 'POST', GENERATE(bare, 'voa')), 400, '16001');
    await refused(await call(partner, 'POST', GENERATE(customerId, 'voa'), { payload: { fromDate: nowOf(ctx) + 10 * DAY } }), 400, '16002');
    await refused(await call(partner, 'POST', GENERATE(customerId, 'voa'), { payload: { accountIds: '12 x' } }), 400, '10010');
    await refused(await call(partner, 'POST', GENERATE(customerId, 'voa'), { payload: { accountIds: '999999' } }), 400, '10010');
    await refused(await call(partner, 'POST', GENERATE(customerId, 'transactions')), 400, '10005');
    const now = nowOf(ctx);
    await refused(await call(partner, 'POST', GENERATE(customerId, 'transactions', `?fromDate=${now - 800 * DAY}&toDate=${now}`)), 400, '16002');
    await refused(await call(partner, 'POST', GENERATE(customerId, 'voa', '?callbackUrl=ftp://example.com/x')), 400, '10010');
    await refused(await call(stranger, 'POST', GENERATE(customerId, 'voa')), 404, '14001');
  });

  it('fails a report whose accounts are gone when it is computed, and says so in the webhook', async () => {
    const customer = await addCustomer(ctx, partner);
    const linked = await linkProfile(ctx, partner, customer, 'profile_01');
    await createConsumer(ctx, partner, customer);
    const ack = await generate('voaHistory', {}, `?callbackUrl=${encodeURIComponent(listener.url)}`, partner, customer);
    for (const a of linked) {
      const res = await call(partner, 'GET', `/aggregation/v1/customers/${customer}/accounts/${a.id}`);
      expect(res.statusCode).toBe(200);
      const del = await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customer}/accounts/${a.id}`, headers: partner.headers });
      expect(del.statusCode, del.body).toBe(204);
    }
    await runDueReports(ctx.runtime);
    const res = await call(partner, 'GET', BY_CUSTOMER(customer, ack.id));
    expect(res.json<ReportJson>()).toMatchObject({ status: 'failure', errors: [{ code: '16001' }] });
    await drainDeliveries(ctx.runtime);
    const hook = listener.requests.map((r) => JSON.parse(r.body)).find((b) => b.payload?.reportId === ack.id);
    expect(hook).toMatchObject({ eventType: 'failed', payload: { status: 'failure', code: '16001' } });
  });

  it('generates the transactions report over fromDate to toDate, narrowed by findTransaction', async () => {
    const now = nowOf(ctx);
    const from = now - 90 * DAY;
    const ack = await generate(
      'transactions',
      { findTransaction: { findTransactionAmountFrom: 30, findTransactionAmountTo: 40 } },
      `?fromDate=${from}&toDate=${now}`,
    );
    expect(ack.constraints).toMatchObject({ fromDate: from, toDate: now, includePending: false });
    await runDueReports(ctx.runtime);
    const report = await read(ack.id);
    const listed = report.institutions!.flatMap((i) => i.accounts);
    expect(listed.map((a) => a.id).sort()).toEqual(accounts.map((a) => Number(a.id)).sort());
    for (const a of listed) {
      expect(a.transactionsCount).toBe(a.transactions.length);
      expect(a).not.toHaveProperty('ownerName');
      for (const t of a.transactions) {
        expect(Math.abs(t.amount)).toBeGreaterThanOrEqual(30);
        expect(Math.abs(t.amount)).toBeLessThanOrEqual(40);
        expect(t.postedDate).toBeGreaterThanOrEqual(from);
      }
      const dates = a.transactions.map((t) => t.postedDate);
      expect(dates).toEqual([...dates].sort((x, y) => y - x));
    }
    expect(listed.some((a) => a.transactions.some((t) => t.description === 'NSF FEE RETURNED ITEM'))).toBe(true);
  });

  it('answers a report in XML and as a PDF holding its text', async () => {
    const ack = await generate('voa', { reportCustomFields: [{ label: 'loanID', value: 'L-778', shown: true }] });
    const pending = await call(partner, 'GET', BY_CUSTOMER(customerId, ack.id), { accept: 'application/pdf' });
    expect(pending.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(pending.rawPayload)).toContain('still being generated');
    await runDueReports(ctx.runtime);
    const report = await read(ack.id);

    const xml = await call(partner, 'GET', BY_CUSTOMER(customerId, ack.id), { accept: 'application/xml' });
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-type']).toMatch(/^application\/xml/);
    const parsed = new XMLParser({ parseTagValue: false }).parse(xml.body).report;
    expect(parsed).toMatchObject({ id: ack.id, status: 'success', type: 'voa', consolidatedAvailableBalance: String(report.consolidatedAvailableBalance) });

    const pdf = await call(partner, 'GET', BY_CUSTOMER(customerId, ack.id), { accept: 'application/pdf' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Verification of Assets');
    expect(text).toContain(ack.id);
    expect(text).toContain('loanID: L-778');
    expect(text).toContain('JOHN DOE');
    const checking = report.institutions!.flatMap((i) => i.accounts).find((a) => a.type === 'checking')!;
    expect(text).toContain(checking.balance.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
    expect(text).toContain(checking.transactions.at(-1)!.description);
    // Neither PDF, JSON nor XML: 406.
    await refused(await call(partner, 'GET', BY_CUSTOMER(customerId, ack.id), { accept: 'text/csv' }), 406, '10043');
  });

  it("lists the customer's reports on the dashboard, with the PDF and JSON of each", async () => {
    const browser = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
    const list = await browser.call('GET', `/dashboard/api/customers/${customerId}/reports`);
    expect(list.statusCode, list.body).toBe(200);
    const { reports } = list.json<{ reports: { id: string; status: string; type: string }[] }>();
    const api = (await call(partner, 'GET', `/decisioning/v1/customers/${customerId}/reports`)).json<{ reports: { id: string }[] }>().reports;
    expect(reports.map((r) => r.id)).toEqual(api.map((r) => r.id));
    const done = reports.find((r) => r.status === 'success')!;
    const json = await browser.call('GET', `/dashboard/api/customers/${customerId}/reports/${done.id}?format=json`);
    expect(json.json<ReportJson>()).toMatchObject({ id: done.id, status: 'success' });
    const pdf = await browser.call('GET', `/dashboard/api/customers/${customerId}/reports/${done.id}?format=pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(pdf.rawPayload)).toContain(done.id);
    // Another partner's dashboard does not find them.
    const other = await dashboardSignIn(ctx, stranger.partnerId, stranger.partnerSecret);
    expect((await other.call('GET', `/dashboard/api/customers/${customerId}/reports`)).statusCode).toBe(404);
    expect((await other.call('GET', `/dashboard/api/customers/${customerId}/reports/${done.id}?format=pdf`)).statusCode).toBe(404);
  });
});
