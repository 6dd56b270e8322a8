import { performance } from 'node:perf_hooks';
import { pino, type Logger } from 'pino';
import { epochSeconds } from '../platform/clock.js';
import type { Runtime } from '../platform/dependencies.js';
import { claimDueDeliveries, leaseSecondsFor, type ClaimedDelivery } from './claim.js';
import { completeDelivery } from './complete.js';
import { failDelivery } from './fail.js';
import { encryptClearHeaders, purgeExpiredDeliveries, retireLapsedListenersNow } from './maintenance.js';
import { insertAttempt } from './repository.js';
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

/** Claims due deliveries and carries them out; what the worker loop and the one-shot entry points share. */
interface Deliverer {
  readonly workerId: string;
  readonly concurrency: number;
  claim(limit: number): Promise<ClaimedDelivery[]>;
  deliver(delivery: ClaimedDelivery): Promise<void>;
  close(): void;
}

const silent = pino({ level: 'silent' });

/** How long a free slot may wait for others to free up before the worker claims for it alone (backlog only). */
const GATHER_MS = 5;

function createDeliverer(runtime: Runtime, options: DeliveryWorkerOptions): Deliverer {
  const { config, clock, database } = runtime;
  const workerId = options.workerId ?? config.workerId;
  const timeoutMs = options.timeoutMs ?? config.deliveryTimeoutMs;
  const leaseSeconds = leaseSecondsFor(timeoutMs);
  const logger = options.logger ?? silent;
  const http = createHttpTransport({ mode: config.mode, timeoutMs, clock, keys: runtime.keys });
  const email = createEmailTransport({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, testDriveSmtp: config.testDriveSmtp, timeoutMs, database, clock });
  const transports: Record<DeliveryKind, Transport> = { txpush: http, webhook: http, email: email.send, ...options.transports };

  const attempt = async (delivery: ClaimedDelivery): Promise<DeliveryOutcome> => {
    try {
      return await transports[delivery.kind](delivery);
    } catch (e) {
      return { ok: false, statusCode: null, error: `internal error: ${(e as Error).message}` };
    }
  };

  return {
    workerId,
    concurrency: options.concurrency ?? config.workerConcurrency,
    claim: (limit) => claimDueDeliveries(database.kysely, { workerId, limit, now: epochSeconds(clock), leaseSeconds }),
    async deliver(delivery) {
      const attemptedAt = epochSeconds(clock);
      const started = performance.now();
      const outcome = await attempt(delivery);
      const latencyMs = Math.round(performance.now() - started);
      const now = epochSeconds(clock);
      const log = {
        deliveryId: delivery.id,
        eventId: delivery.event_id,
        kind: delivery.kind,
        attempt: delivery.attempts,
        statusCode: outcome.statusCode,
        latencyMs,
      };
      try {
        const result = await database.kysely.transaction().execute(async (tx) => {
          await insertAttempt(tx, {
            delivery_id: delivery.id,
            attempted_at: attemptedAt,
            worker_id: workerId,
            status_code: outcome.statusCode,
            latency_ms: latencyMs,
            error: outcome.error,
            response_excerpt: outcome.response ?? null,
          });
          if (outcome.ok) return (await completeDelivery(tx, delivery, { now, statusCode: outcome.statusCode })) ? 'delivered' : 'claim-lost';
          return failDelivery(tx, delivery, {
            now,
            statusCode: outcome.statusCode,
            error: outcome.error ?? 'failed',
            permanent: outcome.permanent,
            random: options.random,
          });
        });
        if (result === 'cancelled') logger.warn({ ...log, error: outcome.error }, 'delivery cancelled');
        else if (result === 'retry') logger.info({ ...log, error: outcome.error }, 'delivery attempt failed; will retry');
        else if (result === 'claim-lost') logger.warn(log, 'delivery claim was lost before the attempt was recorded');
        else logger.debug(log, 'delivered');
      } catch (e) {
        // The claim stays; when its lease ends the delivery is attempted again (at least once, never lost).
        logger.error({ ...log, err: e }, 'could not record a delivery attempt');
      }
    },
    close: () => email.close(),
  };
}

/**
 * Claims the deliveries due now (up to the concurrency) and carries them all out; returns how many.
 * For tests and tools that drive time themselves (ManualClock).
 */
export async function runDeliveriesOnce(runtime: Runtime, options: DeliveryWorkerOptions = {}): Promise<number> {
  const deliverer = createDeliverer(runtime, options);
  try {
    const claimed = await deliverer.claim(deliverer.concurrency);
    await Promise.all(claimed.map((d) => deliverer.deliver(d)));
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
 * Starts the delivery worker loop: claims due deliveries up to its concurrency, delivers them, and when idle waits
 * for a wake-up (an enqueue in this process, NOTIFY on PostgreSQL) or the poll interval.
 */
export async function startDeliveryWorker(runtime: Runtime, options: DeliveryWorkerOptions = {}): Promise<DeliveryWorker> {
  const deliverer = createDeliverer(runtime, options);
  const logger = options.logger ?? silent;
  const pollMs = options.pollIntervalMs ?? runtime.config.workerPollMs;
  const inFlight = new Set<Promise<void>>();
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

  // Working through a backlog, claim for several free slots at once rather than one row per finished delivery:
  // when half the slots are free, or a slot has waited GATHER_MS for company.
  const backlogBatch = Math.ceil(deliverer.concurrency / 2);
  let freeSince: number | undefined;
  // Polls keep their own rhythm, whatever wake-ups and finished deliveries do in between.
  let nextPollAt = performance.now() + pollMs;
  const loop = async () => {
    while (!stopping) {
      const now = performance.now();
      if (now >= nextPollAt) {
        lookRequested = true;
        nextPollAt = now + pollMs;
      }
      const free = deliverer.concurrency - inFlight.size;
      const gathered = free >= backlogBatch || (freeSince !== undefined && now - freeSince >= GATHER_MS);
      if (free > 0 && (lookRequested || (mayHaveMore && gathered))) {
        lookRequested = false;
        freeSince = undefined;
        let claimed: ClaimedDelivery[] = [];
        try {
          claimed = await deliverer.claim(free);
        } catch (e) {
          logger.error({ err: e }, 'could not claim deliveries; retrying after the poll interval');
        }
        mayHaveMore = claimed.length === free;
        for (const d of claimed) {
          const p = deliverer.deliver(d).finally(() => {
            inFlight.delete(p);
            freeSince ??= performance.now();
            // The next webhook of its session to the same target may have waited for this one (order.ts).
            if (d.kind === 'webhook' && d.connect_session !== null) lookRequested = true;
            notify();
          });
          inFlight.add(p);
        }
        if (claimed.length > 0) continue;
      }
      if (stopping) break;
      // A wake-up that came while the claim ran found no one waiting: look again rather than sleep through it.
      if (lookRequested && deliverer.concurrency > inFlight.size) continue;
      const until = mayHaveMore && free > 0 && freeSince !== undefined ? Math.min(nextPollAt, freeSince + GATHER_MS) : nextPollAt;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(notify, Math.max(0, until - performance.now()));
        signal = () => {
          clearTimeout(timer);
          resolve();
        };
      });
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
        await Promise.all(inFlight);
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
