import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { dashboardSignIn, SAME_ORIGIN, type DashboardBrowser } from '../helpers/dashboard.js';
import { FINBANK, openStatementContext } from '../helpers/statement-uploads.js';

/** A CSV export with one row whose amount cannot be read: the rest is stored, that row named with its line. */
const WITH_A_PROBLEM = [
  'Date,Description,Amount',
  '2026-10-20,COFFEE ROASTERS,-4.50',
  '2026-10-21,BROKEN ROW,12.3.4',
  '2026-10-22,PAYROLL ACME,1200.00',
  '',
].join('\n');

/**
 * Statement files uploaded from a customer's dashboard page: the API's upload (its readers, refusals and per-partner
 * limit) behind the session and its CSRF token, answered as Connect answers an upload, for the signed-in partner's
 * customers only; and the catalogue search that finds where a customer may upload.
 */
describe('statement files on the dashboard', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let theirs: TestPartner;
  let browser: DashboardBrowser;

  beforeAll(async () => {
    ({ ctx, partner } = await openStatementContext('2026-11-01T12:00:00Z'));
    // On the production plan, to have active customers.
    theirs = await partnerWithToken(ctx, 'production');
    browser = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  const uploadPath = (customerId: string, query = '') => `/dashboard/api/customers/${customerId}/institutions/${FINBANK}/statements${query}`;
  const upload = (customerId: string, file: string | Buffer, query = '', headers: Record<string, string> = {}) =>
    browser.call('POST', uploadPath(customerId, query), file as unknown as object, { 'content-type': 'application/octet-stream', ...headers });
  const loginsOf = async (customerId: string) =>
    ctx.runtime.database.kysely.selectFrom('institution_logins').select(['id', 'source']).where('customer_id', '=', Number(customerId)).execute();

  it('uploads a file for a customer, answers its accounts, counts and problems, and merges a second upload of it', async () => {
    const customerId = await addCustomer(ctx, partner);
    const res = await upload(customerId, WITH_A_PROBLEM, '?accountName=Everyday%20Checking&currency=eur');
    expect(res.statusCode, res.body).toBe(200);
    const first = res.json();
    expect(first).toEqual({
      institutionLoginId: expect.stringMatching(/^\d+$/),
      institution: { id: FINBANK, name: 'FinBank' },
      accounts: [expect.objectContaining({ name: 'Everyday Checking', currency: 'EUR', id: expect.stringMatching(/^\d+$/) })],
      transactionsAdded: 2,
      transactionsAlreadyPresent: 0,
      transactionsMatched: 0,
      problems: [{ line: 3, message: 'The amount "12.3.4" cannot be read.' }],
    });
    expect(ctx.app.heavyWork.upload.inUse(partner.partnerId)).toBe(0);

    // The customer page shows the statement-file login, and the API sees the same login.
    const overview = (await browser.call('GET', `/dashboard/api/customers/${customerId}`)).json();
    expect(overview.institutionLogins).toEqual([
      expect.objectContaining({ institutionLoginId: Number(first.institutionLoginId), statementFile: true, institution: { id: FINBANK, name: 'FinBank' } }),
    ]);
    expect(await loginsOf(customerId)).toEqual([{ id: Number(first.institutionLoginId), source: 'statement-file' }]);

    const again = (await upload(customerId, WITH_A_PROBLEM, '?accountName=Everyday%20Checking&currency=EUR')).json();
    expect(again).toMatchObject({
      institutionLoginId: first.institutionLoginId,
      transactionsAdded: 0,
      transactionsAlreadyPresent: 2,
      problems: first.problems,
    });
  });

  it("answers 404 for another partner's customer, like an unknown one, and stores nothing for it", async () => {
    const theirCustomer = await addCustomer(ctx, theirs);
    for (const id of [theirCustomer, '999999999']) {
      const res = await upload(id, WITH_A_PROBLEM);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('14001');
      const search = await browser.call('GET', `/dashboard/api/customers/${id}/institutions?search=FinBank`);
      expect(search.statusCode).toBe(404);
    }
    expect(await loginsOf(theirCustomer)).toEqual([]);
  });

  it("refuses files with the API's codes: another format, a CSV layout it cannot tell apart, an unreadable file, a bad option", async () => {
    const customerId = await addCustomer(ctx, partner);
    const cases: [string | Buffer, string, number, string][] = [
      [Buffer.from('%PDF-1.7\n1 0 obj\n'), '', 415, '14114'],
      ['When,Who,How Much\n2026-10-20,COFFEE,-4.50\n', '', 422, '14112'],
      ['Date,Description,Amount\n', '', 400, '14111'],
      ['', '', 400, '10005'],
      [WITH_A_PROBLEM, '?currency=euros', 400, '10010'],
    ];
    for (const [file, query, status, code] of cases) {
      const res = await upload(customerId, file, query);
      expect(res.statusCode, `${code}: ${res.body}`).toBe(status);
      expect(res.json().code).toBe(code);
    }
    // 14112 carries the columns, for a client to ask which is which.
    const unknown = await upload(customerId, 'When,Who,How Much\n2026-10-20,COFFEE,-4.50\n');
    expect(unknown.json().details).toMatchObject({ headers: ['When', 'Who', 'How Much'] });
    // A testing customer, as for linking: test institutions only.
    const real = await ctx.runtime.database.kysely.selectFrom('institutions').select('id').where('class', '!=', 'testfi').limit(1).executeTakeFirstOrThrow();
    const elsewhere = await browser.call(
      'POST',
      `/dashboard/api/customers/${customerId}/institutions/${real.id}/statements`,
      WITH_A_PROBLEM as unknown as object,
      {
        'content-type': 'text/csv',
      },
    );
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([403, '14061']);
    expect(await loginsOf(customerId)).toEqual([]);
  });

  it('needs the session, its CSRF token and the same origin, and stores nothing without them', async () => {
    const customerId = await addCustomer(ctx, partner);
    const refusals: [Record<string, string>, number, string][] = [
      [{ 'x-csrf-token': 'not-the-token' }, 403, '14102'],
      [{ cookie: '' }, 401, '14100'],
      [{ origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' }, 403, '14103'],
    ];
    for (const [headers, status, code] of refusals) {
      const res = await upload(customerId, WITH_A_PROBLEM, '', headers);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
    }
    const withoutToken = await ctx.app.inject({
      method: 'POST',
      url: uploadPath(customerId),
      headers: { ...SAME_ORIGIN, cookie: `ledgerlink_dashboard=${browser.cookie}`, 'content-type': 'text/csv' },
      payload: WITH_A_PROBLEM,
    });
    expect([withoutToken.statusCode, withoutToken.json().code]).toEqual([403, '14102']);
    expect(await loginsOf(customerId)).toEqual([]);
  });

  it("refuses an upload beyond the partner's concurrent uploads with 429 without reading it, as the API does", async () => {
    const customerId = await addCustomer(ctx, partner);
    const held = [ctx.app.heavyWork.upload.tryTake(partner.partnerId), ctx.app.heavyWork.upload.tryTake(partner.partnerId)];
    try {
      expect(held.every(Boolean)).toBe(true);
      const res = await upload(customerId, WITH_A_PROBLEM);
      expect([res.statusCode, res.json().code, res.headers.connection]).toEqual([429, '10432', 'close']);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      for (const release of held) release?.();
    }
    expect((await upload(customerId, WITH_A_PROBLEM)).statusCode).toBe(200);
  });

  it('finds institutions in the catalogue: only test institutions for a testing customer, any for an active one', async () => {
    const testing = await addCustomer(ctx, partner);
    const active = await addCustomer(ctx, theirs, { type: 'active' });
    const theirBrowser = await dashboardSignIn(ctx, theirs.partnerId, theirs.partnerSecret);
    const search = async (customerId: string, text?: string) => {
      const res = await (customerId === active ? theirBrowser : browser).call(
        'GET',
        `/dashboard/api/customers/${customerId}/institutions${text ? `?search=${encodeURIComponent(text)}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { found: number; moreAvailable: boolean; institutions: { id: number; name: string }[] };
    };
    const listed = await search(testing);
    expect(listed.institutions.map((i) => i.id)).toEqual(expect.arrayContaining([FINBANK, 102105, 102106]));
    expect(listed.institutions.every((i) => i.name.startsWith('FinBank'))).toBe(true);
    expect(listed).toMatchObject({ found: listed.institutions.length, moreAvailable: false });
    expect((await search(testing, 'FinBank MFA')).institutions[0]).toEqual({ id: 102175, name: 'FinBank MFA' });
    expect(await search(testing, 'Chase')).toEqual({ found: 0, moreAvailable: false, institutions: [] });
    const chase = await search(active, 'Chase');
    expect(chase.found).toBeGreaterThan(0);
    expect(chase.institutions[0]!.name).toMatch(/Chase/);
    // A blank search lists, as no search does.
    expect((await search(testing, '   ')).found).toBe(listed.found);
  });
});
