/**
 * Institution search over the full catalogue: server-side time per search, p50 and p99 in microseconds, for
 * each kind of search text. Three layers are measured:
 *   index    SearchIndex.search alone (the ranking and paging of 25 results)
 *   service  searchInstitutions: catalogue lookup, filters, paging (what a route calls)
 *   request  a whole GET /institution/v2/institutions as Fastify times it (reply.elapsedTime, from receiving the
 *            request to having written the response: routing, authentication, validation, search, JSON
 *            serialisation of 25 records of about 1.6 kB each), sent with app.inject so no network is involved
 *
 * Run: npx tsx bench/institution-search.ts [--iterations 2000]
 * Uses an in-memory SQLite database with the real migrations (the search itself runs in memory on both
 * dialects; only the per-request authentication lookup goes to the database).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/main/app.js';
import { loadConfig } from '../src/main/config.js';
import { openDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { catalogOf } from '../src/modules/institutions/catalog.service.js';
import { ensureInstitutionCatalog } from '../src/modules/institutions/seed.service.js';
import { searchInstitutions } from '../src/modules/institutions/service.js';
import { createPartner } from '../src/modules/partners/service.js';
import { ManualClock } from '../src/platform/clock.js';
import { keysFrom } from '../src/platform/keys.js';
import type { Runtime } from '../src/main/runtime.js';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '2000' } } });
const ITERATIONS = Number(values.iterations);

const KINDS: Array<[kind: string, queries: Array<string | undefined>]> = [
  ['exact name', ['Chase', 'Wells Fargo', 'FinBank', 'Golden 1 Credit Union']],
  ['prefix', ['First Nat', 'Bank of', 'Caisse Desj', 'Gold']],
  ['word', ['Fargo', 'Merchants', 'Teachers', 'Savings']],
  ['substring', ['ank of', 'redit', 'ville', 'ppi']],
  ['web address', ['chase.com', 'https://www.wellsfargo.com', 'online.fnb', 'desjardins.com']],
  ['one or two letters', ['a', 'td', 'x', 'co']],
  ['broad word', ['bank', 'credit union']],
  ['no match', ['qqzzxx', 'zzzz bank']],
  ['list all (no search)', [undefined]],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs each query in turn; the sample is the time `run` reports in µs, or else the time it took. */
async function measure(run: (query: string | undefined) => unknown, queries: Array<string | undefined>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (const q of queries) for (let i = 0; i < 200; i++) await run(q); // warm up
  for (let i = 0; i < ITERATIONS; i++) {
    const q = queries[i % queries.length];
    const start = process.hrtime.bigint();
    const reported = await run(q);
    samples.push(typeof reported === 'number' ? reported : Number(process.hrtime.bigint() - start) / 1000);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function main(): Promise<void> {
  const database = openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(database);
  let t = performance.now();
  await ensureInstitutionCatalog(database);
  const seedMs = performance.now() - t;
  t = performance.now();
  const catalog = await catalogOf(database);
  const loadMs = performance.now() - t;

  const config = loadConfig({ LEDGERLINK_DATA_DIR: os.tmpdir(), LEDGERLINK_LOG_LEVEL: 'silent' });
  const runtime: Runtime = { config, database, clock: new ManualClock(), keys: keysFrom(Buffer.alloc(32, 7)) };
  const app = await buildApp(runtime, { logger: false });
  let serverMicros = 0;
  app.addHook('onResponse', async (_request, reply) => {
    serverMicros = reply.elapsedTime * 1000;
  });
  await app.ready();
  const creds = await createPartner(runtime, { name: 'Bench' });
  const auth = await app.inject({
    method: 'POST',
    url: '/aggregation/v2/partners/authentication',
    headers: { 'service-app-key': creds.appKey },
    payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret },
  });
  const headers = { 'service-app-key': creds.appKey, 'service-app-token': auth.json<{ token: string }>().token, accept: 'application/json' };

  const rows: string[] = [];
  for (const [kind, queries] of KINDS) {
    const found = queries.map((q) => catalog.index.search(q, { limit: 25 }).total).join(', ');
    const index = await measure((q) => catalog.index.search(q, { offset: 0, limit: 25 }), queries);
    const service = await measure((q) => searchInstitutions(database, { search: q, start: 1, limit: 25 }), queries);
    const request = await measure(async (q) => {
      const res = await app.inject({ method: 'GET', url: `/institution/v2/institutions${q === undefined ? '' : `?search=${encodeURIComponent(q)}`}`, headers });
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
      return serverMicros;
    }, queries);
    const shown = queries.map((q) => (q === undefined ? '(none)' : `\`${q}\``)).join(', ');
    rows.push(
      `| ${kind} | ${shown} | ${found} | ${index.p50.toFixed(1)} / ${index.p99.toFixed(1)} | ${service.p50.toFixed(1)} / ${service.p99.toFixed(1)} | ${request.p50.toFixed(0)} / ${request.p99.toFixed(0)} |`,
    );
  }
  await app.close();
  await database.close();

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `Catalogue: ${catalog.size} institutions. Generating and writing it into a new database: ${seedMs.toFixed(0)} ms; reading it into memory and building the index: ${loadMs.toFixed(0)} ms.`,
  );
  console.log(`Machine: ${cpu}, ${os.cpus().length} cores, Node ${process.version}. ${ITERATIONS} searches per row after warm-up; 25 results per page.\n`);
  console.log('| search kind | search texts | matches | index p50 / p99 (µs) | service p50 / p99 (µs) | request p50 / p99 (µs) |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
