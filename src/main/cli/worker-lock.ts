import type { Config } from '../config.js';
import { DataDirInUse, lockDataDir, type DataDirLock } from '../../platform/data-dir-lock.js';
import { CommandFailed } from './args.js';

/** What a refused process may do instead, by command. */
const HINTS = {
  serve:
    'stop that process first, or give this one another --data. More HTTP processes on the same data: `ledgerlink serve --workers N`, or `ledgerlink serve --no-worker` beside it (docs/operations.md)',
  worker:
    'stop that process first, or give this one another --data. On SQLite the worker runs inside `ledgerlink serve`, or in one `ledgerlink worker` beside `ledgerlink serve --no-worker` (docs/operations.md)',
};

/**
 * For a process that runs the worker (`serve` without --no-worker, `worker`): on SQLite, takes the data directory's
 * lock, or refuses to start, naming the process that holds it. PostgreSQL runs any number of workers, and its data
 * directory holds no database: no lock there.
 */
export function lockForWorker(config: Pick<Config, 'databaseUrl' | 'dataDir'>, command: keyof typeof HINTS): DataDirLock | undefined {
  if (config.databaseUrl) return undefined;
  try {
    return lockDataDir(config.dataDir, `ledgerlink ${command}`);
  } catch (e) {
    if (!(e instanceof DataDirInUse)) throw e;
    throw new CommandFailed(`${e.message}; on SQLite one process per data directory runs the worker (deliveries, scheduled refreshes)`, HINTS[command]);
  }
}
