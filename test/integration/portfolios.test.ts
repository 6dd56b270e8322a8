import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueReports } from '../../src/modules/reports/worker.js';
import { DAY, linkProfile, nowOf, refresh } from '../helpers/aggregation.js';
import { createConsumer } from '../helpers/consumers.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

interface PortfolioJson {
  portfolioId: string;
  consumer?: Record<string, unknown>;
  reports: { id: string; portfolioId: string; type: string; status: string; createdDate: number }[];
}

const BY_CUSTOMER = (customerId: string, portfolioId: string) => `/decisioning/v1/customers/${customerId}/portfolios/${portfolioId}`;
const BY_CONSUMER = (consumerId: string, portfolioId: string) => `/decisioning/v1/consumers/${consumerId}/portfolios/${portfolioId}`;
const BY_ID = (portfolioId: string) => `/decisioning/v1/portfolios/${portfolioId}`;
/** Seconds between the reports generated: less than a token lives. */
const STEP = 600;

describe('portfolios', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let customerId: string;
  let consumerId: string;
  /** The reports generated, oldest first. */
  const generated: { id: string; type: string; portfolioId: string }[] = [];

  const post = (who: TestPartner, url: string, payload = '{}') =>
    ctx.app.inject({ method: 'POST', url, headers: { ...who.headers, accept: 'application/json', 'content-type': 'application/json' }, payload });
  const get = (who: TestPartner, url: string, accept = 'application/json') => ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });
  const refused = (res: { statusCode: number; body: string }, status: number, code: string) =>
    expect([res.statusCode, JSON.parse(res.body).code], res.body).toEqual([status, code]);
  const generate = async (customer: string, path: string, payload = '{}') => {
    const res = await post(partner, `/decisioning/v2/customers/${customer}/${path}`, payload);
    expect(res.statusCode, res.body).toBe(202);
    const ack = res.json<{ id: string; type: string; portfolioId: string }>();
    return ack;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_01');
    await refresh(ctx, partner, customerId);
    consumerId = await createConsumer(ctx, partner, customerId);
    // Two VOAs a STEP apart (the second is the latest of its type), then a transactions report left in progress.
    generated.push(await generate(customerId, 'voa'));
    ctx.clock.advance(STEP * 1000);
    generated.push(await generate(customerId, 'voa'));
    await runDueReports(ctx.runtime);
    ctx.clock.advance(STEP * 1000);
    generated.push(await generate(customerId, `transactions?fromDate=${nowOf(ctx) - 30 * DAY}`));
  }, 120_000);
  afterAll(() => ctx?.close());

  it("answers the customer's portfolio: the latest report of each type, newest first, under the id every report carries", async () => {
    const portfolioId = generated[0]!.portfolioId;
    expect(generated.every((r) => r.portfolioId === portfolioId)).toBe(true);
    const res = await get(partner, BY_CUSTOMER(customerId, portfolioId));
    expect(res.statusCode, res.body).toBe(200);
    const portfolio = res.json<PortfolioJson>();
    expect(portfolio.portfolioId).toBe(portfolioId);
    expect(portfolio.reports.map((r) => [r.id, r.type, r.status, r.portfolioId])).toEqual([
      [generated[2]!.id, 'transactions', 'inProgress', portfolioId],
      [generated[1]!.id, 'voa', 'success', portfolioId],
    ]);
    expect(portfolio.reports[0]!.createdDate - portfolio.reports[1]!.createdDate).toBe(STEP);
    // Without its version, the id asks for the latest: the same portfolio.
    const unversioned = portfolioId.replace('-1-port', '-port');
    expect((await get(partner, BY_CUSTOMER(customerId, unversioned))).json<PortfolioJson>()).toEqual(portfolio);
  });

  it('answers it by consumer with the consumer, and by id with the consumer as Get Consumer does, in JSON and XML', async () => {
    const portfolioId = generated[0]!.portfolioId;
    const byConsumer = await get(partner, BY_CONSUMER(consumerId, portfolioId));
    expect(byConsumer.statusCode, byConsumer.body).toBe(200);
    const withConsumer = byConsumer.json<PortfolioJson>();
    expect(withConsumer.consumer).toEqual({
      id: consumerId,
      firstName: 'John',
      lastName: 'Doe',
      customerId: Number(customerId),
      ssn: '8989',
      birthday: { year: 1989, month: 12, dayOfMonth: 13 },
      suffix: 'PhD',
    });
    expect(withConsumer.reports.map((r) => r.id)).toEqual([generated[2]!.id, generated[1]!.id]);

    const byId = await get(partner, BY_ID(portfolioId));
    expect(byId.statusCode, byId.body).toBe(200);
    const consumer = (await get(partner, `/decisioning/v1/consumers/${consumerId}`)).json();
    expect(byId.json<PortfolioJson>()).toEqual({ portfolioId, consumer, reports: withConsumer.reports });

    const xml = await get(partner, BY_ID(portfolioId), 'application/xml');
    expect(xml.statusCode).toBe(200);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'reports' }).parse(xml.body) as {
      portfolio: { portfolioId: string; consumer: { id: string }; reports: { id: string }[] };
    };
    expect(parsed.portfolio.portfolioId).toBe(portfolioId);
    expect(parsed.portfolio.consumer.id).toBe(consumerId);
    expect(parsed.portfolio.reports.map((r) => r.id)).toEqual([generated[2]!.id, generated[1]!.id]);
  });

  it("answers 404 for another customer's, consumer's or partner's portfolio, a version never given, and a customer without reports", async () => {
    const portfolioId = generated[0]!.portfolioId;
    const other = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, other, 'profile_01');
    const otherConsumer = await createConsumer(ctx, partner, other);
    refused(await get(partner, BY_CUSTOMER(other, portfolioId)), 404, '16701');
    refused(await get(partner, BY_CONSUMER(otherConsumer, portfolioId)), 404, '16701');
    refused(await get(partner, BY_CUSTOMER(customerId, portfolioId.replace('-1-port', '-2-port'))), 404, '16701');
    refused(await get(partner, BY_ID('abcdefabcdef-1-port')), 404, '16701');
    // The other customer's own portfolio exists once it has a report.
    const ack = await generate(other, 'voa');
    expect(ack.portfolioId).not.toBe(portfolioId);
    expect((await get(partner, BY_CUSTOMER(other, ack.portfolioId))).json<PortfolioJson>().reports.map((r) => r.id)).toEqual([ack.id]);

    refused(await get(stranger, BY_ID(portfolioId)), 404, '16701');
    refused(await get(stranger, BY_CUSTOMER(customerId, portfolioId)), 404, '14001');
    refused(await get(stranger, BY_CONSUMER(consumerId, portfolioId)), 404, '14001');
    const xml = await get(stranger, BY_ID(portfolioId), 'application/xml');
    expect(xml.statusCode).toBe(404);
    expect(xml.body).toContain('<code>16701</code>');
  });

  it('refuses a malformed portfolio id with 400', async () => {
    for (const bad of ['nothing', 'ABCDEFABCDEF-1-port', 'abcdefabcdef-x-port', 'abcdefabcdef-1-port-1', 'abcdefabcde-port']) {
      refused(await get(partner, BY_ID(bad)), 400, '16700');
      refused(await get(partner, BY_CUSTOMER(customerId, bad)), 400, '16700');
      refused(await get(partner, BY_CONSUMER(consumerId, bad)), 400, '16700');
    }
  });
});
