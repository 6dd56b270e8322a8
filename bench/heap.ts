/**
 * Heap check: a mixed load in-process (transaction pages, customer creation, 404s, malformed bodies, institution
 * search) in rounds, with a full garbage collection after each round; a leak shows as heapUsed growing round after
 * round. Complements bench/soak.ts, whose RSS samples also move with the allocator and collector.
 *
 *   node --expose-gc --import tsx bench/heap.ts [mixed|tx|create|err|inst] [--write]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ensureInstitutionCatalog } from '../src/domain/institutions/seed.js';
import { createPartner } from '../src/domain/partners/service.js';
import { systemClock } from '../src/lib/clock.js';
import { keysFrom } from '../src/lib/keys.js';
import type { Runtime } from '../src/runtime.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { openStore } from './lib/store.js';
const store = await openStore('sqlite');
await ensureInstitutionCatalog(store.database);
const config = loadConfig({ LEDGERLINK_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'll-heap-')) });
const runtime: Runtime = { config, database: store.database, clock: systemClock, keys: keysFrom(randomBytes(32)) };
const app = await buildApp(runtime, { logger: false });
await app.ready();
const creds = await createPartner(runtime, { name: 'Heap check' });
const auth = await app.inject({ method: 'POST', url: '/aggregation/v2/partners/authentication', headers: { 'service-app-key': creds.appKey }, payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret } });
const headers = { 'service-app-key': creds.appKey, 'service-app-token': auth.json<{ token: string }>().token, accept: 'application/json' };
const cid = (await app.inject({ method: 'POST', url: '/aggregation/v2/customers/testing', headers, payload: { username: 'heap_customer' } })).json<{ id: string }>().id;
await app.inject({ method: 'POST', url: `/aggregation/v1/customers/${cid}/institutions/102105/accounts/addall`, headers, payload: { credentials: [{ id: '102105001', value: 'profile_03' }, { id: '102105002', value: 'profile_03' }] } });
await app.inject({ method: 'POST', url: `/aggregation/v1/customers/${cid}/accounts`, headers, payload: {} });
const now = Math.floor(Date.now() / 1000);
let n = 0;
const mode = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'mixed';
const rows: string[] = [];
for (let round = 0; round < 8; round++) {
  for (let i = 0; i < 1500; i++) {
    if (mode === 'mixed' || mode === 'tx') await app.inject({ url: `/aggregation/v3/customers/${cid}/transactions?fromDate=${now - 180 * 86400}&toDate=${now}&limit=25`, headers });
    if (mode === 'mixed' || mode === 'create') await app.inject({ method: 'POST', url: '/aggregation/v2/customers/testing', headers, payload: { username: `heap_${n++}` } });
    if (mode === 'mixed' || mode === 'err') { await app.inject({ url: '/aggregation/v1/customers/999999', headers }); await app.inject({ method: 'POST', url: '/aggregation/v2/customers/testing', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"username": ' }); }
    if (mode === 'mixed' || mode === 'inst') await app.inject({ url: '/institution/v2/institutions?search=credit%20union&limit=25', headers });
  }
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const line = `| ${round + 1} | ${(round + 1) * 1500} | ${(m.heapUsed / 1e6).toFixed(1)} MB | ${(m.rss / 1e6).toFixed(0)} MB |`;
  rows.push(line);
  process.stdout.write(line + '\n');
}
await app.close();
await store.drop();
if (process.argv.includes('--write')) {
  writeBenchSection('heap', 'Heap after garbage collection under a mixed load', [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`node --expose-gc --import tsx bench/heap.ts ${mode}\` on ${machineLine()}, SQLite, in-process (app.inject). Each round: 1,500 × (transaction page, customer creation, 404, malformed JSON, institution search), then a full GC.`,
    '',
    '| round | iterations so far | heap used after GC | RSS |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n'));
}
