import type { Logger } from 'pino';
import { createEngine } from '../modules/aggregation/engine.js';
import { startRefreshScheduler } from '../modules/aggregation/scheduler.js';
import { startListedInstitutionSync } from '../modules/institutions/listed.service.js';
import { startReportWorker } from '../modules/reports/worker.js';
import { enqueuePushNotifications } from '../modules/txpush/notify.service.js';
import { startDeliveryWorker } from '../outbox/worker.js';
import type { Runtime } from './runtime.js';

export interface BackgroundWork {
  readonly workerId: string;
  /** Stops them all, letting in-flight deliveries, refreshes and reports finish. */
  stop(): Promise<void>;
}

/**
 * The worker of a process (`serve` unless --no-worker, and `ledgerlink worker`): the delivery worker, the scheduled
 * refresh of real institutions' logins on an aggregation engine of its own, and the reports being generated.
 */
export async function startBackgroundWork(runtime: Runtime, logger: Logger): Promise<BackgroundWork> {
  const deliveries = await startDeliveryWorker(runtime, { logger });
  const engine = createEngine(runtime, {
    onEventsRecorded: enqueuePushNotifications,
    onBackgroundError: (what, e) => logger.error({ err: e }, `${what} failed`),
  });
  const refreshes = startRefreshScheduler(engine, { logger });
  const reports = startReportWorker(runtime, { logger });
  const listed = startListedInstitutionSync(runtime.database, engine.registry, { now: () => Math.floor(runtime.clock.now() / 1000), logger });
  void engine.registry.checkAtStart().then((warnings) => {
    for (const warning of warnings) logger.warn(warning);
  });
  return {
    workerId: deliveries.workerId,
    stop: async () => {
      await Promise.all([deliveries.stop(), refreshes.stop(), listed.stop(), reports.stop()]);
    },
  };
}
