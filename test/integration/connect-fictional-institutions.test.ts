import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { addOfxInstitution, isFictionalInstitution } from '../../src/modules/institutions/service.js';
import { nowOf } from '../helpers/aggregation.js';
import { appOk, linkFor } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

/**
 * Outside the sandbox (a production partner's Connect link) the search does not offer the generated, fictional
 * institutions of the catalogue, whose web sites are on the reserved .example domain; the real ones, the test
 * institutions and a generated name an operator gave an OFX server are offered.
 */
describe("Connect's institution search and the generated institutions", () => {
  let ctx: TestContext;
  let production: TestPartner;
  let testDrive: TestPartner;
  /** Two generated institutions: names only they have. */
  let generated: { id: number; name: string }[];

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    production = await partnerWithToken(ctx, 'production');
    testDrive = await partnerWithToken(ctx);
    const rows = await ctx.runtime.database.kysely
      .selectFrom('institutions')
      .select(['id', 'name', 'url_home_app'])
      .where('url_home_app', 'like', '%.example%')
      .where('id', '>=', 10_000)
      .where('id', '<', 590_000)
      .where('id', 'not in', (eb) => eb.selectFrom('ofx_servers').select('institution_id'))
      .orderBy('id')
      .limit(400)
      .execute();
    // Names no other institution contains, so that a search for one finds it alone.
    const all = (await ctx.runtime.database.kysely.selectFrom('institutions').select('name').execute()).map((r) => r.name.toLowerCase());
    generated = rows.filter((r) => all.filter((n) => n.includes(r.name.toLowerCase())).length === 1).slice(0, 2);
    expect(generated).toHaveLength(2);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function search(who: TestPartner, text: string): Promise<{ found: number; institutions: { id: number; name: string }[] }> {
    const customerId = await addCustomer(ctx, who, { type: who === production ? 'active' : 'testing' });
    const link = await linkFor(ctx, who, 'full', { customerId });
    return appOk(ctx, link, 'GET', `/institutions?search=${encodeURIComponent(text)}&limit=10`);
  }

  it('offers them to a Test Drive partner, not to a production partner', async () => {
    const [one] = generated;
    const sandbox = await search(testDrive, one!.name);
    expect(sandbox.institutions.map((i) => i.id)).toContain(one!.id);
    const real = await search(production, one!.name);
    expect(real.found).toBe(0);
    expect(real.institutions).toEqual([]);
  });

  it('still offers real and test institutions to a production partner, and counts and pages without the generated ones', async () => {
    expect((await search(production, 'chase')).institutions.map((i) => i.name)).toContain('Chase');
    expect((await search(production, 'finbank')).institutions.map((i) => i.id)).toContain(101732);
    const everyBank = await search(production, 'bank');
    const sandboxBanks = await search(testDrive, 'bank');
    expect(everyBank.found).toBeGreaterThan(0);
    expect(everyBank.found).toBeLessThan(sandboxBanks.found);
  });

  it('offers a generated name once an operator gives it an OFX server (institutions add-ofx)', async () => {
    const [, two] = generated;
    expect((await search(production, two!.name)).found).toBe(0);
    const id = await addOfxInstitution(
      ctx.runtime.database,
      'sandbox',
      { name: two!.name, url: 'https://ofx.bank.test/ofx', fid: '999', org: 'TWO' },
      nowOf(ctx),
    );
    expect(id).toBe(two!.id);
    expect((await search(production, two!.name)).institutions.map((i) => i.id)).toEqual([two!.id]);
  });

  it('tells fictional institutions by their .example web site, test institutions and served ones apart', () => {
    const none = new Set<number>();
    expect(isFictionalInstitution(10_004, 'https://www.prairie-state-bank.example', none)).toBe(true);
    expect(isFictionalInstitution(10_004, 'https://www.prairie-state-bank.example/', new Set([10_004]))).toBe(false);
    expect(isFictionalInstitution(101732, 'https://www.finbank.example', none)).toBe(false);
    expect(isFictionalInstitution(1003, 'https://www.chase.com', none)).toBe(false);
    expect(isFictionalInstitution(1003, 'https://www.example.com/home', none)).toBe(false);
    expect(isFictionalInstitution(1003, 'https://examples.org/x.example', none)).toBe(false);
  });
});
