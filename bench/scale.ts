/**
 * Scale benchmark: GET v3 transactions latency on a small data set and on a large one built with `ledgerlink seed`.
 *
 *   npm run build && npx tsx bench/scale.ts [--small 100] [--large 100000] [--transactions 100] [--requests 2000]
 *                                          [--active N] [--keep DIR] [--write]
 *
 * Each data set is seeded through the CLI (`ledgerlink seed --customers N --profile profile_01 --transactions T`,
 * its progress bar shown): every customer has two accounts and T transactions, so the defaults compare 10,000 rows
 * with 10,000,000. A service runs from dist/ on each data set, both at once, and each answers --requests sequential
 * requests of `GET /aggregation/v3/customers/{id}/transactions?limit=25` over real HTTP (one connection, so the
 * numbers are latencies, not throughput), the two taking turns in blocks of 100 so that a shared machine's changes
 * of pace fall on both alike; each request for a customer drawn at random from all of the data set's customers, so
 * the large set is read all over, not from one warm corner, and one of its pages drawn at random, after as many
 * unmeasured requests of the same kind (a service that has just started is slower on either set). Each set is
 * measured twice: as served by default and with the response cache off (LEDGERLINK_RESPONSE_CACHE_MB=0), so that
 * every page is read from the database. The query plans of the page and count queries are printed.
 * With --active N each set is measured a second time under the same traffic: requests for N of its customers, drawn
 * once at random (N at most --small), so that only the data grows between the sets and not the number of different
 * pages asked for, which is what decides how often the response cache answers.
 * With --keep DIR the large data set stays in DIR and is reused by the next run (seeding 10 million rows takes
 * minutes). --write puts the table into docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { ROOT, rssMb, startLedgerlink, stop } from './lib/process.js';
import { machineLine, writeBenchSection } from './lib/report.js';

const { values } = parseArgs({
  options: {
    small: { type: 'string', default: '100' },
    large: { type: 'string', default: '100000' },
    transactions: { type: 'string', default: '100' },
    requests: { type: 'string', default: '2000' },
    active: { type: 'string' },
    keep: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const PER_CUSTOMER = Number(values.transactions);
const ACTIVE = values.active === undefined ? undefined : Number(values.active);
if (ACTIVE !== undefined && !(Number.isInteger(ACTIVE) && ACTIVE >= 1 && ACTIVE <= Number(values.small)))
  throw new Error('--active must be a whole number from 1 to --small');
const REQUESTS = Number(values.requests);

interface Seeded {
  partnerId: string;
  partnerSecret: string;
  appKey: string;
  firstCustomerId: number;
  lastCustomerId: number;
  transactions: number;
  seconds: number;
}

/** Seeds `customers` into dataDir with the CLI (progress bar on this terminal), or reuses an earlier seed there. */
async function seeded(dataDir: string, customers: number): Promise<Seeded> {
  const resultFile = path.join(dataDir, 'seed-result.json');
  if (fs.existsSync(resultFile)) {
    const earlier = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as Seeded;
    if (earlier.transactions === customers * PER_CUSTOMER) return earlier;
    throw new Error(`${dataDir} holds another data set (${earlier.transactions} transactions); remove it or pick another --keep`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const t0 = performance.now();
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        'dist/bundle/ledgerlink.js',
        'seed',
        '--customers',
        String(customers),
        '--profile',
        'profile_01',
        '--transactions',
        String(PER_CUSTOMER),
        '--json',
        '--data',
        dataDir,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`seed exited with ${code}`))));
  });
  const result = { ...(JSON.parse(out) as Omit<Seeded, 'seconds'>), seconds: (performance.now() - t0) / 1000 };
  fs.writeFileSync(resultFile, JSON.stringify(result));
  return result;
}

function plans(dataDir: string, customerId: number): string[] {
  const db = new SQLite(path.join(dataDir, 'ledgerlink.sqlite'), { readonly: true });
  try {
    const where = `customer_id = ${customerId} and effective_date >= 0 and effective_date <= 9999999999 and status = 'active'`;
    return [
      // The shape of transactions.repository.ts's page query (its columns are a subset of these).
      `select * from transactions where ${where} order by effective_date desc, id desc limit 25 offset 50`,
      `select count(*) from transactions where ${where}`,
    ].map((q) => (db.prepare(`explain query plan ${q}`).all() as Array<{ detail: string }>).map((r) => r.detail).join(' / '));
  } finally {
    db.close();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** How the service runs: as a user gets it, and with the response cache off (every page read from the database). */
const MODES = [
  { name: 'cache on', env: {} },
  { name: 'cache off', env: { LEDGERLINK_RESPONSE_CACHE_MB: '0' } },
] as const;
type Mode = (typeof MODES)[number];

interface Measured {
  mode: Mode['name'];
  customers: number;
  /** How many different customers the requests asked for. */
  asked: number;
  rows: number;
  seedSeconds: number;
  fileMb: number;
  p50: number;
  p99: number;
  mean: number;
  rssMb: number | undefined;
  plans: string[];
}

/** `n` different customer ids drawn at random from [first, last] (a partial Fisher-Yates shuffle). */
function drawCustomers(first: number, last: number, n: number): number[] {
  const ids = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(Math.random() * (ids.length - i));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.slice(0, n);
}

/** A service on one data set, answering the benchmark's requests. */
interface Side {
  dataDir: string;
  customers: number;
  seed: Seeded;
  service: Awaited<ReturnType<typeof startLedgerlink>>;
  /** How many customers the set has, and how many of them the requests ask for. */
  span: number;
  asked: number;
  get(): Promise<number>;
  times: number[];
}

async function side(dataDir: string, customers: number, mode: Mode, active: number | undefined): Promise<Side> {
  const seed = await seeded(dataDir, customers);
  const service = await startLedgerlink(dataDir, mode.env);
  const auth = await fetch(`${service.url}/aggregation/v2/partners/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'service-app-key': seed.appKey },
    body: JSON.stringify({ partnerId: seed.partnerId, partnerSecret: seed.partnerSecret }),
  });
  const { token } = (await auth.json()) as { token: string };
  const headers = { 'service-app-key': seed.appKey, 'service-app-token': token, accept: 'application/json' };
  const toDate = Math.floor(Date.now() / 1000) + 86_400;
  const span = seed.lastCustomerId - seed.firstCustomerId + 1;
  const asked = active === undefined ? undefined : drawCustomers(seed.firstCustomerId, seed.lastCustomerId, active);
  const pages = Math.max(1, Math.floor(PER_CUSTOMER / 25));
  const get = async () => {
    const id = asked ? asked[Math.floor(Math.random() * asked.length)]! : seed.firstCustomerId + Math.floor(Math.random() * span);
    const start = 1 + 25 * Math.floor(Math.random() * pages);
    const t0 = performance.now();
    const res = await fetch(`${service.url}/aggregation/v3/customers/${id}/transactions?fromDate=0&toDate=${toDate}&start=${start}&limit=25`, { headers });
    const body = (await res.json()) as { found?: number };
    const ms = performance.now() - t0;
    if (res.status !== 200 || !(typeof body.found === 'number' && body.found > 0 && body.found <= PER_CUSTOMER))
      throw new Error(`customer ${id}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    return ms;
  };
  return { dataDir, customers, seed, service, span, asked: asked?.length ?? span, get, times: [] };
}

/** Requests per block: the two services take turns a block at a time, so that both see the same machine. */
const BLOCK = 100;

/**
 * Both data sets served at once, in one mode and for one traffic: after as many unmeasured requests as measured ones
 * (a service that has just started is slower on either set), REQUESTS measured requests to each, in alternating
 * blocks (small, large, large, small, ...), so that a shared machine's changes of pace fall on both alike.
 */
async function measurePair(mode: Mode, active: number | undefined): Promise<{ small: Measured; large: Measured }> {
  const small = await side(smallDir, Number(values.small), mode, active);
  try {
    const large = await side(largeDir, Number(values.large), mode, active);
    try {
      const run = async (measured: boolean) => {
        for (let block = 0; block * BLOCK < REQUESTS; block++) {
          const order = block % 2 === 0 ? [small, large] : [large, small];
          for (const s of order)
            for (let i = 0; i < Math.min(BLOCK, REQUESTS - block * BLOCK); i++) {
              const ms = await s.get();
              if (measured) s.times.push(ms);
            }
        }
      };
      await run(false);
      process.stderr.write(
        `measuring ${REQUESTS} requests each on ${small.seed.transactions.toLocaleString('en-US')} and ${large.seed.transactions.toLocaleString('en-US')} rows for ${large.asked.toLocaleString('en-US')} customers of the large set, ${mode.name}… `,
      );
      await run(true);
      process.stderr.write('done\n');
      return { small: result(small, mode), large: result(large, mode) };
    } finally {
      await stop(large.service);
    }
  } finally {
    await stop(small.service);
  }
}

function result(s: Side, mode: Mode): Measured {
  const times = [...s.times].sort((a, b) => a - b);
  return {
    mode: mode.name,
    customers: s.customers,
    asked: s.asked,
    rows: s.seed.transactions,
    seedSeconds: s.seed.seconds,
    fileMb: fs.statSync(path.join(s.dataDir, 'ledgerlink.sqlite')).size / 1e6,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    rssMb: rssMb(s.service.child.pid!)?.peak,
    plans: plans(s.dataDir, s.seed.firstCustomerId + Math.floor(s.span / 2)),
  };
}

const smallDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-scale-'));
const largeDir = values.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-scale-'));
try {
  if (!fs.existsSync(path.join(ROOT, 'dist/bundle/ledgerlink.js'))) throw new Error('build first: npm run build');
  const measured: { small: Measured; large: Measured }[] = [];
  for (const active of ACTIVE === undefined ? [undefined] : [undefined, ACTIVE]) {
    for (const mode of MODES) measured.push(await measurePair(mode, active));
  }
  const traffic = (m: Measured) => (m.asked === m.customers ? 'every customer' : `${m.asked.toLocaleString('en-US')} customers`);
  const row = (m: Measured) =>
    `| ${m.mode} | ${m.rows.toLocaleString('en-US')} | ${m.customers.toLocaleString('en-US')} | ${m.asked.toLocaleString('en-US')} | ${m.seedSeconds.toFixed(0)} s | ${m.fileMb.toFixed(0)} MB | ${m.p50.toFixed(2)} ms | ${m.p99.toFixed(2)} ms | ${m.mean.toFixed(2)} ms | ${m.rssMb?.toFixed(0) ?? 'n/a'} MB |`;
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npx tsx bench/scale.ts --small ${values.small} --large ${values.large} --transactions ${PER_CUSTOMER} --requests ${REQUESTS}${ACTIVE === undefined ? '' : ` --active ${ACTIVE}`}\` on ${machineLine()}, SQLite (file, WAL). Each data set seeded with \`ledgerlink seed --profile profile_01 --transactions ${PER_CUSTOMER}\`; ${REQUESTS.toLocaleString('en-US')} sequential requests over HTTP, each for a random customer${ACTIVE === undefined ? '' : ` (of all the set's customers, or of ${ACTIVE} drawn once at random where the table says so)`} and a random one of its pages, limit 25; "cache off" is \`LEDGERLINK_RESPONSE_CACHE_MB=0\`.`,
    '',
    '| service | transactions in the table | customers | customers asked for | seed time | database file | p50 | p99 | mean | service peak RSS |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...measured.flatMap(({ small, large }) => [row(small), row(large)]),
    '',
    ...measured.map(
      ({ small, large }) =>
        `Large / small, ${small.mode}, requests for ${traffic(large)}: p50 ${(large.p50 / small.p50).toFixed(2)}×, p99 ${(large.p99 / small.p99).toFixed(2)}×, mean ${(large.mean / small.mean).toFixed(2)}×.`,
    ),
    '',
    `Plans on the large set: page — ${measured[0]!.large.plans[0]}; count — ${measured[0]!.large.plans[1]}.`,
  ].join('\n');
  process.stdout.write(table + '\n');
  if (values.write) writeBenchSection('scale', 'Transactions at 10 million rows', table);
} finally {
  fs.rmSync(smallDir, { recursive: true, force: true });
  if (!values.keep) fs.rmSync(largeDir, { recursive: true, force: true });
}
