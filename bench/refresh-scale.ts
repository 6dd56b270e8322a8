/**
 * Scheduled refreshes at scale: many logins due at an institution that answers slowly, a few at one that never
 * answers and a few at one that answers at once, refreshed by the service's own worker as deployed.
 *
 *   npx tsx bench/refresh-scale.ts [--logins 10000] [--dead 20] [--fast 10] [--answer-ms 2000] [--window 120]
 *                                  [--configs sqlite,sqlite-workers-2,postgres,postgres-workers-2,postgres-worker] [--write]
 *
 * Institutions: three local OFX Direct Connect servers (test/helpers/ofx-server.ts) in this process, added to the
 * catalogue as operators add theirs. The slow one answers every request after --answer-ms (a refresh of a login with
 * one account makes three requests one after another: the account list, a short statement for the balance, the
 * statement of the refresh window); the dead one reads each request and never answers (the connector gives up after
 * its 60 s time limit, 102); the fast one answers at once. Each has one user with one checking account, and one new
 * transaction appears before the measurement, so every refresh that succeeds stores one transaction.
 *
 * The store: for each configuration a new one (SQLite file, or a PostgreSQL schema on TEST_DATABASE_URL), filled
 * in this process before the service starts, the way `ledgerlink seed` fills one but with active customers (seed's
 * testing customers may link test institutions only): per institution, one customer links for real through the
 * aggregation engine (startLink, finishLink, a first refresh), and the others receive copies of its login, account
 * and transactions in batches (the sandbox seed's repository functions: insertCustomers, copyTemplate), the rows
 * linking the same user would store. Their next refresh is then a day away, as after any link.
 *
 * A run: the service starts from dist/ as npm start runs it (`serve`, `serve --workers 2`, or on PostgreSQL `serve`
 * with a `ledgerlink worker` beside it: two refresh workers), scheduled refresh on with the default interval and
 * concurrency settings. 5 s after it listens, the slow and dead institutions' logins are made due now (one UPDATE,
 * as a test does), and the window starts when the worker's next look (at most its 30 s poll) claims the first of
 * them. During the window each fast-institution login becomes due in turn (the first 5 s in, then every few seconds
 * over the first half), and the time from its due time to its refresh stored is recorded (the store polled every
 * 200 ms). The window ends when every slow login and fast login is refreshed, or after --window seconds; the time to
 * refresh every slow login is then extrapolated from the rate measured since the first of them was stored, and the
 * table says so. CPU is that of the processes running the refresh worker (serve's, its primary with --workers, and
 * `ledgerlink worker`; /proc/PID/stat: user and system, all threads) over the window, less what they use idle, per
 * outcome stored (each institution's, the dead one's failures included); idle is measured for 20 s after the window,
 * once nothing is due and the institutions are gone. The HTTP processes of --workers take no part in refreshes.
 * Peak RSS is each process's high-water mark, HTTP processes included.
 *
 * --write puts the table into docs/benchmarks.md ("Scheduled refreshes at scale").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/main/config.js';
import { openRuntime, type Runtime } from '../src/main/runtime.js';
import { REFRESH_POLL_MS } from '../src/modules/aggregation/scheduler.js';
import { addOfxInstitution } from '../src/modules/institutions/service.js';
import { createPartner } from '../src/modules/partners/service.js';
import { readTemplate, settleAfterBulkLoad } from '../src/modules/sandbox/seed.repository.js';
import { copyToNewCustomers } from '../src/modules/sandbox/seed.service.js';
import { createEngine } from '../src/modules/aggregation/engine.js';
import { finishLink, startLink } from '../src/modules/aggregation/linking.service.js';
import { refreshCustomerAccounts } from '../src/modules/aggregation/refresh.service.js';
import { createCustomer } from '../src/modules/customers/service.js';
import { enqueuePushNotifications } from '../src/modules/txpush/notify.service.js';
import type { DialectName } from '../src/platform/db/database.js';
import { type OfxServer, type OfxServerTransaction, startOfxServer } from '../test/helpers/ofx-server.js';
import { childPids, cpuMs, type Running, rssMb, startLedgerlink, startLedgerlinkWorker, stop } from './lib/process.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { createPgSchema, type PgSchema } from './lib/store.js';

const { values } = parseArgs({
  options: {
    logins: { type: 'string', default: '10000' },
    dead: { type: 'string', default: '20' },
    fast: { type: 'string', default: '10' },
    'answer-ms': { type: 'string', default: '2000' },
    window: { type: 'string', default: '120' },
    configs: { type: 'string', default: 'sqlite,sqlite-workers-2,postgres,postgres-workers-2,postgres-worker' },
    write: { type: 'boolean', default: false },
  },
});

const DAY = 86_400;
/** The settings the service runs with: the defaults, unless this environment sets some (it is passed on). */
const DEFAULTS = loadConfig(process.env);
/** The one user of each server; the fill signs in with its name as user id and password. */
const USER = 'bench';
const ACCOUNT = 'CHK-0001';
/** The OFX connector's time limit for one exchange (src/connectors/ofx/source.ts): what a dead institution holds a slot for. */
const DEAD_TIMEOUT_S = 60;
/** Requests one refresh of a login with one bank account makes (src/connectors/ofx/connector.ts). */
const REQUESTS_PER_REFRESH = 3;
/** A pause for work that follows a change (the service's start, its last refreshes), and how long idle CPU is measured. */
const SETTLE_MS = 5000;
const IDLE_MS = 20_000;
/** How often the window counts stored outcomes (the fast logins are looked at every 200 ms). */
const COUNT_EVERY_MS = 500;
/** Customers copied per database transaction while filling. */
const FILL_BATCH = 500;
/** Seconds into the window the first fast-institution login becomes due. */
const FAST_FIRST_S = 5;

interface Configuration {
  key: string;
  label: string;
  dialect: DialectName;
  serveArgs: string[];
  /** A `ledgerlink worker` beside serve: a second process claiming due logins (PostgreSQL only). */
  secondWorker: boolean;
}

const CONFIGURATIONS: Configuration[] = [
  { key: 'sqlite', label: 'SQLite, `serve`', dialect: 'sqlite', serveArgs: [], secondWorker: false },
  { key: 'sqlite-workers-2', label: 'SQLite, `serve --workers 2`', dialect: 'sqlite', serveArgs: ['--workers', '2'], secondWorker: false },
  { key: 'postgres', label: 'PostgreSQL, `serve`', dialect: 'postgres', serveArgs: [], secondWorker: false },
  { key: 'postgres-workers-2', label: 'PostgreSQL, `serve --workers 2`', dialect: 'postgres', serveArgs: ['--workers', '2'], secondWorker: false },
  { key: 'postgres-worker', label: 'PostgreSQL, `serve` + `ledgerlink worker`', dialect: 'postgres', serveArgs: [], secondWorker: true },
];

interface Counts {
  slow: number;
  dead: number;
  fast: number;
}

interface Institutions {
  slow: OfxServer;
  dead: OfxServer;
  fast: OfxServer;
  close(): Promise<void>;
}

interface Result {
  config: Configuration;
  fillSeconds: number;
  windowSeconds: number;
  /** Slow-institution logins refreshed (stored with status 0) in the window, and failed ones. */
  slowDone: number;
  slowFailed: number;
  /** Dead-institution logins whose attempt ended (102 after the time limit). */
  deadDone: number;
  /** Slow logins stored per second: the least-squares slope of the counts from the first one stored on. */
  slowRate: number;
  /** Every stored outcome per second over the window. */
  allRate: number;
  /** Seconds until every slow login was stored, measured, or extrapolated when `complete` is false. */
  allSlowSeconds: number;
  complete: boolean;
  /** Requests the slow institution received in the window per slow login stored. */
  requestsPerRefresh: number;
  cpuPerRefreshMs: number;
  grossCpuPerRefreshMs: number;
  idleCpuMsPerSecond: number;
  /** Peak RSS per process, MB: serve's primary first. */
  peakRss: number[];
  /** Seconds from due to stored of each fast login stored in the window. */
  fastWaits: number[];
  /** Seconds each fast login due but not stored had waited when the window ended. */
  fastOpen: number[];
}

/** The account's transactions at the servers: two when the logins link, a third from the measurement on. */
function transactionsAt(now: number, count: 2 | 3): OfxServerTransaction[] {
  return [
    { fitId: 'F1', type: 'DIRECTDEP', posted: now - 20 * DAY, amount: 2500, name: 'ACME CORP PAYROLL' },
    { fitId: 'F2', type: 'POS', posted: now - 3 * DAY, amount: -4.75, name: 'STARBUCKS 1234' },
    { fitId: 'F3', type: 'POS', posted: now - DAY, amount: -23.1, name: 'SAFEWAY #1482' },
  ].slice(0, count);
}

async function institutions(now: number): Promise<Institutions> {
  const transactions = transactionsAt(now, 2);
  const server = () =>
    startOfxServer({
      format: 'sgml',
      users: [
        {
          userId: USER,
          password: USER,
          accounts: [{ kind: 'bank', bankId: '121000358', acctId: ACCOUNT, acctType: 'CHECKING', balance: 1520.75, transactions }],
        },
      ],
    });
  const [slow, dead, fast] = [await server(), await server(), await server()];
  let closed: Promise<void> | undefined;
  return {
    slow,
    dead,
    fast,
    close: () => (closed ??= Promise.all([slow.close(), dead.close(), fast.close()]).then(() => undefined)),
  };
}

/** From now on every refresh finds one transaction it has not stored yet; the slow server answers late, the dead one never. */
function degrade(servers: Institutions, answerMs: number, now: number): void {
  for (const s of [servers.slow, servers.fast]) s.setTransactions(USER, ACCOUNT, transactionsAt(now, 3));
  servers.slow.setFailure(USER, { delayMs: answerMs });
  servers.dead.hold(USER);
}

interface Filled {
  runtime: Runtime;
  slowId: number;
  deadId: number;
  fastId: number;
  fastLogins: number[];
  seconds: number;
}

/** Fills a new store as the header says; its runtime stays open for the benchmark's own reads and updates. */
async function fill(dataDir: string, schema: PgSchema | undefined, servers: Institutions, counts: Counts): Promise<Filled> {
  const t0 = performance.now();
  const runtime = await openRuntime(loadConfig({ LEDGERLINK_DATA_DIR: dataDir, DATABASE_URL: schema?.url ?? '' }));
  const now = Math.floor(Date.now() / 1000);
  const partner = await createPartner(runtime, { name: 'Scheduled refresh benchmark', plan: 'production' });
  const add = (name: string, server: OfxServer, fid: string) =>
    addOfxInstitution(runtime.database, 'sandbox', { name, url: server.url, fid, org: name.split(' ')[1]!.toUpperCase() }, now);
  const slowId = await add('Benchmark Slow Savings', servers.slow, '9101');
  const deadId = await add('Benchmark Dead Savings', servers.dead, '9102');
  const fastId = await add('Benchmark Fast Savings', servers.fast, '9103');
  const engine = createEngine(runtime, { onEventsRecorded: enqueuePushNotifications });
  const caller = { partnerId: partner.partnerId, plan: 'production' as const };
  for (const [institutionId, customers, prefix] of [
    [slowId, counts.slow, 'slow'],
    [deadId, counts.dead, 'dead'],
    [fastId, counts.fast, 'fast'],
  ] as const) {
    const username = (n: number) => `${prefix}_${String(n).padStart(7, '0')}`;
    // The first customer links for real, as a partner's customer does through Connect.
    const first = await createCustomer(runtime, caller, 'active', { username: username(1), firstName: 'Bench', lastName: 'Customer' });
    const step = await startLink(engine, {
      partnerId: partner.partnerId,
      customerId: String(first.id),
      institutionId,
      credentials: [
        { id: `${institutionId}001`, value: USER },
        { id: `${institutionId}002`, value: USER },
      ],
    });
    if (step.step !== 'accounts') throw new Error(`linking at ${prefix} failed: ${JSON.stringify(step)}`);
    await finishLink(engine, { partnerId: partner.partnerId, sessionId: step.sessionId });
    await refreshCustomerAccounts(engine, partner.partnerId, first.id);
    // The others get copies of its rows, in batches, as the sandbox seed gives them (with active customers).
    const { template } = await readTemplate(runtime.database.kysely, first.id);
    await copyToNewCustomers(runtime.database, template, {
      partnerId: partner.partnerId,
      type: 'active',
      firstName: 'Bench',
      username,
      customers,
      batchSize: FILL_BATCH,
      now: Math.floor(Date.now() / 1000),
      onBatch: (done) => {
        if (done % 2000 === 0 || done === customers) process.stderr.write(`  ${prefix}: ${done} of ${customers} linked\n`);
      },
    });
  }
  await engine.idle();
  await settleAfterBulkLoad(runtime.database);
  const fastLogins = (
    await runtime.database.kysely.selectFrom('institution_logins').select('id').where('institution_id', '=', fastId).orderBy('id').execute()
  ).map((r) => r.id);
  return { runtime, slowId, deadId, fastId, fastLogins, seconds: (performance.now() - t0) / 1000 };
}

/** The least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx > 0 ? sxy / sxx : 0;
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function run(config: Configuration, counts: Counts, answerMs: number, windowS: number): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-refresh-'));
  const schema = config.dialect === 'postgres' ? await createPgSchema() : undefined;
  const env = schema ? { DATABASE_URL: schema.url } : {};
  const start = Math.floor(Date.now() / 1000);
  const servers = await institutions(start);
  let filled: Filled | undefined;
  const processes: Running[] = [];
  try {
    process.stderr.write(`${config.label}: filling the store (${counts.slow} + ${counts.dead} + ${counts.fast} logins)...\n`);
    filled = await fill(dataDir, schema, servers, counts);
    process.stderr.write(`  filled in ${filled.seconds.toFixed(1)} s\n`);
    const db = filled.runtime.database.kysely;
    degrade(servers, answerMs, start);

    const served = await startLedgerlink(dataDir, env, config.serveArgs);
    processes.push(served);
    if (config.secondWorker) processes.push({ child: await startLedgerlinkWorker(dataDir, env), url: '' });
    const pids = () => processes.flatMap((p) => [p.child.pid!, ...childPids(p.child.pid!)]);
    // The processes that run the refresh worker: serve's (its primary with --workers) and `ledgerlink worker`.
    const cpu = () => processes.reduce((sum, p) => sum + cpuMs(p.child.pid!), 0);

    await sleep(SETTLE_MS);

    const dueNow = Math.floor(Date.now() / 1000);
    await db.updateTable('institution_logins').set({ refresh_due_at: dueNow }).where('institution_id', 'in', [filled.slowId, filled.deadId]).execute();
    const leased = async (institutionId?: number) =>
      Number(
        (
          await db
            .selectFrom('institution_logins')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('refresh_lease_owner', 'is not', null)
            .$if(institutionId !== undefined, (q) => q.where('institution_id', '=', institutionId!))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const lookDeadline = performance.now() + REFRESH_POLL_MS * 2 + 10_000;
    while ((await leased()) === 0) {
      if (performance.now() > lookDeadline) throw new Error('no worker claimed a due login within two poll intervals');
      await sleep(100);
    }
    const w0 = performance.now();
    const w0Epoch = Date.now() / 1000;
    const cpu0 = cpu();
    const slowRequests0 = servers.slow.requests.length;

    // Fast logins become due one after another over the first half of the window.
    const spacing = Math.max(1, Math.min(5, Math.floor(windowS / 2 / Math.max(1, counts.fast))));
    const fastDue = new Map<number, number>();
    for (const [i, id] of filled.fastLogins.entries()) {
      const due = Math.floor(w0Epoch) + FAST_FIRST_S + i * spacing;
      fastDue.set(id, due);
      await db.updateTable('institution_logins').set({ refresh_due_at: due }).where('id', '=', id).execute();
    }
    const fastStored = new Map<number, number>();
    // A stored outcome plans the next refresh at least 13.5 minutes on (a failure's first retry, less its jitter).
    const planned = Math.floor(w0Epoch) + 600;
    let slow = { done: 0, failed: 0 };
    let dead = 0;
    // (ms since the window began, slow logins stored) at each count from the first one stored on.
    const samples: [number, number][] = [];
    let nextCount = 0;
    let nextReport = w0 + 10_000;
    for (;;) {
      const now = performance.now();
      const rows = await db.selectFrom('institution_logins').select(['id', 'refresh_due_at']).where('id', 'in', filled.fastLogins).execute();
      for (const r of rows) if (!fastStored.has(r.id) && Number(r.refresh_due_at) > planned) fastStored.set(r.id, Date.now() / 1000);
      if (now >= nextCount) {
        nextCount = now + COUNT_EVERY_MS;
        const byInstitution = await db
          .selectFrom('institution_logins')
          .select((eb) => ['institution_id', 'aggregation_status_code', eb.fn.countAll().as('n')])
          .where('refresh_due_at', '>', planned)
          .where('institution_id', 'in', [filled.slowId, filled.deadId])
          .groupBy(['institution_id', 'aggregation_status_code'])
          .execute();
        const n = (institution: number, ok?: boolean) =>
          byInstitution
            .filter((r) => r.institution_id === institution && (ok === undefined || (r.aggregation_status_code === 0) === ok))
            .reduce((sum, r) => sum + Number(r.n), 0);
        slow = { done: n(filled.slowId, true), failed: n(filled.slowId, false) };
        dead = n(filled.deadId);
        if (slow.done > 0) samples.push([now - w0, slow.done]);
        if (now >= nextReport) {
          nextReport += 10_000;
          process.stderr.write(
            `  ${((now - w0) / 1000).toFixed(0)} s: slow ${slow.done}/${counts.slow} (${slow.failed} failed), dead ${dead}/${counts.dead}, fast ${fastStored.size}/${counts.fast}\n`,
          );
        }
        if (slow.done + slow.failed >= counts.slow && fastStored.size >= counts.fast) break;
      }
      if (now - w0 >= windowS * 1000) break;
      await sleep(200);
    }
    const windowSeconds = (performance.now() - w0) / 1000;
    const used = cpu() - cpu0;
    const stored = slow.done + slow.failed + dead + fastStored.size;
    const peakRss = pids().map((pid) => rssMb(pid)?.peak ?? Number.NaN);

    // Idle, warm: nothing due any more, and the refreshes in flight end at once with their institutions gone; the
    // slow institution's first, so that none is cut off between storing its transaction and recording its success.
    await db.updateTable('institution_logins').set({ refresh_due_at: null }).execute();
    const slowDeadline = performance.now() + 30_000;
    while ((await leased(filled.slowId)) > 0 && performance.now() < slowDeadline) await sleep(100);
    await servers.close();
    const drainDeadline = performance.now() + 30_000;
    while ((await leased()) > 0 && performance.now() < drainDeadline) await sleep(100);
    await sleep(SETTLE_MS);
    const idle0 = cpu();
    await sleep(IDLE_MS);
    const idleCpuMsPerSecond = (cpu() - idle0) / (IDLE_MS / 1000);

    // Each slow login refreshed since the window opened stored the one transaction it had not seen, and nothing twice.
    const stats = await db
      .selectFrom('institution_logins as l')
      .select((eb) => [
        eb.fn.countAll().as('logins'),
        eb.fn.sum<number>(eb.case().when('l.aggregation_success_at', '>=', Math.floor(w0Epoch)).then(1).else(0).end()).as('refreshed'),
      ])
      .where('l.institution_id', '=', filled.slowId)
      .executeTakeFirstOrThrow();
    const held = await db
      .selectFrom('transactions as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('a.institution_id', '=', filled.slowId)
      .executeTakeFirstOrThrow();
    const expected = 2 * Number(stats.logins) + Number(stats.refreshed);
    if (Number(held.n) !== expected)
      throw new Error(`the slow institution's logins hold ${held.n} transactions, not ${expected}: a refresh stored more or less than its one new transaction`);
    const slowRate = samples.length >= 2 ? slope(samples) * 1000 : slow.done / windowSeconds;
    const complete = slow.done + slow.failed >= counts.slow;
    const [firstAt, firstDone] = samples[0] ?? [0, 0];
    const allSlowSeconds = complete ? (samples.at(-1)?.[0] ?? 0) / 1000 : firstAt / 1000 + (counts.slow - firstDone) / slowRate;
    const endEpoch = w0Epoch + windowSeconds;
    const fastWaits: number[] = [];
    const fastOpen: number[] = [];
    for (const [id, due] of fastDue) {
      const at = fastStored.get(id);
      if (at !== undefined) fastWaits.push(at - due);
      else if (due < endEpoch) fastOpen.push(endEpoch - due);
    }
    return {
      config,
      fillSeconds: filled.seconds,
      windowSeconds,
      slowDone: slow.done,
      slowFailed: slow.failed,
      deadDone: dead,
      slowRate,
      allRate: stored / windowSeconds,
      allSlowSeconds,
      complete,
      requestsPerRefresh: slow.done > 0 ? (servers.slow.requests.length - slowRequests0) / slow.done : Number.NaN,
      cpuPerRefreshMs: stored > 0 ? (used - idleCpuMsPerSecond * windowSeconds) / stored : Number.NaN,
      grossCpuPerRefreshMs: stored > 0 ? used / stored : Number.NaN,
      idleCpuMsPerSecond,
      peakRss,
      fastWaits,
      fastOpen,
    };
  } finally {
    // The institutions go first: refreshes waiting on them fail at once, so the service stops without waiting for them.
    await servers.close();
    for (const p of processes.reverse()) await stop(p);
    await filled?.runtime.database.close();
    await schema?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds.toFixed(0)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(0)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function fastCell(r: Result, fast: number): string {
  const parts: string[] = [];
  if (r.fastWaits.length > 0) parts.push(`${r.fastWaits.length} of ${fast}: ${median(r.fastWaits).toFixed(1)} / ${Math.max(...r.fastWaits).toFixed(1)} s`);
  if (r.fastOpen.length > 0)
    parts.push(
      `${r.fastOpen.length} not refreshed by the window's end, due ${Math.min(...r.fastOpen).toFixed(0)}-${Math.max(...r.fastOpen).toFixed(0)} s before it`,
    );
  return parts.join('; ') || 'none due';
}

function row(r: Result, counts: Counts): string {
  const all = r.complete
    ? `${duration(r.allSlowSeconds)} (measured)`
    : `${duration(r.allSlowSeconds)} (extrapolated: ${r.slowDone} in ${r.windowSeconds.toFixed(0)} s)`;
  return [
    r.config.label,
    `${r.slowRate.toFixed(3)} (${r.allRate.toFixed(3)})`,
    all,
    `${(r.slowRate > 0 ? DEFAULTS.refreshInstitutionConcurrency / r.slowRate : Number.NaN).toFixed(1)} s`,
    `${r.cpuPerRefreshMs.toFixed(0)} (${r.grossCpuPerRefreshMs.toFixed(0)}; idle ${r.idleCpuMsPerSecond.toFixed(0)} ms/s)`,
    r.peakRss.map((mb) => mb.toFixed(0)).join(' + ') + ' MB',
    fastCell(r, counts.fast),
  ]
    .join(' | ')
    .replace(/^/, '| ')
    .concat(' |');
}

/** The paragraph on the concurrency N logins need, with this run's rates against the rate the caps imply. */
function guidance(results: readonly Result[], counts: Counts, answerMs: number): string {
  const perInstitution = DEFAULTS.refreshInstitutionConcurrency;
  const interval = DEFAULTS.refreshIntervalSeconds;
  const predictedT = (REQUESTS_PER_REFRESH * answerMs) / 1000;
  const rates = results.map((r) => r.slowRate).filter((r) => r > 0);
  const measuredT = rates.map((r) => perInstitution / r);
  const n = counts.slow;
  const needed = (logins: number) => Math.ceil((logins * predictedT) / interval);
  const range = (xs: number[], digits: number) => {
    const [lo, hi] = [Math.min(...xs).toFixed(digits), Math.max(...xs).toFixed(digits)];
    return lo === hi ? lo : `${lo}-${hi}`;
  };
  const fmt = (x: number) => x.toLocaleString('en-US');
  return [
    `**The concurrency N logins need.** One institution never has more than P = \`LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY\` (${perInstitution})`,
    `refreshes in flight, across all workers, so its N logins, each refresh taking T seconds (its requests one after another: a`,
    `login with one account at an OFX server makes ${REQUESTS_PER_REFRESH}, here ${REQUESTS_PER_REFRESH} × ${answerMs / 1000} s = ${predictedT} s), are refreshed at P ÷ T a second`,
    `whatever the concurrency and however many workers run: ${perInstitution} ÷ ${predictedT} s = ${(perInstitution / predictedT).toFixed(3)} a second, measured`,
    `${range(rates, 3)} (a refresh took ${range(measuredT, 1)} s) in every configuration above, so ${fmt(n)} logins take N × T ÷ P =`,
    `${duration((n * predictedT) / perInstitution)}. All of them are refreshed within the interval I when **P ≥ N × T ÷ I**: ${fmt(n)} × ${predictedT} s ÷ ${fmt(interval)} s`,
    `= ${((n * predictedT) / interval).toFixed(2)}, so the default ${perInstitution} is enough; at the same T, ${fmt(10 * n)} logins need P = ${needed(10 * n)} and ${fmt(100 * n)} need ${needed(100 * n)}.`,
    `The slots, C = \`LEDGERLINK_REFRESH_CONCURRENCY\` (${DEFAULTS.refreshConcurrency}, at most 64) × refresh workers (one per SQLite data directory;`,
    `\`serve --workers N\` adds HTTP processes, not refresh workers; on PostgreSQL each \`ledgerlink worker\` adds C, never P),`,
    `must hold every institution's share, the sum of N × T ÷ I over institutions, and on top of it P for each institution that`,
    `may be slow with a backlog or down at the same time (a login at one that never answers holds its slot for the connector's`,
    `${DEAD_TIMEOUT_S} s time limit, and its institution keeps P slots busy while it has logins due): **C ≥ k × P + the others' N × T ÷ I**,`,
    `and at least k × P + 1, for k such institutions at once, for logins elsewhere never to wait for a slot. With the`,
    `defaults one slow or dead institution leaves ${DEFAULTS.refreshConcurrency - perInstitution} slots to the others and two leave none, this scenario's case`,
    `(k = 2: C ≥ ${2 * perInstitution + 1}): a login elsewhere then waits for a slot to free (the next end of a slow refresh, or of the`,
    `${DEAD_TIMEOUT_S} s time limit where only dead institutions hold the slots), which the claim gives first to the soonest due login`,
    `of each institution with no refresh in flight, one each (schedule.repository.ts), so at most one slow refresh.`,
  ].join(' ');
}

async function main(): Promise<void> {
  const counts: Counts = { slow: Number(values.logins), dead: Number(values.dead), fast: Number(values.fast) };
  const answerMs = Number(values['answer-ms']);
  const windowS = Number(values.window);
  if (![counts.slow, counts.dead, counts.fast].every((n) => Number.isInteger(n) && n >= 1))
    throw new Error('--logins, --dead and --fast take whole numbers, 1 or more');
  const keys = values.configs.split(',').map((k) => k.trim());
  const unknown = keys.filter((k) => !CONFIGURATIONS.some((c) => c.key === k));
  if (unknown.length > 0) throw new Error(`unknown configuration ${unknown.join(', ')}: --configs takes ${CONFIGURATIONS.map((c) => c.key).join(',')}`);
  const results: Result[] = [];
  for (const config of CONFIGURATIONS.filter((c) => keys.includes(c.key))) {
    const r = await run(config, counts, answerMs, windowS);
    results.push(r);
    process.stderr.write(
      `${row(r, counts)}\n  requests per slow refresh: ${r.requestsPerRefresh.toFixed(2)}, fast waits: ${r.fastWaits.map((w) => w.toFixed(1)).join(', ')}\n`,
    );
  }
  const header = [
    '| service | slow logins refreshed per second (every outcome) | all slow logins refreshed in | one slow refresh (per-institution cap ÷ rate) | CPU ms per refresh, net of idle (gross; idle) | peak RSS | fast logins, due → refreshed: median / max |',
    '|---|---|---|---|---|---|---|',
  ];
  const table = [...header, ...results.map((r) => row(r, counts))].join('\n');
  process.stdout.write(`${table}\n`);
  if (values.write) {
    const fills = (['sqlite', 'postgres'] as const)
      .map((d) => [d, results.filter((r) => r.config.dialect === d).map((r) => r.fillSeconds)] as const)
      .filter(([, xs]) => xs.length > 0)
      .map(([d, xs]) => `${Math.round(median(xs))} s on ${d === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`);
    const spacing = Math.max(1, Math.min(5, Math.floor(windowS / 2 / counts.fast)));
    const intro = [
      `${machineLine()}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; shared machine. \`npx tsx bench/refresh-scale.ts --write\`:`,
      `${counts.slow.toLocaleString('en-US')} logins at a local OFX server answering each request in ${answerMs / 1000} s, ${counts.dead} at one that reads each request and`,
      `never answers, ${counts.fast} at one that answers at once; one checking account each, and one new transaction to store at`,
      `each refresh. Each store is filled in the benchmark's process before the service starts (per institution one login`,
      `linked for real, the others copies of its rows in batches): ${fills.join(', ')}. The service runs from \`dist/\` as`,
      `npm start runs it, scheduled refresh with the default settings (concurrency ${DEFAULTS.refreshConcurrency} per worker, ${DEFAULTS.refreshInstitutionConcurrency} per institution,`,
      `interval ${DEFAULTS.refreshIntervalSeconds / 3600} h). The slow and dead institutions' logins fall due together; the window opens when the first is claimed`,
      `and lasts at most ${windowS} s, so the time to refresh every slow login is extrapolated from the rate measured in it; the`,
      `fast institution's logins fall due during the window, ${FAST_FIRST_S} s in and every ${spacing} s after. CPU is that of the processes running`,
      `the refresh worker, per outcome stored (the dead institution's failures included), net of what they use idle`,
      `(measured for ${IDLE_MS / 1000} s after the window, with nothing due).`,
    ].join(' ');
    writeBenchSection('refresh-scale', 'Scheduled refreshes at scale', `${intro}\n\n${table}\n\n${guidance(results, counts, answerMs)}`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
