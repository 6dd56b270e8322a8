/**
 * When a login of a real institution is refreshed next without anyone asking (docs/connectors.md, "Refresh on a
 * schedule"). Every refresh, whoever asked for it, and every new sign-in plans the next one, in the transaction that
 * stores its outcome:
 *
 * - success (and a new sign-in, Connect Fix included): the interval (LEDGERLINK_REFRESH_INTERVAL_HOURS) from now;
 * - a temporary failure (102, or anything not the user's to fix): 15 minutes, doubling with every failure in a row,
 *   never more than the interval;
 * - a failure only the user can fix (103, 108, 109, 185, 187, 945-948): not at all, until a sign-in or a successful
 *   refresh plans it again.
 *
 * Each delay is moved by up to 10% either way at random, so logins linked or failed together spread out. Test bank
 * logins are never scheduled (the sandbox moves only when asked), nor statement-file logins (nothing to ask). Times
 * are the service clock's epoch seconds.
 */
import { isTestInstitution } from '../../connectors/testbank/institutions.js';
import type { Runtime } from '../../platform/dependencies.js';
import { serviceNow } from './engine.js';
import { USER_FIXABLE_CODES } from './failures.js';
import type { InstitutionLoginRow, InstitutionLoginUpdate } from './table.js';

/** The interval when none is configured (and the one logins are planned with while scheduled refresh is off). */
export const DEFAULT_REFRESH_INTERVAL_SECONDS = 24 * 3600;
/** The wait after the first temporary failure; it doubles with each further one, up to the interval. */
export const FIRST_RETRY_SECONDS = 15 * 60;
/** Each delay is moved by up to this fraction of itself, either way. */
export const REFRESH_JITTER = 0.1;

/** `seconds` moved by up to ±10% (`random` in [0, 1); 0.5 leaves it as it is). */
export function jittered(seconds: number, random: () => number = Math.random): number {
  return Math.round(seconds * (1 + REFRESH_JITTER * (2 * random() - 1)));
}

/** The wait after `failures` temporary failures in a row (1 or more): 15 min, 30, 60, … at most the interval. */
export function retryDelaySeconds(failures: number, intervalSeconds: number): number {
  return Math.min(intervalSeconds, FIRST_RETRY_SECONDS * 2 ** Math.min(Math.max(failures, 1) - 1, 30));
}

export interface NextRefresh {
  /** When the login is due next; null when it waits for the user. */
  dueAt: number | null;
  /** Temporary failures in a row, counting this outcome. */
  failures: number;
}

/** The plan after an outcome `code` (0 for success) at `now`, given the temporary failures in a row before it. */
export function nextRefresh(input: { code: number; failures: number; now: number; intervalSeconds: number }, random: () => number = Math.random): NextRefresh {
  const { code, now, intervalSeconds } = input;
  if (code === 0) return { dueAt: now + jittered(intervalSeconds, random), failures: 0 };
  if (USER_FIXABLE_CODES.has(code)) return { dueAt: null, failures: input.failures };
  const failures = input.failures + 1;
  return { dueAt: now + jittered(retryDelaySeconds(failures, intervalSeconds), random), failures };
}

/** The interval logins are planned with: the configured one, or the default while scheduled refresh is off (0). */
export function refreshIntervalSeconds(config: Pick<Runtime['config'], 'refreshIntervalSeconds'>): number {
  return config.refreshIntervalSeconds > 0 ? config.refreshIntervalSeconds : DEFAULT_REFRESH_INTERVAL_SECONDS;
}

export type ScheduleChanges = Pick<InstitutionLoginUpdate, 'refresh_due_at' | 'refresh_failures'>;

/**
 * The login's schedule columns after an outcome `code` now, to write with the outcome itself; none for a test bank
 * or statement-file login, which stays unscheduled.
 */
export function scheduleAfter(
  runtime: Pick<Runtime, 'config' | 'clock'>,
  login: Pick<InstitutionLoginRow, 'institution_id'> & Partial<Pick<InstitutionLoginRow, 'refresh_failures' | 'source'>>,
  code: number,
): ScheduleChanges {
  if (isTestInstitution(login.institution_id) || login.source === 'statement-file') return {};
  const next = nextRefresh({
    code,
    failures: Number(login.refresh_failures ?? 0),
    now: serviceNow(runtime),
    intervalSeconds: refreshIntervalSeconds(runtime.config),
  });
  return { refresh_due_at: next.dueAt, refresh_failures: next.failures };
}
