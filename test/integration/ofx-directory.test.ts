import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldText } from '../../src/modules/institutions/search-index.js';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { findOfxServer } from '../../src/modules/institutions/ofx-directory.repository.js';
import {
  ensureOfxDirectory,
  OFX_DIRECTORY_ID_BASE,
  OFX_OPERATOR_ID_BASE,
  ofxUrlProblem,
  readOfxDirectory,
} from '../../src/modules/institutions/ofx-directory.service.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';

const DIRECTORY = readOfxDirectory();

describe('the OFX institution directory', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    // The catalogue (and with it the directory) loads on first use.
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { ...partner.headers, accept: 'application/json' } });
  const db = () => ctx.runtime.database.kysely;

  it('ships with its licence, and every one of its institutions is in the catalogue once, with its OFX server', async () => {
    expect(fs.readFileSync('assets/ofx-institutions.LICENSE', 'utf8')).toMatch(/MIT License/);
    expect(DIRECTORY.length).toBe(1112);
    const servers = await db().selectFrom('ofx_servers').selectAll().where('source', '=', 'directory').execute();
    expect(servers.length).toBe(DIRECTORY.length);
    const names = await db().selectFrom('institutions').select(['id', 'name']).execute();
    const byName = new Map<string, number[]>();
    for (const n of names) byName.set(foldText(n.name), [...(byName.get(foldText(n.name)) ?? []), Number(n.id)]);
    for (const entry of DIRECTORY) expect(byName.get(foldText(entry.name))?.length, entry.name).toBe(1);
    const serverIds = new Set(servers.map((s) => Number(s.institution_id)));
    for (const entry of DIRECTORY) expect(serverIds.has(byName.get(foldText(entry.name))![0]!), entry.name).toBe(true);
  });

  it('gives a directory institution a stable id, its real name, address, phone and web site, and transaction aggregation', async () => {
    const entry = DIRECTORY.find((e) => e.name === '1880 Bank')!;
    const id = OFX_DIRECTORY_ID_BASE + Number(entry.ofxhome_id);
    const res = await get(`/institution/v2/institutions/${id}`);
    expect(res.statusCode).toBe(200);
    const found = res.json().institution;
    expect(found).toMatchObject({ id, name: '1880 Bank', transAgg: true, phone: '(410)228-5600', urlHomeApp: 'https://www.1880bank.com/' });
    expect(found.address).toMatchObject({ addressLine1: '304 High Street', city: 'Cambridge', state: 'MD', postalCode: '21613', country: 'USA' });
    expect(await findOfxServer(db(), id)).toMatchObject({
      url: 'https://ofx.fundsxpress.com/piles/ofx.pile/',
      fid: 'NBCCMD',
      org: 'FundsXpress Financial Network',
    });
    const search = (await get('/institution/v2/institutions?search=1880%20bank')).json();
    expect(search.institutions.map((i: { id: number }) => i.id)).toContain(id);
  });

  it('has SimpleFIN Bridge, found by searching simplefin', async () => {
    const found = (await get('/institution/v2/institutions?search=simplefin')).json();
    expect(found.institutions.map((i: { id: number; name: string }) => [i.id, i.name])).toContainEqual([SIMPLEFIN_INSTITUTION_ID, 'SimpleFIN Bridge']);
  });

  it('keeps brokerages’ BROKERID', async () => {
    const broker = DIRECTORY.find((e) => e.brokerid)!;
    const rows = await db().selectFrom('ofx_servers').selectAll().where('broker_id', '=', broker.brokerid!).execute();
    expect(rows.length).toBeGreaterThan(0);
  });

  it('loads only once: a second start changes nothing', async () => {
    const before = await db()
      .selectFrom('institutions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    await ensureOfxDirectory(ctx.runtime.database);
    const after = await db()
      .selectFrom('institutions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('lets an operator add an institution, found by search and served by its own server; the same name again overrides the server', async () => {
    const id = await addOfxInstitution(
      ctx.runtime.database,
      'sandbox',
      { name: 'Harbor Test Credit Union', url: 'http://127.0.0.1:9/ofx', fid: '1234', org: 'HTCU', appId: 'QWIN', appVer: '2700' },
      100,
    );
    expect(id).toBeGreaterThanOrEqual(OFX_OPERATOR_ID_BASE);
    const res = await get(`/institution/v2/institutions?search=harbor%20test`);
    expect(res.json().institutions.map((i: { id: number }) => i.id)).toContain(id);
    const again = await addOfxInstitution(
      ctx.runtime.database,
      'sandbox',
      { name: 'harbor test credit union', url: 'https://ofx.htcu.example/', fid: '99', org: 'HTCU2' },
      200,
    );
    expect(again).toBe(id);
    expect(await findOfxServer(db(), id)).toMatchObject({ url: 'https://ofx.htcu.example/', fid: '99', org: 'HTCU2', source: 'operator', app_id: null });
    // Overriding a directory institution keeps its id and takes the operator's server.
    const overridden = await addOfxInstitution(
      ctx.runtime.database,
      'production',
      { name: '1880 Bank', url: 'https://ofx.1880.example/', fid: 'X', org: 'Y' },
      300,
    );
    expect(overridden).toBe(OFX_DIRECTORY_ID_BASE + Number(DIRECTORY.find((e) => e.name === '1880 Bank')!.ofxhome_id));
    expect(await findOfxServer(db(), overridden)).toMatchObject({ url: 'https://ofx.1880.example/', source: 'operator' });
  });

  it('refuses plain http in production mode, URLs with credentials, blank fields and unknown OFX versions', async () => {
    expect(ofxUrlProblem('http://ofx.bank.example/', 'production')).toMatch(/https/);
    expect(ofxUrlProblem('http://127.0.0.1:8000/', 'sandbox')).toBeUndefined();
    expect(ofxUrlProblem('https://u:p@ofx.bank.example/', 'production')).toMatch(/user name/);
    expect(ofxUrlProblem('ftp://ofx.bank.example/', 'sandbox')).toMatch(/https/);
    expect(ofxUrlProblem('not a url', 'sandbox')).toMatch(/not a URL/);
    const add = (input: Partial<Parameters<typeof addOfxInstitution>[2]>) =>
      addOfxInstitution(ctx.runtime.database, 'production', { name: 'X Bank', url: 'https://ofx.x.example/', fid: '1', org: 'X', ...input }, 1);
    await expect(add({ url: 'http://ofx.x.example/' })).rejects.toMatchObject({ code: '10010' });
    await expect(add({ name: '  ' })).rejects.toMatchObject({ code: '10005' });
    await expect(add({ fid: '' })).rejects.toMatchObject({ code: '10005' });
    await expect(add({ ofxVersion: 104 })).rejects.toMatchObject({ code: '10010' });
  });
});
