import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAY_STATEMENT_BYTES } from '../../src/modules/statements/pay-statements.rules.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

const STORE = (customerId: string) => `/aggregation/v1/customers/${customerId}/payStatements`;
const ASSET = (customerId: string, assetId: string) => `/aggregation/v1/customers/${customerId}/assets/${assetId}`;

/** A small PDF file's bytes: what its first bytes say is all the store reads of it. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\nACME PAYROLL net pay 2,240.00\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);

describe('pay statements', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;
  let customerId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, partner);
  }, 60_000);
  afterAll(() => ctx?.close());

  const store = (who: TestPartner, customer: string, payload: string, type = 'application/json', accept = 'application/json') =>
    ctx.app.inject({ method: 'POST', url: STORE(customer), headers: { ...who.headers, accept, 'content-type': type }, payload });
  const body = (statement: string, label = 'lastPayPeriod') => JSON.stringify({ label, statement });
  const get = (who: TestPartner, url: string, accept = 'application/json') => ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });
  const refused = (res: { statusCode: number; body: string }, status: number, code: string) =>
    expect([res.statusCode, JSON.parse(res.body).code], res.body).toEqual([status, code]);

  const chunks = (id: string) =>
    ctx.runtime.database.kysely.selectFrom('pay_statement_chunks').select(['seq', 'content']).where('pay_statement_id', '=', id).orderBy('seq').execute();

  it('stores a PDF pay statement sealed at rest and answers its asset id, which Get Asset answers byte for byte', async () => {
    const res = await store(partner, customerId, body(PDF.toString('base64')));
    expect(res.statusCode, res.body).toBe(200);
    const { assetId } = res.json<{ assetId: string }>();
    expect(assetId).toMatch(new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-${customerId}$`));

    const asset = await get(partner, ASSET(customerId, assetId));
    expect(asset.statusCode, asset.body).toBe(200);
    expect(asset.headers['content-type']).toBe('application/octet-stream');
    expect(asset.headers['content-disposition']).toBe(`attachment; filename="${assetId}.pdf"`);
    expect(Buffer.compare(asset.rawPayload, PDF)).toBe(0);

    const row = await ctx.runtime.database.kysely.selectFrom('pay_statements').selectAll().where('id', '=', assetId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ label: 'lastPayPeriod', media_type: 'application/pdf', customer_id: Number(customerId) });
    expect(Number(row.size)).toBe(PDF.length);
    const sealed = Buffer.concat((await chunks(assetId)).map((c) => Buffer.from(c.content)));
    expect(sealed.length).toBeGreaterThan(PDF.length);
    expect(sealed.includes(Buffer.from('ACME PAYROLL'))).toBe(false);
    expect(sealed.includes(Buffer.from('%PDF-'))).toBe(false);
  });

  it('keeps a document of several pieces (a turn each) and answers it byte for byte', async () => {
    const large = Buffer.concat([PDF, randomBytes(700 * 1024)]);
    const res = await store(partner, customerId, body(large.toString('base64')));
    expect(res.statusCode, res.body).toBe(200);
    const { assetId } = res.json<{ assetId: string }>();
    expect((await chunks(assetId)).map((c) => c.seq)).toEqual([0, 1, 2]);
    const asset = await get(partner, ASSET(customerId, assetId));
    expect(asset.statusCode, asset.body).toBe(200);
    expect(Buffer.compare(asset.rawPayload, large)).toBe(0);
  });

  it('stores JPEG and PNG files, Base64 with line breaks, and XML bodies', async () => {
    const wrapped = (PNG.toString('base64').match(/.{1,8}/g) ?? []).join('\r\n');
    const png = await store(partner, customerId, body(wrapped, 'earliestPayPeriod'));
    expect(png.statusCode, png.body).toBe(200);
    expect((await get(partner, ASSET(customerId, png.json<{ assetId: string }>().assetId))).headers['content-disposition']).toMatch(/\.png"$/);

    const jpeg = await store(
      partner,
      customerId,
      `<payStatement><label>lastPayPeriodMinusOne</label><statement>${JPEG.toString('base64')}</statement></payStatement>`,
      'application/xml',
      'application/xml',
    );
    expect(jpeg.statusCode, jpeg.body).toBe(200);
    const assetId = /<asset><assetId>([^<]+)<\/assetId><\/asset>/.exec(jpeg.body)?.[1];
    expect(assetId, jpeg.body).toBeDefined();
    const asset = await get(partner, ASSET(customerId, assetId!));
    expect(asset.headers['content-disposition']).toBe(`attachment; filename="${assetId}.jpg"`);
    expect(Buffer.compare(asset.rawPayload, JPEG)).toBe(0);
  });

  it('refuses an unknown label, text that is not Base64, a document that is no PDF, JPEG or PNG, and missing fields', async () => {
    const pdf = PDF.toString('base64');
    refused(await store(partner, customerId, body(pdf, 'lastMonth')), 400, '16710');
    for (const bad of ['not base64!', `${pdf}=`, `=${pdf}`, 'QUJD-RA==', 'QUJDR', `${pdf.slice(0, -2)} ${pdf.slice(-2)}`]) {
      refused(await store(partner, customerId, body(bad)), 400, '16711');
    }
    refused(await store(partner, customerId, body(Buffer.from('This must be an image').toString('base64'))), 400, '16712');
    refused(await store(partner, customerId, body(Buffer.from('<html>%PDF-</html>').toString('base64'))), 400, '16712');
    refused(await store(partner, customerId, JSON.stringify({ label: 'lastPayPeriod' })), 400, '10005');
    refused(await store(partner, customerId, JSON.stringify({ label: ' ', statement: pdf })), 400, '10005');
    refused(await store(partner, customerId, body(pdf), 'application/xml'), 400, '10040');
  });

  it('refuses a document over 5 MB with 400, and a body over the limit with 413, before storing anything', async () => {
    const before = await ctx.runtime.database.kysely
      .selectFrom('pay_statements')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const over = Buffer.alloc(MAX_PAY_STATEMENT_BYTES + 3, 0x20);
    PDF.copy(over);
    refused(await store(partner, customerId, body(over.toString('base64'))), 400, '16713');
    const huge = 'A'.repeat(8 * 1024 * 1024);
    refused(await store(partner, customerId, body(huge)), 413, '10042');
    const after = await ctx.runtime.database.kysely
      .selectFrom('pay_statements')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('keeps no document in the request log, only its size, also of a refused one', async () => {
    const customer = await addCustomer(ctx, partner);
    const pdf = PDF.toString('base64');
    expect((await store(partner, customer, body(pdf))).statusCode).toBe(200);
    expect((await store(partner, customer, body(pdf, 'lastMonth'))).statusCode).toBe(400);
    const xml = `<payStatement><label>lastPayPeriod</label><statement>${pdf}</statement></payStatement>`;
    expect((await store(partner, customer, xml, 'application/xml')).statusCode).toBe(200);
    await ctx.app.requestLog.flush();
    const logged = await ctx.runtime.database.kysely.selectFrom('request_log').selectAll().where('path', '=', STORE(customer)).execute();
    expect(logged).toHaveLength(3);
    for (const r of logged) {
      expect(r.request_body).toBe('[not stored: a document]');
      expect(Number(r.request_bytes)).toBeGreaterThan(pdf.length);
    }
    expect(JSON.stringify(logged)).not.toContain(pdf.slice(0, 24));
  });

  it("keeps each partner's and customer's pay statements to themselves", async () => {
    const { assetId } = (await store(partner, customerId, body(PDF.toString('base64')))).json<{ assetId: string }>();
    refused(await store(stranger, customerId, body(PDF.toString('base64'))), 404, '14001');
    refused(await get(stranger, ASSET(customerId, assetId)), 404, '14001');
    const other = await addCustomer(ctx, partner);
    refused(await get(partner, ASSET(other, assetId)), 404, '16202');
    // Its id with the other customer's number names nothing either.
    refused(await get(partner, ASSET(other, assetId.replace(new RegExp(`-${customerId}$`), `-${other}`))), 404, '16202');
    const strangersCustomer = await addCustomer(ctx, stranger);
    refused(await get(stranger, ASSET(strangersCustomer, assetId)), 404, '16202');
  });
});
