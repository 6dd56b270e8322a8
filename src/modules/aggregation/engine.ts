/**
 * The aggregation engine: the runtime plus the connector registry and the engine's settings, shared by the API
 * routes and the hosted Connect app (one engine per process, built by buildApp). It is a Runtime itself, so it can
 * be passed wherever a function asks for parts of the runtime. It holds no per-customer state, so any process
 * sharing the database can continue any work.
 */
import { createConnectorRegistry, type ConnectorRegistry } from '../../connectors/registry.js';
import { sourceCatalogue } from '../institutions/sources.service.js';
import type { ConnectorContext, InstitutionConnector } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds } from '../../platform/clock.js';
import { decryptValue, encryptValue } from '../../platform/secrets.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { CustomerRow } from '../customers/table.js';
import type { AggregationEvent } from './records.js';

/** Tunables; tests may lower them. */
export interface EngineSettings {
  /** How long a refresh of one institution login may hold it before another process may take over (seconds). */
  refreshLeaseSeconds: number;
  /** How often a running refresh renews that lease (ms); a third of the lease unless given. */
  refreshLeaseRenewalMs: number;
  /** How long a synchronous refresh waits for a refresh of the same login that is already running (ms). */
  refreshWaitMs: number;
  /** How often such a waiting refresh looks again (ms). */
  refreshPollMs: number;
  /** How long a sign-in session stays usable after its last step (seconds). */
  linkSessionTtlSeconds: number;
}

/** The defaults; the refresh lease is the configured one (LEDGERLINK_REFRESH_LEASE_SECONDS), renewed three times per lease. */
export const DEFAULT_ENGINE_SETTINGS: Omit<EngineSettings, 'refreshLeaseSeconds' | 'refreshLeaseRenewalMs'> = {
  refreshWaitMs: 30_000,
  refreshPollMs: 50,
  linkSessionTtlSeconds: 30 * 60,
};

/**
 * Hears the events `recordEvents` writes, in the transaction that writes them: TxPUSH enqueues the notifications of
 * subscribed accounts there (`enqueuePushNotifications`). Whoever builds the engine passes it in, because txpush
 * builds on aggregation (a subscription names an account), so aggregation does not import txpush.
 */
export type RecordedEventsListener = (tx: Executor, runtime: Pick<Runtime, 'clock' | 'keys'>, events: readonly AggregationEvent[]) => Promise<void>;

export interface Engine extends Runtime {
  /** The runtime the engine was built on (the same config, database, clock and keys), for code that hands it on whole. */
  readonly runtime: Runtime;
  readonly registry: ConnectorRegistry;
  readonly settings: EngineSettings;
  readonly onEventsRecorded: RecordedEventsListener;
  /** Runs work after the response (v2 refreshes), tracked so shutdown and tests can wait for it. */
  background(what: string, task: () => Promise<unknown>): void;
  /** Resolves once the background work started so far has finished. */
  idle(): Promise<void>;
}

export interface EngineOptions {
  onEventsRecorded: RecordedEventsListener;
  settings?: Partial<EngineSettings>;
  /** Hears failures of background work (the app logs them). */
  onBackgroundError?: (what: string, error: unknown) => void;
}

export function createEngine(runtime: Runtime, options: EngineOptions): Engine {
  const registry = createConnectorRegistry({
    mode: runtime.config.mode,
    publicUrl: runtime.config.publicUrl,
    deriveKey: (purpose) => runtime.keys.derive(purpose),
    catalogue: sourceCatalogue(runtime.database),
    settings: runtime.config.connectorSettings,
  });
  const running = new Set<Promise<unknown>>();
  const leaseSeconds = options.settings?.refreshLeaseSeconds ?? runtime.config.refreshLeaseSeconds;
  return {
    ...runtime,
    runtime,
    registry,
    onEventsRecorded: options.onEventsRecorded,
    settings: { ...DEFAULT_ENGINE_SETTINGS, refreshLeaseSeconds: leaseSeconds, refreshLeaseRenewalMs: (leaseSeconds * 1000) / 3, ...options.settings },
    background(what, task) {
      const p: Promise<unknown> = task()
        .catch((e: unknown) => options.onBackgroundError?.(what, e))
        .finally(() => running.delete(p));
      running.add(p);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/** The service clock in epoch seconds (leases, sign-in session expiry, event times). */
export function serviceNow(runtime: Pick<Runtime, 'clock'>): number {
  return epochSeconds(runtime.clock);
}

/** The customer's clock: the service clock plus the customer's offset. Aggregation data is dated by it. */
export function customerNow(runtime: Pick<Runtime, 'clock'>, customer: Pick<CustomerRow, 'clock_offset_seconds'>): number {
  return serviceNow(runtime) + Number(customer.clock_offset_seconds);
}

export function connectorContext(
  runtime: Pick<Runtime, 'clock'>,
  customer: Pick<CustomerRow, 'clock_offset_seconds'>,
  institutionId: number,
): ConnectorContext {
  return { institutionId, now: customerNow(runtime, customer) };
}

/** The connector of an institution, or 400 InstitutionNotSupported when there is none. */
export async function connectorFor(engine: Pick<Engine, 'registry'>, institutionId: number): Promise<InstitutionConnector> {
  const lookup = await engine.registry.resolve(institutionId);
  if (!lookup.available) throw new ServiceError('InstitutionNotSupported', `Accounts cannot be linked at institution ${institutionId} yet: ${lookup.reason}`);
  return lookup.connector;
}

const SECRET_PURPOSE = 'aggregation-secrets';

/** Encrypts a JSON value (connector sessions, credentials, sign-in state) for storage. */
export function sealJson(runtime: Pick<Runtime, 'keys'>, value: unknown): string {
  return encryptValue(runtime.keys.derive(SECRET_PURPOSE), JSON.stringify(value));
}

export function openJson<T>(runtime: Pick<Runtime, 'keys'>, sealed: string): T {
  return JSON.parse(decryptValue(runtime.keys.derive(SECRET_PURPOSE), sealed)) as T;
}
