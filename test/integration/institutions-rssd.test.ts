import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';

const PATH = '/institution/v2/certifiedInstitutions/rssd';

describe('certified institutions with RSSD', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  const call = (query: string, accept = 'application/json') =>
    ctx.app.inject({ method: 'GET', url: `${PATH}${query}`, headers: { ...partner.headers, accept } });

  it('answers no institution, as no source states an RSSD id, in JSON and XML', async () => {
    for (const query of ['', '?search=finbank', '?search=*&type=ach', '?start=2&limit=5&supportedCountries=us']) {
      const res = await call(query);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ found: 0, displaying: 0, moreAvailable: false, requestedDate: expect.any(Number), institutions: [] });
    }
    const xml = await call('?search=finbank', 'application/xml');
    expect(xml.statusCode, xml.body).toBe(200);
    expect(new XMLParser({ parseTagValue: false }).parse(xml.body).root).toMatchObject({ found: '0', displaying: '0', moreAvailable: 'false' });
  });

  it('refuses a bad query as Get Certified Institutions does', async () => {
    for (const [query, code] of [
      ['?search=%20', '10005'],
      ['?type=nonsense', '10010'],
      ['?supportedCountries=usa', '10010'],
      ['?limit=0', '41004'],
    ] as const) {
      const res = await call(query);
      const plain = await ctx.app.inject({ method: 'GET', url: `/institution/v2/certifiedInstitutions${query}`, headers: partner.headers });
      expect([res.statusCode, res.json().code], `${query}: ${res.body}`).toEqual([400, code]);
      expect(res.json().code).toBe(plain.json().code);
    }
  });
});
