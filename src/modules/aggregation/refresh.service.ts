/**
 * Refreshing: asking the institution for an institution login's accounts and transactions and storing what
 * changed. The first refresh of an account (its initial aggregation) loads 180 days of transactions; later ones
 * load from a few days before the earliest pending transaction or the last success (at least ten days back);
 * a historic load goes back as far as the institution serves (two years at the test bank).
 *
 * Only one refresh of a login runs at a time, across processes: a lease on the login row (refresh_lease_until)
 * is taken before the institution is called, renewed while the refresh runs (refresh-lease.service.ts) and released
 * in the transaction that stores the result. Everything a refresh stores, and every event it records, is written in
 * that one transaction, so a process that dies midway leaves nothing half-written; its lease, no longer renewed,
 * expires and the next refresh does the work again. That transaction also plans the login's next scheduled refresh
 * from the outcome (schedule.rules.ts), whoever asked for this one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AggregationStatus,
  type ConnectorAccount,
  type ConnectorSession,
  type ConnectorTransaction,
  type Credential,
  type MfaAnswer,
} from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { randomString } from '../../platform/secrets.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { loginsOfAccounts, markAccountsAttempted } from './accounts.repository.js';
import { accountRecords, getAccountRow, getLoginRow, listAccountRows } from './accounts.service.js';
import { customerNow, openJson, sealJson, serviceNow, type Engine } from './engine.js';
import { recordEvents } from './events.service.js';
import { aggregationError, USER_FIXABLE_CODES } from './failures.js';
import { answerLinkMfa, finishLink, startLink, type LinkStep } from './linking.service.js';
import { findLogin, listCustomerLogins, refreshLeaseOwner, refreshLeaseUntil, takeRefreshLease, updateLeasedLogin } from './logins.repository.js';
import { keepingRefreshLease } from './refresh-lease.service.js';
import type { AccountRecord, AggregationEvent } from './records.js';
import { scheduleAfter } from './schedule.rules.js';
import { storeFetchedAccount } from './store.service.js';
import type { AccountRow, InstitutionLoginRow } from './table.js';
import { pairTransfers } from './transfers.service.js';
import { earliestPendingDate } from './transactions.repository.js';

const DAY = 86_400;
/** Transactions the initial aggregation loads: the last 180 days. */
export const INITIAL_HISTORY_DAYS = 180;
/** A later refresh reloads at least this many days, and this many days before the last success or the earliest pending transaction. */
export const REFRESH_MIN_DAYS = 10;
export const REFRESH_OVERLAP_DAYS = 3;

export type RefreshMode = { kind: 'refresh' } | { kind: 'historic'; accountId: number };

export type LoginRefreshOutcome =
  /** The refresh ran: 0, or the aggregation status code it failed with. */
  | { ran: true; code: number; message: string | null }
  /** Another refresh of the login held it; this one waited for it (or did not wait) and did nothing itself. */
  | { ran: false };

/**
 * How an upload's lease owner starts (statements.service.ts): a refresh that waited for an upload has not had its
 * work done, as it has when it waited for another refresh.
 */
export const UPLOAD_LEASE = 'upload:';

async function acquireLease(engine: Engine, loginId: number): Promise<string | undefined> {
  const owner = randomString(16);
  const now = serviceNow(engine);
  return (await takeRefreshLease(engine.database.kysely, loginId, owner, now, now + engine.settings.refreshLeaseSeconds)) ? owner : undefined;
}

/**
 * Waits until no refresh (or upload) holds the login; false when the wait ran out first. A login deleted meanwhile
 * (ResourceNotFound) ends the wait: its lease could never be taken again, and the caller would ask for it forever.
 */
export async function waitForLease(engine: Engine, loginId: number): Promise<boolean> {
  const deadline = Date.now() + engine.settings.refreshWaitMs;
  for (;;) {
    const until = await refreshLeaseUntil(engine.database.kysely, loginId);
    if (until === undefined) throw new ServiceError('ResourceNotFound', `Institution login ${loginId} was deleted while this request waited for it.`);
    if (until === null || Number(until) < serviceNow(engine)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(engine.settings.refreshPollMs);
  }
}

/** Where a refresh of this account starts asking for transactions (customer clock). */
async function windowStart(engine: Engine, account: AccountRow, mode: RefreshMode, now: number, historyDays: number): Promise<number> {
  const oldestServed = now - historyDays * DAY;
  if (mode.kind === 'historic') return oldestServed;
  // Its source's first load: also for an account that has transactions only from a statement file matched into it
  // (which marks it aggregated, and sets no success of its own source).
  if (account.first_aggregated_at === null || account.aggregation_success_at === null) return Math.max(oldestServed, now - INITIAL_HISTORY_DAYS * DAY);
  const pending = await earliestPendingDate(engine.database.kysely, account.id);
  const candidates = [now - REFRESH_MIN_DAYS * DAY];
  if (account.aggregation_success_at !== null) candidates.push(Number(account.aggregation_success_at) - REFRESH_OVERLAP_DAYS * DAY);
  if (pending !== null && pending !== undefined) candidates.push(Number(pending) - REFRESH_OVERLAP_DAYS * DAY);
  return Math.max(oldestServed, Math.min(...candidates));
}

interface Fetched {
  account: AccountRow;
  record: ConnectorAccount;
  from: number;
  transactions: ConnectorTransaction[];
}

/** Records a failed (or skipped) attempt: the data stays, the status code says what went wrong, the schedule retries or waits. */
async function recordFailure(
  engine: Engine,
  login: InstitutionLoginRow,
  accounts: readonly AccountRow[],
  owner: string,
  now: number,
  code: number,
  message: string,
): Promise<LoginRefreshOutcome> {
  await engine.database.kysely.transaction().execute(async (tx) => {
    await updateLeasedLogin(tx, login.id, owner, {
      aggregation_status_code: code,
      aggregation_status_message: message,
      aggregation_attempt_at: now,
      refresh_lease_until: null,
      refresh_lease_owner: null,
      updated_at: now,
      ...scheduleAfter(engine, login, code),
    });
    if (accounts.length > 0) {
      await markAccountsAttempted(
        tx,
        accounts.map((a) => a.id),
        code,
        now,
      );
    }
  });
  return { ran: true, code, message };
}

/** Runs one refresh of a login whose lease this process holds. */
async function runLeased(engine: Engine, customer: CustomerRow, login: InstitutionLoginRow, mode: RefreshMode, owner: string): Promise<LoginRefreshOutcome> {
  // A statement-file login has no source to ask: its data changes only when a file is uploaded (statements.service.ts).
  if (login.source === 'statement-file') {
    await updateLeasedLogin(engine.database.kysely, login.id, owner, { refresh_lease_until: null, refresh_lease_owner: null });
    return { ran: true, code: 0, message: null };
  }
  const now = customerNow(engine, customer);
  const all = await listAccountRows(engine.database.kysely, customer, { institutionLoginId: login.id });
  const targets = mode.kind === 'historic' ? all.filter((a) => a.id === mode.accountId) : all;
  const fail = (code: number, message: string) => recordFailure(engine, login, targets, owner, now, code, message);

  // Known-bad credentials or an unanswerable MFA: calling the institution again would fail the same way (and may
  // lock the user out there). Only the user can repair it, by signing in again (Connect Fix).
  // An error state set through the sandbox controls stands for the institution's answer until Fix or a clear.
  if (login.sandbox_failure_code !== null) {
    return fail(Number(login.sandbox_failure_code), login.sandbox_failure_message ?? 'The institution refused the request.');
  }
  if (USER_FIXABLE_CODES.has(login.aggregation_status_code)) {
    return fail(login.aggregation_status_code, login.aggregation_status_message ?? 'The institution login needs the user to sign in again.');
  }
  const lookup = await engine.registry.resolve(login.institution_id);
  if (!lookup.available) return fail(102, lookup.reason);
  const connector = lookup.connector;
  const ctx = { institutionId: login.institution_id, now };
  let session = openJson<ConnectorSession>(engine, login.session_encrypted);
  let sessionChanged = false;

  const listed = await connector.listAccounts(ctx, session);
  if (!listed.ok) return fail(listed.code, listed.message);
  if (listed.session) [session, sessionChanged] = [listed.session, true];
  const byRef = new Map(listed.value.map((a) => [a.ref, a]));
  const fetched: Fetched[] = [];
  for (const account of targets) {
    const record = byRef.get(account.ref);
    // An account the institution no longer shows keeps its data; the login's other accounts are refreshed.
    if (!record) continue;
    const from = await windowStart(engine, account, mode, now, connector.capabilities.historyDays);
    const result = await connector.fetchTransactions(ctx, session, account.ref, from, now);
    if (!result.ok) return fail(result.code, result.message);
    if (result.session) [session, sessionChanged] = [result.session, true];
    fetched.push({ account, record, from, transactions: result.value });
  }

  await engine.database.kysely.transaction().execute(async (tx) => {
    const own = await updateLeasedLogin(tx, login.id, owner, {
      aggregation_status_code: 0,
      aggregation_status_message: null,
      aggregation_attempt_at: now,
      aggregation_success_at: now,
      refresh_lease_until: null,
      refresh_lease_owner: null,
      updated_at: now,
      ...(sessionChanged ? { session_encrypted: sealJson(engine, session) } : {}),
      // A historic load reads one account: the login's next scheduled refresh stays when it was.
      ...(mode.kind === 'refresh' ? scheduleAfter(engine, login, 0) : {}),
    });
    // The lease ran out and another refresh took over: store nothing, it does the work.
    if (!own) throw new ServiceError('AggregationInProgress');
    const events: AggregationEvent[] = [];
    // An account deleted (or moved to another login) while the institution was asked is left as it is now; the
    // login's other accounts are stored.
    const loginOf = await loginsOfAccounts(
      tx,
      fetched.map((f) => Number(f.account.id)),
    );
    for (const f of fetched) {
      if (loginOf.get(Number(f.account.id)) !== Number(login.id)) continue;
      const stored = await storeFetchedAccount(
        tx,
        login,
        f.account,
        { account: f.record, transactions: { list: f.transactions, from: f.from, to: now }, aggregated: true, source: lookup.source.name },
        now,
        mode.kind === 'historic' ? { historic_loaded_at: now } : {},
      );
      events.push(...stored.events);
    }
    // Transfers pair across the login's accounts and the customer's others, once everything is stored.
    await recordEvents(engine, tx, await pairTransfers(tx, events, now));
  });
  return { ran: true, code: 0, message: null };
}

/**
 * Refreshes one institution login. When another refresh of it is running, waits for that one (up to
 * settings.refreshWaitMs) and, for a plain refresh, takes its result instead of asking the institution again;
 * a historic load then runs itself. Gives up with 409 (325) when the wait runs out; `wait: false` returns at once.
 */
export async function refreshLogin(
  engine: Engine,
  customer: CustomerRow,
  login: InstitutionLoginRow,
  mode: RefreshMode,
  wait = true,
): Promise<LoginRefreshOutcome> {
  for (;;) {
    const owner = await acquireLease(engine, login.id);
    if (owner) return refreshLeasedLogin(engine, customer, login.id, mode, owner);
    if (!wait) return { ran: false };
    const holder = await refreshLeaseOwner(engine.database.kysely, login.id, serviceNow(engine));
    if (!(await waitForLease(engine, login.id)))
      throw new ServiceError('AggregationInProgress', `Institution login ${login.id} is currently being aggregated; try again later.`);
    // The refresh it waited for did this one's work; an upload (or a lease gone meanwhile) did not.
    if (mode.kind === 'refresh' && holder !== undefined && !holder.startsWith(UPLOAD_LEASE)) return { ran: false };
  }
}

/**
 * Refreshes a login whose refresh lease `owner` holds (refreshLogin's, or a scheduled claim's). When the refresh
 * throws, the lease is released and the schedule retries as after a temporary failure; the error goes on.
 */
export async function refreshLeasedLogin(
  engine: Engine,
  customer: CustomerRow,
  loginId: number,
  mode: RefreshMode,
  owner: string,
): Promise<LoginRefreshOutcome> {
  let login: InstitutionLoginRow | undefined;
  try {
    login = await findLogin(engine.database.kysely, loginId);
    if (!login) return { ran: false };
    const leased = login;
    return await keepingRefreshLease(engine, loginId, owner, () => runLeased(engine, customer, leased, mode, owner));
  } catch (e) {
    await updateLeasedLogin(engine.database.kysely, loginId, owner, {
      refresh_lease_until: null,
      refresh_lease_owner: null,
      ...(login ? scheduleAfter(engine, login, AggregationStatus.InstitutionDown) : {}),
    });
    throw e;
  }
}

/** Refresh Customer Accounts: every institution login of the customer, one after another; the accounts afterwards. */
export async function refreshCustomerAccounts(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  options: { wait?: boolean } = {},
): Promise<AccountRecord[]> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const logins = await listCustomerLogins(db, customer.id);
  for (const login of logins) await refreshLogin(engine, customer, login, { kind: 'refresh' }, options.wait ?? true);
  return accountRecords(db, await listAccountRows(db, customer));
}

/**
 * Refresh Customer Accounts in the background (v2): 404 for an unknown customer, otherwise starts the refresh of
 * every login without waiting for refreshes already running, and returns at once; `whenDone` hears when it ends.
 */
export async function startCustomerRefresh(engine: Engine, partnerId: string, customerId: string | number, whenDone?: () => void): Promise<void> {
  const customer = await getCustomerForPartner(engine.database.kysely, partnerId, customerId);
  engine.background(`refresh of customer ${customer.id}`, () => refreshCustomerAccounts(engine, partnerId, customer.id, { wait: false }).finally(whenDone));
}

/** Refresh Customer Accounts by Institution Login: that login's accounts afterwards (404 for unknown logins). */
export async function refreshInstitutionLoginAccounts(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  institutionLoginId: string | number,
  options: { wait?: boolean } = {},
): Promise<AccountRecord[]> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const login = await getLoginRow(db, customer, institutionLoginId);
  await refreshLogin(engine, customer, login, { kind: 'refresh' }, options.wait ?? true);
  return accountRecords(db, await listAccountRows(db, customer, { institutionLoginId: login.id }));
}

/** The same in the background (v2): 404 for an unknown customer or login, otherwise starts the refresh and returns at once; `whenDone` hears when it ends. */
export async function startInstitutionLoginRefresh(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  institutionLoginId: string | number,
  whenDone?: () => void,
): Promise<void> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const login = await getLoginRow(db, customer, institutionLoginId);
  engine.background(`refresh of institution login ${login.id}`, () =>
    refreshInstitutionLoginAccounts(engine, partnerId, customer.id, login.id, { wait: false }).finally(whenDone),
  );
}

/** What a historic load ends in: done, or the institution asks MFA questions first (legacy 203). */
export type HistoricOutcome = { done: true } | { done: false; mfa: Extract<LinkStep, { step: 'mfa' }> };

/**
 * Load Historic Transactions: loads the account's whole history (as far back as the institution serves). It is an
 * aggregation of that account, so it also counts as the initial one. A second call returns at once unless `force`.
 * Failures are errors whose code is the aggregation status code (the data stays). When the login needs an MFA
 * answer (185) and its credentials are saved, the engine signs in again with them: the institution's questions
 * come back (answer them with answerHistoricMfa), as the legacy service's 203 did.
 */
export async function loadHistoricTransactions(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  options: { force?: boolean } = {},
): Promise<HistoricOutcome> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const account = await getAccountRow(db, customer, accountId);
  if (account.historic_loaded_at !== null && !options.force) return { done: true };
  const login = await getLoginRow(db, customer, account.institution_login_id);
  const outcome = await refreshLogin(engine, customer, login, { kind: 'historic', accountId: account.id });
  if (!outcome.ran || outcome.code === 0) return { done: true };
  if (outcome.code === AggregationStatus.MfaRequired && login.credentials_encrypted !== null) {
    const step = await startLink(engine, {
      partnerId,
      customerId: String(customer.id),
      institutionId: login.institution_id,
      institutionLoginId: login.id,
      credentials: openJson<Credential[]>(engine, login.credentials_encrypted),
    });
    if (step.step === 'mfa') return { done: false, mfa: step };
    return historicAfterSignIn(engine, partnerId, customer.id, account.id, step);
  }
  throw aggregationError(outcome.code, outcome.message ?? 'The institution refused the request.');
}

/** Answers the MFA questions of a historic load (the MFA-Session of its 203); loads the history once signed in. */
export async function answerHistoricMfa(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  sessionId: string,
  answers: MfaAnswer[],
): Promise<HistoricOutcome> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const account = await getAccountRow(db, customer, accountId);
  const step = await answerLinkMfa(engine, { partnerId, sessionId, answers, customerId: String(customer.id), institutionId: account.institution_id });
  if (step.step === 'mfa') return { done: false, mfa: step };
  return historicAfterSignIn(engine, partnerId, customer.id, account.id, step);
}

/** After a repeated sign-in: saves it on the login (as Connect Fix does) and loads the history. */
async function historicAfterSignIn(engine: Engine, partnerId: string, customerId: number, accountId: number, step: LinkStep): Promise<HistoricOutcome> {
  if (step.step === 'failed') throw aggregationError(step.code, step.message);
  if (step.step !== 'accounts') throw new ServiceError('LinkStepMismatch');
  await finishLink(engine, { partnerId, sessionId: step.sessionId });
  const outcome = await loadHistoricTransactions(engine, partnerId, customerId, accountId, { force: true });
  if (!outcome.done) throw aggregationError(AggregationStatus.MfaRequired, 'The institution asked for MFA again.');
  return outcome;
}
