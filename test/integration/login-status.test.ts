import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueRefreshes } from '../../src/modules/aggregation/schedule.service.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { DAY, linkProfile, nowOf, type AccountJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startOfxServer, type OfxServer, type OfxServerUser } from '../helpers/ofx-server.js';
import { uploadStatementOk } from '../helpers/statement-uploads.js';

/** The status record as JSON. */
interface StatusJson {
  institutionLoginId: number;
  customerId: string;
  institutionId: string;
  source: string;
  aggregationStatusCode: number;
  aggregationStatusMessage?: string;
  aggregationAttemptDate?: number;
  aggregationSuccessDate?: number;
  nextRefreshDate?: number;
  refreshSchedule: string;
  consecutiveFailures: number;
  refreshInProgress: boolean;
}

const HOUR = 3600;
const PASSWORD = 'secret-1';
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];

function ofxUser(userId: string): OfxServerUser {
  return {
    userId,
    password: PASSWORD,
    accounts: [
      {
        kind: 'bank',
        bankId: '121000358',
        acctId: `CHK-${userId}`,
        acctType: 'CHECKING',
        balance: 820.5,
        transactions: [{ fitId: 'F1', type: 'POS', posted: Math.floor(Date.UTC(2026, 0, 10) / 1000), amount: -4.75, name: 'CORNER CAFE' }],
      },
    ],
  };
}

let ofx: OfxServer;
let ctx: TestContext;
let production: TestPartner;
let testDrive: TestPartner;
let other: TestPartner;
let ofxInstitution: number;
const issuedAt = new Map<TestPartner, number>();
const unusedUsers = [...USERS];

beforeAll(async () => {
  ofx = await startOfxServer({ format: 'sgml', users: USERS.map(ofxUser) });
  ctx = await createTestContext();
  await ensureInstitutionCatalog(ctx.runtime.database);
  ofxInstitution = await addOfxInstitution(
    ctx.runtime.database,
    'sandbox',
    { name: 'Status Test Credit Union', url: ofx.url, fid: '4321', org: 'STCU' },
    nowOf(ctx),
  );
  production = await partnerWithToken(ctx, 'production');
  testDrive = await partnerWithToken(ctx);
  other = await partnerWithToken(ctx, 'production');
  for (const p of [production, testDrive, other]) issuedAt.set(p, nowOf(ctx));
});
afterAll(async () => {
  await ctx?.close();
  await ofx?.close();
});

/** The partner, with a token still valid at the clock's time (the tests move it hours ahead). */
async function fresh(who: TestPartner): Promise<TestPartner> {
  if (nowOf(ctx) - (issuedAt.get(who) ?? 0) < HOUR) return who;
  await renewToken(ctx, who);
  issuedAt.set(who, nowOf(ctx));
  return who;
}

const statusPath = (customerId: string, loginId: number | string) => `/aggregation/v1/customers/${customerId}/institutionLogins/${loginId}/status`;

async function getStatus(who: TestPartner, customerId: string, loginId: number | string, accept = 'application/json') {
  const caller = await fresh(who);
  return ctx.app.inject({ method: 'GET', url: statusPath(customerId, loginId), headers: { ...caller.headers, accept } });
}

async function status(who: TestPartner, customerId: string, loginId: number): Promise<StatusJson> {
  const res = await getStatus(who, customerId, loginId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StatusJson>();
}

/** "Refresh now": Refresh Customer Accounts by Institution Login. */
async function refreshNow(who: TestPartner, customerId: string, loginId: number): Promise<void> {
  const caller = await fresh(who);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/institutionLogins/${loginId}/accounts`,
    headers: caller.headers,
    payload: {},
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** An active customer of the production partner with an OFX user of its own linked. */
async function linkOfx(): Promise<{ customerId: string; loginId: number; userId: string }> {
  const userId = unusedUsers.shift()!;
  const customerId = await addCustomer(ctx, await fresh(production), { type: 'active' });
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/institutions/${ofxInstitution}/accounts/addall`,
    headers: production.headers,
    payload: {
      credentials: [
        { id: `${ofxInstitution}001`, value: userId },
        { id: `${ofxInstitution}002`, value: PASSWORD },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { customerId, loginId: res.json<{ accounts: AccountJson[] }>().accounts[0]!.institutionLoginId, userId };
}

/** Moves the clock to the login's next scheduled refresh, as the status names it, and lets the scheduler run it. */
async function runScheduled(who: TestPartner, customerId: string, loginId: number): Promise<void> {
  const next = (await status(who, customerId, loginId)).nextRefreshDate;
  expect(next).toBeGreaterThan(nowOf(ctx));
  ctx.clock.set(next! * 1000);
  expect(await runDueRefreshes(ctx.app.engine, { workerId: 'status-test', limit: 10 })).toEqual([expect.objectContaining({ loginId, result: 'refreshed' })]);
}

/** Expects `actual` `seconds` after now, give or take the schedule's 10%. */
function expectIn(actual: number | undefined, seconds: number): void {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - (nowOf(ctx) + seconds))).toBeLessThanOrEqual(Math.ceil(seconds / 10));
}

describe('the status of an institution login', () => {
  it('after a successful refresh: its source, the attempt and success now, the next refresh an interval ahead', async () => {
    const { customerId, loginId } = await linkOfx();
    const linked = await status(production, customerId, loginId);
    expect(linked).toMatchObject({
      institutionLoginId: loginId,
      customerId,
      institutionId: String(ofxInstitution),
      source: 'ofx',
      aggregationStatusCode: 0,
      refreshSchedule: 'scheduled',
      consecutiveFailures: 0,
      refreshInProgress: false,
    });
    expect(linked.aggregationStatusMessage).toBeUndefined();
    expectIn(linked.nextRefreshDate, DAY);

    ctx.clock.advance(HOUR * 1000);
    await refreshNow(production, customerId, loginId);
    const refreshed = await status(production, customerId, loginId);
    expect(refreshed).toMatchObject({
      aggregationStatusCode: 0,
      aggregationAttemptDate: nowOf(ctx),
      aggregationSuccessDate: nowOf(ctx),
      consecutiveFailures: 0,
    });
    expect(refreshed.refreshSchedule).toBe('scheduled');
    expectIn(refreshed.nextRefreshDate, DAY);
  });

  it('after a failure, and while the schedule backs off: failures in a row, the last success kept, retries 15 minutes on and doubling', async () => {
    const { customerId, loginId, userId } = await linkOfx();
    await refreshNow(production, customerId, loginId);
    const succeeded = nowOf(ctx);
    ctx.clock.advance(HOUR * 1000);
    ofx.setFailure(userId, { http: 503 });
    try {
      await refreshNow(production, customerId, loginId);
      const failed = await status(production, customerId, loginId);
      expect(failed).toMatchObject({
        source: 'ofx',
        aggregationStatusCode: 102,
        aggregationAttemptDate: nowOf(ctx),
        aggregationSuccessDate: succeeded,
        refreshSchedule: 'retrying',
        consecutiveFailures: 1,
      });
      expect(failed.aggregationStatusMessage).toEqual(expect.any(String));
      expectIn(failed.nextRefreshDate, 15 * 60);

      // The scheduler's retries fail too: each one counts, and the wait doubles (schedule.rules.ts).
      for (const [failures, wait] of [
        [2, 30 * 60],
        [3, 60 * 60],
      ] as const) {
        await runScheduled(production, customerId, loginId);
        const backingOff = await status(production, customerId, loginId);
        expect(backingOff).toMatchObject({
          aggregationStatusCode: 102,
          consecutiveFailures: failures,
          refreshSchedule: 'retrying',
          aggregationSuccessDate: succeeded,
        });
        expectIn(backingOff.nextRefreshDate, wait);
      }
    } finally {
      ofx.setFailure(userId, undefined);
    }

    // The next retry succeeds: the count starts again, the interval is back.
    await runScheduled(production, customerId, loginId);
    const recovered = await status(production, customerId, loginId);
    expect(recovered).toMatchObject({ aggregationStatusCode: 0, consecutiveFailures: 0, refreshSchedule: 'scheduled', aggregationSuccessDate: nowOf(ctx) });
    expect(recovered.aggregationStatusMessage).toBeUndefined();
    expectIn(recovered.nextRefreshDate, DAY);
  });

  it('after a failure only the user can fix: no next refresh, waiting for the user', async () => {
    const { customerId, loginId, userId } = await linkOfx();
    ofx.setFailure(userId, { signon: 15500 });
    try {
      await refreshNow(production, customerId, loginId);
    } finally {
      ofx.setFailure(userId, undefined);
    }
    const waiting = await status(production, customerId, loginId);
    expect(waiting).toMatchObject({ aggregationStatusCode: 103, refreshSchedule: 'waitingForUser', consecutiveFailures: 1 });
    expect(waiting.nextRefreshDate).toBeUndefined();
  });

  it('of a test bank login: refreshed only when asked, its failures counted all the same', async () => {
    const customerId = await addCustomer(ctx, await fresh(testDrive));
    const [account] = await linkProfile(ctx, testDrive, customerId, 'profile_03', 102105);
    const loginId = account!.institutionLoginId;
    await refreshNow(testDrive, customerId, loginId);
    const ok = await status(testDrive, customerId, loginId);
    expect(ok).toMatchObject({
      source: 'testbank',
      refreshSchedule: 'manual',
      aggregationStatusCode: 0,
      consecutiveFailures: 0,
      aggregationSuccessDate: nowOf(ctx),
    });
    expect(ok.nextRefreshDate).toBeUndefined();

    const caller = await fresh(testDrive);
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `/sandbox/v1/customers/${customerId}/institutionLogins/${loginId}/error`,
      headers: caller.headers,
      payload: { code: 102 },
    });
    expect(set.statusCode, set.body).toBe(200);
    await refreshNow(testDrive, customerId, loginId);
    expect(await status(testDrive, customerId, loginId)).toMatchObject({ aggregationStatusCode: 102, consecutiveFailures: 1, refreshSchedule: 'manual' });
  });

  it('of a statement-file login: the source is statement files, nothing is scheduled', async () => {
    const customerId = await addCustomer(ctx, await fresh(testDrive));
    const uploaded = await uploadStatementOk(ctx, testDrive, customerId, 'Date,Description,Amount\n2026-01-10,CORNER CAFE,-4.75\n', { type: 'text/csv' });
    const loginId = Number(uploaded.institutionLoginId);
    const s = await status(testDrive, customerId, loginId);
    expect(s).toMatchObject({ source: 'statementFile', refreshSchedule: 'manual', aggregationStatusCode: 0, consecutiveFailures: 0 });
    expect(s.nextRefreshDate).toBeUndefined();
  });

  it('answers in XML from the same schema', async () => {
    const { customerId, loginId } = await linkOfx();
    const res = await getStatus(production, customerId, loginId, 'application/xml');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const parsed = new XMLParser({ parseTagValue: false }).parse(res.body).institutionLoginStatus;
    expect(parsed).toMatchObject({
      institutionLoginId: String(loginId),
      customerId,
      source: 'ofx',
      aggregationStatusCode: '0',
      refreshSchedule: 'scheduled',
      consecutiveFailures: '0',
      refreshInProgress: 'false',
    });
    expect(Number(parsed.nextRefreshDate)).toBeGreaterThan(nowOf(ctx));
  });

  it("is another partner's: 404 exactly like an unknown login, and a login of another customer is not found under this one", async () => {
    const { customerId, loginId } = await linkOfx();
    const foreign = await getStatus(other, customerId, loginId);
    expect(foreign.statusCode).toBe(404);
    const unknown = await getStatus(production, customerId, 999_999_999);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: unknown.json().code, message: expect.any(String) });

    const otherCustomer = await addCustomer(ctx, await fresh(production), { type: 'active' });
    expect((await getStatus(production, otherCustomer, loginId)).statusCode).toBe(404);
    expect((await getStatus(production, customerId, 'not-a-number')).statusCode).toBe(404);
  });
});

describe("the CLI's list of a customer's logins (/cli/v1)", () => {
  it("names each login's institution with its status, and answers 404 for another partner's customer", async () => {
    const { customerId, loginId } = await linkOfx();
    const caller = await fresh(production);
    const url = `/cli/v1/customers/${customerId}/institutionLogins`;
    const own = await ctx.app.inject({ method: 'GET', url, headers: caller.headers });
    expect(own.statusCode, own.body).toBe(200);
    const direct = await status(production, customerId, loginId);
    expect(own.json()).toEqual({ customerId, institutionLogins: [{ ...direct, institutionName: 'Status Test Credit Union' }] });

    const foreign = await ctx.app.inject({ method: 'GET', url, headers: (await fresh(other)).headers });
    expect(foreign.statusCode).toBe(404);
    const unknown = await ctx.app.inject({ method: 'GET', url: '/cli/v1/customers/999999999/institutionLogins', headers: caller.headers });
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json().code).toBe(unknown.json().code);
  });
});

describe('with scheduled refresh turned off', () => {
  it('says so, and names no next refresh', async () => {
    const off = await createTestContext({ LEDGERLINK_REFRESH_INTERVAL_HOURS: '0' });
    try {
      await ensureInstitutionCatalog(off.runtime.database);
      const institution = await addOfxInstitution(off.runtime.database, 'sandbox', { name: 'Off Test Bank', url: ofx.url, fid: '1', org: 'OFF' }, nowOf(off));
      const who = await partnerWithToken(off, 'production');
      const customerId = await addCustomer(off, who, { type: 'active' });
      const linked = await off.app.inject({
        method: 'POST',
        url: `/aggregation/v1/customers/${customerId}/institutions/${institution}/accounts/addall`,
        headers: who.headers,
        payload: {
          credentials: [
            { id: `${institution}001`, value: unusedUsers.shift()! },
            { id: `${institution}002`, value: PASSWORD },
          ],
        },
      });
      expect(linked.statusCode, linked.body).toBe(200);
      const loginId = linked.json<{ accounts: AccountJson[] }>().accounts[0]!.institutionLoginId;
      const res = await off.app.inject({ method: 'GET', url: statusPath(customerId, loginId), headers: who.headers });
      expect(res.statusCode, res.body).toBe(200);
      const s = res.json<StatusJson>();
      expect(s).toMatchObject({ source: 'ofx', refreshSchedule: 'off' });
      expect(s.nextRefreshDate).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
