/**
 * Heap check: a mixed load in-process (transaction pages, customer creation, 404s, malformed bodies, institution
 * search) in rounds, with a full garbage collection after each round; a leak shows as heapUsed growing round after
 * round. Complements bench/soak.ts, whose RSS samples also move with the allocator and collector.
 *
 * It also reports what the in-memory institution catalogue (compact rows and search index) of one database holds.
 *
 *   node --expose-gc --import tsx bench/heap.ts [mixed|tx|create|err|inst] [--write]
 */
import { setTimeout as delay } from 'node:timers/promises';
import { openDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { catalogOf } from '../src/modules/institutions/catalog.service.js';
import { ensureInstitutionCatalog } from '../src/modules/institutions/seed.service.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { openLinkedApp } from './lib/linked-app.js';

/** Heap used and array buffers after a full collection, in MB (after a macrotask, so weakly held objects can go). */
async function collected(): Promise<{ heap: number; buffers: number }> {
  await delay(1);
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed / 1e6, buffers: m.arrayBuffers / 1e6 };
}

/** What loading the catalogue of one more database into memory adds, measured on a fresh in-memory SQLite. */
async function catalogueInMemory(): Promise<string> {
  const database = openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(database);
  await ensureInstitutionCatalog(database);
  const before = await collected();
  const catalog = await catalogOf(database);
  const after = await collected();
  await database.close();
  return `Institution catalogue in memory (${catalog.size} institutions, compact rows and search index): ${(after.heap - before.heap).toFixed(1)} MB of heap and ${(after.buffers - before.buffers).toFixed(1)} MB of typed arrays.`;
}

const { app, headers, customerId: cid, close } = await openLinkedApp('heap');
const now = Math.floor(Date.now() / 1000);
let n = 0;
const mode = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'mixed';
const rows: string[] = [];
for (let round = 0; round < 8; round++) {
  for (let i = 0; i < 1500; i++) {
    if (mode === 'mixed' || mode === 'tx')
      await app.inject({ url: `/aggregation/v3/customers/${cid}/transactions?fromDate=${now - 180 * 86400}&toDate=${now}&limit=25`, headers });
    if (mode === 'mixed' || mode === 'create')
      await app.inject({ method: 'POST', url: '/aggregation/v2/customers/testing', headers, payload: { username: `heap_${n++}` } });
    if (mode === 'mixed' || mode === 'err') {
      await app.inject({ url: '/aggregation/v1/customers/999999', headers });
      await app.inject({
        method: 'POST',
        url: '/aggregation/v2/customers/testing',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{"username": ',
      });
    }
    if (mode === 'mixed' || mode === 'inst') await app.inject({ url: '/institution/v2/institutions?search=credit%20union&limit=25', headers });
  }
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const line = `| ${round + 1} | ${(round + 1) * 1500} | ${(m.heapUsed / 1e6).toFixed(1)} MB | ${(m.rss / 1e6).toFixed(0)} MB |`;
  rows.push(line);
  process.stdout.write(line + '\n');
}
await close();
const catalogueLine = await catalogueInMemory();
process.stdout.write(catalogueLine + '\n');
if (process.argv.includes('--write')) {
  writeBenchSection(
    'heap',
    'Heap after garbage collection under a mixed load',
    [
      `Measured ${new Date().toISOString().slice(0, 10)} with \`node --expose-gc --import tsx bench/heap.ts ${mode}\` on ${machineLine()}, SQLite, in-process (app.inject). Each round: 1,500 × (transaction page, customer creation, 404, malformed JSON, institution search), then a full GC.`,
      '',
      '| round | iterations so far | heap used after GC | RSS |',
      '|---|---|---|---|',
      ...rows,
      '',
      catalogueLine,
    ].join('\n'),
  );
}
