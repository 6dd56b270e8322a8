import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

/** `levels` objects inside one another, the innermost holding 1. */
const nestedObject = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};
/** The same as text, since JSON.stringify itself cannot write 5,000 levels. */
const nestedText = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('the JSON nesting limit on request bodies', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let customerId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url, headers: { ...partner.headers, 'content-type': 'application/json', ...headers }, payload });
  const generateBody = (webhookData: string) => `{"partnerId":"${partner.partnerId}","customerId":"${customerId}","webhookData":${webhookData}}`;
  const sandboxWebhook = () => `/sandbox/v1/customers/${customerId}/webhooks/connect`;

  it('refuses 5,000 levels in webhookData, a sandbox webhook payload and any other body with 400 code 10048, not 500', async () => {
    const bodies: [string, string][] = [
      ['/connect/v2/generate', generateBody(nestedText(5000))],
      [sandboxWebhook(), `{"eventType":"done","webhook":"https://hooks.example/x","payload":${nestedText(5000)}}`],
      ['/aggregation/v2/partners/authentication', `{"partnerId":"1","partnerSecret":"x","extra":${nestedText(5000)}}`],
      ['/aggregation/v2/customers/testing', '['.repeat(5000) + ']'.repeat(5000)],
    ];
    for (const [url, payload] of bodies) {
      const res = await post(url, payload);
      expect([res.statusCode, res.json()], url).toEqual([400, { code: '10048', message: 'JSON nested deeper than 32 levels' }]);
    }
    expect(await ctx.runtime.database.kysely.selectFrom('deliveries').select('id').execute()).toHaveLength(0);
  });

  it('counts the body itself as level 1: 32 levels pass, 33 are refused', async () => {
    // The body is level 1, so webhookData may nest 31 levels.
    const ok = await post('/connect/v2/generate', generateBody(JSON.stringify(nestedObject(31))));
    expect(ok.statusCode, ok.body).toBe(200);
    const deep = await post('/connect/v2/generate', generateBody(JSON.stringify(nestedObject(32))));
    expect([deep.statusCode, deep.json().code]).toEqual([400, '10048']);
  });

  it('is not fooled by brackets inside strings, escaped quotes included', async () => {
    const webhookData = JSON.stringify({ note: '\\"' + '['.repeat(3000), other: '{"a":'.repeat(500) });
    const res = await post('/connect/v2/generate', generateBody(webhookData));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('applies to every JSON media type, and answers in XML when asked', async () => {
    const res = await post(sandboxWebhook(), `{"eventType":"done","payload":${nestedText(40)}}`, {
      'content-type': 'application/vnd.partner+json; charset=utf-8',
      accept: 'application/xml',
    });
    expect(res.statusCode).toBe(400);
    expect(new XMLParser({ parseTagValue: false }).parse(res.body).error.code).toBe('10048');
  });
});
