/**
 * TxPUSH benchmark: notifications per second delivered to a local listener, and creation-to-receipt latency of a
 * test transaction's notification, through the whole service (API, aggregation events, outbox, worker, signing).
 *
 *   npx tsx bench/txpush.ts [--n 1000] [--rate 50] [--dialect sqlite|postgres|both] [--write]
 *
 * Setup: a Test Drive partner, a testing customer with profile_03 at FinBank Profiles - A linked and aggregated, and
 * a verified listener subscribed to its checking account (JSON). API calls go through `app.inject` (no network).
 * Throughput: N test transactions are created with the worker stopped (2N notifications: a transaction `created` and
 * an account `modified` each), then one worker (concurrency 8) delivers them all.
 * Latency: with the worker running, test transactions are created one at a time at RATE per second; latency runs
 * from sending the create call to the listener having read the transaction notification. --write puts the table
 * into docs/benchmarks.md. PostgreSQL uses TEST_DATABASE_URL (a throwaway schema).
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/main/app.js';
import { loadConfig } from '../src/main/config.js';
import type { DialectName } from '../src/platform/db/database.js';
import { startDeliveryWorker } from '../src/outbox/worker.js';
import { createPartner } from '../src/modules/partners/service.js';
import { systemClock } from '../src/platform/clock.js';
import { keysFrom } from '../src/platform/keys.js';
import type { Runtime } from '../src/main/runtime.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { percentile, resultRows, runPerDialect, type ThroughputResult } from './lib/throughput.js';
import { openStore } from './lib/store.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '50' },
    dialect: { type: 'string', default: 'both' },
    write: { type: 'boolean', default: false },
  },
});
const N = Number(values.n);
const RATE = Number(values.rate);

/** A listener that passes verification, answers notifications 200 at once, and notes when each record arrived. */
async function startListener() {
  const transactions = new Map<number, number>();
  let notifications = 0;
  let onReceive = () => {};
  const server = http.createServer((req, res) => {
    const code = new URL(req.url!, 'http://listener').searchParams.get('txpush_verification_code');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (code) return res.writeHead(200, { 'content-type': 'text/plain' }).end(code);
      const at = performance.now();
      const { event } = JSON.parse(body) as { event: { class: string; records: Array<{ id: number }> } };
      notifications++;
      if (event.class === 'transaction') for (const r of event.records) if (!transactions.has(r.id)) transactions.set(r.id, at);
      res.writeHead(200).end();
      onReceive();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/txpush`,
    transactions,
    notifications: () => notifications,
    until: (condition: () => boolean) =>
      new Promise<void>((resolve) => {
        onReceive = () => condition() && resolve();
        onReceive();
      }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function run(dialect: DialectName): Promise<ThroughputResult> {
  const store = await openStore(dialect);
  const listener = await startListener();
  const config = loadConfig({ LEDGERLINK_DATA_DIR: os.tmpdir(), LEDGERLINK_LOG_LEVEL: 'silent', LEDGERLINK_PUSH_EXTRA_PORTS: String(listener.port) });
  const runtime: Runtime = { config, database: store.database, clock: systemClock, keys: keysFrom(randomBytes(32)) };
  const app = await buildApp(runtime, { logger: false });
  try {
    const partner = await createPartner(runtime, { name: 'Bench' });
    const auth = await app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': partner.appKey },
      payload: { partnerId: partner.partnerId, partnerSecret: partner.partnerSecret },
    });
    const headers = { 'service-app-key': partner.appKey, 'service-app-token': auth.json<{ token: string }>().token, accept: 'application/json' };
    const call = async (method: 'GET' | 'POST', url: string, payload: object, expected: number) => {
      const res = await app.inject({ method, url, headers, payload });
      if (res.statusCode !== expected) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const { id: customerId } = await call('POST', '/aggregation/v2/customers/testing', { username: `bench_${randomBytes(4).toString('hex')}` }, 201);
    const credentials = [
      { id: '102105001', name: 'Banking Userid', value: 'profile_03' },
      { id: '102105002', name: 'Banking Password', value: 'profile_03' },
    ];
    const { accounts } = await call('POST', `/aggregation/v1/customers/${customerId}/institutions/102105/accounts/addall`, { credentials }, 200);
    const accountId = (accounts as Array<{ id: string; type: string }>).find((a) => a.type === 'checking')!.id;
    await call('POST', `/aggregation/v1/customers/${customerId}/accounts`, {}, 200);
    await call('POST', `/aggregation/v1/customers/${customerId}/accounts/${accountId}/txpush`, { callbackUrl: listener.url }, 201);
    const create = (i: number) =>
      call(
        'POST',
        `/aggregation/v1/customers/${customerId}/accounts/${accountId}/transactions`,
        { amount: -((i % 50) + 1), description: `bench ${i}`, transactionDate: Math.floor(Date.now() / 1000) },
        201,
      ) as Promise<{ id: number }>;

    // Throughput: a backlog of 2N notifications, then one worker.
    for (let i = 0; i < N; i++) await create(i);
    const started = performance.now();
    let worker = await startDeliveryWorker(runtime, { workerId: 'bench' });
    await listener.until(() => listener.notifications() >= 2 * N);
    const perSecond = (2 * N) / ((performance.now() - started) / 1000);
    await worker.stop();

    // Latency: steady creations at RATE per second, with the worker running.
    worker = await startDeliveryWorker(runtime, { workerId: 'bench' });
    const sentAt = new Map<number, number>();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const wait = t0 + (i * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const before = performance.now();
      sentAt.set((await create(i)).id, before);
    }
    await listener.until(() => [...sentAt.keys()].every((id) => listener.transactions.has(id)));
    await worker.stop();
    const latencies = [...sentAt].map(([id, at]) => listener.transactions.get(id)! - at).sort((a, b) => a - b);
    return { dialect, perSecond, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await app.close();
    await listener.close();
    await store.drop();
  }
}

const results = await runPerDialect(values.dialect, `${N} test transactions`, run);

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npx tsx bench/txpush.ts --n ${N} --rate ${RATE}\` on ${machineLine()}; API calls through \`app.inject\`, one worker (concurrency 8), signed JSON notifications, a local listener answering 200 at once.`,
  '',
  `| database | notifications per second (backlog of ${2 * N}) | creation-to-receipt p50 | p99 (at ${RATE} test transactions/s) |`,
  '|---|---|---|---|',
  ...resultRows(results),
].join('\n');
process.stdout.write(table + '\n');

if (values.write) writeBenchSection('txpush', 'TxPUSH (test transaction → listener)', table);
