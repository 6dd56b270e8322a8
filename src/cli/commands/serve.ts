import { loadConfig } from '../../config.js';
import { redactedLogger } from '../../lib/logger.js';
import { countPartners } from '../../domain/partners/repository.js';
import { createPartner } from '../../domain/partners/service.js';
import { startDeliveryWorker } from '../../delivery/worker.js';
import { openRuntime } from '../../runtime.js';
import { startServer } from '../../server.js';
import { parse } from '../args.js';
import { onShutdownSignal } from '../shutdown.js';

const USAGE = 'ledgerlink serve [--port 8080] [--host 127.0.0.1] [--data DIR] [--public-url URL] [--mode sandbox|production] [--tls-cert FILE --tls-key FILE] [--trust-proxy true|N|ADDRS] [--insecure-http] [--first-partner] [--no-worker]';

/**
 * `ledgerlink serve`: runs the HTTP service, and the delivery worker unless --no-worker, until SIGTERM/SIGINT;
 * then drains requests and in-flight deliveries and exits 0.
 */
export async function serve(argv: string[]): Promise<void> {
  const { values } = parse(argv, {
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
    'no-worker': { type: 'boolean', default: false },
  }, USAGE);
  const { 'insecure-http': insecureHttp, 'first-partner': _firstPartner, 'no-worker': _noWorker, ...stringFlags } = values;
  const config = loadConfig(process.env, { ...stringFlags, ...(insecureHttp ? { 'insecure-http': 'true' } : {}) });
  const logger = redactedLogger(config.logLevel);
  const runtime = await openRuntime(config);

  // `npm start` on an empty database: hand the newcomer working credentials straight away.
  if (values['first-partner'] && (await countPartners(runtime.database.kysely)) === 0) {
    const creds = await createPartner(runtime, { name: 'First partner' });
    process.stdout.write(
      [
        '',
        'Created a first partner (Test Drive plan). Keep these; the secret is not shown again:',
        `  partnerId     ${creds.partnerId}`,
        `  partnerSecret ${creds.partnerSecret}`,
        `  appKey        ${creds.appKey}`,
        '',
      ].join('\n') + '\n',
    );
  }

  const worker = values['no-worker'] ? undefined : await startDeliveryWorker(runtime, { logger });
  const server = await startServer(runtime, logger, { alsoStop: worker ? [() => worker.stop()] : [] });
  process.stdout.write(`Ledgerlink listening on ${server.url} (database: ${runtime.database.dialect}${runtime.database.dialect === 'sqlite' ? `, data: ${config.dataDir}` : ''})\n`);

  onShutdownSignal(logger, 'draining in-flight requests and deliveries', () => server.close());
}
