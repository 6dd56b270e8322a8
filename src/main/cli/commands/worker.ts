import { loadConfig } from '../../config.js';
import { startBackgroundWork } from '../../background.js';
import { processLogger } from '../../../platform/logger.js';
import { openRuntime } from '../../runtime.js';
import { parse } from '../args.js';
import { onShutdownSignal } from '../shutdown.js';
import { lockForWorker } from '../worker-lock.js';

const USAGE = 'ledgerlink worker [--data DIR] [--mode sandbox|production] [--log-level L]';

/**
 * `ledgerlink worker`: runs only the worker (no HTTP): deliveries and the scheduled refresh of real institutions'
 * logins, until SIGTERM/SIGINT, then lets in-flight deliveries and refreshes finish and exits 0. On PostgreSQL
 * several may run at once; on SQLite one (serve's, or this one): a second is refused (see lockForWorker).
 */
export async function worker(argv: string[]): Promise<void> {
  const { values } = parse(argv, { data: { type: 'string' }, mode: { type: 'string' }, 'log-level': { type: 'string' } }, USAGE);
  const config = loadConfig(process.env, values);
  const logger = processLogger(config);
  const lock = lockForWorker(config, 'worker');
  const runtime = await openRuntime(config, { logger });
  const running = await startBackgroundWork(runtime, logger);
  // Before the line that says it started: a supervisor may stop it the moment it reads that line.
  onShutdownSignal(logger, 'finishing in-flight deliveries and refreshes', async () => {
    await running.stop();
    await runtime.database.close();
    lock?.release();
  });
  process.stdout.write(
    `Ledgerlink worker ${running.workerId} started (database: ${runtime.database.dialect}${runtime.database.dialect === 'sqlite' ? `, data: ${config.dataDir}` : ''})\n`,
  );
}
