/**
 * The scheduled-refresh loop of a worker process (serve's, or `ledgerlink worker`). The worker has `concurrency`
 * slots; each claimed login takes one until its refresh has stored its outcome (schedule.service.ts). Whenever slots
 * are free, at the start, every poll interval, each time a refresh ends, and when woken, it claims due logins for the
 * free slots, so a login whose institution is slow holds its own slot and no other. Claims keep each institution
 * under its cap of refreshes in flight (schedule.repository.ts): a due login of a capped institution stays unclaimed,
 * holding no slot, and is claimed first once its institution has room. Each refresh renews its lease while it runs
 * (refresh-lease.service.ts). Any number of processes may run the loop on one database: each login is claimed by one.
 * Each look also deletes the pending transactions that never posted (pending.service.ts), of every customer.
 */
import { performance } from 'node:perf_hooks';
import { pino, type Logger } from 'pino';
import type { Engine } from './engine.js';
import { expirePendingTransactions } from './pending.service.js';
import { claimDueRefreshes, refreshClaimed, type ScheduledRefresh } from './schedule.service.js';
import type { InstitutionLoginRow } from './table.js';

/** How often an idle worker looks for due logins. Due times are hours apart, so a refresh starts at most this late. */
export const REFRESH_POLL_MS = 30_000;

export interface RefreshSchedulerOptions {
  /** Defaults to config.workerId. */
  workerId?: string;
  /** Slots: logins refreshed at once; defaults to config.refreshConcurrency. */
  concurrency?: number;
  /** Refreshes of one institution's logins in flight at once, across processes; defaults to config.refreshInstitutionConcurrency. */
  perInstitution?: number;
  /** Defaults to REFRESH_POLL_MS. */
  pollIntervalMs?: number;
  logger?: Logger;
  /** Hears what became of each claimed login, once it is stored and logged. */
  onOutcome?: (outcome: ScheduledRefresh) => void;
}

export interface RefreshScheduler {
  /**
   * Looks for due logins now rather than at the next poll; resolves once that look has claimed what it could and
   * started those refreshes (when every slot is taken, the look waits for one to free).
   */
  wake(): Promise<void>;
  /** Stops claiming, lets the refreshes in flight finish and store their outcome, then resolves. */
  stop(): Promise<void>;
}

const silent = pino({ level: 'silent' });

/** Starts the loop; with LEDGERLINK_REFRESH_INTERVAL_HOURS=0 it does nothing. */
export function startRefreshScheduler(engine: Engine, options: RefreshSchedulerOptions = {}): RefreshScheduler {
  const logger = options.logger ?? silent;
  if (engine.config.refreshIntervalSeconds === 0) {
    logger.info('scheduled refresh is off (LEDGERLINK_REFRESH_INTERVAL_HOURS=0)');
    return { wake: async () => undefined, stop: async () => undefined };
  }
  const workerId = options.workerId ?? engine.config.workerId;
  const slots = options.concurrency ?? engine.config.refreshConcurrency;
  const perInstitution = options.perInstitution ?? engine.config.refreshInstitutionConcurrency;
  const pollMs = options.pollIntervalMs ?? REFRESH_POLL_MS;
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  // Look at the start; afterwards at every poll, refresh ended and wake-up.
  let lookRequested = true;
  // Wake-ups waiting for the next look to finish.
  let looked: Array<() => void> = [];
  let signal: (() => void) | undefined;
  const notify = () => {
    const s = signal;
    signal = undefined;
    s?.();
  };

  const start = (login: InstitutionLoginRow, owner: string) => {
    const running: Promise<void> = refreshClaimed(engine, login, owner)
      .then((outcome) => {
        report(logger, outcome);
        options.onOutcome?.(outcome);
      })
      .catch((e: unknown) => logger.error({ err: e, institutionLoginId: login.id }, 'scheduled refresh outcome not reported'))
      .finally(() => {
        inFlight.delete(running);
        // A slot is free, and the institution may have room again.
        lookRequested = true;
        notify();
      });
    inFlight.add(running);
  };

  const loop = async () => {
    let nextPollAt = performance.now() + pollMs;
    for (;;) {
      if (performance.now() >= nextPollAt) {
        lookRequested = true;
        nextPollAt = performance.now() + pollMs;
      }
      const free = slots - inFlight.size;
      if (!stopping && lookRequested && free > 0) {
        lookRequested = false;
        const waiting = looked;
        looked = [];
        try {
          // Pending transactions that never posted go on every look, whichever login they belong to.
          await expirePendingTransactions(engine);
        } catch (e) {
          logger.error({ err: e }, 'could not expire pending transactions; trying again at the next look');
        }
        try {
          const { owner, logins } = await claimDueRefreshes(engine, { workerId, limit: free, perInstitution });
          for (const login of logins) start(login, owner);
          // A claim stops short when an institution reaches its cap, and more may be due behind it: claim again.
          if (logins.length > 0 && logins.length < free) lookRequested = true;
        } catch (e) {
          logger.error({ err: e }, 'could not claim due refreshes; trying again after the poll interval');
        }
        for (const resolve of waiting) resolve();
        continue;
      }
      if (stopping && inFlight.size === 0) return;
      await new Promise<void>((resolve) => {
        const timer = stopping ? undefined : setTimeout(notify, Math.max(0, nextPollAt - performance.now()));
        signal = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  const running = loop();
  logger.info({ workerId, concurrency: slots, perInstitution, intervalHours: engine.config.refreshIntervalSeconds / 3600 }, 'scheduled refresh started');

  let stopped: Promise<void> | undefined;
  return {
    wake: () => {
      if (stopping) return Promise.resolve();
      lookRequested = true;
      const done = new Promise<void>((resolve) => looked.push(resolve));
      notify();
      return done;
    },
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        notify();
        await running;
        for (const resolve of looked.splice(0)) resolve();
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
