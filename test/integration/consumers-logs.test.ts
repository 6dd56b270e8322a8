import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactedLogger } from '../../src/platform/logger.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { CONSUMER, consumerBody, customerConsumerUrl } from '../helpers/consumers.js';

/** An SSN and a birthday that show in no id, date or size the logs hold. */
const SSN = '246-81-3579';
const BIRTHDAY = { year: 1947, month: 11, dayOfMonth: 23 };
const NEW_SSN = '975318642';

/**
 * Every form a consumer's SSN or birthday could take in a log: the full numbers, the last four as answered, the year
 * as a field or a date. The year alone is not searched for: four digits turn up in times, durations and random ids.
 */
const SECRETS = [
  SSN,
  SSN.replace(/-/g, ''),
  '"3579"',
  '>3579<',
  NEW_SSN,
  '"8642"',
  '>8642<',
  '"year":1947',
  '>1947<',
  '1947-11-23',
  '"dayOfMonth"',
  '<dayOfMonth>',
];

describe('consumers in the logs', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let logs = '';

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs += String(chunk);
        done();
      },
    });
    ctx = await createTestContext({}, { logger: redactedLogger('trace', sink) });
    partner = await partnerWithToken(ctx);
    const json = { ...partner.headers, 'content-type': 'application/json' };
    const xml = { ...partner.headers, 'content-type': 'application/xml', accept: 'application/xml' };

    const first = await addCustomer(ctx, partner);
    const created = await ctx.app.inject({
      method: 'POST',
      url: customerConsumerUrl(first),
      headers: json,
      payload: JSON.stringify({ ...consumerBody(), ssn: SSN, birthday: BIRTHDAY }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect((await ctx.app.inject({ method: 'GET', url: `${CONSUMER}/${id}`, headers: partner.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `${CONSUMER}/${id}`, headers: xml })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: customerConsumerUrl(first), headers: partner.headers })).statusCode).toBe(200);
    const modified = await ctx.app.inject({ method: 'PUT', url: `${CONSUMER}/${id}`, headers: json, payload: JSON.stringify({ ssn: NEW_SSN }) });
    expect(modified.statusCode).toBe(204);
    // Refused bodies are logged too: a duplicate, a bad format, and an SSN of the wrong type.
    for (const body of [
      { ...consumerBody(), ssn: SSN },
      { ...consumerBody(), ssn: `${SSN}0` },
    ]) {
      const refused = await ctx.app.inject({ method: 'POST', url: customerConsumerUrl(first), headers: json, payload: JSON.stringify(body) });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    }
    const second = await addCustomer(ctx, partner);
    const typed = await ctx.app.inject({
      method: 'POST',
      url: customerConsumerUrl(second),
      headers: json,
      payload: JSON.stringify({ ...consumerBody(), ssn: Number(SSN.replace(/-/g, '')) }),
    });
    expect(typed.statusCode).toBe(201);
    const inXml = await ctx.app.inject({
      method: 'POST',
      url: customerConsumerUrl(await addCustomer(ctx, partner)),
      headers: xml,
      payload: `<consumer><firstName>Ann</firstName><lastName>Lee</lastName><state>UT</state><ssn>${SSN}</ssn><birthday><year>1947</year><month>11</month><dayOfMonth>23</dayOfMonth></birthday><email>ann@example.com</email></consumer>`,
    });
    expect(inXml.statusCode, inXml.body).toBe(201);
    await ctx.app.requestLog.flush();
  });
  afterAll(() => ctx.close());

  it('keep no SSN and no birthday in the request log: requests and answers, JSON and XML, with [redacted] in their place', async () => {
    const rows = await ctx.runtime.database.kysely.selectFrom('request_log').selectAll().where('partner_id', '=', partner.partnerId).orderBy('id').execute();
    const consumerRows = rows.filter((r) => r.path.startsWith('/decisioning/'));
    expect(consumerRows.length).toBe(9);
    const stored = JSON.stringify(rows);
    for (const secret of SECRETS) expect(stored, secret).not.toContain(secret);
    // The first consumer created, in JSON (one was created in XML too).
    const created = consumerRows.find((r) => r.method === 'POST' && r.status === 201 && r.request_body?.startsWith('{'))!;
    expect(JSON.parse(created.request_body!)).toMatchObject({ firstName: 'John', ssn: '[redacted]', birthday: '[redacted]' });
    const read = consumerRows.find((r) => r.method === 'GET' && r.response_body?.startsWith('{'))!;
    expect(JSON.parse(read.response_body!)).toMatchObject({ firstName: 'John', ssn: '[redacted]', birthday: '[redacted]' });
    const readXml = consumerRows.find((r) => r.method === 'GET' && r.response_body?.startsWith('<'))!;
    expect(readXml.response_body).toContain('<ssn>[redacted]</ssn>');
    expect(readXml.response_body).toContain('<birthday>[redacted]</birthday>');
    const createdXml = consumerRows.find((r) => r.method === 'POST' && r.request_body?.startsWith('<'))!;
    expect(createdXml.request_body).toContain('<ssn>[redacted]</ssn>');
  });

  it('keep no SSN and no birthday in the server log, even at trace level', () => {
    expect(logs).toContain('/decisioning/v1/consumers/');
    for (const secret of SECRETS) expect(logs, secret).not.toContain(secret);
  });
});
