import cluster from 'node:cluster';
import { memoryEnv, withMemoryFlags } from '../memory-settings.js';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../../config.js';
import { processLogger } from '../../../platform/logger.js';
import { countPartners } from '../../../modules/partners/repository.js';
import { createPartner, listPartners } from '../../../modules/partners/service.js';
import { startBackgroundWork } from '../../background.js';
import { openRuntime, type Runtime } from '../../runtime.js';
import { startServer } from '../../server.js';
import { parse, positiveInteger, UsageError } from '../args.js';
import { onShutdownSignal } from '../shutdown.js';
import { lockForWorker } from '../worker-lock.js';

const USAGE =
  'ledgerlink serve [--port 8080] [--host 127.0.0.1] [--data DIR] [--public-url URL] [--mode sandbox|production] [--tls-cert FILE --tls-key FILE] [--trust-proxy true|N|ADDRS] [--insecure-http] [--dashboard-signup on|off] [--first-partner] [--no-worker] [--workers N]';

/** Most HTTP processes `serve --workers` starts. */
const MAX_WORKERS = 64;

/**
 * `ledgerlink serve`: runs the HTTP service, and the worker (deliveries, scheduled refresh) unless --no-worker, until
 * SIGTERM/SIGINT; then drains requests, in-flight deliveries and refreshes and exits 0.
 */
export async function serve(argv: string[]): Promise<void> {
  const { values } = parse(
    argv,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'public-url': { type: 'string' },
      'log-level': { type: 'string' },
      mode: { type: 'string' },
      'first-partner': { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'insecure-http': { type: 'boolean' },
      'dashboard-signup': { type: 'string' },
      'no-worker': { type: 'boolean', default: false },
      workers: { type: 'string' },
    },
    USAGE,
  );
  const { 'insecure-http': insecureHttp, 'first-partner': _firstPartner, 'no-worker': _noWorker, workers: _workers, ...stringFlags } = values;
  const workers = positiveInteger('--workers', values.workers, USAGE) ?? 1;
  if (workers > MAX_WORKERS) throw new UsageError(`--workers must be at most ${MAX_WORKERS} (got ${workers})`, `usage: ${USAGE}`);
  const config = loadConfig(process.env, { ...stringFlags, ...(insecureHttp ? { 'insecure-http': 'true' } : {}) });
  const logger = processLogger(config);
  if (cluster.isWorker) return serveHttpProcess(config, logger);
  const runWorker = !values['no-worker'];
  // Before the database is opened: a refused start changes nothing.
  const lock = runWorker ? lockForWorker(config, 'serve') : undefined;
  const runtime = await openRuntime(config, { logger });
  const worker = runWorker ? await startBackgroundWork(runtime, logger) : undefined;
  const store = `database: ${runtime.database.dialect}${runtime.database.dialect === 'sqlite' ? `, data: ${config.dataDir}` : ''}`;
  let listening: string;
  let base: string;
  if (workers > 1) {
    // The primary keeps the store open for the worker; the HTTP processes share the port.
    const group = await startHttpWorkers(argv, workers, logger);
    onShutdownSignal(logger, 'draining the HTTP processes, in-flight deliveries and refreshes', async () => {
      await Promise.all([group.stop(), worker?.stop()]);
      await runtime.database.close();
      lock?.release();
    });
    listening = `${group.url} with ${workers} processes`;
    base = baseUrl(config.publicUrl, group.url);
    lock?.describe({ url: group.url });
  } else {
    const server = await startServer(runtime, logger, { alsoStop: worker ? [() => worker.stop()] : [] });
    // Signals are handled before the banner says it listens: a supervisor may stop it the moment it reads that.
    onShutdownSignal(logger, 'draining in-flight requests, deliveries and refreshes', async () => {
      await server.close();
      lock?.release();
    });
    listening = server.url;
    base = baseUrl(config.publicUrl, server.url);
    lock?.describe({ url: server.url });
  }
  // Only now that it listens: a start that fails (a port in use) must not make a partner whose secret nobody saw.
  const first = values['first-partner'] ? await firstPartner(runtime) : undefined;
  process.stdout.write(banner({ listening, base, store, ...first, storeOptions: storeOptions(config) }));
}

/**
 * `--first-partner`: a new partner when the store has none; else the partners there are (the only one's id), so the
 * banner can say how to get a new secret for one whose credentials were lost.
 */
async function firstPartner(runtime: Runtime): Promise<Pick<BannerInfo, 'created' | 'existing'>> {
  const count = await countPartners(runtime.database.kysely);
  if (count === 0) return { created: await createPartner(runtime, { name: 'First partner' }) };
  const only = count === 1 ? (await listPartners(runtime))[0] : undefined;
  return { existing: { count, ...(only ? { partnerId: only.partnerId } : {}) } };
}

/** How a CLI command names this store: its data directory, and on PostgreSQL the same DATABASE_URL (not repeated). */
function storeOptions(config: Config): BannerInfo['storeOptions'] {
  // On PostgreSQL the data directory may still hold the master key that commands on the store need.
  return { flags: `--data ${shellWord(config.dataDir)}`, ...(config.databaseUrl ? { note: 'with the same DATABASE_URL set' } : {}) };
}

/** The address people use: the public URL, unless it only repeats a `--port 0` that the listening address resolved. */
function baseUrl(publicUrl: string, listeningUrl: string): string {
  return new URL(publicUrl).port === '0' ? listeningUrl : publicUrl;
}

/** A value as a shell word: as it is when that is safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export interface BannerInfo {
  listening: string;
  base: string;
  store: string;
  /** The first partner, just created: its credentials are shown this once. */
  created?: { partnerId: string; partnerSecret: string; appKey: string };
  /** `--first-partner` found partners already (and the id of the only one). */
  existing?: { count: number; partnerId?: string };
  /** What CLI commands on this store are given (`--data DIR`), and a note about them (PostgreSQL's DATABASE_URL). */
  storeOptions?: { flags: string; note?: string };
}

/**
 * What `serve` prints once it listens, in one write: the first partner's credentials when it just created them (with
 * the `export` line the README's walkthrough and the CLI's client mode read), or, asked for a first partner where
 * there are partners already, how to get a new secret; where the dashboard, the API docs and Connect are; and last
 * the line that says it is listening (tools wait for it).
 */
export function banner(info: BannerInfo): string {
  const { base, created, existing } = info;
  const lines: string[] = [];
  if (created) {
    const exports = {
      LEDGERLINK_URL: base,
      LEDGERLINK_APP_KEY: created.appKey,
      LEDGERLINK_PARTNER_ID: created.partnerId,
      LEDGERLINK_PARTNER_SECRET: created.partnerSecret,
    };
    lines.push(
      '',
      'Created a first partner (Test Drive plan). Keep these; the secret is not shown again:',
      `  partnerId     ${created.partnerId}`,
      `  partnerSecret ${created.partnerSecret}`,
      `  appKey        ${created.appKey}`,
      '',
      'To use them from a shell (curl, the README walkthrough, npx ledgerlink), paste:',
      `export ${Object.entries(exports)
        .map(([name, value]) => `${name}=${shellWord(value)}`)
        .join(' ')}`,
      '',
    );
  } else if (existing) {
    const flags = info.storeOptions ? ` ${info.storeOptions.flags}` : '';
    const note = info.storeOptions?.note ? ` (${info.storeOptions.note})` : '';
    lines.push(
      '',
      existing.partnerId
        ? `This data store has a partner already (${existing.partnerId}), so no first partner was created.`
        : `This data store has ${existing.count} partners already, so no first partner was created: \`ledgerlink partner list${flags}\` shows them.`,
      `A partner's secret is shown only when it is made. If it is lost, this prints a new one, and the old one stops working${note}:`,
      `  ledgerlink partner reset-secret ${existing.partnerId ?? 'PARTNER_ID'}${flags}`,
      '',
    );
  }
  lines.push(
    `  Dashboard  ${base}/dashboard`,
    `  API docs   ${base}/docs`,
    `  Connect    ${base}/connect (links from POST /connect/v2/generate)`,
    `Ledgerlink listening on ${info.listening} (${info.store})`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * One HTTP process of `serve --workers N`: the app only; the primary runs the worker. The primary migrated
 * before forking, so opening the runtime here finds nothing left to do.
 */
async function serveHttpProcess(config: Config, logger: Logger): Promise<void> {
  const runtime = await openRuntime(config);
  const server = await startServer(runtime, logger);
  onShutdownSignal(logger, 'draining in-flight requests', () => server.close());
  process.send?.({ type: 'listening', url: server.url });
}

interface HttpWorkerGroup {
  url: string;
  stop(): Promise<void>;
}

/**
 * Forks `count` HTTP processes sharing one port (node:cluster, round-robin), replaces any that dies
 * unexpectedly, and on stop sends each SIGTERM and waits until all have drained and exited.
 */
async function startHttpWorkers(argv: string[], count: number, logger: Logger): Promise<HttpWorkerGroup> {
  cluster.setupPrimary({ args: ['serve', ...argv], execArgv: withMemoryFlags(process.execArgv), silent: false });
  let stopping = false;
  const fork = () => cluster.fork({ ...memoryEnv(process.env), LEDGERLINK_HTTP_WORKER: '1' });
  const urls = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<string>((resolve, reject) => {
          const w = fork();
          w.on('message', (m: { type?: string; url?: string }) => {
            if (m?.type === 'listening' && m.url) resolve(m.url);
          });
          w.once('exit', (code) => reject(new Error(`an HTTP process exited with code ${code} while starting`)));
        }),
    ),
  );
  cluster.on('exit', (w, code, signal) => {
    if (stopping) return;
    logger.error({ pid: w.process.pid, code, signal }, 'an HTTP process died; starting a replacement');
    fork();
  });
  return {
    url: urls[0]!,
    stop: async () => {
      stopping = true;
      const all = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      await Promise.all(
        all.map(
          (w) =>
            new Promise<void>((resolve) => {
              if (w.isDead()) return resolve();
              w.once('exit', () => resolve());
              w.process.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
