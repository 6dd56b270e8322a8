import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import { epochSeconds } from '../platform/clock.js';
import type { Executor } from '../platform/db/database.js';
import type { Runtime } from '../platform/dependencies.js';
import { claimDueDeliveries, leaseSecondsFor, refreshClaimStatistics, type ClaimedDelivery } from './claim.js';
import { encryptClearHeaders, purgeExpiredDeliveries, retireLapsedListenersNow } from './maintenance.js';
import { type FinishedAttempt, type RecordResult, recordAttempts } from './record.js';
import type { DeliveryKind } from './table.js';
import { createEmailTransport } from './transports/email.js';
import { createHttpTransport } from './transports/http.js';
import type { DeliveryOutcome, Transport } from './transports/transport.js';
import { subscribeToWakeups } from './wake.js';

export interface DeliveryWorkerOptions {
  /** Defaults to config.workerId. Several workers in one process need different ids. */
  workerId?: string;
  /** Deliveries in flight at once; defaults to config.workerConcurrency. */
  concurrency?: number;
  /** Idle polling interval; defaults to config.workerPollMs. */
  pollIntervalMs?: number;
  /** Per-attempt timeout; defaults to config.deliveryTimeoutMs. */
  timeoutMs?: number;
  logger?: Logger;
  /** Replaces the transport of a kind (tests). */
  transports?: Partial<Record<DeliveryKind, Transport>>;
  /** Source of retry jitter, in [0, 1). */
  random?: () => number;
  /** How often the worker deletes deliveries past their retention period; defaults to MAINTENANCE_INTERVAL_MS. */
  maintenanceIntervalMs?: number;
}

/** How often a running worker purges deliveries past the retention period (also once when it starts). */
export const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;

/** How old PostgreSQL's statistics of the deliveries table may be when a worker meets a backlog. */
const STATISTICS_MAX_AGE_SECONDS = 60;

/** A delivery attempt that could not be recorded: its claim stays, and when its lease ends it is attempted again. */
type Recorded = RecordResult | 'unrecorded';

/** Claims due deliveries, carries them out and records what came of them; what the loop and the one-shot entry points share. */
interface Deliverer {
  readonly workerId: string;
  readonly concurrency: number;
  claim(limit: number): Promise<ClaimedDelivery[]>;
  attempt(delivery: ClaimedDelivery): Promise<FinishedAttempt>;
  /**
   * Records finished attempts in one transaction and, when `claimLimit` is above zero, claims up to that many due
   * deliveries in the same transaction (one commit for both). When the batch cannot be recorded, each attempt is
   * recorded on its own, so one bad row does not hold the others back, and nothing is claimed (`claimed` undefined).
   * Throws only when a claim on its own (no attempts to record) fails.
   */
  record(finished: readonly FinishedAttempt[], claimLimit: number): Promise<{ results: Recorded[]; claimed: ClaimedDelivery[] | undefined }>;
  close(): void;
}

const silent = pino({ level: 'silent' });

function createDeliverer(runtime: Runtime, options: DeliveryWorkerOptions): Deliverer {
  const { config, clock, database } = runtime;
  const workerId = options.workerId ?? config.workerId;
  const concurrency = options.concurrency ?? config.workerConcurrency;
  const timeoutMs = options.timeoutMs ?? config.deliveryTimeoutMs;
  const leaseSeconds = leaseSecondsFor(timeoutMs);
  const logger = options.logger ?? silent;
  const http = createHttpTransport({ mode: config.mode, timeoutMs, clock, keys: runtime.keys, maxSocketsPerTarget: concurrency });
  const email = createEmailTransport({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, testDriveSmtp: config.testDriveSmtp, timeoutMs, database, clock });
  const transports: Record<DeliveryKind, Transport> = { txpush: http.send, webhook: http.send, email: email.send, ...options.transports };
  const claim = (executor: Executor, limit: number) => claimDueDeliveries(executor, { workerId, limit, now: epochSeconds(clock), leaseSeconds });

  const send = async (delivery: ClaimedDelivery): Promise<DeliveryOutcome> => {
    try {
      return await transports[delivery.kind](delivery);
    } catch (e) {
      return { ok: false, statusCode: null, error: `internal error: ${(e as Error).message}` };
    }
  };

  const report = (f: FinishedAttempt, result: Recorded, err?: unknown) => {
    const log = {
      deliveryId: f.delivery.id,
      eventId: f.delivery.event_id,
      kind: f.delivery.kind,
      attempt: f.delivery.attempts,
      statusCode: f.outcome.statusCode,
      latencyMs: f.latencyMs,
    };
    if (result === 'cancelled') logger.warn({ ...log, error: f.outcome.error }, 'delivery cancelled');
    else if (result === 'retry') logger.info({ ...log, error: f.outcome.error }, 'delivery attempt failed; will retry');
    else if (result === 'claim-lost') logger.warn(log, 'delivery claim was lost before the attempt was recorded');
    // The claim stays; when its lease ends the delivery is attempted again (at least once, never lost).
    else if (result === 'unrecorded') logger.error({ ...log, err }, 'could not record a delivery attempt');
    else logger.debug(log, 'delivered');
  };

  const recordOne = async (f: FinishedAttempt): Promise<Recorded> => {
    try {
      const [result] = await database.kysely.transaction().execute((tx) => recordAttempts(tx, workerId, [f], options.random));
      report(f, result!);
      return result!;
    } catch (e) {
      report(f, 'unrecorded', e);
      return 'unrecorded';
    }
  };

  return {
    workerId,
    concurrency,
    claim: (limit) => claim(database.kysely, limit),
    async attempt(delivery) {
      const attemptedAt = epochSeconds(clock);
      const started = performance.now();
      const outcome = await send(delivery);
      return { delivery, outcome, attemptedAt, latencyMs: Math.round(performance.now() - started), now: epochSeconds(clock) };
    },
    async record(finished, claimLimit) {
      if (finished.length === 0) return { results: [], claimed: claimLimit > 0 ? await claim(database.kysely, claimLimit) : [] };
      try {
        const done = await database.kysely.transaction().execute(async (tx) => {
          const results: Recorded[] = await recordAttempts(tx, workerId, finished, options.random);
          return { results, claimed: claimLimit > 0 ? await claim(tx, claimLimit) : [] };
        });
        finished.forEach((f, i) => report(f, done.results[i]!));
        return done;
      } catch (e) {
        logger.error({ err: e, attempts: finished.length }, 'could not record a batch of delivery attempts; recording them one by one');
        const results: Recorded[] = [];
        for (const f of finished) results.push(await recordOne(f));
        return { results, claimed: undefined };
      }
    },
    close: () => {
      http.close();
      email.close();
    },
  };
}

/**
 * Claims the deliveries due now (up to the concurrency), carries them all out and records them together; returns
 * how many. For tests and tools that drive time themselves (ManualClock).
 */
export async function runDeliveriesOnce(runtime: Runtime, options: DeliveryWorkerOptions = {}): Promise<number> {
  const deliverer = createDeliverer(runtime, options);
  try {
    const claimed = await deliverer.claim(deliverer.concurrency);
    const finished = await Promise.all(claimed.map((d) => deliverer.attempt(d)));
    await deliverer.record(finished, 0);
    return claimed.length;
  } finally {
    deliverer.close();
  }
}

/** Runs deliveries until none is due at the clock's current time; returns how many attempts were made. */
export async function drainDeliveries(runtime: Runtime, options: DeliveryWorkerOptions = {}): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await runDeliveriesOnce(runtime, options);
    if (n === 0) return total;
    total += n;
  }
}

export interface DeliveryWorker {
  readonly workerId: string;
  /** Look for due deliveries now (enqueueing in this process does this by itself). */
  wake(): void;
  /** Stops claiming, lets the deliveries in flight finish and record their outcome, then resolves. */
  stop(): Promise<void>;
}

/**
 * Starts the delivery worker loop: claims due deliveries up to its concurrency and delivers them; the attempts that
 * finished while the last transaction ran are recorded together in the next one, which also claims deliveries for
 * the slots they free (group commit: one commit for many deliveries under load, none waiting when idle). A slot
 * stays taken until its attempt is recorded. When idle it waits for a wake-up (an enqueue in this process, NOTIFY on
 * PostgreSQL) or the poll interval.
 */
export async function startDeliveryWorker(runtime: Runtime, options: DeliveryWorkerOptions = {}): Promise<DeliveryWorker> {
  const deliverer = createDeliverer(runtime, options);
  const logger = options.logger ?? silent;
  const pollMs = options.pollIntervalMs ?? runtime.config.workerPollMs;
  const finished: FinishedAttempt[] = [];
  // Claimed and not yet recorded.
  let busy = 0;
  let stopping = false;
  // Look at the start; afterwards after every wake-up and poll interval.
  let lookRequested = true;
  // The last claim filled every free slot, so more may be due.
  let mayHaveMore = false;
  let signal: (() => void) | undefined;
  const notify = () => {
    const s = signal;
    signal = undefined;
    s?.();
  };
  const wake = () => {
    lookRequested = true;
    notify();
  };

  const unsubscribe = await subscribeToWakeups(runtime.database, wake, (e) =>
    logger.warn({ err: e }, 'delivery wake-up channel lost; polling until it is back'),
  );
  const maintenance = startMaintenance(runtime, logger, options.maintenanceIntervalMs ?? MAINTENANCE_INTERVAL_MS);

  const start = (claimed: readonly ClaimedDelivery[]) => {
    busy += claimed.length;
    for (const d of claimed) {
      void deliverer.attempt(d).then((f) => {
        finished.push(f);
        notify();
      });
    }
  };

  // Polls keep their own rhythm, whatever wake-ups and finished deliveries do in between.
  let nextPollAt = performance.now() + pollMs;
  // A backlog makes the worker check the planner's statistics (refreshClaimStatistics), then not again for a while.
  let nextStatisticsCheck = 0;
  let statistics: Promise<unknown> = Promise.resolve();
  const checkStatistics = () => {
    if (performance.now() < nextStatisticsCheck) return;
    nextStatisticsCheck = performance.now() + STATISTICS_MAX_AGE_SECONDS * 1000;
    statistics = refreshClaimStatistics(runtime.database.kysely, STATISTICS_MAX_AGE_SECONDS).catch((e: unknown) =>
      logger.warn({ err: e }, 'could not analyze the deliveries table'),
    );
  };
  const loop = async () => {
    for (;;) {
      // Let every answer that has arrived finish its attempt first, so they are recorded together: with SQLite's
      // synchronous driver, a transaction never yields to the event loop, and without this each answer would get one.
      await setImmediate();
      const now = performance.now();
      if (now >= nextPollAt) {
        lookRequested = true;
        nextPollAt = now + pollMs;
      }
      const batch = finished.splice(0);
      // The next webhook of its session to the same target may have waited for this one (order.ts).
      if (batch.some((f) => f.delivery.kind === 'webhook' && f.delivery.connect_session !== null)) lookRequested = true;
      const free = deliverer.concurrency - busy + batch.length;
      const claimLimit = !stopping && free > 0 && (lookRequested || mayHaveMore) ? free : 0;
      if (batch.length === 0 && claimLimit === 0) {
        if (stopping && busy === 0) return;
        await new Promise<void>((resolve) => {
          const timer = stopping ? undefined : setTimeout(notify, Math.max(0, nextPollAt - performance.now()));
          signal = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        continue;
      }
      if (claimLimit > 0) lookRequested = false;
      let claimed: ClaimedDelivery[] | undefined;
      try {
        ({ claimed } = await deliverer.record(batch, claimLimit));
        // A batch that could not be recorded claimed nothing: the next round claims on its own.
        if (claimLimit > 0 && claimed === undefined) lookRequested = true;
        else if (claimLimit > 0) mayHaveMore = claimed!.length === claimLimit;
        if (mayHaveMore) checkStatistics();
      } catch (e) {
        logger.error({ err: e }, 'could not claim deliveries; retrying after the poll interval');
        mayHaveMore = false;
      }
      busy -= batch.length;
      start(claimed ?? []);
    }
  };
  const running = loop();
  logger.info({ workerId: deliverer.workerId, concurrency: deliverer.concurrency }, 'delivery worker started');

  let stopped: Promise<void> | undefined;
  return {
    workerId: deliverer.workerId,
    wake,
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        notify();
        await running;
        await statistics;
        await maintenance.stop();
        await unsubscribe();
        deliverer.close();
        logger.info({ workerId: deliverer.workerId }, 'delivery worker stopped');
      })()),
  };
}

/**
 * The worker's housekeeping, beside its loop: once at start, rows written before migration 0015 get their clear
 * headers encrypted; then, at start and every `intervalMs`, deliveries past the retention period are deleted, and
 * lapsed `ledgerlink listen` registrations retired (what was held for them cancelled).
 * Several workers may do it at once (PostgreSQL): the statements are idempotent.
 */
function startMaintenance(runtime: Runtime, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let headersDone = false;
  let running: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      if (!headersDone) {
        const encrypted = await encryptClearHeaders(runtime.database.kysely, runtime.keys);
        headersDone = true;
        if (encrypted > 0) logger.info({ encrypted }, 'encrypted the clear extra headers of older deliveries');
      }
      const purged = await purgeExpiredDeliveries(runtime);
      if (purged > 0)
        logger.info({ purged, retentionDays: runtime.config.deliveryRetentionSeconds / 86_400 }, 'deleted deliveries past their retention period');
      const retired = await retireLapsedListenersNow(runtime);
      if (retired > 0) logger.info({ cancelled: retired }, 'cancelled the deliveries held for listeners that stopped');
    } catch (e) {
      logger.error({ err: e }, 'delivery housekeeping failed; trying again at the next interval');
    }
    if (!stopped) timer = setTimeout(() => (running = run()), intervalMs);
  };
  running = run();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
