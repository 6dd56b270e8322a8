/**
 * Delivery benchmark: notifications per second to a local HTTP listener, and enqueue-to-receipt latency.
 *
 *   npx tsx bench/delivery.ts [--n 2000] [--rate 200] [--dialect sqlite|postgres|both] [--write]
 *
 * Throughput: N signed deliveries are committed first, then one worker (default concurrency 8) delivers them all.
 * Latency: with the worker running, deliveries are enqueued one per transaction at a steady rate below capacity;
 * latency runs from the commit to the listener having read the request. --write puts the table into
 * docs/benchmarks.md. PostgreSQL uses TEST_DATABASE_URL (a throwaway schema).
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/main/config.js';
import type { DialectName } from '../src/platform/db/database.js';
import { enqueueDelivery } from '../src/outbox/enqueue.js';
import { generateSigningSecret } from '../src/outbox/sign.js';
import { startDeliveryWorker } from '../src/outbox/worker.js';
import { createPartner } from '../src/modules/partners/service.js';
import { systemClock } from '../src/platform/clock.js';
import { keysFrom } from '../src/platform/keys.js';
import type { Runtime } from '../src/main/runtime.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { openStore } from './lib/store.js';
import { percentile, resultRows, runPerDialect, type ThroughputResult } from './lib/throughput.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '2000' },
    rate: { type: 'string', default: '200' },
    dialect: { type: 'string', default: 'both' },
    write: { type: 'boolean', default: false },
  },
});
const N = Number(values.n);
const RATE = Number(values.rate);
/** A listener that answers 200 at once and notes when each event id arrived. */
async function startListener(): Promise<{ url: string; received: Map<string, number>; onReceive: (fn: () => void) => void; close(): Promise<void> }> {
  const received = new Map<string, number>();
  let listener = () => {};
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'] as string;
      if (!received.has(id)) received.set(id, performance.now());
      res.writeHead(200).end();
      listener();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    onReceive: (fn) => (listener = fn),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const BODY = JSON.stringify({
  event: { class: 'transaction', type: 'created', records: [{ id: 1234567, amount: -12.5, description: 'Coffee', postedDate: 1768478400, status: 'active' }] },
});

async function run(dialect: DialectName): Promise<ThroughputResult> {
  const store = await openStore(dialect);
  const config = loadConfig({ LEDGERLINK_DATA_DIR: os.tmpdir(), LEDGERLINK_LOG_LEVEL: 'silent' });
  const runtime: Runtime = { config, database: store.database, clock: systemClock, keys: keysFrom(randomBytes(32)) };
  const { partnerId } = await createPartner(runtime, { name: 'Bench' });
  const listener = await startListener();
  const secret = generateSigningSecret();
  const db = store.database.kysely;
  const input = { kind: 'txpush' as const, partnerId, url: listener.url, body: BODY, contentType: 'application/json', signingSecret: secret };
  const allArrived = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => listener.received.size >= n && resolve();
      listener.onReceive(check);
      check();
    });

  try {
    // Throughput: a backlog of N, then one worker.
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < N; i++) await enqueueDelivery(tx, runtime, input);
    });
    const started = performance.now();
    let worker = await startDeliveryWorker(runtime, { workerId: 'bench' });
    await allArrived(N);
    const perSecond = N / ((performance.now() - started) / 1000);
    await worker.stop();

    // Latency: steady arrivals, one transaction each, at RATE per second.
    listener.received.clear();
    worker = await startDeliveryWorker(runtime, { workerId: 'bench' });
    const committedAt = new Map<string, number>();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const { eventId } = await db.transaction().execute((tx) => enqueueDelivery(tx, runtime, input));
      committedAt.set(eventId, performance.now());
    }
    await allArrived(N);
    await worker.stop();
    const latencies = [...committedAt].map(([id, at]) => listener.received.get(id)! - at).sort((a, b) => a - b);
    return { dialect, perSecond, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await listener.close();
    await store.drop();
  }
}

const results = await runPerDialect(values.dialect, `${N} deliveries`, run);

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npx tsx bench/delivery.ts --n ${N} --rate ${RATE}\` on ${machineLine()}; one worker, concurrency 8, signed JSON bodies, a local listener answering 200 at once.`,
  '',
  '| database | deliveries per second (backlog of ' + N + ') | enqueue-to-receipt p50 | p99 (at ' + RATE + '/s) |',
  '|---|---|---|---|',
  ...resultRows(results),
].join('\n');
process.stdout.write(table + '\n');

if (values.write) writeBenchSection('delivery', 'Deliveries (outbox → local listener)', table);
