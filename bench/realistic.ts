/**
 * Realistic HTTP scenarios: many customers, a request made afresh for each call (random customer, page, search
 * word), writes, PostgreSQL and two processes, each measured against a bare node:http server answering the same
 * kind of bytes, the two alternating in one run.
 *
 *   npm run bench                                   (everything: bench/http.ts runs these after its own scenarios)
 *   BENCH_SCENARIOS=realistic npm run bench          (only these; or a list of names, e.g. tx-json,mix,refresh)
 *   npx tsx bench/realistic.ts                       (the same, without building first)
 *
 * Environment: BENCH_SCENARIOS (names, comma-separated), BENCH_DURATION (s per measured run, 5), BENCH_ROUNDS (2),
 * BENCH_WARMUP (s before each run, 1), BENCH_CONNECTIONS (64), BENCH_CUSTOMERS (2000), BENCH_TRANSACTIONS
 * (per customer; the profile's own count when unset), BENCH_PROFILE (profile_01), BENCH_WRITE=1 (table into
 * docs/benchmarks.md), TEST_DATABASE_URL (PostgreSQL), BENCH_LOG_LEVEL (the service's log level, to see what the
 * default costs; leave unset for the documented numbers), BENCH_BARE (what stands for the limit: `sampled`, the
 * bare server of recorded answers, by default; `database` or `driver`, the floor of reading every transaction page
 * from the database, bench/bare-database-server.ts).
 *
 * Data: `ledgerlink seed --customers N --profile profile_01 --json` into a new data directory (SQLite), and for the
 * PostgreSQL scenario into a new schema on TEST_DATABASE_URL, dropped afterwards. The served process is started
 * as `npm start` starts it (its node flags and environment, the default log level, the default rate limits but one: the partner's refreshes at
 * once are raised to the connections, since one partner sends every request), from
 * dist/ (build first). Each scenario: a sample of requests is sent once to Ledgerlink and every answer must be 2xx
 * with the asked media type; those answers become the bare server's; then ROUNDS rounds of Ledgerlink and the bare
 * server in turn (ABBA order), each run after WARMUP s of the same load. Rows report 2xx answers per second (mean
 * of the rounds), p50/p99 of all measured 2xx answers, share = Ledgerlink / bare, every non-2xx answer and
 * connection error (warm-ups included), stdout log bytes per request, and peak RSS (process tree) during the
 * scenario's Ledgerlink runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { concat, loadRun, percentileOf, type LoadResult, type RequestGenerator, type RequestSpec } from './lib/load.js';
import { ROOT, start, stop } from './lib/process.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { requestKind, type Sample } from './lib/samples.js';
import { cpuSeconds, npmStartSettings, RssSampler, seed, startServed, type SeedOutput, type Served } from './lib/served.js';
import { createPgSchema, PG_URL } from './lib/store.js';

export interface RealisticOptions {
  /** Scenario names; all when undefined. */
  only?: string[] | undefined;
  duration: number;
  warmup: number;
  rounds: number;
  connections: number;
  customers: number;
  transactions?: number | undefined;
  profile: string;
  write: boolean;
  /** LEDGERLINK_LOG_LEVEL for the served process; unset (the default, info) unless investigating. */
  logLevel?: string | undefined;
  /**
   * Before/after: a second Ledgerlink (another built checkout, or this one with other settings) takes the bare
   * server's place, on the same data, alternating with this one in the same run.
   */
  compare?: { root?: string | undefined; env: Record<string, string>; nodeFlags?: string[] | undefined; label: string } | undefined;
  /**
   * What stands for the physical limit (BENCH_BARE): `sampled`, recorded answers (bench/bare-sampled-server.ts), or
   * `database` or `driver`, the floor of reading each transaction page from the database through Ledgerlink's
   * database layer or straight on the driver (bench/bare-database-server.ts).
   */
  bare: 'sampled' | 'database' | 'driver';
}

type Phase = 'sqlite' | 'workers-2' | 'postgres';

interface ScenarioDef {
  name: string;
  label: string;
  phase: Phase;
  make(ctx: ServiceContext): { next: RequestGenerator; samples: () => RequestSpec[] };
}

/** Institution searches: words partners' users type, broad and narrow. */
export const SEARCH_WORDS = [
  'bank',
  'credit',
  'union',
  'first',
  'national',
  'savings',
  'trust',
  'federal',
  'community',
  'state',
  'citizens',
  'farmers',
  'merchants',
  'peoples',
  'security',
  'home',
  'american',
  'united',
  'valley',
  'county',
  'city',
  'central',
  'heritage',
  'pioneer',
  'summit',
  'liberty',
  'capital',
  'chase',
  'wells',
  'fargo',
  'finbank',
  'golden',
  'teachers',
  'members',
  'schools',
  'employees',
  'mutual',
  'caisse',
  'desjardins',
  'river',
  'mountain',
  'lake',
  'northern',
  'southern',
  'western',
  'pacific',
  'texas',
  'ohio',
  'iowa',
  'carolina',
  'america',
  'investment',
  'brokerage',
  'insurance',
  'card',
  'mortgage',
  'wealth',
];

const PAGE = 25;

interface ServiceContext {
  served: Served;
  json: Record<string, string>;
  xml: Record<string, string>;
  customerIds: number[];
  /** Pages of 25 in a customer's transaction list over [fromDate, toDate]. */
  pages: number;
  found: number;
  fromDate: number;
  toDate: number;
  /** The served data: the SQLite file, or the PostgreSQL URL. */
  store: string;
}

const pick = <T>(a: readonly T[]): T => a[Math.floor(Math.random() * a.length)]!;
const times = <T>(n: number, f: () => T): T[] => Array.from({ length: n }, f);
const runTag = Date.now().toString(36);
let username = 0;

function transactionsPath(ctx: ServiceContext, customerId: number, page: number): string {
  return `/aggregation/v3/customers/${customerId}/transactions?fromDate=${ctx.fromDate}&toDate=${ctx.toDate}&start=${1 + PAGE * page}&limit=${PAGE}`;
}
const randomTransactions = (ctx: ServiceContext, accept: 'json' | 'xml'): RequestSpec => ({
  method: 'GET',
  path: transactionsPath(ctx, pick(ctx.customerIds), Math.floor(Math.random() * ctx.pages)),
  headers: ctx[accept],
});
const randomAccounts = (ctx: ServiceContext): RequestSpec => ({
  method: 'GET',
  path: `/aggregation/v1/customers/${pick(ctx.customerIds)}/accounts`,
  headers: ctx.json,
});
const search = (ctx: ServiceContext, word: string): RequestSpec => ({
  method: 'GET',
  path: `/institution/v2/institutions?search=${encodeURIComponent(word)}&start=1&limit=${PAGE}`,
  headers: ctx.json,
});
const post = (ctx: ServiceContext) => ({ ...ctx.json, 'content-type': 'application/json' });

const transactionsJson: ScenarioDef['make'] = (ctx) => ({
  next: () => randomTransactions(ctx, 'json'),
  samples: () => times(64, () => randomTransactions(ctx, 'json')),
});

export const SCENARIOS: ScenarioDef[] = [
  {
    name: 'cached-tx-json',
    phase: 'sqlite',
    label: "GET v3 transactions, JSON: one customer, one URL (the cache's best case; the old single-customer scenario)",
    make: (ctx) => {
      const one: RequestSpec = { method: 'GET', path: transactionsPath(ctx, ctx.customerIds[0]!, 0), headers: ctx.json };
      return { next: () => one, samples: () => [one] };
    },
  },
  { name: 'tx-json', phase: 'sqlite', label: 'GET v3 transactions, JSON: random customer and page', make: transactionsJson },
  {
    name: 'tx-xml',
    phase: 'sqlite',
    label: 'GET v3 transactions, XML: random customer and page',
    make: (ctx) => ({ next: () => randomTransactions(ctx, 'xml'), samples: () => times(64, () => randomTransactions(ctx, 'xml')) }),
  },
  {
    name: 'accounts',
    phase: 'sqlite',
    label: 'GET v1 accounts, JSON: random customer',
    make: (ctx) => ({ next: () => randomAccounts(ctx), samples: () => times(64, () => randomAccounts(ctx)) }),
  },
  {
    name: 'search',
    phase: 'sqlite',
    label: `institution search, JSON: one of ${SEARCH_WORDS.length} words, 25 a page`,
    make: (ctx) => ({ next: () => search(ctx, pick(SEARCH_WORDS)), samples: () => SEARCH_WORDS.map((w) => search(ctx, w)) }),
  },
  {
    name: 'mix',
    phase: 'sqlite',
    label: 'mix: 40 % transactions JSON, 15 % transactions XML, 25 % accounts, 20 % search',
    make: (ctx) => ({
      next: () => {
        const r = Math.random();
        if (r < 0.4) return randomTransactions(ctx, 'json');
        if (r < 0.55) return randomTransactions(ctx, 'xml');
        if (r < 0.8) return randomAccounts(ctx);
        return search(ctx, pick(SEARCH_WORDS));
      },
      samples: () => [
        ...times(32, () => randomTransactions(ctx, 'json')),
        ...times(16, () => randomTransactions(ctx, 'xml')),
        ...times(32, () => randomAccounts(ctx)),
        ...SEARCH_WORDS.map((w) => search(ctx, w)),
      ],
    }),
  },
  { name: 'pg-tx-json', phase: 'postgres', label: 'PostgreSQL: GET v3 transactions, JSON: random customer and page', make: transactionsJson },
  {
    name: 'pg-accounts',
    phase: 'postgres',
    label: 'PostgreSQL: GET v1 accounts, JSON: random customer',
    make: (ctx) => ({ next: () => randomAccounts(ctx), samples: () => times(64, () => randomAccounts(ctx)) }),
  },
  { name: 'workers2-tx-json', phase: 'workers-2', label: '`serve --workers 2`: GET v3 transactions, JSON: random customer and page', make: transactionsJson },
  {
    name: 'create-customer',
    phase: 'sqlite',
    label: 'POST v2 testing customer (a write; a new username each time)',
    make: (ctx) => {
      const next = (): RequestSpec => ({
        method: 'POST',
        path: '/aggregation/v2/customers/testing',
        headers: post(ctx),
        body: JSON.stringify({ username: `bench_${runTag}_${++username}`, firstName: 'Bench', lastName: 'Load' }),
      });
      return { next, samples: () => times(8, next) };
    },
  },
  {
    name: 'refresh',
    phase: 'sqlite',
    label: 'POST v1 refresh accounts (a write): random customer',
    make: (ctx) => {
      const next = (): RequestSpec => ({ method: 'POST', path: `/aggregation/v1/customers/${pick(ctx.customerIds)}/accounts`, headers: post(ctx), body: '{}' });
      return { next, samples: () => times(8, next) };
    },
  },
];
/** The order the scenarios run in: one service per phase, the writes after the reads on the same data. */
const RUN_ORDER = [
  'cached-tx-json',
  'tx-json',
  'tx-xml',
  'accounts',
  'search',
  'mix',
  'create-customer',
  'refresh',
  'workers2-tx-json',
  'pg-tx-json',
  'pg-accounts',
];

interface Row {
  def: ScenarioDef;
  /** Set when the scenario did not run (skipped or failed). */
  note?: string;
  ours?: LoadResult[];
  bare?: LoadResult[];
  non2xx?: Record<string, number>;
  bareNon2xx?: Record<string, number>;
  /** CPU milliseconds of the served process tree per 2xx answer, per measured run (Ledgerlink; B in comparisons). */
  cpuPerAnswer?: number[];
  otherCpuPerAnswer?: number[];
  errors?: number;
  logBytesPerRequest?: number;
  peakRss?: number;
}

async function call(url: string, init: RequestInit): Promise<{ status: number; contentType: string; body: Buffer }> {
  const res = await fetch(url, init);
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

/** Authenticates with the seeded partner, finds its customers and the size of their transaction lists. */
async function context(served: Served, seeded: SeedOutput, store: string): Promise<ServiceContext> {
  const auth = await call(`${served.url}/aggregation/v2/partners/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'service-app-key': seeded.appKey },
    body: JSON.stringify({ partnerId: seeded.partnerId, partnerSecret: seeded.partnerSecret }),
  });
  if (auth.status !== 200) throw new Error(`authentication: ${auth.status} ${auth.body.toString().slice(0, 300)}`);
  const { token } = JSON.parse(auth.body.toString()) as { token: string };
  const json = { 'service-app-key': seeded.appKey, 'service-app-token': token, accept: 'application/json' };
  // The seed's customers are one run of ids in a new database; otherwise ask the API for them.
  let customerIds: number[];
  if (seeded.lastCustomerId - seeded.firstCustomerId + 1 === seeded.customers) {
    customerIds = times(seeded.customers, () => 0).map((_, i) => seeded.firstCustomerId + i);
  } else {
    customerIds = [];
    for (let start = 1; ; start += 1000) {
      const r = await call(`${served.url}/aggregation/v1/customers?type=testing&start=${start}&limit=1000`, { headers: json });
      if (r.status !== 200) throw new Error(`list customers: ${r.status} ${r.body.toString().slice(0, 300)}`);
      const page = JSON.parse(r.body.toString()) as { customers: { id: string }[]; moreAvailable: boolean | string };
      customerIds.push(...page.customers.map((c) => Number(c.id)));
      if (String(page.moreAvailable) !== 'true') break;
    }
  }
  // A year back from now, fixed for the run (seeded transactions are at most 180 days old): every list is whole.
  const toDate = Math.floor(Date.now() / 1000);
  const fromDate = toDate - 365 * 86_400;
  const ctx: ServiceContext = { served, json, xml: { ...json, accept: 'application/xml' }, customerIds, pages: 1, found: 0, fromDate, toDate, store };
  const first = await call(served.url + transactionsPath(ctx, customerIds[0]!, 0), { headers: json });
  if (first.status !== 200) throw new Error(`transactions of ${customerIds[0]}: ${first.status} ${first.body.toString().slice(0, 300)}`);
  ctx.found = (JSON.parse(first.body.toString()) as { found: number }).found;
  ctx.pages = Math.max(1, Math.ceil(ctx.found / PAGE));
  return ctx;
}

/** Sends the sample requests one by one; every answer must be 2xx in the asked media type. */
async function record(ctx: ServiceContext, requests: RequestSpec[]): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const r of requests) {
    const res = await call(ctx.served.url + r.path, { method: r.method, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) });
    const accept = r.headers.accept ?? '';
    if (res.status < 200 || res.status >= 300) throw new Error(`${r.method} ${r.path}: ${res.status} ${res.body.toString().slice(0, 300)}`);
    if (!res.contentType.includes(accept.split('/')[1] ?? '')) throw new Error(`${r.method} ${r.path}: asked ${accept}, got ${res.contentType}`);
    samples.push({
      kind: requestKind(r.method, r.path, accept),
      method: r.method,
      url: r.path,
      status: res.status,
      contentType: res.contentType,
      body: res.body.toString('base64'),
    });
  }
  return samples;
}

const addCounts = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
};

async function measure(
  def: ScenarioDef,
  ctx: ServiceContext,
  rss: RssSampler,
  o: RealisticOptions,
  tmp: string,
  other?: Served,
  otherCtx?: ServiceContext,
): Promise<Row> {
  const { next, samples } = def.make(ctx);
  // Another checkout serves data of its own (its own schema), with its own credentials and customers.
  const otherNext = otherCtx ? def.make(otherCtx).next : next;
  const recorded = await record(ctx, samples());
  const file = path.join(tmp, `${def.name}.samples.json`);
  fs.writeFileSync(file, JSON.stringify(recorded));
  const bareServer = other
    ? { url: other.url }
    : o.bare !== 'sampled'
      ? await start([...npmStartSettings().nodeFlags, '--import', 'tsx', 'bench/bare-database-server.ts', file, ctx.store, o.bare], npmStartSettings().env)
      : await start(['--import', 'tsx', 'bench/bare-sampled-server.ts', file]);
  const otherPid = other ? other.pid : o.bare !== 'sampled' ? (bareServer as Awaited<ReturnType<typeof start>>).child.pid : undefined;
  const row: Row = {
    def,
    ours: [],
    bare: [],
    non2xx: {},
    bareNon2xx: {},
    cpuPerAnswer: [],
    otherCpuPerAnswer: [],
    errors: 0,
  };
  let logBytes = 0;
  let answers = 0;
  let peak = 0;
  try {
    for (let round = 0; round < o.rounds; round++) {
      const sides: ('ours' | 'bare')[] = round % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours'];
      for (const side of sides) {
        const url = side === 'ours' ? ctx.served.url : bareServer.url;
        const counts = side === 'ours' ? row.non2xx! : row.bareNon2xx!;
        process.stderr.write(`  ${def.name} round ${round + 1} ${side === 'ours' ? 'ledgerlink' : other ? 'B' : o.bare}… `);
        if (o.warmup > 0) {
          const w = await loadRun(url, side === 'ours' ? next : otherNext, { connections: o.connections, duration: o.warmup });
          addCounts(counts, w.non2xx);
          if (side === 'ours') row.errors! += w.errors;
        }
        if (side === 'ours') rss.reset();
        const logsBefore = ctx.served.logs.bytes;
        const cpuPid = side === 'ours' ? ctx.served.pid : otherPid;
        const cpuBefore = cpuPid === undefined ? undefined : cpuSeconds(cpuPid);
        const r = await loadRun(url, side === 'ours' ? next : otherNext, { connections: o.connections, duration: o.duration });
        const cpuAfter = cpuPid === undefined ? undefined : cpuSeconds(cpuPid);
        if (cpuBefore !== undefined && cpuAfter !== undefined && r.ok > 0) {
          (side === 'ours' ? row.cpuPerAnswer! : row.otherCpuPerAnswer!).push(((cpuAfter - cpuBefore) * 1000) / r.ok);
        }
        addCounts(counts, r.non2xx);
        if (side === 'ours') {
          row.errors! += r.errors;
          logBytes += ctx.served.logs.bytes - logsBefore;
          answers += r.ok + Object.values(r.non2xx).reduce((a, b) => a + b, 0);
          peak = Math.max(peak, rss.peak());
          row.ours!.push(r);
        } else {
          row.bare!.push(r);
        }
        const bad = Object.values(r.non2xx).reduce((a, b) => a + b, 0);
        process.stderr.write(
          `${Math.round(r.okPerSecond)}/s${cpuBefore !== undefined && cpuAfter !== undefined && r.ok > 0 ? `, ${(((cpuAfter - cpuBefore) * 1000) / r.ok).toFixed(3)} CPU ms/answer` : ''}${bad ? `, ${bad} non-2xx ${JSON.stringify(r.non2xx)}` : ''}${r.errors ? `, ${r.errors} errors` : ''}\n`,
        );
      }
    }
  } finally {
    if (!other) await stop(bareServer as Awaited<ReturnType<typeof start>>);
  }
  row.logBytesPerRequest = answers === 0 ? 0 : logBytes / answers;
  row.peakRss = peak;
  return row;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v)} ms`);
const int = (v: number) => Math.round(v).toLocaleString('en-US');
const counts = (c: Record<string, number> | undefined) => {
  const entries = Object.entries(c ?? {});
  return entries.length === 0 ? '0' : `**${int(entries.reduce((a, [, v]) => a + v, 0))}** (${entries.map(([k, v]) => `${k}: ${int(v)}`).join(', ')})`;
};

function tableRow(row: Row): string {
  const n = `${SCENARIOS.indexOf(row.def)}. ${row.def.label} \`${row.def.name}\``;
  if (row.note !== undefined) return `| ${n} | ${row.note} | | | | | | | | | | | | |`;
  const ours = row.ours!;
  const bare = row.bare!;
  const oursRps = mean(ours.map((r) => r.okPerSecond));
  const bareRps = mean(bare.map((r) => r.okPerSecond));
  const ol = concat(ours.map((r) => r.latencies));
  const bl = concat(bare.map((r) => r.latencies));
  const perRound = ours.map((r, i) => `${((r.okPerSecond / bare[i]!.okPerSecond) * 100).toFixed(0)}`).join(', ');
  const bareBad = Object.keys(row.bareNon2xx ?? {}).length > 0 ? ` (bare: ${counts(row.bareNon2xx)})` : '';
  const cpu = median(row.cpuPerAnswer ?? []);
  const otherCpu = median(row.otherCpuPerAnswer ?? []);
  const cpuCells = `${Number.isNaN(cpu) ? 'n/a' : cpu.toFixed(3)} | ${Number.isNaN(otherCpu) ? 'n/a' : `${otherCpu.toFixed(3)} (${((otherCpu / cpu) * 100).toFixed(0)} %)`}`;
  return `| ${n} | ${int(oursRps)} | ${ms(percentileOf(ol, 50))} | ${ms(percentileOf(ol, 99))} | ${int(bareRps)} | ${ms(percentileOf(bl, 99))} | ${((oursRps / bareRps) * 100).toFixed(0)} % | ${perRound} % | ${counts(row.non2xx)}${bareBad} | ${row.errors} | ${int(mean(ours.map((r) => r.bytesPerAnswer)))} | ${int(row.logBytesPerRequest ?? 0)} | ${row.peakRss ? `${Math.round(row.peakRss)} MB` : 'n/a'} | ${cpuCells} |`;
}

async function postgresReachable(): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return undefined;
  } catch (e) {
    return (e as Error).message || String(e);
  } finally {
    await c.end().catch(() => {});
  }
}

function redactedPgUrl(): string {
  const u = new URL(PG_URL);
  if (u.password) u.password = '***';
  return u.toString();
}

/** Runs the chosen realistic scenarios; returns the Markdown written to stdout and to bench/results. */
export async function runRealistic(o: RealisticOptions): Promise<string> {
  const chosen = RUN_ORDER.map((n) => SCENARIOS.find((s) => s.name === n)!).filter((s) => !o.only || o.only.includes(s.name));
  if (chosen.length === 0) return '';
  if (!fs.existsSync(`${ROOT}/dist/bundle/ledgerlink.js`)) throw new Error('build first: npm run build');
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-realistic-'));
  const rows = new Map<string, Row>();
  const services: string[] = [];
  let seeded: SeedOutput | undefined;
  let pgSeeded: SeedOutput | undefined;
  let lists: { found: number; pages: number } | undefined;
  const otherSeeds = new Map<string, SeedOutput>();
  const phaseRuns = async (phase: Phase, dataDir: string, seedOut: SeedOutput, label: string, serveOptions: Parameters<typeof startServed>[1]) => {
    const defs = chosen.filter((s) => s.phase === phase);
    if (defs.length === 0) return;
    // One partner sends every request: its limit of refreshes at once (8 by default) would answer most of the refresh
    // scenario's 64 connections 429, and measure the limit instead of refreshing.
    const limits = { LEDGERLINK_PARTNER_CONCURRENT_REFRESHES: String(Math.min(256, Math.max(8, o.connections))) };
    const served = await startServed(dataDir, { ...serveOptions, logLevel: o.logLevel, env: limits });
    // Another checkout may not read this checkout's schema: it serves a copy of the data seeded by its own CLI.
    const otherData = o.compare?.root && phase !== 'postgres' ? `${dataDir}-b` : dataDir;
    const otherSeed =
      o.compare?.root && phase !== 'postgres'
        ? (otherSeeds.get(otherData) ??
          otherSeeds
            .set(otherData, seed(otherData, { customers: o.customers, profile: o.profile, transactions: o.transactions, root: o.compare.root }))
            .get(otherData)!)
        : undefined;
    const other = o.compare
      ? await startServed(otherData, {
          ...serveOptions,
          logLevel: o.logLevel,
          root: o.compare.root,
          env: { ...limits, ...o.compare.env },
          nodeFlags: o.compare.nodeFlags,
        })
      : undefined;
    const rss = new RssSampler(served.pid);
    const otherRss = other ? new RssSampler(other.pid) : undefined;
    process.stderr.write(`${label}: Ledgerlink at ${served.url}${other ? `, B (${o.compare!.label}) at ${other.url}` : ''}\n`);
    try {
      const ctx = await context(served, seedOut, serveOptions?.databaseUrl ?? path.join(dataDir, 'ledgerlink.sqlite'));
      const otherCtx = other && otherSeed ? await context(other, otherSeed, serveOptions?.databaseUrl ?? path.join(otherData, 'ledgerlink.sqlite')) : undefined;
      lists ??= { found: ctx.found, pages: ctx.pages };
      for (const def of defs) {
        try {
          rows.set(def.name, await measure(def, ctx, rss, o, tmp, other, otherCtx));
        } catch (e) {
          process.stderr.write(`${def.name} failed: ${(e as Error).stack}\n`);
          rows.set(def.name, { def, note: `failed: ${(e as Error).message.replaceAll('|', '\\|').slice(0, 300)}` });
        }
      }
    } finally {
      rss.sample();
      otherRss?.sample();
      await served.stop();
      await other?.stop();
      rss.stop();
      otherRss?.stop();
      const logs = served.logs;
      services.push(
        `${label}: peak RSS ${Math.round(rss.overallPeak())} MB (process tree, sampled every 200 ms from start to stop); stdout ${(logs.bytes / 1e6).toFixed(0)} MB of log, ${logs.warn} warn and ${logs.error} error/fatal lines${logs.firstProblems.length ? `, first: ${logs.firstProblems.map((l) => `\`${l.replaceAll('`', "'").slice(0, 200)}\``).join('; ')}` : ''}${otherRss ? `; B peak RSS ${Math.round(otherRss.overallPeak())} MB` : ''}`,
      );
    }
  };
  try {
    if (chosen.some((s) => s.phase !== 'postgres')) {
      const dataDir = path.join(tmp, 'sqlite');
      process.stderr.write(`seeding ${o.customers} customers (SQLite)…\n`);
      seeded = seed(dataDir, { customers: o.customers, profile: o.profile, transactions: o.transactions });
      await phaseRuns('sqlite', dataDir, seeded, 'SQLite, one process', {});
      await phaseRuns('workers-2', dataDir, seeded, 'SQLite, `serve --workers 2`', { extraArgs: ['--workers', '2'] });
    }
    const pgDefs = chosen.filter((s) => s.phase === 'postgres');
    if (pgDefs.length > 0) {
      const unreachable = await postgresReachable();
      if (unreachable) {
        for (const def of pgDefs)
          rows.set(def.name, { def, note: `skipped: PostgreSQL not reachable at ${redactedPgUrl()} (${unreachable}); set TEST_DATABASE_URL` });
      } else {
        const schema = await createPgSchema();
        try {
          const dataDir = path.join(tmp, 'postgres');
          process.stderr.write(`seeding ${o.customers} customers (PostgreSQL schema ${schema.name})…\n`);
          pgSeeded = seed(dataDir, { customers: o.customers, profile: o.profile, transactions: o.transactions, databaseUrl: schema.url });
          await phaseRuns('postgres', dataDir, pgSeeded, 'PostgreSQL, one process', { databaseUrl: schema.url });
        } finally {
          await schema.drop();
        }
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const loadAfter = os.loadavg();
  const s = seeded ?? pgSeeded;
  const start = npmStartSettings();
  const otherName = o.compare ? 'B' : o.bare === 'sampled' ? 'bare' : 'floor';
  const header = [
    `Measured ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench\` (realistic scenarios) on ${machineLine()}; load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after (the machine is shared).`,
    `${o.connections} connections (autocannon, keep-alive, one request at a time per connection), ${o.rounds} rounds × ${o.duration} s per side, Ledgerlink and ${o.compare ? `**B = ${o.compare.label}** (in the bare server's columns)` : o.bare !== 'sampled' ? `**the database floor** (BENCH_BARE=${o.bare}, in the bare server's columns)` : 'the bare server'} alternating (ABBA), each run after ${o.warmup} s of the same load.`,
    s
      ? `Data: \`ledgerlink seed --customers ${o.customers} --profile ${o.profile}${o.transactions !== undefined ? ` --transactions ${o.transactions}` : ''} --json\`: ${int(s.customers)} customers × ${s.accountsPerCustomer} accounts × ${int(s.transactionsPerCustomer)} transactions (${int(s.transactions)} rows)${seeded ? `, SQLite in ${seeded.seconds.toFixed(0)} s` : ''}${pgSeeded ? `, PostgreSQL in ${pgSeeded.seconds.toFixed(0)} s` : ''}. ${lists ? `Transaction lists: fromDate a year back, toDate the run's start (${int(lists.found)} transactions found, pending excluded), 25 a page, a random page of ${lists.pages}: ${int(s.customers * lists.pages)} different URLs per media type.` : ''}`
      : '',
    `Ledgerlink from \`dist/\` as \`npm start\` runs it: \`${start.text} --port 0 --data DIR\`, ${o.logLevel ? `**log level ${o.logLevel}** (BENCH_LOG_LEVEL; not the default)` : 'default log level (info: one line per request)'} on a pipe the harness drains, default rate limits except the partner's refreshes at once, raised from 8 to the connections (one partner sends every request). ${o.bare !== 'sampled' ? `The floor: node:http, one process with npm start's node flags, answering each transaction list with JSON.stringify of the count and the rows that Ledgerlink's own statement reads for it (XML, an element per column, when asked), ${o.bare === 'database' ? "through Ledgerlink's database layer" : 'straight on the driver, rows as arrays'} (no framework, authentication, log, cache or serialiser), every other request with an answer Ledgerlink gave to a request of the same kind.` : 'The bare server: node:http, one process, answering each request with an answer Ledgerlink gave to a request of the same kind (the same URL for searches).'}`,
    "Columns: 2xx answers per second, mean of the rounds; p50 and p99 over every measured 2xx answer; share of bare = Ledgerlink ÷ bare (means, then each round); non-2xx: every answer that was not 2xx, warm-ups included, by status; errors: connection errors and timeouts; bytes/answer: headers and body as received; log bytes/req: what the service wrote to stdout per answer; peak RSS: the highest resident memory of the service (process tree) during the scenario's measured runs, sampled every 200 ms; CPU ms/answer: CPU time (user + system) of the service's process tree per 2xx answer, median of the runs (steadier than throughput on a shared machine); B's in before/after comparisons, with B ÷ Ledgerlink.",
    '',
    `| scenario | Ledgerlink 2xx/s | p50 | p99 | ${otherName} req/s | ${otherName} p99 | share of ${otherName} | share per round | non-2xx (warm-up included) | errors | bytes/answer | log bytes/req | peak RSS | CPU ms/answer | ${otherName === 'bare' ? 'B' : otherName} CPU ms/answer (÷ Ledgerlink) |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...SCENARIOS.filter((d) => rows.has(d.name)).map((d) => tableRow(rows.get(d.name)!)),
    '',
    ...services.map((l) => `- ${l}`),
  ]
    .filter((l, i, a) => l !== '' || a[i - 1] !== '')
    .join('\n');
  process.stdout.write(`\n${header}\n`);
  const resultsDir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `realistic-${startedAt.toISOString().slice(0, 16).replace(':', '-')}.md`);
  fs.writeFileSync(file, `# Realistic scenarios\n\n${header}\n`);
  process.stderr.write(`wrote ${path.relative(ROOT, file)}\n`);
  if (o.write) writeBenchSection('realistic', 'Realistic scenarios', header);
  return header;
}

const envNumber = (name: string, fallback: number | undefined): number | undefined => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number (got "${v}")`);
  return n;
};

/**
 * BENCH_COMPARE_ROOT (another checkout, built), BENCH_COMPARE_ENV ("NAME=value NAME=value") and/or
 * BENCH_COMPARE_NODE_FLAGS ("--flag=value ...", after npm start's own): what takes the bare server's place for a
 * before/after comparison.
 */
function compareFromEnv(): RealisticOptions['compare'] {
  const root = process.env.BENCH_COMPARE_ROOT || undefined;
  const envText = process.env.BENCH_COMPARE_ENV ?? '';
  const nodeFlags = (process.env.BENCH_COMPARE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  if (!root && !envText.trim() && nodeFlags.length === 0) return undefined;
  const env: Record<string, string> = {};
  for (const pair of envText.split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`BENCH_COMPARE_ENV: expected NAME=value, got "${pair}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  if (root && !fs.existsSync(path.join(root, 'bin/ledgerlink.js'))) throw new Error(`BENCH_COMPARE_ROOT: build ${root} first`);
  const label = [root ? `the checkout at ${root}` : '', envText.trim(), nodeFlags.join(' ')].filter(Boolean).join(' with ');
  return { root, env, nodeFlags, label };
}

function bareFromEnv(): RealisticOptions['bare'] {
  const v = process.env.BENCH_BARE || 'sampled';
  if (v !== 'sampled' && v !== 'database' && v !== 'driver') throw new Error(`BENCH_BARE must be sampled, database or driver (got "${v}")`);
  return v;
}

/** Options from the environment (BENCH_*), overridden by `over`. */
export function realisticOptionsFromEnv(over: Partial<RealisticOptions> = {}): RealisticOptions {
  return {
    only: undefined,
    duration: envNumber('BENCH_DURATION', 5)!,
    warmup: envNumber('BENCH_WARMUP', 1)!,
    rounds: Math.max(1, envNumber('BENCH_ROUNDS', 2)!),
    connections: envNumber('BENCH_CONNECTIONS', 64)!,
    customers: Math.max(1, envNumber('BENCH_CUSTOMERS', 2000)!),
    transactions: envNumber('BENCH_TRANSACTIONS', undefined),
    profile: process.env.BENCH_PROFILE || 'profile_01',
    logLevel: process.env.BENCH_LOG_LEVEL || undefined,
    write: process.env.BENCH_WRITE === '1',
    compare: compareFromEnv(),
    bare: bareFromEnv(),
    ...Object.fromEntries(Object.entries(over).filter(([, v]) => v !== undefined)),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const names = (process.env.BENCH_SCENARIOS ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const only = names.length === 0 || names.includes('realistic') ? undefined : names;
  await runRealistic(realisticOptionsFromEnv({ only }));
}
