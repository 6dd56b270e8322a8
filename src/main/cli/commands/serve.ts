import cluster from 'node:cluster';
import { memoryEnv, withMemoryFlags } from '../memory-settings.js';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../../config.js';
import { processLogger } from '../../../platform/logger.js';
import { countPartners } from '../../../modules/partners/repository.js';
import { createPartner } from '../../../modules/partners/service.js';
import { startBackgroundWork } from '../../background.js';
import { openRuntime } from '../../runtime.js';
import { startServer } from '../../server.js';
import { parse, positiveInteger, UsageError } from '../args.js';
import { onShutdownSignal } from '../shutdown.js';

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
  const runtime = await openRuntime(config, { logger });

  // `npm start` on an empty database: hand the newcomer working credentials straight away.
  const created =
    values['first-partner'] && (await countPartners(runtime.database.kysely)) === 0 ? await createPartner(runtime, { name: 'First partner' }) : undefined;

  const worker = values['no-worker'] ? undefined : await startBackgroundWork(runtime, logger);
  const store = `database: ${runtime.database.dialect}${runtime.database.dialect === 'sqlite' ? `, data: ${config.dataDir}` : ''}`;
  if (workers > 1) {
    // The primary keeps the store open for the worker; the HTTP processes share the port.
    const group = await startHttpWorkers(argv, workers, logger);
    onShutdownSignal(logger, 'draining the HTTP processes, in-flight deliveries and refreshes', async () => {
      await Promise.all([group.stop(), worker?.stop()]);
      await runtime.database.close();
    });
    process.stdout.write(banner({ listening: `${group.url} with ${workers} processes`, base: baseUrl(config.publicUrl, group.url), store, created }));
    return;
  }
  const server = await startServer(runtime, logger, { alsoStop: worker ? [() => worker.stop()] : [] });
  // Signals are handled before the banner says it listens: a supervisor may stop it the moment it reads that.
  onShutdownSignal(logger, 'draining in-flight requests, deliveries and refreshes', () => server.close());
  process.stdout.write(banner({ listening: server.url, base: baseUrl(config.publicUrl, server.url), store, created }));
}

/** The address people use: the public URL, unless it only repeats a `--port 0` that the listening address resolved. */
function baseUrl(publicUrl: string, listeningUrl: string): string {
  return new URL(publicUrl).port === '0' ? listeningUrl : publicUrl;
}

/** A value as a shell word: as it is when that is safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * What `serve` prints once it listens, in one write: the first partner's credentials when it just created them (with
 * the `export` line the README's walkthrough and the CLI's client mode read), where the dashboard, the API docs and
 * Connect are, and last the line that says it is listening (tools wait for it).
 */
export function banner(info: {
  listening: string;
  base: string;
  store: string;
  created?: { partnerId: string; partnerSecret: string; appKey: string };
}): string {
  const { base, created } = info;
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
