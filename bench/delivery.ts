/**
 * Delivery benchmark: notifications per second to a local HTTP listener, CPU per delivery, and enqueue-to-receipt
 * latency.
 *
 *   npx tsx bench/delivery.ts [--setup sqlite/0/64 --setup postgres/2/64 ...] [--n 20000] [--rate 200,1000]
 *                             [--latency-n 2000] [--write]
 *
 * A setup is `dialect/workers/concurrency`: workers 0 is the worker inside the process that enqueues (what `serve`
 * runs, the deployment for SQLite); workers N starts N `ledgerlink worker` processes on the same store (the way to
 * scale out on PostgreSQL), each with that concurrency.
 *
 * Throughput: with the workers idle, N signed deliveries are committed in one transaction; the clock runs from that
 * commit until the listener has read all N. CPU is read from /proc for the worker (this process or the worker
 * processes), the listener and, on PostgreSQL, the server processes serving this benchmark's connections and the
 * server's own background processes.
 * Latency: with the workers running, deliveries are enqueued one per transaction at each steady rate (open loop:
 * an enqueue starts when it is due, whether or not the one before has committed); latency runs from the commit to
 * the listener having read the request.
 * The listener is a process of its own, answering 200 at once, so its CPU is not the worker's; it counts the
 * connections it accepted (keep-alive shows as few connections for many deliveries).
 * --write puts the table into docs/benchmarks.md. PostgreSQL uses TEST_DATABASE_URL (a throwaway schema).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../src/main/config.js';
import type { Runtime } from '../src/main/runtime.js';
import { createPartner } from '../src/modules/partners/service.js';
import { enqueueDelivery } from '../src/outbox/enqueue.js';
import { generateSigningSecret } from '../src/outbox/sign.js';
import { startDeliveryWorker } from '../src/outbox/worker.js';
import { systemClock } from '../src/platform/clock.js';
import { type Database, type DialectName, openDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { keysFrom, loadMasterKey } from '../src/platform/keys.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { createPgSchema, PG_URL } from './lib/store.js';
import { percentile } from './lib/throughput.js';

const { values } = parseArgs({
  options: {
    setup: { type: 'string', multiple: true },
    n: { type: 'string', default: '20000' },
    rate: { type: 'string', default: '200,1000' },
    'latency-n': { type: 'string', default: '2000' },
    write: { type: 'boolean', default: false },
    role: { type: 'string' },
  },
});

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const CLI = path.join(ROOT, 'src', 'main', 'cli', 'main.ts');
const APP_NAME = 'ledgerlink-bench-delivery';
const TICK_MS = 1000 / 100;

/** Milliseconds on a clock every process on the machine shares. */
const wallMs = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------------------------
// The listener process: answers 200 at once, reports each event id's first arrival and the connections it accepted.

interface ListenerReport {
  received: Array<[string, number]>;
  connections: number;
  requests: number;
}

async function runListener(): Promise<void> {
  let pending: Array<[string, number]> = [];
  let connections = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      pending.push([req.headers['webhook-id'] as string, wallMs()]);
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 5000;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.send!({ port: (server.address() as AddressInfo).port });
  const flush = () => {
    const report: ListenerReport = { received: pending, connections, requests };
    pending = [];
    process.send!(report);
  };
  const timer = setInterval(flush, 20);
  process.on('message', (m) => {
    if (m === 'flush') flush();
    if (m === 'stop') {
      clearInterval(timer);
      flush();
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
}

interface ListenerHandle {
  url: string;
  pid: number;
  /** First arrival (wall ms) per event id. */
  received: Map<string, number>;
  requests(): number;
  connections(): number;
  until(n: number): Promise<void>;
  stop(): Promise<void>;
}

async function startListenerProcess(): Promise<ListenerHandle> {
  const child = fork(fileURLToPath(import.meta.url), ['--role', 'listener'], { execArgv: ['--import', TSX], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const received = new Map<string, number>();
  let requests = 0;
  let connections = 0;
  let waiter: { n: number; resolve: () => void } | undefined;
  const port = await new Promise<number>((resolve) => {
    child.on('message', (m: { port?: number } & Partial<ListenerReport>) => {
      if (m.port !== undefined) return resolve(m.port);
      for (const [id, at] of m.received!) if (!received.has(id)) received.set(id, at);
      requests = m.requests!;
      connections = m.connections!;
      if (waiter && received.size >= waiter.n) waiter.resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    pid: child.pid!,
    received,
    requests: () => requests,
    connections: () => connections,
    until: (n) =>
      new Promise<void>((resolve) => {
        if (received.size >= n) return resolve();
        waiter = { n, resolve };
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// CPU accounting from /proc (user + system time, in milliseconds).

function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server processes that work for this benchmark: its connections, and the server's background ones. */
async function serverPids(db: Database): Promise<number[]> {
  const rows = await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${APP_NAME} or backend_type <> 'client backend'`.execute(
    db.kysely,
  );
  return rows.rows.map((r) => Number(r.pid));
}

interface CpuSample {
  worker: number;
  listener: number;
  server: Map<number, number>;
}

async function sampleCpu(store: BenchStore, workerPids: number[], listener: ListenerHandle): Promise<CpuSample> {
  const worker =
    workerPids.length === 0 ? process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000 : workerPids.reduce((s, p) => s + processCpuMs(p), 0);
  const server = new Map<number, number>();
  if (store.dialect === 'postgres') for (const pid of await serverPids(store.database)) server.set(pid, processCpuMs(pid));
  return { worker, listener: processCpuMs(listener.pid), server };
}

function cpuSpent(before: CpuSample, after: CpuSample): { worker: number; listener: number; server: number } {
  let server = 0;
  // A server process that started during the run spent all its time in it.
  for (const [pid, ms] of after.server) server += ms - (before.server.get(pid) ?? 0);
  return { worker: after.worker - before.worker, listener: after.listener - before.listener, server };
}

// ---------------------------------------------------------------------------------------------------------------
// Stores and workers.

interface BenchStore {
  dialect: DialectName;
  database: Database;
  /** What a `ledgerlink worker` process needs to reach the same store. */
  env: Record<string, string>;
  dataDir: string;
  drop(): Promise<void>;
}

async function openBenchStore(dialect: DialectName): Promise<BenchStore> {
  process.env.PGAPPNAME = APP_NAME;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-delivery-'));
  const masterKey = randomBytes(32).toString('hex');
  const env: Record<string, string> = { LEDGERLINK_MASTER_KEY: masterKey, LEDGERLINK_DATA_DIR: dataDir, PGAPPNAME: APP_NAME };
  if (dialect === 'sqlite') {
    const database = openDatabase({ sqliteFile: path.join(dataDir, 'ledgerlink.sqlite') });
    await migrateToLatest(database);
    return {
      dialect,
      database,
      env,
      dataDir,
      drop: async () => {
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = await createPgSchema();
  const database = openDatabase({ databaseUrl: PG_URL, pgSchema: schema.name });
  await migrateToLatest(database);
  return {
    dialect,
    database,
    env: { ...env, DATABASE_URL: schema.url },
    dataDir,
    drop: async () => {
      await database.close();
      await schema.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Workers {
  pids: number[];
  stop(): Promise<void>;
}

async function startWorkerProcess(store: BenchStore, id: string, concurrency: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', TSX, CLI, 'worker', '--log-level', 'warn', '--data', store.dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...store.env, LEDGERLINK_WORKER_ID: id, LEDGERLINK_WORKER_CONCURRENCY: String(concurrency) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (/worker \S+ started/.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker ${id} exited (${code}) before it started: ${out}`)));
  });
  return child;
}

async function startWorkers(store: BenchStore, runtime: Runtime, setup: Setup): Promise<Workers> {
  if (setup.workers === 0) {
    const worker = await startDeliveryWorker(runtime, { workerId: 'bench', concurrency: setup.concurrency });
    return { pids: [], stop: () => worker.stop() };
  }
  const children = await Promise.all(Array.from({ length: setup.workers }, (_, i) => startWorkerProcess(store, `bench-${i + 1}`, setup.concurrency)));
  return {
    pids: children.map((c) => c.pid!),
    stop: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              c.once('exit', () => resolve());
              c.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// One setup.

interface Setup {
  dialect: DialectName;
  workers: number;
  concurrency: number;
}

interface Result {
  setup: Setup;
  perSecond: number;
  /** Microseconds of CPU per delivery. */
  cpu: { worker: number; listener: number; server: number };
  /** Connections the listener accepted for the backlog. */
  connections: number;
  /** Requests beyond the first of each event id (a delivery sent twice). */
  repeats: number;
  latency: Array<{ rate: number; p50: number; p99: number }>;
}

const N = Number(values.n);
const LATENCY_N = Number(values['latency-n']);
const RATES = values.rate!.split(',').map(Number);

const BODY = JSON.stringify({
  event: { class: 'transaction', type: 'created', records: [{ id: 1234567, amount: -12.5, description: 'Coffee', postedDate: 1768478400, status: 'active' }] },
});

async function run(setup: Setup): Promise<Result> {
  const store = await openBenchStore(setup.dialect);
  const config = loadConfig({ LEDGERLINK_DATA_DIR: store.dataDir, LEDGERLINK_LOG_LEVEL: 'silent', LEDGERLINK_MASTER_KEY: store.env.LEDGERLINK_MASTER_KEY });
  const runtime: Runtime = { config, database: store.database, clock: systemClock, keys: keysFrom(loadMasterKey(config.masterKey, store.dataDir)) };
  const { partnerId } = await createPartner(runtime, { name: 'Bench' });
  const listener = await startListenerProcess();
  const db = store.database.kysely;
  const input = { kind: 'txpush' as const, partnerId, url: listener.url, body: BODY, contentType: 'application/json', signingSecret: generateSigningSecret() };
  const workers = await startWorkers(store, runtime, setup);
  try {
    // Throughput: a backlog of N committed at once.
    const before = await db.transaction().execute(async (tx) => {
      for (let i = 0; i < N; i++) await enqueueDelivery(tx, runtime, input);
      return sampleCpu(store, workers.pids, listener);
    });
    const started = performance.now();
    await listener.until(N);
    const seconds = (performance.now() - started) / 1000;
    const after = await sampleCpu(store, workers.pids, listener);
    const spent = cpuSpent(before, after);
    const connections = listener.connections();
    const perDelivery = (ms: number) => (ms * 1000) / N;

    // Latency: steady arrivals, one transaction each.
    const latency: Result['latency'] = [];
    for (const rate of RATES) {
      listener.received.clear();
      const committedAt = new Map<string, number>();
      const t0 = performance.now();
      const enqueues: Promise<void>[] = [];
      for (let i = 0; i < LATENCY_N; i++) {
        const wait = t0 + (i * 1000) / rate - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        enqueues.push(
          db
            .transaction()
            .execute((tx) => enqueueDelivery(tx, runtime, input))
            .then(({ eventId }) => void committedAt.set(eventId, wallMs())),
        );
      }
      await Promise.all(enqueues);
      await listener.until(LATENCY_N);
      const latencies = [...committedAt].map(([id, at]) => listener.received.get(id)! - at).sort((a, b) => a - b);
      latency.push({ rate, p50: percentile(latencies, 50), p99: percentile(latencies, 99) });
    }
    await workers.stop();
    const repeats = listener.requests() - N - LATENCY_N * RATES.length;
    return {
      setup,
      perSecond: N / seconds,
      cpu: { worker: perDelivery(spent.worker), listener: perDelivery(spent.listener), server: perDelivery(spent.server) },
      connections,
      repeats,
      latency,
    };
  } finally {
    await listener.stop();
    await store.drop();
  }
}

if (values.role === 'listener') {
  await runListener();
} else {
  const setups: Setup[] = (values.setup ?? ['sqlite/0/8', 'postgres/0/8']).map((s) => {
    const [dialect, workers, concurrency] = s.split('/');
    if (dialect !== 'sqlite' && dialect !== 'postgres') throw new Error(`unknown dialect in --setup ${s}`);
    return { dialect, workers: Number(workers ?? 0), concurrency: Number(concurrency ?? 8) };
  });
  const results: Result[] = [];
  for (const setup of setups) {
    process.stderr.write(`${setup.dialect}, ${setup.workers || 'in-process'} worker(s), concurrency ${setup.concurrency}: ${N} deliveries...\n`);
    const r = await run(setup);
    process.stderr.write(`  ${JSON.stringify(r)}\n`);
    results.push(r);
  }
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npx tsx bench/delivery.ts --n ${N} --rate ${RATES.join(',')} --latency-n ${LATENCY_N}\` on ${machineLine()}; signed JSON bodies, a local listener process answering 200 at once.`,
    '',
    `| database | workers × concurrency | deliveries per second (backlog of ${N}) | CPU per delivery: worker / listener / database | listener connections | ${RATES.map((r) => `p50 / p99 at ${r}/s`).join(' | ')} |`,
    `|---|---|---|---|---|${RATES.map(() => '---|').join('')}`,
    ...results.map(
      (r) =>
        `| ${r.setup.dialect === 'sqlite' ? 'SQLite (file, WAL)' : 'PostgreSQL (local)'} | ${r.setup.workers === 0 ? 'in-process' : `${r.setup.workers} processes`} × ${r.setup.concurrency} | ${Math.round(r.perSecond)} | ${Math.round(r.cpu.worker)} / ${Math.round(r.cpu.listener)} / ${r.setup.dialect === 'sqlite' ? '–' : Math.round(r.cpu.server)} µs | ${r.connections} | ${r.latency.map((l) => `${ms(l.p50)} / ${ms(l.p99)}`).join(' | ')} |`,
    ),
  ].join('\n');
  process.stdout.write(table + '\n');
  if (results.some((r) => r.repeats !== 0)) process.stdout.write(`repeats: ${results.map((r) => r.repeats).join(', ')}\n`);
  if (values.write) writeBenchSection('delivery', 'Deliveries (outbox → local listener)', table);
}
