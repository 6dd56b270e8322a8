/**
 * The scheduled-refresh loop of a worker process (serve's, or `ledgerlink worker`): every poll interval it claims
 * the logins due by the runtime clock and refreshes them (schedule.service.ts); while a claim comes back full it
 * claims again at once. Any number of processes may run it on one database: each login is claimed by one.
 */
import { pino, type Logger } from 'pino';
import type { Engine } from './engine.js';
import { runDueRefreshes, type ScheduledRefresh } from './schedule.service.js';

/** How often an idle worker looks for due logins. Due times are hours apart, so a refresh starts at most this late. */
export const REFRESH_POLL_MS = 30_000;

export interface RefreshSchedulerOptions {
  /** Defaults to config.workerId. */
  workerId?: string;
  /** Logins refreshed at once; defaults to config.refreshConcurrency. */
  concurrency?: number;
  /** Defaults to REFRESH_POLL_MS. */
  pollIntervalMs?: number;
  logger?: Logger;
}

export interface RefreshScheduler {
  /** Stops claiming, lets the refreshes in flight finish and store their outcome, then resolves. */
  stop(): Promise<void>;
}

const silent = pino({ level: 'silent' });

/** Starts the loop; with LEDGERLINK_REFRESH_INTERVAL_HOURS=0 it does nothing. */
export function startRefreshScheduler(engine: Engine, options: RefreshSchedulerOptions = {}): RefreshScheduler {
  const logger = options.logger ?? silent;
  if (engine.config.refreshIntervalSeconds === 0) {
    logger.info('scheduled refresh is off (LEDGERLINK_REFRESH_INTERVAL_HOURS=0)');
    return { stop: async () => undefined };
  }
  const workerId = options.workerId ?? engine.config.workerId;
  const limit = options.concurrency ?? engine.config.refreshConcurrency;
  const pollMs = options.pollIntervalMs ?? REFRESH_POLL_MS;
  let stopping = false;
  let wake: (() => void) | undefined;

  const loop = async () => {
    while (!stopping) {
      let done: ScheduledRefresh[] = [];
      try {
        done = await runDueRefreshes(engine, { workerId, limit });
      } catch (e) {
        logger.error({ err: e }, 'could not claim due refreshes; trying again after the poll interval');
      }
      for (const r of done) report(logger, r);
      if (done.length === limit || stopping) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };
  const running = loop();
  logger.info({ workerId, concurrency: limit, intervalHours: engine.config.refreshIntervalSeconds / 3600 }, 'scheduled refresh started');

  let stopped: Promise<void> | undefined;
  return {
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        wake?.();
        await running;
        logger.info({ workerId }, 'scheduled refresh stopped');
      })()),
  };
}

function report(logger: Logger, r: ScheduledRefresh): void {
  switch (r.result) {
    case 'refreshed':
      logger.info({ institutionLoginId: r.loginId, aggregationStatusCode: r.code }, 'scheduled refresh');
      return;
    case 'error':
      logger.error({ institutionLoginId: r.loginId, err: r.error }, 'scheduled refresh failed; it is retried later');
      return;
    default:
      logger.debug({ institutionLoginId: r.loginId, result: r.result }, 'scheduled refresh not run');
  }
}
