import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorSource, ListedInstitution } from '../../src/connectors/source.js';
import { syncListedInstitutions } from '../../src/modules/institutions/listed.service.js';
import { sourceCatalogue } from '../../src/modules/institutions/sources.service.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';

/** A source that lists its own institutions; what it lists is whatever the test passes to the sync. */
const source: ConnectorSource = {
  name: 'listingtest',
  settings: [],
  institutions: [],
  listedIdBase: 880_000,
  open: () => ({ connectorFor: () => undefined }),
};

const bank = (key: string, name: string, country: string, currency: string, extra: Partial<ListedInstitution> = {}): ListedInstitution => ({
  key,
  name,
  homeUrl: 'https://bank.example/',
  signInHelp: `You sign in at ${name}'s own site.`,
  country,
  currency,
  logoUrl: `https://logos.example/${key}.png`,
  connection: { name, country },
  ...extra,
});

describe('institutions a source lists itself', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { ...partner.headers, accept: 'application/json' } });
  const catalogue = () => sourceCatalogue(ctx.runtime.database);

  it('become institutions with ids of their own range, their country and currency, searchable like the others', async () => {
    const first = await syncListedInstitutions(
      ctx.runtime.database,
      source,
      [bank('FI:Aurora', 'Aurora Pankki', 'FI', 'EUR'), bank('SE:Fjall', 'Fjäll Sparbank', 'SE', 'SEK'), bank('SE:Fjall', 'Fjäll Sparbank', 'SE', 'SEK')],
      1_800_000_000,
    );
    expect(first).toEqual({ added: 2, changed: 0, retired: 0 });
    const found = await get('/institution/v2/institutions?search=Fj%C3%A4ll%20Sparbank');
    expect(found.statusCode).toBe(200);
    const fjall = found.json().institutions.find((i: { name: string }) => i.name === 'Fjäll Sparbank');
    expect(fjall).toMatchObject({ id: 880_001, currency: 'SEK', address: { country: 'SWE' } });
    const aurora = (await get('/institution/v2/institutions/880000')).json().institution;
    expect(aurora).toMatchObject({ name: 'Aurora Pankki', currency: 'EUR', address: { country: 'FIN' }, transAgg: true });
    expect(await catalogue().connection(880_000, 'listingtest')).toEqual({ name: 'Aurora Pankki', country: 'FI' });
    // Another source's name finds nothing: the connection is the listing source's own.
    expect(await catalogue().connection(880_000, 'ofx')).toBeUndefined();
  });

  it("keep their ids when listed again, follow the source's changes, and retire when no longer listed", async () => {
    const again = await syncListedInstitutions(
      ctx.runtime.database,
      source,
      [bank('FI:Aurora', 'Aurora Pankki Oyj', 'FI', 'EUR'), bank('SE:Fjall', 'Fjäll Sparbank', 'SE', 'SEK'), bank('NO:Nord', 'Nordlys Bank', 'NO', 'NOK')],
      1_800_086_400,
    );
    expect(again).toEqual({ added: 1, changed: 1, retired: 0 });
    expect((await get('/institution/v2/institutions/880000')).json().institution.name).toBe('Aurora Pankki Oyj');
    expect((await get('/institution/v2/institutions/880002')).json().institution).toMatchObject({ name: 'Nordlys Bank', currency: 'NOK' });
    // Nothing changed: nothing written.
    const same = await syncListedInstitutions(
      ctx.runtime.database,
      source,
      [bank('FI:Aurora', 'Aurora Pankki Oyj', 'FI', 'EUR'), bank('SE:Fjall', 'Fjäll Sparbank', 'SE', 'SEK'), bank('NO:Nord', 'Nordlys Bank', 'NO', 'NOK')],
      1_800_172_800,
    );
    expect(same).toEqual({ added: 0, changed: 0, retired: 0 });

    // An empty list retires nothing: a source's fault, not every bank closing at once.
    expect(await syncListedInstitutions(ctx.runtime.database, source, [], 1_800_200_000)).toEqual({ added: 0, changed: 0, retired: 0 });
    const gone = await syncListedInstitutions(ctx.runtime.database, source, [bank('FI:Aurora', 'Aurora Pankki Oyj', 'FI', 'EUR')], 1_800_259_200);
    expect(gone).toEqual({ added: 0, changed: 0, retired: 2 });
    // Still in the catalogue (logins and saved ids stay valid), without a connection or transaction aggregation.
    expect((await get('/institution/v2/institutions/880001')).json().institution).toMatchObject({ name: 'Fjäll Sparbank', transAgg: false });
    expect(await catalogue().connection(880_001, 'listingtest')).toBeUndefined();

    const back = await syncListedInstitutions(
      ctx.runtime.database,
      source,
      [bank('FI:Aurora', 'Aurora Pankki Oyj', 'FI', 'EUR'), bank('SE:Fjall', 'Fjäll Sparbank', 'SE', 'SEK')],
      1_800_345_600,
    );
    expect(back).toEqual({ added: 0, changed: 1, retired: 0 });
    expect((await get('/institution/v2/institutions/880001')).json().institution).toMatchObject({ id: 880_001, transAgg: true });
    expect(await catalogue().connection(880_001, 'listingtest')).toEqual({ name: 'Fjäll Sparbank', country: 'SE' });
  });

  it("serve the bank's own logo for logo.svg, the generated images for the others", async () => {
    const logo = await ctx.app.inject({ url: '/institution/assets/880000/logo.svg' });
    expect(logo.statusCode).toBe(302);
    expect(logo.headers.location).toBe('https://logos.example/FI:Aurora.png');
    const icon = await ctx.app.inject({ url: '/institution/assets/880000/icon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('skip entries without a key or name, and refuse a listing source without an id range', async () => {
    const result = await syncListedInstitutions(
      ctx.runtime.database,
      source,
      [
        bank('FI:Aurora', 'Aurora Pankki Oyj', 'FI', 'EUR'),
        bank('SE:Fjall', 'Fjäll Sparbank', 'SE', 'SEK'),
        bank('', 'No Key', 'FI', 'EUR'),
        bank('FI:Blank', '  ', 'FI', 'EUR'),
      ],
      1_800_432_000,
    );
    expect(result).toEqual({ added: 0, changed: 0, retired: 0 });
    await expect(syncListedInstitutions(ctx.runtime.database, { ...source, listedIdBase: undefined }, [], 0)).rejects.toThrow(/listedIdBase/);
  });

  it('give two syncs at once the same ids, once each', async () => {
    const list = [bank('DK:Hav', 'Havbank', 'DK', 'DKK'), bank('PL:Wisla', 'Bank Wisła', 'PL', 'PLN')];
    const results = await Promise.allSettled([0, 1, 2].map(() => syncListedInstitutions(ctx.runtime.database, source, list, 1_800_518_400)));
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<{ added: number }>).value);
    expect(ok.length).toBeGreaterThan(0);
    const rows = await ctx.runtime.database.kysely
      .selectFrom('listed_institutions')
      .select(['key', 'institution_id'])
      .where('source', '=', 'listingtest')
      .execute();
    const keys = rows.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining(['DK:Hav', 'PL:Wisla']));
  });
});
