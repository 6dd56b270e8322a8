/**
 * HTTP benchmark: Ledgerlink against the physical limit, side by side, on the same requests.
 *
 *   npm run bench [-- --duration 5 --warmup 1 --connections 64 --scenario NAME --workers N --postgres --write]
 *
 * `npm run bench` runs two suites: the fixed-request scenarios below (one URL each, the response cache's best
 * case), then the realistic ones of bench/realistic.ts (many customers, random requests, writes, PostgreSQL, two
 * processes); and the `categorization` scenario of bench/categorization.ts (payee and category accuracy on labelled
 * statement descriptions, descriptions per second), which needs no service. Choose with --scenario NAME (repeatable) or BENCH_SCENARIOS=a,b,c: scenario names of either suite,
 * or `fixed` / `realistic` for a whole suite; --workers and --postgres configure the fixed suite and, given alone,
 * run only it. BENCH_DURATION, BENCH_WARMUP and BENCH_CONNECTIONS set what --duration, --warmup and --connections
 * do (the flags win); the other BENCH_* settings are in bench/realistic.ts.
 *
 * For each scenario the harness asks Ledgerlink once for the response, starts a bare node:http server that
 * answers with those exact bytes, and loads both with autocannon (same connections, same duration, one after the
 * other). It reports requests per second, p50/p99 latency, the Ledgerlink/limit ratio, and Ledgerlink's peak
 * RSS. The service runs from the built `dist/` (npm run build) as `ledgerlink serve`, on a fresh SQLite data set (or, with --postgres, a fresh schema on TEST_DATABASE_URL)
 * prepared through the API. --write puts the table into docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { peakRssTreeMb, ROOT, rssMb, start, startLedgerlink, stop } from './lib/process.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { createPgSchema } from './lib/store.js';
import { runCategorization } from './categorization.js';
import { realisticOptionsFromEnv, runRealistic, SCENARIOS as REALISTIC } from './realistic.js';
import { scenarios, type Scenario } from './scenarios.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION || '5' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS || '64' },
    scenario: { type: 'string', multiple: true },
    workers: { type: 'string', default: '1' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP || '1' },
    postgres: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
  },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WORKERS = Number(values.workers);
const WARMUP = Number(values.warmup);

// Which scenarios: --scenario and BENCH_SCENARIOS together; none named means both suites (only the fixed one when
// --postgres or --workers configure it).
const named = [...(values.scenario ?? []), ...(process.env.BENCH_SCENARIOS ?? '').split(',')].map((n) => n.trim()).filter(Boolean);
const realisticNames = REALISTIC.map((s) => s.name);
const FIXED_NAMES = ['transactions-json', 'transactions-xml', 'accounts-json', 'institutions-json', 'institutions-xml', 'partner-json', 'authentication'];
const unknown = named.filter((n) => n !== 'fixed' && n !== 'realistic' && n !== 'categorization' && !realisticNames.includes(n) && !FIXED_NAMES.includes(n));
if (unknown.length > 0)
  throw new Error(`unknown scenario ${unknown.join(', ')}; known: fixed (${FIXED_NAMES.join(', ')}), realistic (${realisticNames.join(', ')}), categorization`);
const fixedOnly = named.length === 0 && (values.postgres || WORKERS > 1);
const runFixedSuite = named.length === 0 || named.includes('fixed') || named.some((n) => FIXED_NAMES.includes(n));
const fixedChosen = named.length === 0 || named.includes('fixed') ? undefined : named.filter((n) => FIXED_NAMES.includes(n));
const runRealisticSuite = !fixedOnly && (named.length === 0 || named.includes('realistic') || named.some((n) => realisticNames.includes(n)));
const realisticChosen = named.length === 0 || named.includes('realistic') ? undefined : named.filter((n) => realisticNames.includes(n));

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Loads one server: first WARMUP seconds unmeasured (JIT, caches, connection set-up), then DURATION measured. */
async function load(url: string, s: Scenario): Promise<Load> {
  const run = (duration: number) =>
    autocannon({
      url: url + s.path,
      method: s.method,
      headers: s.headers,
      ...(s.body !== undefined ? { body: s.body } : {}),
      connections: CONNECTIONS,
      duration,
    });
  if (WARMUP > 0) await run(WARMUP);
  const result = await run(DURATION);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

/** The fixed-request suite: each scenario one URL, against the bare server and the Fastify floor. */
async function fixedSuite(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-http-'));
  // --postgres: the service keeps its data in a new schema on TEST_DATABASE_URL instead of SQLite in dataDir.
  const schema = values.postgres ? await createPgSchema() : undefined;
  const env = schema ? { DATABASE_URL: schema.url } : {};
  const store = schema ? 'PostgreSQL (local)' : 'SQLite';
  // The data set is prepared through a first service (which also writes the institution catalogue into the new
  // database); the measured service starts afresh on it, so its memory is that of a service that serves.
  const preparing = await startLedgerlink(dataDir, env);
  const all = await scenarios({ url: preparing.url, dataDir, root: ROOT, databaseUrl: schema?.url });
  const preparedRss = peakRssTreeMb(preparing.child.pid!)[0];
  await stop(preparing);
  const service = await startLedgerlink(dataDir, env, WORKERS > 1 ? ['--workers', String(WORKERS)] : []);
  process.stderr.write(`Ledgerlink at ${service.url} (data ${dataDir})\n`);

  const rows: string[] = [];
  try {
    const chosen = fixedChosen ? all.filter((s) => fixedChosen.includes(s.name)) : all;
    for (const s of chosen) {
      const reference = await fetch(service.url + s.path, { method: s.method, headers: s.headers, ...(s.body !== undefined ? { body: s.body } : {}) });
      const bytes = Buffer.from(await reference.arrayBuffer());
      if (reference.status >= 400) throw new Error(`${s.name}: Ledgerlink answered ${reference.status}: ${bytes.toString().slice(0, 300)}`);
      const responseFile = path.join(dataDir, `${s.name}.response.json`);
      fs.writeFileSync(
        responseFile,
        JSON.stringify({ status: reference.status, contentType: reference.headers.get('content-type'), body: bytes.toString('base64') }),
      );
      const bare = await start(['--import', 'tsx', 'bench/bare-server.ts', responseFile]);
      process.stderr.write(`${s.name}: ${bytes.length} bytes; limit… `);
      const limit = await load(bare.url, s);
      await stop(bare);
      process.stderr.write('fastify floor… ');
      const floorServer = await start(['--import', 'tsx', 'bench/fastify-floor.ts', responseFile]);
      const floor = await load(floorServer.url, s);
      await stop(floorServer);
      process.stderr.write('ledgerlink… ');
      const ours = await load(service.url, s);
      const rssAfter = rssMb(service.child.pid!)?.rss;
      process.stderr.write('done\n');
      const ratio = ours.rps / limit.rps;
      rows.push(
        `| ${s.label} | ${Math.round(limit.rps)} | ${Math.round(floor.rps)} (${((floor.rps / limit.rps) * 100).toFixed(0)} %) | ${Math.round(ours.rps)} | ${(ratio * 100).toFixed(0)} % | ${ours.p50} ms | ${ours.p99} ms | ${limit.p99} ms | ${bytes.length} | ${ours.errors} | ${rssAfter?.toFixed(0) ?? 'n/a'} MB |`,
      );
    }
  } finally {
    const rss = peakRssTreeMb(service.child.pid!);
    await stop(service);
    const table = [
      `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` (${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s of warm-up, autocannon) on ${machineLine()}. Ledgerlink runs from \`dist/\` on ${store}${WORKERS > 1 ? ` as \`serve --workers ${WORKERS}\`` : ''}; the limit is a bare \`node:http\` server answering the identical bytes, the Fastify floor a Fastify server with no plugins answering them. Peak RSS of the measured service over all its runs: ${rss.length === 0 ? 'n/a' : rss.map((r) => `${r.toFixed(0)} MB`).join(' + ')}${rss.length > 1 ? ' (primary + HTTP processes)' : ''}; of the service that prepared the data set (first start on a new database: writing the institution catalogue, linking and aggregating the test customer): ${preparedRss?.toFixed(0) ?? 'n/a'} MB.`,
      '',
      '| request | limit req/s | Fastify floor req/s (of limit) | Ledgerlink req/s | Ledgerlink/limit | p50 | p99 | limit p99 | body bytes | errors | RSS after the run |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
    process.stdout.write(table + '\n');
    const section = `http${schema ? '-postgres' : ''}${WORKERS > 1 ? `-workers-${WORKERS}` : ''}`;
    const title = `HTTP${schema ? ' on PostgreSQL' : ''}${WORKERS > 1 ? ` with ${WORKERS} processes` : ''}`;
    if (values.write && rows.length > 0) writeBenchSection(section, section === 'http' ? 'HTTP: Ledgerlink against the physical limit' : title, table);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await schema?.drop();
  }
}

const runCategorizationScenario = (named.length === 0 && !fixedOnly) || named.includes('categorization');
if (runCategorizationScenario) runCategorization({ write: values.write || process.env.BENCH_WRITE === '1' });
if (runFixedSuite) await fixedSuite();
if (runRealisticSuite) {
  await runRealistic(
    realisticOptionsFromEnv({
      only: realisticChosen,
      duration: DURATION,
      warmup: WARMUP,
      connections: CONNECTIONS,
      write: values.write || process.env.BENCH_WRITE === '1',
    }),
  );
}
