/**
 * Scheduled refresh (docs/connectors.md, "Refresh on a schedule"): a worker claims the logins of real institutions
 * whose time has come (schedule.repository.ts) and refreshes each through the engine's own path, so new and changed
 * transactions record the same events and enqueue the same TxPUSH notifications as a manual refresh, and the
 * outcome plans the next refresh (schedule.rules.ts) in the transaction that stores it.
 */
import { AggregationStatus, type ConnectorSession, type InstitutionConnector } from '../../connectors/connector.js';
import { randomString } from '../../platform/secrets.js';
import { findCustomer } from '../customers/repository.js';
import type { CustomerRow } from '../customers/table.js';
import { connectorContext, openJson, serviceNow, type Engine } from './engine.js';
import { updateLeasedLogin } from './logins.repository.js';
import { refreshLeasedLogin } from './refresh.service.js';
import { claimDueLogins } from './schedule.repository.js';
import { scheduleAfter, type ScheduleChanges } from './schedule.rules.js';
import type { InstitutionLoginRow } from './table.js';

/** What became of one claimed login. */
export type ScheduledRefresh = { loginId: number } /** The refresh ran and ended with this aggregation status code (0: success). */ & (
  | { result: 'refreshed'; code: number }
  /** The source's request limit comes first (SimpleFIN's quota): nothing was asked; due again at `dueAt`. */
  | { result: 'deferred'; dueAt: number }
  /** Nothing to ask: a statement-file login, or no connector serves the institution any more. It leaves the schedule. */
  | { result: 'unscheduled' }
  /** The login or its customer was deleted meanwhile. */
  | { result: 'gone' }
  /** The refresh threw; it is retried as after a temporary failure. */
  | { result: 'error'; error: unknown }
);

export interface DueRefreshOptions {
  /** Names the worker in the leases it takes. */
  workerId: string;
  /** Logins claimed at most. */
  limit: number;
  /** Refreshes of one institution's logins in flight at once; defaults to config.refreshInstitutionConcurrency. */
  perInstitution?: number;
}

/** Logins claimed for a worker, their refresh leases held by `owner`. */
export interface ClaimedLogins {
  owner: string;
  logins: InstitutionLoginRow[];
}

/**
 * Claims the logins due now (up to `limit`, soonest due first, each institution within its cap: schedule.repository.ts)
 * for the worker; none while scheduled refresh is off (LEDGERLINK_REFRESH_INTERVAL_HOURS=0).
 */
export async function claimDueRefreshes(engine: Engine, options: DueRefreshOptions): Promise<ClaimedLogins> {
  const owner = `${options.workerId}#${randomString(8)}`;
  if (engine.config.refreshIntervalSeconds === 0 || options.limit <= 0) return { owner, logins: [] };
  const now = serviceNow(engine);
  const logins = await claimDueLogins(engine.database.kysely, {
    owner,
    limit: options.limit,
    now,
    leaseUntil: now + engine.settings.refreshLeaseSeconds,
    perInstitution: options.perInstitution ?? engine.config.refreshInstitutionConcurrency,
  });
  return { owner, logins };
}

/**
 * Claims the logins due now and refreshes them all at once; what became of each. The worker's loop (scheduler.ts)
 * refreshes each claimed login in a slot of its own instead, so one slow institution does not hold up the others.
 */
export async function runDueRefreshes(engine: Engine, options: DueRefreshOptions): Promise<ScheduledRefresh[]> {
  const { owner, logins } = await claimDueRefreshes(engine, options);
  return Promise.all(logins.map((login) => refreshClaimed(engine, login, owner)));
}

/**
 * Refreshes one claimed login (its lease held by `owner`), unless its source's request limit says later; never
 * throws (a failure is the 'error' outcome, and the login is retried as after a temporary failure).
 */
export async function refreshClaimed(engine: Engine, login: InstitutionLoginRow, owner: string): Promise<ScheduledRefresh> {
  const db = engine.database.kysely;
  const release = (changes: ScheduleChanges) => updateLeasedLogin(db, login.id, owner, { refresh_lease_until: null, refresh_lease_owner: null, ...changes });
  try {
    const customer = await findCustomer(db, login.partner_id, login.customer_id);
    if (!customer) return { loginId: login.id, result: 'gone' };
    const lookup = login.source === 'statement-file' ? undefined : await engine.registry.resolve(login.institution_id);
    if (!lookup?.available) {
      await release({ refresh_due_at: null });
      return { loginId: login.id, result: 'unscheduled' };
    }
    const dueAt = requestLimitDueAt(engine, customer, login, lookup.connector);
    if (dueAt !== undefined) {
      await release({ refresh_due_at: dueAt });
      return { loginId: login.id, result: 'deferred', dueAt };
    }
    const outcome = await refreshLeasedLogin(engine, customer, login.id, { kind: 'refresh' }, owner);
    return outcome.ran ? { loginId: login.id, result: 'refreshed', code: outcome.code } : { loginId: login.id, result: 'gone' };
  } catch (error) {
    // A refresh that threw has released the lease and planned the retry already (this then changes nothing).
    await release(scheduleAfter(engine, login, AggregationStatus.InstitutionDown)).catch(() => undefined);
    return { loginId: login.id, result: 'error', error };
  }
}

/** When the source allows the scheduled refresh of this login (service clock), if that is later than now. */
function requestLimitDueAt(engine: Engine, customer: CustomerRow, login: InstitutionLoginRow, connector: InstitutionConnector): number | undefined {
  if (!connector.backgroundRefreshAt) return undefined;
  const ctx = connectorContext(engine, customer, login.institution_id);
  const allowedAt = connector.backgroundRefreshAt(ctx, openJson<ConnectorSession>(engine, login.session_encrypted));
  // The connector answers on the customer's clock; the schedule runs on the service clock.
  return allowedAt > ctx.now ? allowedAt - Number(customer.clock_offset_seconds) : undefined;
}
