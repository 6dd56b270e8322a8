import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRoutingNumber } from '../../src/connectors/testbank/institutions.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { ofxStatementFile } from '../helpers/statement-files.js';
import { FINBANK, uploadStatementOk } from '../helpers/statement-uploads.js';

/** The BANKID ofxStatementFile writes: a real routing number no test institution has. */
const FILE_ROUTING = '121000248';
const path = (routingNumber: string) => `/institution/v1/institutions/routingNumber/${routingNumber}`;

interface ListJson {
  found: number;
  displaying: number;
  moreAvailable: boolean;
  createdDate: number;
  institutions: { id: number; name: string }[];
}

describe('institutions by routing number', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  const call = (who: TestPartner, url: string, accept = 'application/json') => ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });
  const refused = async (who: TestPartner, url: string, status: number, code: string) => {
    const res = await call(who, url);
    expect([res.statusCode, res.json<{ code: string }>().code], res.body).toEqual([status, code]);
  };

  it("answers a test institution's routing number with that institution, in JSON and XML", async () => {
    const res = await call(partner, path(testRoutingNumber(102105)));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<ListJson>();
    expect(body).toMatchObject({ found: 1, displaying: 1, moreAvailable: false });
    expect(body.institutions.map((i) => [i.id, i.name])).toEqual([[102105, 'FinBank Profiles - A']]);

    const xmlRes = await call(partner, path(testRoutingNumber(102105)), 'application/xml');
    expect(xmlRes.statusCode, xmlRes.body).toBe(200);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'institutions' }).parse(xmlRes.body);
    expect(parsed.root.found).toBe('1');
    expect(parsed.root.institutions.map((i: { id: string }) => i.id)).toEqual(['102105']);
  });

  it("answers the institutions where the partner's accounts stated the number, and not another partner's", async () => {
    await refused(partner, path(FILE_ROUTING), 404, '14007');
    const customerId = await addCustomer(ctx, partner);
    const file = ofxStatementFile([{ acctId: '9876543210123', balance: 10, transactions: [] }], '20260115');
    await uploadStatementOk(ctx, partner, customerId, file, { type: 'application/x-ofx' });

    const body = (await call(partner, path(FILE_ROUTING))).json<ListJson>();
    expect(body.institutions.map((i) => i.id)).toEqual([FINBANK]);
    await refused(stranger, path(FILE_ROUTING), 404, '14007');
  });

  it('takes a number whose leading zeros were left out, as the reference types it an integer', async () => {
    // 011000015 is a valid routing number no institution here has: the padded number is checked, then looked up.
    await refused(partner, path('11000015'), 404, '14007');
  });

  it('refuses what is not a routing number with 10010', async () => {
    const valid = testRoutingNumber(101732);
    const wrongCheckDigit = `${valid.slice(0, 8)}${(Number(valid[8]) + 1) % 10}`;
    for (const bad of [wrongCheckDigit, '1240173220', '12401732x', '-124017322']) await refused(partner, path(encodeURIComponent(bad)), 400, '10010');
  });
});
