/**
 * A login's refresh in sight (docs/aggregation.md, "Refresh status"): what the last attempt and success were, when
 * the scheduled refresh runs next and why it may not, and where the data comes from. Read only: the refresh and its
 * schedule (refresh.service.ts, schedule.rules.ts) write these columns; this reads them as they left them.
 */
import type { Static } from 'typebox';
import { isTestInstitution } from '../../connectors/testbank/institutions.js';
import {
  type InstitutionLoginStatus,
  LOGIN_SOURCES,
  type LoginSourceName,
  type NamedInstitutionLoginStatus,
  type RefreshScheduleName,
} from '../../contract/schemas/institution-logins.js';
import { getCustomerForPartner } from '../customers/service.js';
import { findInstitution } from '../institutions/service.js';
import type { CustomerRow } from '../customers/table.js';
import { getLoginRow } from './accounts.service.js';
import { serviceNow, type Engine } from './engine.js';
import { USER_FIXABLE_CODES } from './failures.js';
import { listCustomerLogins } from './logins.repository.js';
import type { InstitutionLoginRow } from './table.js';

export type InstitutionLoginStatusRecord = Static<typeof InstitutionLoginStatus>;
export type NamedLoginStatusRecord = Static<typeof NamedInstitutionLoginStatus>;

/** The source a login's data comes from: its institution's connector source, or statement files. */
async function sourceOf(engine: Pick<Engine, 'registry'>, login: InstitutionLoginRow): Promise<LoginSourceName> {
  if (login.source === 'statement-file') return 'statementFile';
  const lookup = await engine.registry.resolve(login.institution_id);
  if (!lookup.available) return 'none';
  const name = lookup.source.name as LoginSourceName;
  // A source added to the registry without a name here reads as the connector it is, not as an unknown value.
  return LOGIN_SOURCES.includes(name) ? name : 'none';
}

/** Why the login is (or is not) refreshed without anyone asking; mirrors the rules of schedule.rules.ts. */
function scheduleOf(engine: Pick<Engine, 'config'>, login: InstitutionLoginRow, source: LoginSourceName): RefreshScheduleName {
  if (source === 'statementFile' || source === 'none' || isTestInstitution(login.institution_id)) return 'manual';
  if (login.refresh_due_at === null) return USER_FIXABLE_CODES.has(login.aggregation_status_code) ? 'waitingForUser' : 'manual';
  if (engine.config.refreshIntervalSeconds === 0) return 'off';
  return Number(login.refresh_failures) > 0 ? 'retrying' : 'scheduled';
}

/** The status record of one login of the customer. */
export async function loginStatus(engine: Engine, customer: CustomerRow, login: InstitutionLoginRow): Promise<InstitutionLoginStatusRecord> {
  const source = await sourceOf(engine, login);
  const schedule = scheduleOf(engine, login, source);
  const code = Number(login.aggregation_status_code);
  const leaseUntil = login.refresh_lease_until === null ? null : Number(login.refresh_lease_until);
  // The schedule runs on the service clock; every other date of a login is on the customer's (sandbox time travel).
  const due = schedule === 'scheduled' || schedule === 'retrying' ? Number(login.refresh_due_at) + Number(customer.clock_offset_seconds) : undefined;
  return {
    institutionLoginId: login.id,
    customerId: String(login.customer_id),
    institutionId: String(login.institution_id),
    source,
    aggregationStatusCode: code,
    ...(code !== 0 && login.aggregation_status_message ? { aggregationStatusMessage: login.aggregation_status_message } : {}),
    ...(login.aggregation_attempt_at !== null ? { aggregationAttemptDate: Number(login.aggregation_attempt_at) } : {}),
    ...(login.aggregation_success_at !== null ? { aggregationSuccessDate: Number(login.aggregation_success_at) } : {}),
    ...(due !== undefined ? { nextRefreshDate: due } : {}),
    refreshSchedule: schedule,
    // Test bank logins and failures only the user can fix do not move the schedule's count; a failing login has failed once at least.
    consecutiveFailures: Math.max(Number(login.refresh_failures), code !== 0 ? 1 : 0),
    refreshInProgress: leaseUntil !== null && leaseUntil >= serviceNow(engine),
  };
}

/** The status of the partner's customer's login (404 for an unknown customer or login, or another partner's). */
export async function getInstitutionLoginStatus(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  institutionLoginId: string | number,
): Promise<InstitutionLoginStatusRecord> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  return loginStatus(engine, customer, await getLoginRow(db, customer, institutionLoginId));
}

/** The status of every login of the partner's customer with its institution's name, oldest login first (404 for an unknown customer). */
export async function listInstitutionLoginStatuses(engine: Engine, partnerId: string, customerId: string | number): Promise<NamedLoginStatusRecord[]> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const logins = await listCustomerLogins(db, customer.id);
  return Promise.all(
    logins.map(async (login) => ({
      ...(await loginStatus(engine, customer, login)),
      institutionName: (await findInstitution(engine.database, login.institution_id))?.name ?? `Institution ${login.institution_id}`,
    })),
  );
}
