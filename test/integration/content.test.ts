import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { createTestContext, partnerWithToken, type TestContext } from '../helpers/context.js';

const AUTH = '/aggregation/v2/partners/authentication';
const xml = new XMLParser({ parseTagValue: false });

describe('content negotiation, XML and errors', () => {
  let ctx: TestContext;
  let creds: PartnerCredentials;

  beforeAll(async () => {
    ctx = await createTestContext();
    creds = await createPartner(ctx.runtime, { name: 'Acme' });
  });
  afterAll(() => ctx.close());

  const post = (payload: string, contentType: string, accept = 'application/json', url = AUTH) =>
    ctx.app.inject({ method: 'POST', url, headers: { 'service-app-key': creds.appKey, 'content-type': contentType, accept }, payload });

  it('reads an XML body and answers XML when asked', async () => {
    const body = `<?xml version="1.0"?><credentials><partnerId>${creds.partnerId}</partnerId><partnerSecret>${creds.partnerSecret}</partnerSecret></credentials>`;
    const res = await post(body, 'application/xml', 'application/xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?><access><token>[A-Za-z0-9]{20}<\/token><\/access>$/);
  });

  it('reads JSON and answers XML, reads XML and answers JSON', async () => {
    const json = JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret });
    const a = await post(json, 'application/json', 'application/xml');
    expect(xml.parse(a.body).access.token).toMatch(/^[A-Za-z0-9]{20}$/);
    const b = await post(
      `<credentials><partnerId>${creds.partnerId}</partnerId><partnerSecret>${creds.partnerSecret}</partnerSecret></credentials>`,
      'text/xml; charset=utf-8',
      'application/json',
    );
    expect(b.json().token).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('accepts numeric partnerId values and ignores unknown extra fields', async () => {
    const res = await post(
      JSON.stringify({ partnerId: Number(creds.partnerId), partnerSecret: creds.partnerSecret, clientVersion: '1.2', extra: { nested: true } }),
      'application/json',
    );
    expect(res.statusCode).toBe(200);
    const x = await post(
      `<credentials><partnerId>${creds.partnerId}</partnerId><partnerSecret>${creds.partnerSecret}</partnerSecret><unknown><deep>1</deep></unknown></credentials>`,
      'application/xml',
    );
    expect(x.statusCode).toBe(200);
  });

  it("renders errors in the caller's format", async () => {
    const res = await post('<credentials><partnerId>1</partnerId></credentials>', 'application/xml', 'application/xml');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(xml.parse(res.body)).toEqual({ '?xml': '', error: { code: '10005', message: 'Missing parameter (partnerSecret)' } });
  });

  it('refuses an XML entity bomb with 400 code 10044 and stays up', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><credentials><partnerId>&lol3;</partnerId><partnerSecret>x</partnerSecret></credentials>`;
    const res = await post(bomb, 'application/xml', 'application/xml');
    expect(res.statusCode).toBe(400);
    expect(xml.parse(res.body).error.code).toBe('10044');
    const ext = await post('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><credentials><partnerId>&e;</partnerId></credentials>', 'application/xml');
    expect(ext.json().code).toBe('10044');
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('refuses XML nested deeper than 32 levels (code 10045)', async () => {
    const deep = '<a>'.repeat(10_000) + '</a>'.repeat(10_000);
    const res = await post(deep, 'application/xml');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('10045');
  });

  it.each([
    ['truncated JSON', '{"partnerId": "1', 'application/json'],
    ['JSON array', '[1,2,3]', 'application/json'],
    ['JSON string', '"hello"', 'application/json'],
    ['unclosed XML', '<credentials><partnerId>1</partnerId>', 'application/xml'],
    ['two XML roots', '<a>1</a><b>2</b>', 'application/xml'],
    ['not XML at all', 'partnerId=1', 'application/xml'],
  ])('answers 400 with code 10040 to %s', async (_name, payload, type) => {
    const res = await post(payload, type);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('10040');
  });

  it('answers 400 with code 10005 to an empty body where one is required', async () => {
    const res = await post('', 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('10005');
  });

  it('answers 400 with code 10010 to wrong types', async () => {
    const res = await post(JSON.stringify({ partnerId: { a: 1 }, partnerSecret: 'x' }), 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '10010' });
    expect(res.json().message).toContain('partnerId');
  });

  it('treats a blank required field as missing (code 10005)', async () => {
    const res = await post(JSON.stringify({ partnerId: '   ', partnerSecret: 'x' }), 'application/json');
    expect(res.json()).toEqual({ code: '10005', message: 'Missing parameter (partnerId)' });
  });

  it('answers 415 with code 10041 to other content types', async () => {
    const res = await post('partnerId=1&partnerSecret=2', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('10041');
    expect(res.json().message).toContain('application/x-www-form-urlencoded');
  });

  it('answers 413 with code 10042 to oversized bodies', async () => {
    const res = await post(JSON.stringify({ partnerId: 'x'.repeat(2 * 1024 * 1024), partnerSecret: 'y' }), 'application/json');
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('10042');
  });

  it.each(['text/html', 'application/pdf', 'application/json;q=0, application/xml;q=0'])('answers 406 in JSON to Accept %s', async (accept) => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health', headers: { accept } });
    expect(res.statusCode).toBe(406);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().code).toBe('10043');
  });

  it.each([
    [undefined, 'json'],
    ['*/*', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['application/xml, */*', 'xml'],
    ['application/json;q=0.5, application/xml', 'xml'],
    ['text/html, application/json', 'json'],
  ])('negotiates Accept %s as %s', async (accept, format) => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health', headers: accept ? { accept } : {} });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(format === 'xml' ? /^application\/xml/ : /^application\/json/);
  });

  it('answers unknown routes with 404 code 10404 in JSON and XML', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/nope/v9/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: '10404', message: 'Route not found: GET /nope/v9/nothing' });
    const x = await ctx.app.inject({ method: 'DELETE', url: '/nope', headers: { accept: 'application/xml' } });
    expect(x.statusCode).toBe(404);
    expect(xml.parse(x.body).error.code).toBe('10404');
  });

  it('renders the authenticated partner in XML from the same schema', async () => {
    const p = await partnerWithToken(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me', headers: { ...p.headers, accept: 'application/xml' } });
    expect(res.statusCode).toBe(200);
    const doc = xml.parse(res.body);
    expect(doc.partner).toEqual({ partnerId: p.partnerId, name: 'Test partner', plan: 'testdrive', createdDate: expect.any(String) });
  });

  it('takes path and query integers only as plain decimal numbers (code 10010), never as 1e309, 0x10 or " 5"', async () => {
    const p = await partnerWithToken(ctx);
    const customer = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/customers/testing',
      headers: p.headers,
      payload: { username: 'integers', firstName: 'A', lastName: 'B' },
    });
    expect(customer.statusCode).toBe(201);
    const id = customer.json<{ id: string }>().id;
    for (const text of ['1e309', '-1e309', '1e3', '1.5', 'NaN', 'Infinity', '0x10', '%205', '99999999999999999999']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/aggregation/v1/customers/${id}/institutions/${text}/accounts`, headers: p.headers });
      expect(res.statusCode, text).toBe(400);
      expect(res.json().code, text).toBe('10010');
      const inst = await ctx.app.inject({ method: 'GET', url: `/institution/v2/institutions/${text}`, headers: { ...p.headers, accept: 'application/xml' } });
      expect(inst.statusCode, text).toBe(400);
      expect(xml.parse(inst.body).error.code, text).toBe('10010');
    }
    const search = await ctx.app.inject({ method: 'GET', url: '/institution/v2/institutions?start=1e309', headers: p.headers });
    expect(search.json().code).toBe('10010');
    const fine = await ctx.app.inject({ method: 'GET', url: `/aggregation/v1/customers/${id}/institutions/102105/accounts`, headers: p.headers });
    expect(fine.statusCode).toBe(200);
  });
});
