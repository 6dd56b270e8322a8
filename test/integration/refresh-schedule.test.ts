import { type Kysely, Migrator } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/modules/aggregation/engine.js';
import { finishLink, startLink } from '../../src/modules/aggregation/linking.service.js';
import { refreshLeaseUntil, updateLeasedLogin } from '../../src/modules/aggregation/logins.repository.js';
import { UPLOAD_LEASE } from '../../src/modules/aggregation/refresh.service.js';
import { claimDueLogins } from '../../src/modules/aggregation/schedule.repository.js';
import { runDueRefreshes, type ScheduledRefresh } from '../../src/modules/aggregation/schedule.service.js';
import { startRefreshScheduler, type RefreshScheduler, type RefreshSchedulerOptions } from '../../src/modules/aggregation/scheduler.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { newSigningKey } from '../../src/modules/txpush/keys.js';
import { enqueuePushNotifications } from '../../src/modules/txpush/notify.service.js';
import { insertSubscriptions } from '../../src/modules/txpush/repository.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { allTransactions, DAY, linkProfile, nowOf, refresh as refreshAll, type AccountJson, type TransactionJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { TEST_DATABASE_URL } from '../helpers/db.js';
import { waitFor } from '../helpers/listener.js';
import { startOfxServer, type OfxServer, type OfxServerTransaction, type OfxServerUser } from '../helpers/ofx-server.js';
import { demoAccounts, startSimplefinBridge, type SimplefinBridge } from '../helpers/simplefin-bridge.js';
import { startPushListener } from '../helpers/txpush.js';

// Each look at a login's refresh lease counted, so a test can tell when a refresh has found it held and waits for it.
vi.mock('../../src/modules/aggregation/logins.repository.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/modules/aggregation/logins.repository.js')>();
  return { ...original, refreshLeaseUntil: vi.fn(original.refreshLeaseUntil) };
});

/** Every context's manual clock starts here (test/helpers/context.ts), so the servers' data is dated from it. */
const START = Math.floor(new Date(Date.UTC(2026, 0, 15, 12, 0, 0)).getTime() / 1000);
const HOUR = 3600;
const USERS = Array.from({ length: 40 }, (_, i) => `user${i + 1}`);
const PASSWORD = 'secret-1';
/** What every user's checking account shows at first. */
const CHECKING: OfxServerTransaction[] = [
  { fitId: 'F1', type: 'DIRECTDEP', posted: START - 20 * DAY, amount: 2500, name: 'ACME CORP PAYROLL' },
  { fitId: 'F2', type: 'POS', posted: START - 3 * DAY, amount: -4.75, name: 'STARBUCKS 1234' },
];

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
        balance: 1520.75,
        transactions: CHECKING,
      },
    ],
  };
}

interface Service {
  ctx: TestContext;
  partner: TestPartner;
  ofxInstitution: number;
}

let ofx: OfxServer;
let bridge: SimplefinBridge;
let shared: Service;
/** The service of the running test (the bridge answers on its clock), and its parts. */
let ctx: TestContext;
let partner: TestPartner;
let ofxInstitution: number;
/** When each partner's token was issued: the clock moves days ahead, tokens last two hours. */
const issuedAt = new WeakMap<TestPartner, number>();
const unusedUsers = [...USERS];

/** A service (database, manual clock) with a production partner and the local OFX server in its catalogue. */
async function service(env: Record<string, string> = {}): Promise<Service> {
  const created = await createTestContext(env);
  const p = await partnerWithToken(created, 'production');
  issuedAt.set(p, nowOf(created));
  await ensureInstitutionCatalog(created.runtime.database);
  const institution = { name: 'Harbor Test Credit Union', url: ofx.url, fid: '1234', org: 'HTCU' };
  return { ctx: created, partner: p, ofxInstitution: await addOfxInstitution(created.runtime.database, 'sandbox', institution, nowOf(created)) };
}

function use(s: Service): void {
  ({ ctx, partner, ofxInstitution } = s);
}

/** A service of the test's own, for other settings. */
async function fresh(env: Record<string, string> = {}): Promise<void> {
  use(await service(env));
}

beforeAll(async () => {
  ofx = await startOfxServer({ format: 'sgml', users: USERS.map(ofxUser) });
  bridge = await startSimplefinBridge({ now: () => nowOf(ctx) });
  shared = await service();
});
afterAll(async () => {
  await shared?.ctx.close();
  await ofx?.close();
  await bridge?.close();
});
// Tests share a service; each starts with no other test's logins on the schedule.
beforeEach(async () => {
  use(shared);
  await db().updateTable('institution_logins').set({ refresh_due_at: null }).execute();
});
afterEach(async () => {
  if (ctx !== shared.ctx) await ctx.close();
});

const db = () => ctx.runtime.database.kysely;
const login = (id: number) => db().selectFrom('institution_logins').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const advance = (seconds: number) => ctx.clock.advance(seconds * 1000);
const runDue = (engine: Engine = ctx.app.engine, workerId = 'worker-a') => runDueRefreshes(engine, { workerId, limit: 10 });
const requestsOf = (userId: string) => ofx.requests.filter((r) => r.signon?.userId === userId);

/** The partner, with a token that is still valid at the clock's time. */
async function caller(): Promise<TestPartner> {
  if (nowOf(ctx) - (issuedAt.get(partner) ?? 0) < HOUR) return partner;
  await renewToken(ctx, partner);
  issuedAt.set(partner, nowOf(ctx));
  return partner;
}

const refresh = async (customerId: string) => refreshAll(ctx, await caller(), customerId);
const transactionsOf = async (customerId: string, days = 90): Promise<TransactionJson[]> =>
  allTransactions(ctx, await caller(), customerId, { fromDate: START - days * DAY, toDate: nowOf(ctx) });

async function addall(customerId: string, institutionId: number, credentials: { id: string; value: string }[]): Promise<AccountJson[]> {
  await caller();
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/institutions/${institutionId}/accounts/addall`,
    headers: partner.headers,
    payload: { credentials },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ accounts: AccountJson[] }>().accounts;
}

/**
 * Links an OFX user for a new active customer: the customer, its login and accounts, and the user. Unless told
 * otherwise, a user of its own of the shared server, at its institution.
 */
async function linkOfx(at?: {
  institutionId: number;
  userId: string;
}): Promise<{ customerId: string; loginId: number; accounts: AccountJson[]; userId: string }> {
  const userId = at?.userId ?? unusedUsers.shift();
  if (!userId) throw new Error('every OFX user of the server is linked already: add users to USERS');
  const institutionId = at?.institutionId ?? ofxInstitution;
  const customerId = await addCustomer(ctx, await caller(), { type: 'active' });
  const accounts = await addall(customerId, institutionId, [
    { id: `${institutionId}001`, value: userId },
    { id: `${institutionId}002`, value: PASSWORD },
  ]);
  return { customerId, loginId: accounts[0]!.institutionLoginId, accounts, userId };
}

async function linkSimplefin(): Promise<{ customerId: string; loginId: number; accounts: AccountJson[]; user: string }> {
  const customerId = await addCustomer(ctx, await caller(), { type: 'active' });
  const token = bridge.createSetupToken({ accounts: demoAccounts(nowOf(ctx)) });
  const accounts = await addall(customerId, SIMPLEFIN_INSTITUTION_ID, [{ id: `${SIMPLEFIN_INSTITUTION_ID}001`, value: token }]);
  return { customerId, loginId: accounts[0]!.institutionLoginId, accounts, user: bridge.userOf(token) };
}

/** Expects the login due the interval after now, give or take 10%. */
async function expectDueIn(loginId: number, seconds: number): Promise<void> {
  const row = await login(loginId);
  expect(row.refresh_due_at).not.toBeNull();
  expect(Math.abs(Number(row.refresh_due_at) - (nowOf(ctx) + seconds))).toBeLessThanOrEqual(Math.ceil(seconds / 10));
}

/** Moves the clock to the login's due time. */
async function untilDue(loginId: number): Promise<void> {
  const due = Number((await login(loginId)).refresh_due_at);
  expect(due).toBeGreaterThan(nowOf(ctx));
  ctx.clock.set(due * 1000);
}

const eventsSince = async (id: number) => db().selectFrom('aggregation_events').selectAll().where('id', '>', id).orderBy('id').execute();
const lastEventId = async () => Number((await db().selectFrom('aggregation_events').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0);

describe('the schedule fires with the manual clock', () => {
  it('refreshes an OFX login a day after linking, adds only new transactions, and raises the events and TxPUSH notifications of a manual refresh', async () => {
    const listener = await startPushListener();
    try {
      const { customerId, loginId, accounts, userId } = await linkOfx();
      await expectDueIn(loginId, DAY);
      // Not due yet: nothing is claimed, the institution is not asked.
      const asked = requestsOf(userId).length;
      advance(DAY / 2);
      expect(await runDue()).toEqual([]);
      expect(requestsOf(userId)).toHaveLength(asked);

      // The partner listens to the checking account (inserted directly: real institutions' accounts need an https listener).
      const checking = accounts.find((a) => a.type === 'checking')!;
      await insertSubscriptions(
        db(),
        (['account', 'transaction'] as const).map((cls) => ({
          partner_id: partner.partnerId,
          customer_id: Number(customerId),
          account_id: Number(checking.id),
          class: cls,
          callback_url: listener.url,
          format: 'json' as const,
          signing_key_encrypted: newSigningKey(ctx.runtime.keys).sealed,
          created_at: nowOf(ctx),
        })),
      );

      // The first scheduled refresh is the initial aggregation.
      await untilDue(loginId);
      expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
      expect(requestsOf(userId).length).toBeGreaterThan(asked);
      await expectDueIn(loginId, DAY);
      const first = await transactionsOf(customerId);
      expect(first.map((t) => t.description).sort()).toEqual(['ACME CORP PAYROLL', 'STARBUCKS 1234']);
      const pushedSince = async (n: number) => {
        expect(await db().selectFrom('deliveries').select('id').where('kind', '=', 'txpush').where('status', '=', 'pending').execute()).not.toEqual([]);
        await drainDeliveries(ctx.runtime, { workerId: 'test-deliveries', random: () => 0 });
        return listener
          .notifications()
          .slice(n)
          .map((r) => JSON.parse(r.body).event as { class: string; type: string; records: { description?: string }[] })
          .filter((e) => e.class === 'transaction');
      };
      const initial = await pushedSince(0);
      expect(initial.flatMap((e) => e.records.map((r) => [e.type, r.description])).sort()).toEqual([
        ['created', 'ACME CORP PAYROLL'],
        ['created', 'STARBUCKS 1234'],
      ]);

      // A day later the institution shows one more: only that one is added, with its events and notifications.
      const before = await lastEventId();
      const heard = listener.notifications().length;
      ofx.setTransactions(userId, `CHK-${userId}`, [
        ...CHECKING,
        { fitId: 'F3', type: 'POS', posted: nowOf(ctx) + DAY / 2, amount: -12.4, name: 'CORNER BAKERY' },
      ]);
      await untilDue(loginId);
      expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
      const second = await transactionsOf(customerId);
      expect(second.map((t) => t.description).sort()).toEqual(['ACME CORP PAYROLL', 'CORNER BAKERY', 'STARBUCKS 1234']);
      const added = second.filter((t) => !first.some((f) => f.id === t.id));
      expect(added.map((t) => t.description)).toEqual(['CORNER BAKERY']);
      const events = await eventsSince(before);
      expect(events.filter((e) => e.class === 'transaction').map((e) => [e.type, JSON.parse(e.record).description])).toEqual([['created', 'CORNER BAKERY']]);
      expect(await pushedSince(heard)).toEqual([
        expect.objectContaining({ type: 'created', records: [expect.objectContaining({ description: 'CORNER BAKERY' })] }),
      ]);

      // Nothing new: the next scheduled refresh adds nothing and records no transaction event.
      const quiet = await lastEventId();
      await untilDue(loginId);
      expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
      expect((await eventsSince(quiet)).filter((e) => e.class === 'transaction')).toEqual([]);
      const third = await transactionsOf(customerId);
      expect(third.map((t) => t.id).sort()).toEqual(second.map((t) => t.id).sort());
    } finally {
      await listener.close();
    }
  });

  it('refreshes a SimpleFIN login through the bridge, incrementally', async () => {
    const { customerId, loginId, user } = await linkSimplefin();
    await expectDueIn(loginId, DAY);
    await untilDue(loginId);
    expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
    const first = await transactionsOf(customerId);
    expect(first.map((t) => t.description)).toEqual(expect.arrayContaining(['ACME CORP PAYROLL', 'DELTA AIR LINES', 'INTEREST PAID']));

    const before = await lastEventId();
    bridge.addTransactions(user, 'ACT-checking', [{ id: 'TRN-new', posted: nowOf(ctx) + HOUR, amount: '-23.99', description: 'CORNER BAKERY' }]);
    await untilDue(loginId);
    const asked = bridge.accountRequests(user).length;
    expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
    expect(bridge.accountRequests(user).length).toBeGreaterThan(asked);
    const second = await transactionsOf(customerId);
    expect(second.filter((t) => !first.some((f) => f.id === t.id)).map((t) => t.description)).toEqual(['CORNER BAKERY']);
    const created = (await eventsSince(before)).filter((e) => e.class === 'transaction' && e.type === 'created');
    expect(created.map((e) => JSON.parse(e.record).description)).toEqual(['CORNER BAKERY']);
  });

  it('runs in the worker loop on the runtime clock, and stops cleanly', async () => {
    const { loginId, userId } = await linkOfx();
    const outcomes: ScheduledRefresh[] = [];
    const scheduler = startRefreshScheduler(ctx.app.engine, { pollIntervalMs: 10, onOutcome: (o) => outcomes.push(o) });
    try {
      // wake() resolves once a look has been made: one was, and the login, not due yet, was left alone.
      await scheduler.wake();
      expect((await login(loginId)).aggregation_success_at).toBeNull();
      await untilDue(loginId);
      // Due by the runtime clock, the loop's own polls refresh it.
      await waitFor('the scheduled refresh', () => outcomes.some((o) => o.loginId === loginId));
      expect(outcomes).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
      expect((await login(loginId)).aggregation_success_at).not.toBeNull();
    } finally {
      await scheduler.stop();
    }
    // Stopped: nothing is claimed any more, however much time passes, even when woken.
    const asked = requestsOf(userId).length;
    advance(3 * DAY);
    await scheduler.wake();
    expect(requestsOf(userId)).toHaveLength(asked);
    expect((await login(loginId)).refresh_lease_owner).toBeNull();
  });
});

describe('several workers', () => {
  it('refresh each due login exactly once when two claim at the same time', async () => {
    const linked = [];
    for (let i = 0; i < 6; i++) linked.push(await linkOfx());
    // The institution answers only once both workers have claimed a batch of two and asked it, so both take part
    // whatever the speed of each.
    for (const l of linked) ofx.hold(l.userId);
    const other = await secondProcess();
    try {
      advance(2 * DAY);
      const asked = new Map(linked.map((l) => [l.userId, requestsOf(l.userId).filter((r) => r.transactions.some((t) => t.kind === 'accountInfo')).length]));
      const drain = async (engine: Engine, workerId: string) => {
        const done: ScheduledRefresh[] = [];
        for (;;) {
          const batch = await runDueRefreshes(engine, { workerId, limit: 2, perInstitution: linked.length });
          if (batch.length === 0) return done;
          done.push(...batch);
        }
      };
      const draining = Promise.all([drain(ctx.app.engine, 'worker-a'), drain(other.engine, 'worker-b')]);
      await ofx.whenHeld(4);
      for (const l of linked) ofx.release(l.userId);
      const [a, b] = await draining;
      expect(a.length).toBeGreaterThan(0);
      expect(b.length).toBeGreaterThan(0);
      expect([...a, ...b].map((r) => r.loginId).sort()).toEqual(linked.map((l) => l.loginId).sort());
      expect([...a, ...b].every((r) => r.result === 'refreshed' && r.code === 0)).toBe(true);
      // The institution saw one refresh of each login.
      for (const l of linked) {
        expect(requestsOf(l.userId).filter((r) => r.transactions.some((t) => t.kind === 'accountInfo')).length - asked.get(l.userId)!).toBe(1);
        await expectDueIn(l.loginId, DAY);
      }
    } finally {
      for (const l of linked) ofx.release(l.userId);
      await other.close();
    }
  });

  it('leave a login another worker claimed alone until its lease runs out', async () => {
    const { loginId } = await linkOfx();
    advance(2 * DAY);
    const now = nowOf(ctx);
    // A worker claims it and dies before refreshing.
    const [claimed] = await claimDueLogins(db(), {
      owner: 'dead-worker#1',
      limit: 5,
      now,
      leaseUntil: now + ctx.app.engine.settings.refreshLeaseSeconds,
      perInstitution: 2,
    });
    expect(claimed?.id).toBe(loginId);
    expect(await runDue()).toEqual([]);
    advance(ctx.app.engine.settings.refreshLeaseSeconds + 1);
    expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
    // The dead worker's claim is gone: it could not store anything now.
    expect(await updateLeasedLogin(db(), loginId, 'dead-worker#1', { refresh_due_at: 0 })).toBe(false);
  });

  it('make a manual refresh of a login being refreshed on schedule wait for it instead of asking again', async () => {
    const { customerId, loginId, userId } = await linkOfx();
    ofx.hold(userId);
    try {
      await untilDue(loginId);
      const asked = requestsOf(userId).length;
      const scheduled = runDue();
      // The scheduled refresh holds the lease while the institution keeps it waiting.
      await ofx.whenHeld(1, userId);
      const leaseLooks = vi.mocked(refreshLeaseUntil);
      leaseLooks.mockClear();
      const manual = refresh(customerId);
      // Only once the manual refresh has found the lease taken, and looks whether it still is, does the institution answer.
      await waitFor('the manual refresh to wait for the lease', () => leaseLooks.mock.calls.some(([, id]) => id === loginId));
      ofx.release(userId);
      expect(await scheduled).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
      await manual;
      const once = requestsOf(userId).length - asked;
      // One refresh's requests: a second, separate refresh would have doubled them.
      const before = requestsOf(userId).length;
      await refresh(customerId);
      expect(requestsOf(userId).length - before).toBe(once);
    } finally {
      ofx.release(userId);
    }
  });
});

/** Schedulers a test starts, and what they reported. */
interface Workers {
  outcomes: ScheduledRefresh[];
  /** What became of the login, once a scheduler reports it. */
  outcomeOf(loginId: number): Promise<ScheduledRefresh>;
  /** A scheduler that looks at its start, when a refresh ends and when woken: never on its timer unless told. */
  start(engine: Engine, options?: RefreshSchedulerOptions): RefreshScheduler;
  stop(): Promise<void>;
}

function workers(): Workers {
  const outcomes: ScheduledRefresh[] = [];
  const waiting: Array<{ loginId: number; resolve: (o: ScheduledRefresh) => void }> = [];
  const started: RefreshScheduler[] = [];
  const heard = (o: ScheduledRefresh) => {
    outcomes.push(o);
    for (const w of waiting.filter((x) => x.loginId === o.loginId)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(o);
    }
  };
  return {
    outcomes,
    outcomeOf: (loginId) => {
      const known = outcomes.find((o) => o.loginId === loginId);
      return known ? Promise.resolve(known) : new Promise((resolve) => waiting.push({ loginId, resolve }));
    },
    start: (engine, options = {}) => {
      const scheduler = startRefreshScheduler(engine, { pollIntervalMs: HOUR * 1000, ...options, onOutcome: heard });
      started.push(scheduler);
      return scheduler;
    },
    stop: async () => {
      await Promise.all(started.map((s) => s.stop()));
    },
  };
}

const dueAt = (loginId: number, at: number) => db().updateTable('institution_logins').set({ refresh_due_at: at }).where('id', '=', loginId).execute();
const signOns = (server: OfxServer, userId: string) =>
  server.requests.filter((r) => r.signon?.userId === userId && r.transactions.some((t) => t.kind === 'accountInfo')).length;
const refreshed = (loginId: number): ScheduledRefresh => ({ loginId, result: 'refreshed', code: 0 });
/** Adds an OFX institution per entry, served by `server`, and links each of its users there: the logins, per institution. */
async function linkAtBanks(server: OfxServer, banks: [name: string, fid: string, users: string[]][]) {
  const logins = [];
  for (const [name, fid, users] of banks) {
    const institutionId = await addOfxInstitution(ctx.runtime.database, 'sandbox', { name, url: server.url, fid, org: fid }, nowOf(ctx));
    const linked = [];
    for (const userId of users) linked.push(await linkOfx({ institutionId, userId }));
    logins.push(linked);
  }
  return logins;
}
/** Claims at `now` as a worker would, at most two refreshes of an institution in flight. */
const claimAt = (now: number) => (limit: number) =>
  claimDueLogins(db(), { owner: 'worker-a#1', limit, now, leaseUntil: now + ctx.app.engine.settings.refreshLeaseSeconds, perInstitution: 2 });

describe('a manual refresh behind an upload', () => {
  it('waits for the upload to give the login back, then asks the institution itself', async () => {
    const { customerId, loginId, userId } = await linkOfx();
    await refresh(customerId);
    const before = requestsOf(userId).length;
    // A statement upload into one of the login's accounts holds its lease (the owner an upload takes).
    await db()
      .updateTable('institution_logins')
      .set({ refresh_lease_owner: `${UPLOAD_LEASE}test`, refresh_lease_until: nowOf(ctx) + HOUR })
      .where('id', '=', loginId)
      .execute();
    const leaseLooks = vi.mocked(refreshLeaseUntil);
    leaseLooks.mockClear();
    const manual = refresh(customerId);
    await waitFor('the manual refresh to wait for the lease', () => leaseLooks.mock.calls.some(([, id]) => id === loginId));
    await db().updateTable('institution_logins').set({ refresh_lease_owner: null, refresh_lease_until: null }).where('id', '=', loginId).execute();
    await manual;
    // The upload did not do the refresh's work: the institution was asked once the login was free.
    expect(requestsOf(userId).length).toBeGreaterThan(before);
  });
});

describe('slots, the per-institution cap and the lease', () => {
  it('keeps a login whose institution does not answer in one slot while the other slot refreshes logins that come due', async () => {
    const slow = await linkOfx();
    const others = [await linkOfx(), await linkOfx()];
    const now = nowOf(ctx);
    await dueAt(slow.loginId, now);
    for (const [i, o] of others.entries()) await dueAt(o.loginId, now + 60 * (i + 1));
    ofx.hold(slow.userId);
    const w = workers();
    try {
      const worker = w.start(ctx.app.engine, { workerId: 'worker-a', concurrency: 2 });
      await ofx.whenHeld(1, slow.userId);
      // Each comes due while the slow one waits for its institution, and is refreshed without waiting for it.
      for (const o of others) {
        advance(60);
        await worker.wake();
        expect(await w.outcomeOf(o.loginId)).toEqual(refreshed(o.loginId));
      }
      expect(ofx.heldCount(slow.userId)).toBe(1);
      expect((await login(slow.loginId)).refresh_lease_owner).toMatch(/^worker-a#/);
      expect(w.outcomes.map((o) => o.loginId)).toEqual(others.map((o) => o.loginId));
    } finally {
      ofx.release(slow.userId);
    }
    expect(await w.outcomeOf(slow.loginId)).toEqual(refreshed(slow.loginId));
    await w.stop();
    expect((await login(slow.loginId)).refresh_lease_owner).toBeNull();
  });

  it('keeps at most the cap of one institution’s refreshes in flight across workers, the rest waiting in due order without a slot, while other institutions’ logins go on', async () => {
    await fresh({ LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY: '2' });
    const slowUsers = ['slow1', 'slow2', 'slow3', 'slow4', 'slow5'];
    const slowServer = await startOfxServer({ format: 'sgml', users: slowUsers.map(ofxUser) });
    const other = await secondProcess();
    const w = workers();
    try {
      const slowBank = await addOfxInstitution(
        ctx.runtime.database,
        'sandbox',
        { name: 'Slow Test Bank', url: slowServer.url, fid: '5678', org: 'STB' },
        nowOf(ctx),
      );
      const slow = [];
      for (const userId of slowUsers) slow.push(await linkOfx({ institutionId: slowBank, userId }));
      const elsewhere = [await linkOfx(), await linkOfx(), await linkOfx()];
      // The slow institution's logins are the soonest due: were it not for the cap, they would take every slot.
      const now = nowOf(ctx);
      for (const [i, l] of slow.entries()) await dueAt(l.loginId, now - 100 + i);
      for (const [i, l] of elsewhere.entries()) await dueAt(l.loginId, now - 50 + i);
      for (const userId of slowUsers) slowServer.hold(userId);
      const linked = new Map(slowUsers.map((u) => [u, signOns(slowServer, u)]));

      // Two workers of four slots each on one database: the cap holds between them.
      w.start(ctx.app.engine, { workerId: 'worker-a', concurrency: 4 });
      w.start(other.engine, { workerId: 'worker-b', concurrency: 4 });
      for (const l of elsewhere) expect(await w.outcomeOf(l.loginId)).toEqual(refreshed(l.loginId));
      await slowServer.whenHeld(2);
      expect(slowServer.heldCount(slow[0]!.userId)).toBe(1);
      expect(slowServer.heldCount(slow[1]!.userId)).toBe(1);
      // The others wait unclaimed: no lease, no slot.
      for (const l of slow.slice(2)) expect((await login(l.loginId)).refresh_lease_owner).toBeNull();

      // As each one ends, the soonest due of those waiting takes its place.
      for (const [i, l] of slow.entries()) {
        slowServer.release(l.userId);
        expect(await w.outcomeOf(l.loginId)).toEqual(refreshed(l.loginId));
        const next = slow[i + 2];
        if (next) await slowServer.whenHeld(1, next.userId);
      }
      expect(slowServer.peakHeld()).toBe(2);
      for (const userId of slowUsers) expect(signOns(slowServer, userId) - linked.get(userId)!).toBe(1);
    } finally {
      for (const userId of slowUsers) slowServer.release(userId);
      await w.stop();
      await other.close();
      await slowServer.close();
    }
  });

  it('gives a freed slot to an institution with no refresh in flight before a busy institution’s older backlog', async () => {
    // Two institutions with backlogs, due before a third one's login: a slow one and one that never answers.
    const users = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'];
    const server = await startOfxServer({ format: 'sgml', users: users.map(ofxUser) });
    try {
      const [slow = [], dead = []] = await linkAtBanks(server, [
        ['Slow Test Bank', '5601', users.slice(0, 3)],
        ['Silent Test Bank', '5602', users.slice(3)],
      ]);
      const elsewhere = await linkOfx();
      const now = nowOf(ctx);
      for (const [i, l] of slow.entries()) await dueAt(l.loginId, now - 100 + i);
      for (const [i, l] of dead.entries()) await dueAt(l.loginId, now - 90 + i);
      const claim = claimAt(now);

      // Four slots: each institution with a backlog takes its cap, in due order (the claim stops short where the slow
      // institution reaches its cap, and the worker claims again).
      expect((await claim(4)).map((r) => r.id)).toEqual([slow[0]!.loginId, slow[1]!.loginId, dead[0]!.loginId]);
      expect((await claim(3)).map((r) => r.id)).toEqual([dead[1]!.loginId]);
      // A third institution's login comes due.
      await dueAt(elsewhere.loginId, now - 10);
      // One of the slow institution's refreshes ends: the slot goes to the institution with nothing in flight, not
      // back to the slow one, whose next login was due long before.
      await db()
        .updateTable('institution_logins')
        .set({ refresh_lease_owner: null, refresh_lease_until: null, refresh_due_at: now + DAY })
        .where('id', '=', slow[0]!.loginId)
        .execute();
      expect((await claim(1)).map((r) => r.id)).toEqual([elsewhere.loginId]);
      // With no idle institution left, the slow institution's backlog goes on below its cap.
      expect((await claim(1)).map((r) => r.id)).toEqual([slow[2]!.loginId]);
      expect((await login(dead[2]!.loginId)).refresh_lease_owner).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('takes one login of each institution with nothing in flight before a second of any, so a backlog whose refreshes all ended does not take every freed slot back', async () => {
    const users = ['a1', 'a2', 'a3', 'a4', 'b1', 'b2'];
    const server = await startOfxServer({ format: 'sgml', users: users.map(ofxUser) });
    try {
      const [slow = [], elsewhere = []] = await linkAtBanks(server, [
        ['Backlog Test Bank', '5611', users.slice(0, 4)],
        ['Other Test Bank', '5612', users.slice(4)],
      ]);
      const now = nowOf(ctx);
      for (const [i, l] of slow.entries()) await dueAt(l.loginId, now - 100 + i);
      for (const [i, l] of elsewhere.entries()) await dueAt(l.loginId, now - 10 + i);
      const claim = claimAt(now);

      // Two slots free and nothing in flight at either: the backlog's soonest and the other institution's soonest,
      // not the backlog's two soonest.
      expect((await claim(2)).map((r) => r.id)).toEqual([slow[0]!.loginId, elsewhere[0]!.loginId]);
      // Then the rest below their caps, in due order, each institution up to its cap of two.
      expect((await claim(1)).map((r) => r.id)).toEqual([slow[1]!.loginId]);
      expect((await claim(1)).map((r) => r.id)).toEqual([elsewhere[1]!.loginId]);
      expect(await claim(1)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('renews the lease of a refresh that runs past it, so a second worker on the database does not take the login', async () => {
    const { loginId, userId } = await linkOfx();
    await dueAt(loginId, nowOf(ctx));
    const lease = ctx.app.engine.settings.refreshLeaseSeconds;
    const renewing = createEngine(ctx.runtime, { onEventsRecorded: enqueuePushNotifications, settings: { refreshLeaseRenewalMs: 20 } });
    const other = await secondProcess();
    const w = workers();
    const asked = signOns(ofx, userId);
    ofx.hold(userId);
    try {
      w.start(renewing, { workerId: 'worker-a' });
      await ofx.whenHeld(1, userId);
      const owner = (await login(loginId)).refresh_lease_owner;
      expect(owner).toMatch(/^worker-a#/);
      // The second worker looks for due logins all the while.
      const second = w.start(other.engine, { workerId: 'worker-b', pollIntervalMs: 10 });
      // Half a lease at a time, three leases in all: after each step the lease is renewed, a whole lease from now.
      for (let step = 0; step < 6; step++) {
        advance(lease / 2);
        await vi.waitFor(async () => expect(Number((await login(loginId)).refresh_lease_until)).toBe(nowOf(ctx) + lease), { timeout: 10_000, interval: 10 });
        await second.wake();
        expect((await login(loginId)).refresh_lease_owner).toBe(owner);
      }
      expect(w.outcomes).toEqual([]);
    } finally {
      ofx.release(userId);
    }
    expect(await w.outcomeOf(loginId)).toEqual(refreshed(loginId));
    await w.stop();
    await other.close();
    // One refresh asked the institution, and it stored its outcome under the lease it kept.
    expect(signOns(ofx, userId) - asked).toBe(1);
    expect(w.outcomes).toEqual([refreshed(loginId)]);
    expect(await login(loginId)).toMatchObject({ refresh_lease_owner: null, refresh_lease_until: null, aggregation_status_code: 0 });
    await expectDueIn(loginId, DAY);
  });

  it('claims a login again once the lease of a refresh whose process died runs out, and not before', async () => {
    const { loginId, userId } = await linkOfx();
    const lease = ctx.app.engine.settings.refreshLeaseSeconds;
    const now = nowOf(ctx);
    await dueAt(loginId, now);
    // A worker claimed it and died mid-refresh: nothing renews its lease any more.
    const [claimed] = await claimDueLogins(db(), { owner: 'dead-worker#1', limit: 1, now, leaseUntil: now + lease, perInstitution: 2 });
    expect(claimed?.id).toBe(loginId);
    const other = await secondProcess();
    const w = workers();
    try {
      const worker = w.start(other.engine, { workerId: 'worker-b' });
      const asked = signOns(ofx, userId);
      advance(lease);
      await worker.wake();
      // Its last second: still the dead worker's.
      expect(w.outcomes).toEqual([]);
      expect((await login(loginId)).refresh_lease_owner).toBe('dead-worker#1');
      expect(signOns(ofx, userId)).toBe(asked);
      advance(1);
      await worker.wake();
      expect(await w.outcomeOf(loginId)).toEqual(refreshed(loginId));
      expect(signOns(ofx, userId) - asked).toBe(1);
    } finally {
      await w.stop();
      await other.close();
    }
    expect(await login(loginId)).toMatchObject({ refresh_lease_owner: null, aggregation_status_code: 0 });
    // The dead worker's claim is gone: it could not store anything now.
    expect(await updateLeasedLogin(db(), loginId, 'dead-worker#1', { refresh_due_at: 0 })).toBe(false);
  });
});

describe('failures', () => {
  it('back off after temporary failures (102): 15 minutes, doubling, and back to the interval after a success', async () => {
    const { loginId, userId } = await linkOfx();
    ofx.setFailure(userId, { http: 503 });
    try {
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        await untilDue(loginId);
        expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 102 }]);
        const row = await login(loginId);
        expect(row.aggregation_status_code).toBe(102);
        expect(row.refresh_failures).toBe(i + 1);
        waits.push(Number(row.refresh_due_at) - nowOf(ctx));
      }
      const expected = [900, 1800, 3600, 7200];
      waits.forEach((w, i) => expect(Math.abs(w - expected[i]!)).toBeLessThanOrEqual(expected[i]! / 10));
    } finally {
      ofx.setFailure(userId, undefined);
    }
    await untilDue(loginId);
    expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
    expect((await login(loginId)).refresh_failures).toBe(0);
    await expectDueIn(loginId, DAY);
  });

  it('stop after a failure the user must fix (103) until Connect Fix succeeds', async () => {
    const { customerId, loginId, userId } = await linkOfx();
    ofx.setFailure(userId, { signon: 15500 });
    await untilDue(loginId);
    expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 103 }]);
    expect((await login(loginId)).refresh_due_at).toBeNull();
    // The credentials are known to be wrong: the institution is not asked again, however long it waits.
    const asked = requestsOf(userId).length;
    advance(10 * DAY);
    expect(await runDue()).toEqual([]);
    // Nor by a manual refresh, which leaves it off the schedule.
    await refresh(customerId);
    expect(requestsOf(userId)).toHaveLength(asked);
    expect((await login(loginId)).refresh_due_at).toBeNull();

    // The user signs in again (Connect Fix): back on the schedule.
    ofx.setFailure(userId, undefined);
    const step = await startLink(ctx.app.engine, {
      partnerId: partner.partnerId,
      customerId,
      institutionId: ofxInstitution,
      institutionLoginId: loginId,
      credentials: [
        { id: `${ofxInstitution}001`, value: userId },
        { id: `${ofxInstitution}002`, value: PASSWORD },
      ],
    });
    expect(step.step).toBe('accounts');
    await finishLink(ctx.app.engine, { partnerId: partner.partnerId, sessionId: step.sessionId });
    await expectDueIn(loginId, DAY);
    await untilDue(loginId);
    expect(await runDue()).toEqual([{ loginId, result: 'refreshed', code: 0 }]);
  });
});

describe('what is scheduled', () => {
  it('never schedules test bank logins', async () => {
    const testing = await addCustomer(ctx, await caller(), { type: 'testing' });
    const [account] = await linkProfile(ctx, await caller(), testing, 'profile_03', 102105);
    await refresh(testing);
    expect((await login(account!.institutionLoginId)).refresh_due_at).toBeNull();
    advance(30 * DAY);
    expect(await runDue()).toEqual([]);
  });

  it('takes a statement-file login it finds due off the schedule without asking anyone', async () => {
    const { loginId, userId } = await linkOfx();
    await db()
      .updateTable('institution_logins')
      .set({ source: 'statement-file', refresh_due_at: nowOf(ctx) })
      .where('id', '=', loginId)
      .execute();
    const asked = requestsOf(userId).length;
    expect(await runDue()).toEqual([{ loginId, result: 'unscheduled' }]);
    expect(await login(loginId)).toMatchObject({ refresh_due_at: null, refresh_lease_owner: null });
    expect(requestsOf(userId)).toHaveLength(asked);
    advance(30 * DAY);
    expect(await runDue()).toEqual([]);
  });

  it('schedules nothing with LEDGERLINK_REFRESH_INTERVAL_HOURS=0', async () => {
    await fresh({ LEDGERLINK_REFRESH_INTERVAL_HOURS: '0' });
    const { loginId, userId } = await linkOfx();
    const asked = requestsOf(userId).length;
    advance(30 * DAY);
    expect(await runDue()).toEqual([]);
    // Woken, a scheduler that ran would look and refresh the login, due for weeks: this one does nothing.
    const scheduler = startRefreshScheduler(ctx.app.engine, { pollIntervalMs: 10 });
    await scheduler.wake();
    await scheduler.stop();
    expect(requestsOf(userId)).toHaveLength(asked);
    expect((await login(loginId)).aggregation_success_at).toBeNull();
  });

  it('keeps a SimpleFIN login within the bridge’s daily quota when manual and scheduled refreshes both run', async () => {
    await fresh({ LEDGERLINK_REFRESH_INTERVAL_HOURS: '1' });
    const { customerId, loginId, user } = await linkSimplefin();
    const times: number[] = [];
    const record = (since: number) => {
      for (let i = since; i < bridge.accountRequests(user).length; i++) times.push(nowOf(ctx));
    };
    record(0);
    // The user refreshes every 16 minutes until the day's 24 requests are spent.
    while (times.length < 24) {
      advance(16 * 60);
      const n = bridge.accountRequests(user).length;
      await refresh(customerId);
      record(n);
    }
    expect(times).toHaveLength(24);
    // The login is due (an hour after the last manual refresh); the schedule does not ask, it waits for half the quota.
    await untilDue(loginId);
    const [deferred] = await runDue();
    expect(deferred).toMatchObject({ loginId, result: 'deferred' });
    expect(bridge.accountRequests(user)).toHaveLength(24);
    const dueAt = (deferred as { dueAt: number }).dueAt;
    expect(dueAt).toBe(times[12]! + DAY);
    expect((await login(loginId)).refresh_due_at).toBe(dueAt);
    expect((await login(loginId)).aggregation_status_code).toBe(0);
    // A manual refresh meanwhile is refused by the quota without asking either.
    advance(HOUR);
    await refresh(customerId);
    expect(bridge.accountRequests(user)).toHaveLength(24);
    expect((await login(loginId)).aggregation_status_code).toBe(102);

    // Once half the quota is free again the scheduled refresh runs, and goes on no more often than that.
    ctx.clock.set(dueAt * 1000);
    for (let i = 0; i < 30; i++) {
      const n = bridge.accountRequests(user).length;
      for (const r of await runDue()) expect(['refreshed', 'deferred']).toContain(r.result);
      record(n);
      const due = (await login(loginId)).refresh_due_at;
      ctx.clock.set(Math.max(nowOf(ctx) + 60, Number(due)) * 1000);
    }
    expect(times.length).toBeGreaterThan(24);
    for (const t of times) expect(times.filter((u) => u > t - DAY && u <= t).length).toBeLessThanOrEqual(24);
  });
});

describe('migration 0019', () => {
  it('schedules the existing logins of real institutions a day after their last success, except those that need the user', async () => {
    await fresh();
    const healthy = await linkOfx();
    const broken = await linkOfx();
    const sandboxed = await linkOfx();
    const testing = await addCustomer(ctx, await caller(), { type: 'testing' });
    const [testAccount] = await linkProfile(ctx, await caller(), testing, 'profile_03', 102105);
    const migrator = new Migrator({
      db: db() as unknown as Kysely<unknown>,
      provider: { getMigrations: async () => migrations },
      allowUnorderedMigrations: true,
      ...(ctx.db.pgSchema ? { migrationTableSchema: ctx.db.pgSchema } : {}),
    });
    expect((await migrator.migrateTo('0018_ofx_servers')).error).toBeUndefined();
    const success = nowOf(ctx) - 2 * HOUR;
    const raw = db() as unknown as Kysely<{
      institution_logins: { id: number; aggregation_success_at: number; aggregation_status_code: number; sandbox_failure_code: number };
    }>;
    await raw.updateTable('institution_logins').set({ aggregation_success_at: success }).where('id', '=', healthy.loginId).execute();
    await raw.updateTable('institution_logins').set({ aggregation_status_code: 103 }).where('id', '=', broken.loginId).execute();
    await raw.updateTable('institution_logins').set({ sandbox_failure_code: 102 }).where('id', '=', sandboxed.loginId).execute();
    await migrateToLatest(ctx.runtime.database);
    const due = Number((await login(healthy.loginId)).refresh_due_at);
    expect(Math.abs(due - (success + DAY))).toBeLessThanOrEqual(DAY / 10);
    expect((await login(healthy.loginId)).refresh_failures).toBe(0);
    for (const id of [broken.loginId, sandboxed.loginId, testAccount!.institutionLoginId]) expect((await login(id)).refresh_due_at).toBeNull();
  });
});

/** Another process on the same database: its own connections on PostgreSQL (the in-memory SQLite database has one). */
async function secondProcess(): Promise<{ engine: Engine; close(): Promise<void> }> {
  if (!ctx.db.pgSchema) return { engine: createEngine(ctx.runtime, { onEventsRecorded: enqueuePushNotifications }), close: async () => undefined };
  const database = openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: ctx.db.pgSchema, poolSize: 5 });
  return { engine: createEngine({ ...ctx.runtime, database }, { onEventsRecorded: enqueuePushNotifications }), close: () => database.close() };
}
