import { sql } from 'kysely';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CATALOG_RECHECK_MS, type CatalogSnapshot, catalogOf, updateInstitution } from '../../src/modules/institutions/catalog.service.js';
import { generateCatalog } from '../../src/modules/institutions/catalog/generate.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { readOfxDirectory } from '../../src/modules/institutions/ofx-directory.service.js';
import { foldText } from '../../src/modules/institutions/search-index.js';
import { TEST_INSTITUTIONS } from '../../src/connectors/testbank/institutions.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { createTestDatabase } from '../helpers/db.js';

const xml = new XMLParser({ parseTagValue: false, isArray: (_name, path) => path === 'root.institutions' });
const LIST = '/institution/v2/institutions';
const CERTIFIED = '/institution/v2/certifiedInstitutions';

interface Institution {
  id: number;
  name: string;
  urlHomeApp: string;
  [key: string]: unknown;
}

describe('institutions', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext({ LEDGERLINK_PUBLIC_URL: 'https://ledgerlink.example.org/' });
    partner = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const get = (url: string, accept = 'application/json') => ctx.app.inject({ method: 'GET', url, headers: { ...partner.headers, accept } });
  const search = async (query: string) =>
    (await get(`${LIST}?${query}`)).json() as { found: number; displaying: number; moreAvailable: boolean; createdDate: number; institutions: Institution[] };
  const namesFor = async (query: string) => (await search(query)).institutions.map((i) => i.name);
  type Certified = { id: number; name: string; trans_agg: boolean; voa: boolean; voi: boolean; state_agg: boolean; ach: boolean; aha: boolean };
  const certified = async (query: string) =>
    (await get(`${CERTIFIED}?${query}`)).json() as {
      found: number;
      displaying: number;
      moreAvailable: boolean;
      requestedDate: number;
      institutions: Certified[];
    };

  describe('search', () => {
    it('lists every institution without search: at least 10,000', async () => {
      const all = await search('');
      expect(all.found).toBeGreaterThanOrEqual(10_000);
      expect(all).toMatchObject({ displaying: 25, moreAvailable: true, createdDate: Math.floor(ctx.clock.now() / 1000) });
      expect(all.institutions).toHaveLength(25);
    });

    it('finds the test bank family, exact match first', async () => {
      const res = await search('search=finbank&limit=10');
      expect(res.found).toBe(TEST_INSTITUTIONS.length);
      expect(res.institutions[0]).toMatchObject({ id: 101732, name: 'FinBank', class: 'testfi', accountTypeDescription: 'TestFI' });
      expect(res.institutions.map((i) => i.id).sort()).toEqual(TEST_INSTITUTIONS.map((t) => t.id).sort());
    });

    it('ranks exact, then prefix, then word, then substring matches', async () => {
      const found = (await search('search=wells&limit=50')).institutions;
      const names = found.map((i) => i.name);
      expect(names[0]).toBe('Wells Fargo'); // name starts with it (no institution is called just "Wells")
      const wordAt = names.findIndex((n) => /\bwells\b/i.test(n) && !/^wells/i.test(n));
      // Substring matches run across words ("Caldwell Schools"); a home page may match instead of the name
      // (Norwest's is wellsfargo.com), which is neither.
      const substringAt = found.findIndex((i) => !/\bwells/i.test(i.name) && /wells/i.test(i.name.replace(/[^a-z]/gi, '')));
      expect(wordAt).toBeGreaterThan(0);
      expect(substringAt).toBeGreaterThan(wordAt);
      for (const n of names.slice(substringAt)) expect(n.toLowerCase()).not.toMatch(/\bwells/);

      const chase = await namesFor('search=chase');
      expect(chase[0]).toBe('Chase');
      expect(chase.indexOf('Chase Credit Cards')).toBeGreaterThan(0);
    });

    it('matches case-insensitively, and on the home and login pages', async () => {
      expect(await namesFor('search=CHASE&limit=1')).toEqual(['Chase']);
      expect(await namesFor(`search=${encodeURIComponent('https://www.wellsfargo.com')}&limit=1`)).toEqual(['Wells Fargo']);
      expect(await namesFor('search=connect.secure.wellsfargo&limit=1')).toEqual(['Wells Fargo']);
      expect(await namesFor('search=finbank.example&limit=1')).toEqual(['FinBank']);
    });

    it('pages: start=1 then start=6 with limit=5 continue each other', async () => {
      const first = await search('search=bank&start=1&limit=5');
      const second = await search('search=bank&start=6&limit=5');
      const ten = await search('search=bank&start=1&limit=10');
      expect(first).toMatchObject({ displaying: 5, moreAvailable: true });
      expect(second.found).toBe(first.found);
      expect([...first.institutions, ...second.institutions].map((i) => i.id)).toEqual(ten.institutions.map((i) => i.id));
      const last = await search(`search=bank&start=${first.found - 1}&limit=5`);
      expect(last).toMatchObject({ displaying: 2, moreAvailable: false });
      const beyond = await search(`search=bank&start=${first.found + 1}`);
      expect(beyond).toMatchObject({ displaying: 0, moreAvailable: false, institutions: [] });
    });

    it('answers an empty list (200) when nothing matches', async () => {
      expect(await search('search=qqqzzzxxx')).toMatchObject({ found: 0, displaying: 0, moreAvailable: false, institutions: [] });
    });

    it('refuses a blank search with 400 code 10005, in JSON and XML', async () => {
      for (const q of ['search=', 'search=%20%20']) {
        const res = await get(`${LIST}?${q}`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ code: '10005', message: expect.stringContaining('search') });
      }
      const asXml = await get(`${LIST}?search=`, 'application/xml');
      expect(asXml.statusCode).toBe(400);
      expect(xml.parse(asXml.body).error.code).toBe('10005');
    });

    it('refuses start below 1, limit outside 1 to 1000, and non-numbers', async () => {
      expect((await get(`${LIST}?start=0`)).json()).toEqual({ code: '41003', message: 'Start index cannot be less than one.' });
      expect((await get(`${LIST}?limit=0`)).json()).toEqual({ code: '41004', message: 'Limit cannot be less than one.' });
      expect((await get(`${LIST}?limit=1001`)).json()).toEqual({ code: '41004', message: 'Limit cannot be more than 1000.' });
      expect((await get(`${LIST}?limit=ten`)).json()).toMatchObject({ code: '10010' });
      const max = await search('limit=1000');
      expect(max.displaying).toBe(1000);
    });

    it('filters by product type and country', async () => {
      const voa = await search('search=bank&type=voa&limit=200');
      expect(voa.found).toBeLessThan((await search('search=bank')).found);
      expect(voa.institutions.every((i) => i.voa === true)).toBe(true);
      const both = await search('type=voa,state_agg&limit=200');
      expect(both.institutions.every((i) => i.voa === true && i.stateAgg === true)).toBe(true);
      const canada = await search('search=credit%20union&supportedCountries=ca&limit=200');
      expect(canada.found).toBeGreaterThan(0);
      expect(canada.institutions.every((i) => (i.address as { country: string }).country === 'CAN' && i.currency === 'CAD')).toBe(true);
      expect((await get(`${LIST}?type=mortgage`)).json()).toMatchObject({ code: '10010', message: expect.stringContaining('mortgage') });
      expect((await get(`${LIST}?supportedCountries=usa`)).json()).toMatchObject({ code: '10010' });
    });

    // Found by the fuzz test: a name Object.prototype carries was taken for a product and answered 500.
    it('regression: type=constructor or __proto__ and such countries are refused with 10010, not 500', async () => {
      for (const base of [LIST, '/institution/v2/certifiedInstitutions']) {
        for (const query of ['type=constructor', 'type=__proto__', 'type=toString', 'type=voa,hasOwnProperty', 'supportedCountries=constructor']) {
          const res = await get(`${base}?${query}`);
          expect(res.statusCode, `${base}?${query}`).toBe(400);
          expect(res.json(), `${base}?${query}`).toMatchObject({ code: '10010' });
        }
      }
    });

    it('answers under the /institutions/v2/institutions spelling too', async () => {
      const a = await get(`/institutions/v2/institutions?search=finbank`);
      expect(a.statusCode).toBe(200);
      expect(a.json().institutions).toEqual((await search('search=finbank')).institutions);
    });

    it('needs partner credentials', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: `${LIST}?search=chase` });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('records', () => {
    it('fills every field, with branding served by Ledgerlink at its public URL', async () => {
      const { institution } = (await get(`${LIST}/101732`)).json() as { institution: Institution };
      expect(institution).toMatchObject({
        id: 101732,
        name: 'FinBank',
        class: 'testfi',
        accountTypeDescription: 'TestFI',
        status: 'online',
        currency: 'USD',
        oauthEnabled: false,
        transAgg: true,
        voa: true,
        voi: true,
        stateAgg: true,
        ach: true,
        aha: true,
        address: { city: 'Salt Lake City', state: 'UT', country: 'USA' },
        branding: {
          logo: 'https://ledgerlink.example.org/institution/assets/101732/logo.svg',
          alternateLogo: 'https://ledgerlink.example.org/institution/assets/101732/alternateLogo.svg',
          icon: 'https://ledgerlink.example.org/institution/assets/101732/icon.svg',
          tile: 'https://ledgerlink.example.org/institution/assets/101732/tile.svg',
          primaryColor: '#0167AE',
        },
        productionStatus: { overallStatus: 'online', transAgg: 'online' },
      });
      for (const key of ['phone', 'urlHomeApp', 'urlLogonApp', 'urlForgotPassword', 'urlOnlineRegistration', 'email', 'specialText'])
        expect(institution[key], key).toMatch(/\S/);
    });

    it('describes the OAuth, MFA and down test institutions', async () => {
      const byId = async (id: number) => ((await get(`${LIST}/${id}`)).json() as { institution: Institution }).institution;
      expect(await byId(102168)).toMatchObject({ oauthEnabled: true, specialInstructionsTitle: expect.any(String) });
      expect(await byId(102175)).toMatchObject({ specialText: expect.stringMatching(/multi-factor/) });
      const down = await byId(102176);
      expect((down.productionStatus as Record<string, string>).overallStatus).not.toBe('online');
      expect((down.productionStatus as Record<string, string>).transAgg).not.toBe('online');
    });

    it('answers 404 code 14006 for an unknown id and 400 for a non-numeric one', async () => {
      for (const url of [`${LIST}/999999999`, `${LIST}/999999999/branding`, `/institutions/v2/institutions/999999999`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ code: '14006' });
      }
      const asXml = await get(`${LIST}/999999999`, 'application/xml');
      expect(xml.parse(asXml.body).error.code).toBe('14006');
      expect((await get(`${LIST}/abc`)).json()).toMatchObject({ code: '10010' });
    });

    it('gets the branding alone', async () => {
      const res = await get(`${LIST}/101732/branding`);
      expect(res.json()).toEqual({ branding: ((await get(`${LIST}/101732`)).json() as { institution: Institution }).institution.branding });
    });

    it('serves each branding image as SVG without credentials', async () => {
      for (const file of ['logo.svg', 'alternateLogo.svg', 'icon.svg', 'tile.svg']) {
        const res = await ctx.app.inject({ method: 'GET', url: `/institution/assets/101732/${file}` });
        expect(res.statusCode, file).toBe(200);
        expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
        expect(res.body).toMatch(/^<svg /);
        expect(XMLValidator.validate(res.body)).toBe(true);
        expect(res.body).toContain('FinBank');
        expect(res.body).toContain('#0167AE');
      }
      for (const url of [
        '/institution/assets/101732/banner.svg',
        '/institution/assets/101732/logo.png',
        '/institution/assets/999999999/logo.svg',
        '/institution/assets/abc/logo.svg',
      ]) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json().code).toBe('14001');
      }
    });
  });

  describe('XML', () => {
    it('renders the list with root element root and one institutions element per institution', async () => {
      const res = await get(`${LIST}?search=finbank&limit=2`, 'application/xml');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/xml/);
      expect(res.body).toMatch(
        /^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?><root><found>7<\/found><displaying>2<\/displaying><moreAvailable>true<\/moreAvailable><createdDate>\d+<\/createdDate><institutions><id>101732<\/id><name>FinBank<\/name>/,
      );
      const doc = xml.parse(res.body);
      expect(doc.root.institutions).toHaveLength(2);
      expect(doc.root.institutions[0]).toMatchObject({
        id: '101732',
        name: 'FinBank',
        address: { state: 'UT' },
        branding: { primaryColor: '#0167AE' },
        productionStatus: { overallStatus: 'online' },
      });
    });

    it('renders one institution and its branding under root', async () => {
      const one = xml.parse((await get(`${LIST}/102105`, 'application/xml')).body);
      expect(one.root.institution).toMatchObject({ id: '102105', name: 'FinBank Profiles - A' });
      const branding = xml.parse((await get(`${LIST}/102105/branding`, 'application/xml')).body);
      expect(branding.root.branding.logo).toMatch(/\/institution\/assets\/102105\/logo\.svg$/);
    });
  });

  describe('certified institutions', () => {
    it('returns every certified institution for search=*, ignoring start and limit', async () => {
      const all = await certified('search=*&start=3&limit=2');
      expect(all.found).toBeGreaterThanOrEqual(10_000);
      expect(all.displaying).toBe(all.found);
      expect(all.moreAvailable).toBe(false);
      expect(all.requestedDate).toBe(Math.floor(ctx.clock.now() / 1000));
      expect(all.institutions.every((i) => i.trans_agg || i.voa || i.voi || i.state_agg || i.ach || i.aha)).toBe(true);
    });

    it('uses snake_case flag names, with the OAuth flag and production status the reference requires', async () => {
      const res = await certified('search=finbank&limit=1');
      const status = { overallStatus: 'online', transAgg: 'online', voa: 'online', voi: 'online', stateAgg: 'online', ach: 'online', aha: 'online' };
      expect(res.institutions[0]).toEqual({
        name: 'FinBank',
        id: 101732,
        trans_agg: true,
        voa: true,
        voi: true,
        state_agg: true,
        ach: true,
        aha: true,
        oauthEnabled: false,
        productionStatus: status,
      });
    });

    it.each(['voa', 'voi', 'state_agg', 'ach', 'aha'])('filters on the %s flag', async (type) => {
      const all = await certified('search=*');
      const some = await certified(`search=*&type=${type}`);
      expect(some.found).toBeGreaterThan(0);
      expect(some.found).toBeLessThan(all.found);
      expect(some.found).toBe(all.institutions.filter((i) => i[type as keyof Certified] === true).length);
      expect(some.institutions.every((i) => i[type as keyof Certified] === true)).toBe(true);
    });

    it('searches and pages like Get Institutions when search is text', async () => {
      const page = await certified('search=bank&start=6&limit=5&type=ach');
      expect(page).toMatchObject({ displaying: 5, moreAvailable: true });
      expect(page.institutions.every((i) => i.ach)).toBe(true);
      const listed = (await search('search=bank&type=ach&start=6&limit=5')).institutions.map((i) => i.id);
      expect(page.institutions.map((i) => i.id)).toEqual(listed);
    });

    it('refuses a blank search and an unknown type', async () => {
      expect((await get(`${CERTIFIED}?search=`)).json()).toMatchObject({ code: '10005' });
      expect((await get(`${CERTIFIED}?search=*&type=loans`)).json()).toMatchObject({ code: '10010' });
    });

    it('renders XML with root root and repeated institutions elements', async () => {
      const doc = xml.parse((await get(`${CERTIFIED}?search=finbank&limit=2`, 'application/xml')).body);
      expect(doc.root).toMatchObject({ found: '7', displaying: '2', moreAvailable: 'true' });
      expect(doc.root.institutions[0]).toMatchObject({
        name: 'FinBank',
        id: '101732',
        trans_agg: 'true',
        voa: 'true',
        voi: 'true',
        state_agg: 'true',
        ach: 'true',
        aha: 'true',
        oauthEnabled: 'false',
      });
      expect(doc.root.institutions[0].productionStatus).toMatchObject({ overallStatus: 'online' });
    });
  });

  describe('loading the catalogue', () => {
    it('loads it once into a new database, also when asked several times at once', async () => {
      const fresh = await createTestDatabase();
      try {
        const count = async () =>
          Number(
            (
              await fresh.database.kysely
                .selectFrom('institutions')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        expect(await count()).toBe(0);
        await Promise.all([ensureInstitutionCatalog(fresh.database), ensureInstitutionCatalog(fresh.database), ensureInstitutionCatalog(fresh.database)]);
        // The generated catalogue, the OFX directory's institutions it did not have by name, and SimpleFIN Bridge.
        const generatedNames = new Set(generateCatalog().map((r) => foldText(r.name)));
        const expected = generateCatalog().length + readOfxDirectory().filter((e) => !generatedNames.has(foldText(e.name))).length + 1;
        expect(await count()).toBe(expected);
        await ensureInstitutionCatalog(fresh.database);
        expect(await count()).toBe(expected);
        const finbank = await fresh.database.kysely.selectFrom('institutions').selectAll().where('id', '=', 101732).executeTakeFirstOrThrow();
        expect(finbank).toEqual(generateCatalog().find((r) => r.id === 101732));
      } finally {
        await fresh.drop();
      }
    });
  });

  describe('freshness', () => {
    it('shows a change made through updateInstitution on the next request', async () => {
      const before = ((await get(`${LIST}/102106`)).json() as { institution: Institution }).institution;
      expect(before.voa).toBe(true);
      await updateInstitution(ctx.runtime.database, 102106, { voa: 0, ps_voa: 'investigating' });
      const after = ((await get(`${LIST}/102106`)).json() as { institution: Institution }).institution;
      expect(after.voa).toBe(false);
      expect((after.productionStatus as Record<string, string>).voa).toBe('investigating');
      expect((await certified('search=finbank&type=voa')).institutions.map((i) => i.id)).not.toContain(102106);
      // Renaming changes what search finds.
      await updateInstitution(ctx.runtime.database, 102106, { name: 'FinBank Profiles - B Renamed' });
      expect(await namesFor('search=renamed')).toEqual(['FinBank Profiles - B Renamed']);
      await updateInstitution(ctx.runtime.database, 102106, { name: 'FinBank Profiles - B', voa: 1, ps_voa: 'online' });
      expect(await namesFor('search=renamed')).toEqual([]);
      await expect(updateInstitution(ctx.runtime.database, 999_999_999, { voa: 0 })).rejects.toMatchObject({ code: '14006' });
    });

    it('picks up a change another process made once the recheck interval has passed', async () => {
      vi.useFakeTimers({ toFake: ['performance'] });
      try {
        await get(`${LIST}/102105`);
        // What another process sharing the database does: change the row and move the version on, together.
        await ctx.runtime.database.kysely.transaction().execute(async (tx) => {
          await sql`update institution_catalog set version = version + 1`.execute(tx);
          await sql`update institutions set ps_overall = 'investigating', changed_version = (select version from institution_catalog) where id = 102105`.execute(
            tx,
          );
        });
        const stale = ((await get(`${LIST}/102105`)).json() as { institution: Institution }).institution;
        expect((stale.productionStatus as Record<string, string>).overallStatus).toBe('online');
        vi.advanceTimersByTime(CATALOG_RECHECK_MS + 1);
        const fresh = ((await get(`${LIST}/102105`)).json() as { institution: Institution }).institution;
        expect((fresh.productionStatus as Record<string, string>).overallStatus).toBe('investigating');
      } finally {
        vi.useRealTimers();
        await updateInstitution(ctx.runtime.database, 102105, { ps_overall: 'online' });
      }
    });
  });
});

describe('the search index across stores', () => {
  it('is built once for stores whose catalogues match, and again for one whose names differ', async () => {
    const [a, b] = [await createTestDatabase(), await createTestDatabase()];
    const found = (snapshot: CatalogSnapshot, query: string) => snapshot.index.search(query).indices.map((p) => snapshot.row(p).name);
    try {
      const first = await catalogOf(a.database);
      expect((await catalogOf(b.database)).index).toBe(first.index);
      await updateInstitution(b.database, 102106, { name: 'FinBank Profiles - B Elsewhere' });
      const renamed = await catalogOf(b.database);
      // Compared as a boolean: a failing toBe (which .not passes on) compares the two indexes deeply, for seconds.
      expect(renamed.index === first.index).toBe(false);
      expect(found(renamed, 'elsewhere')).toEqual(['FinBank Profiles - B Elsewhere']);
      expect(found(await catalogOf(a.database), 'elsewhere')).toEqual([]);
      expect(found(await catalogOf(a.database), 'profiles - b')).toContain('FinBank Profiles - B');
    } finally {
      await a.drop();
      await b.drop();
    }
  });
});
