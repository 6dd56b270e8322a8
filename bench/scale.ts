/**
 * Scale benchmark: GET v3 transactions latency on a small data set and on a large one built with `ledgerlink seed`.
 *
 *   npm run build && npx tsx bench/scale.ts [--small 100] [--large 100000] [--transactions 100] [--requests 2000]
 *                                          [--keep DIR] [--write]
 *
 * Each data set is seeded through the CLI (`ledgerlink seed --customers N --profile profile_01 --transactions T`,
 * its progress bar shown): every customer has two accounts and T transactions, so the defaults compare 10,000 rows
 * with 10,000,000. The service then runs from dist/ on the data set and answers --requests sequential requests of
 * `GET /aggregation/v3/customers/{id}/transactions?limit=25` over real HTTP (one connection, so the numbers are
 * latencies, not throughput), each for a customer drawn at random from all of the data set's customers, so the
 * large set is read all over, not from one warm corner, and one of its pages drawn at random, after as many
 * unmeasured requests of the same kind (a service that has just started is slower on either set). Each set is measured
 * twice: as served by default (the response cache and the in-memory customers on) and with both off
 * (LEDGERLINK_RESPONSE_CACHE_MB=0, LEDGERLINK_ROW_MEMO=off). The query plans of the page and count queries are printed.
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
    keep: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const PER_CUSTOMER = Number(values.transactions);
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
        'dist/main/cli/main.js',
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

/** How the service runs: as a user gets it, and with every in-memory shortcut off (the database's own cost). */
const MODES = [
  { name: 'cache on', env: {} },
  { name: 'cache off', env: { LEDGERLINK_RESPONSE_CACHE_MB: '0', LEDGERLINK_ROW_MEMO: 'off' } },
] as const;
type Mode = (typeof MODES)[number];

interface Measured {
  mode: Mode['name'];
  customers: number;
  rows: number;
  seedSeconds: number;
  fileMb: number;
  p50: number;
  p99: number;
  mean: number;
  rssMb: number | undefined;
  plans: string[];
}

async function measure(dataDir: string, customers: number, mode: Mode): Promise<Measured> {
  const seed = await seeded(dataDir, customers);
  const service = await startLedgerlink(dataDir, mode.env);
  try {
    const auth = await fetch(`${service.url}/aggregation/v2/partners/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'service-app-key': seed.appKey },
      body: JSON.stringify({ partnerId: seed.partnerId, partnerSecret: seed.partnerSecret }),
    });
    const { token } = (await auth.json()) as { token: string };
    const headers = { 'service-app-key': seed.appKey, 'service-app-token': token, accept: 'application/json' };
    const toDate = Math.floor(Date.now() / 1000) + 86_400;
    const span = seed.lastCustomerId - seed.firstCustomerId + 1;
    const pages = Math.max(1, Math.floor(PER_CUSTOMER / 25));
    const get = async () => {
      const id = seed.firstCustomerId + Math.floor(Math.random() * span);
      const start = 1 + 25 * Math.floor(Math.random() * pages);
      const t0 = performance.now();
      const res = await fetch(`${service.url}/aggregation/v3/customers/${id}/transactions?fromDate=0&toDate=${toDate}&start=${start}&limit=25`, { headers });
      const body = (await res.json()) as { found?: number };
      const ms = performance.now() - t0;
      if (res.status !== 200 || !(typeof body.found === 'number' && body.found > 0 && body.found <= PER_CUSTOMER))
        throw new Error(`customer ${id}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      return ms;
    };
    // As many requests before the measured ones, so that both sets are measured as a running service answers them:
    // code optimised, SQLite's and the system's page caches holding what the reads keep touching.
    for (let i = 0; i < REQUESTS; i++) await get();
    const times: number[] = [];
    process.stderr.write(`measuring ${REQUESTS} requests on ${seed.transactions.toLocaleString('en-US')} rows, ${mode.name}… `);
    for (let i = 0; i < REQUESTS; i++) times.push(await get());
    process.stderr.write('done\n');
    times.sort((a, b) => a - b);
    return {
      mode: mode.name,
      customers,
      rows: seed.transactions,
      seedSeconds: seed.seconds,
      fileMb: fs.statSync(path.join(dataDir, 'ledgerlink.sqlite')).size / 1e6,
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      mean: times.reduce((a, b) => a + b, 0) / times.length,
      rssMb: rssMb(service.child.pid!)?.peak,
      plans: plans(dataDir, seed.firstCustomerId + Math.floor(span / 2)),
    };
  } finally {
    await stop(service);
  }
}

const smallDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-scale-'));
const largeDir = values.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-scale-'));
try {
  if (!fs.existsSync(path.join(ROOT, 'dist/main/cli/main.js'))) throw new Error('build first: npm run build');
  const measured: { small: Measured; large: Measured }[] = [];
  for (const mode of MODES) {
    const small = await measure(smallDir, Number(values.small), mode);
    const large = await measure(largeDir, Number(values.large), mode);
    measured.push({ small, large });
  }
  const row = (m: Measured) =>
    `| ${m.mode} | ${m.rows.toLocaleString('en-US')} | ${m.customers.toLocaleString('en-US')} | ${m.seedSeconds.toFixed(0)} s | ${m.fileMb.toFixed(0)} MB | ${m.p50.toFixed(2)} ms | ${m.p99.toFixed(2)} ms | ${m.mean.toFixed(2)} ms | ${m.rssMb?.toFixed(0) ?? 'n/a'} MB |`;
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npx tsx bench/scale.ts --small ${values.small} --large ${values.large} --transactions ${PER_CUSTOMER} --requests ${REQUESTS}\` on ${machineLine()}, SQLite (file, WAL). Each data set seeded with \`ledgerlink seed --profile profile_01 --transactions ${PER_CUSTOMER}\`; ${REQUESTS.toLocaleString('en-US')} sequential requests over HTTP, each for a random customer and a random one of its pages, limit 25; "cache off" is \`LEDGERLINK_RESPONSE_CACHE_MB=0 LEDGERLINK_ROW_MEMO=off\`.`,
    '',
    '| service | transactions in the table | customers | seed time | database file | p50 | p99 | mean | service peak RSS |',
    '|---|---|---|---|---|---|---|---|---|',
    ...measured.flatMap(({ small, large }) => [row(small), row(large)]),
    '',
    ...measured.map(
      ({ small, large }) =>
        `Large / small, ${small.mode}: p50 ${(large.p50 / small.p50).toFixed(2)}×, p99 ${(large.p99 / small.p99).toFixed(2)}×, mean ${(large.mean / small.mean).toFixed(2)}×.`,
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
