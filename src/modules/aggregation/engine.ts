/**
 * The aggregation engine: the runtime plus the connector registry, shared by the API routes and the hosted
 * Connect app (one engine per process, built by buildApp). Everything the engine does takes it as its first
 * argument; it holds no per-customer state, so any process sharing the database can continue any work.
 */
import { createConnectorRegistry, type ConnectorRegistry } from '../../connectors/registry.js';
import type { ConnectorContext, InstitutionConnector } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds } from '../../platform/clock.js';
import { decryptValue, encryptValue } from '../../platform/secrets.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { CustomerRow } from '../customers/table.js';
import { getCustomerForPartner } from '../customers/service.js';

/** Tunables; tests may lower them. */
export interface EngineSettings {
  /** How long a refresh of one institution login may hold it before another process may take over (seconds). */
  refreshLeaseSeconds: number;
  /** How long a synchronous refresh waits for a refresh of the same login that is already running (ms). */
  refreshWaitMs: number;
  /** How often such a waiting refresh looks again (ms). */
  refreshPollMs: number;
  /** How long a sign-in session stays usable after its last step (seconds). */
  linkSessionTtlSeconds: number;
}

export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  refreshLeaseSeconds: 120,
  refreshWaitMs: 30_000,
  refreshPollMs: 50,
  linkSessionTtlSeconds: 30 * 60,
};

export interface Engine {
  readonly runtime: Runtime;
  readonly registry: ConnectorRegistry;
  readonly settings: EngineSettings;
  /** Runs work after the response (v2 refreshes), tracked so shutdown and tests can wait for it. */
  background(what: string, task: () => Promise<unknown>): void;
  /** Resolves once the background work started so far has finished. */
  idle(): Promise<void>;
}

export interface EngineOptions {
  settings?: Partial<EngineSettings>;
  /** Hears failures of background work (the app logs them). */
  onBackgroundError?: (what: string, error: unknown) => void;
}

export function createEngine(runtime: Runtime, options: EngineOptions = {}): Engine {
  const registry = createConnectorRegistry({
    key: runtime.keys.derive('testbank'),
    authorizeUrl: `${runtime.config.publicUrl}/connect/testbank/oauth/authorize`,
  });
  const running = new Set<Promise<unknown>>();
  return {
    runtime,
    registry,
    settings: { ...DEFAULT_ENGINE_SETTINGS, ...options.settings },
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
export function serviceNow(engine: Engine): number {
  return epochSeconds(engine.runtime.clock);
}

/** The customer's clock: the service clock plus the customer's offset. Aggregation data is dated by it. */
export function customerNow(engine: Engine, customer: Pick<CustomerRow, 'clock_offset_seconds'>): number {
  return serviceNow(engine) + Number(customer.clock_offset_seconds);
}

/** A customer's clock now (epoch seconds), by ids scoped to the partner (404 otherwise). */
export async function customerClockNow(engine: Engine, partnerId: string, customerId: string | number): Promise<number> {
  return customerNow(engine, await getCustomerForPartner(engine.runtime.database.kysely, partnerId, customerId));
}

export function connectorContext(engine: Engine, customer: Pick<CustomerRow, 'clock_offset_seconds'>, institutionId: number): ConnectorContext {
  return { institutionId, now: customerNow(engine, customer) };
}

/** The connector of an institution, or 400 InstitutionNotSupported when there is none. */
export function connectorFor(engine: Engine, institutionId: number): InstitutionConnector {
  const lookup = engine.registry.connectorFor(institutionId);
  if (!lookup.available) throw new ServiceError('InstitutionNotSupported', `Accounts cannot be linked at institution ${institutionId} yet: ${lookup.reason}`);
  return lookup.connector;
}

const SECRET_PURPOSE = 'aggregation-secrets';

/** Encrypts a JSON value (connector sessions, credentials, sign-in state) for storage. */
export function sealJson(engine: Engine, value: unknown): string {
  return encryptValue(engine.runtime.keys.derive(SECRET_PURPOSE), JSON.stringify(value));
}

export function openJson<T>(engine: Engine, sealed: string): T {
  return JSON.parse(decryptValue(engine.runtime.keys.derive(SECRET_PURPOSE), sealed)) as T;
}

/** The largest clock advance one call accepts: ten years. */
export const MAX_CLOCK_ADVANCE_SECONDS = 10 * 366 * 86_400;

/**
 * Moves a customer's clock ahead by `seconds` (sandbox time travel): from then on the institutions see a later
 * "now" for this customer, so refreshes find the transactions of the skipped time and pending ones posted.
 * The clock never goes back. Returns the customer's new now (epoch seconds).
 */
export async function advanceCustomerClock(engine: Engine, partnerId: string, customerId: string | number, seconds: number): Promise<number> {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_CLOCK_ADVANCE_SECONDS) {
    throw new ServiceError(
      'InvalidParameter',
      `Invalid parameter (seconds): the clock moves ahead by a whole number of seconds from 0 to ${MAX_CLOCK_ADVANCE_SECONDS}.`,
    );
  }
  const db = engine.runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  await db
    .updateTable('customers')
    .set((eb) => ({ clock_offset_seconds: eb('clock_offset_seconds', '+', seconds) }))
    .where('id', '=', customer.id)
    .where('partner_id', '=', partnerId)
    .execute();
  const updated = await getCustomerForPartner(db, partnerId, customer.id);
  return customerNow(engine, updated);
}
