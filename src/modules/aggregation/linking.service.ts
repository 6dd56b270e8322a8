/**
 * Linking: signing in at an institution and saving the chosen accounts under an institution login. Shared by the
 * legacy addall call and the hosted Connect app (Full, Lite and Fix). A sign-in is a series of steps kept in a
 * link session (table link_sessions), so it can continue in another request or another process:
 *
 *   startLink ─▶ mfa ─(answerLinkMfa)─▶ … ─▶ accounts ─(finishLink)─▶ saved
 *            └▶ oauth ─(completeLinkOAuth)─▶ accounts
 *            └▶ failed (aggregation status code and message)
 *
 * Linking saves accounts with their balances, details and positions but no transactions: an initial
 * aggregation (a refresh) loads those.
 */
import type { Static } from 'typebox';
import type { AuthResult, ConnectorAccount, ConnectorSession, Credential, MfaAnswer, MfaChallenge, PsuContext } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { DiscoveredAccount, SignInStep } from '../../contract/schemas/connect-app.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { hmacBase64Url, randomString } from '../../platform/secrets.js';
import { assertCanLinkAt, getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { clearLoginAccountsStatus, loginHasAccounts, selectAccountsWithRefs } from './accounts.repository.js';
import { placeIncomingAccounts, type SameAsAnswers } from './account-match.service.js';
import { moveAccount } from './dedup.repository.js';
import { accountRecords, getLoginRow, listAccountRows } from './accounts.service.js';
import { connectorContext, connectorFor, customerNow, openJson, sealJson, serviceNow, type Engine } from './engine.js';
import { recordEvents } from './events.service.js';
import * as sessions from './link-sessions.repository.js';
import { deleteLogin, insertLogin, listCustomerLogins, lockCustomerForLinking, updateLogin } from './logins.repository.js';
import type { AccountRecord, AggregationEvent } from './records.js';
import { scheduleAfter } from './schedule.rules.js';
import { storeFetchedAccount } from './store.service.js';
import type { AccountRow, InstitutionLoginRow, LinkSessionRow, LinkSessionUpdate, LinkStepName } from './table.js';

export type { Credential, MfaAnswer } from '../../connectors/connector.js';

type SignInStepRecord = Static<typeof SignInStep>;
type DiscoveredAccountRecord = Static<typeof DiscoveredAccount>;

/**
 * What the user sees after a sign-in action: a SignInStep short of `finished`, whose oauth step always carries the
 * institution's sign-in URL (the API's step leaves it out when the step is only asked again).
 */
export type LinkStep = Exclude<SignInStepRecord, { step: 'oauth' | 'finished' }> | { step: 'oauth'; sessionId: string; authorizeUrl: string };

export interface StartLinkInput {
  partnerId: string;
  customerId: string;
  institutionId: number;
  /** The sign-in form, for credential institutions. */
  credentials?: Credential[];
  /** Where the institution sends the browser back, for OAuth institutions. */
  redirectUri?: string;
  /** The Connect link the sign-in runs in, which the redirect's callback finds again by the session (findOAuthSession). */
  connectLinkId?: string;
  /** Fix: re-authenticate this existing login. */
  institutionLoginId?: number;
}

/** What a finished sign-in saved, with ids as numbers: addall answers the accounts, Connect its own AddedAccounts with the institution's name. */
export interface LinkResult {
  institutionLoginId: number;
  institutionId: number;
  accounts: AccountRecord[];
}

/** What a session keeps, encrypted, for its next step. */
type LinkState =
  | { kind: 'mfa'; mfaState: ConnectorSession; credentials: Credential[]; challenges: MfaChallenge[] }
  | { kind: 'oauth'; pending: ConnectorSession; redirectUri: string; connectLinkId?: string }
  | { kind: 'session'; session: ConnectorSession; credentials: Credential[] | null };

/** Starts a sign-in: credentials for credential institutions, a redirect URI for OAuth ones, a login id for Fix. */
export async function startLink(engine: Engine, input: StartLinkInput): Promise<LinkStep> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, input.partnerId, input.customerId);
  let loginId: number | null = null;
  if (input.institutionLoginId !== undefined) {
    const login = await getLoginRow(db, customer, input.institutionLoginId);
    if (login.source === 'statement-file') {
      throw new ServiceError(
        'BadRequest',
        `Institution login ${login.id} holds uploaded statement files, with no sign-in to repair: upload a newer file instead.`,
      );
    }
    if (login.institution_id !== input.institutionId) {
      throw new ServiceError('BadRequest', `Institution login ${login.id} is at institution ${login.institution_id}, not ${input.institutionId}.`);
    }
    loginId = login.id;
  }
  await assertCanLinkAt(engine.database, customer, input.institutionId);
  const connector = await connectorFor(engine, input.institutionId);
  // Sessions that ran out are refused anyway; clearing them here keeps the table small.
  await purgeExpiredLinkSessions(engine);
  const ctx = connectorContext(engine, customer, input.institutionId);
  const now = serviceNow(engine);
  const session: LinkSessionRow = {
    id: randomString(32),
    partner_id: customer.partner_id,
    customer_id: customer.id,
    institution_id: input.institutionId,
    institution_login_id: loginId,
    step: 'failed',
    state_encrypted: null,
    discovered: null,
    failure_code: null,
    failure_message: null,
    created_at: now,
    updated_at: now,
    expires_at: now + engine.settings.linkSessionTtlSeconds,
  };
  if (connector.capabilities.authMode === 'oauth') {
    if (!input.redirectUri) {
      throw new ServiceError(
        'OAuthRequiresConnect',
        `Institution ${input.institutionId} signs in with OAuth on its own site: link its accounts through Connect (POST /connect/v2/generate).`,
      );
    }
    const started = await connector.startOAuth(ctx, { redirectUri: input.redirectUri, state: session.id });
    if ('ok' in started) {
      // The session row starts at the failed step: stored once, with why.
      await sessions.insertLinkSession(db, { ...session, failure_code: started.code, failure_message: started.message });
      return { step: 'failed', sessionId: session.id, code: started.code, message: started.message };
    }
    const state: LinkState = {
      kind: 'oauth',
      pending: started.pending,
      redirectUri: input.redirectUri,
      ...(input.connectLinkId !== undefined ? { connectLinkId: input.connectLinkId } : {}),
    };
    await sessions.insertLinkSession(db, { ...session, step: 'oauth', state_encrypted: sealJson(engine, state) });
    return { step: 'oauth', sessionId: session.id, authorizeUrl: started.authorizeUrl };
  }
  const credentials = (input.credentials ?? []).filter((c) => c && typeof c.value === 'string');
  if (credentials.length === 0) throw new ServiceError('MissingParameter', 'Missing parameter (credentials)');
  await sessions.insertLinkSession(db, session);
  return advance(engine, customer, session, await connector.authenticate(ctx, credentials), credentials);
}

/** Answers the MFA questions of a sign-in (each answer's id is the question's id, or its text); the institution may ask more. */
export async function answerLinkMfa(
  engine: Engine,
  input: { partnerId: string; sessionId: string; answers: MfaAnswer[]; customerId?: string; institutionId?: number },
): Promise<LinkStep> {
  const session = await loadSession(engine, input, 'mfa');
  const state = openJson<LinkState>(engine, session.state_encrypted!);
  if (state.kind !== 'mfa') throw new ServiceError('LinkStepMismatch');
  const customer = await getCustomerForPartner(engine.database.kysely, input.partnerId, session.customer_id);
  const connector = await connectorFor(engine, session.institution_id);
  // An answer names its question by id, or (legacy clients) by the question's text.
  const ids = new Set(state.challenges.map((c) => c.id));
  const byPrompt = new Map(state.challenges.map((c) => [c.prompt.trim().toLowerCase(), c.id]));
  const answers = (input.answers ?? [])
    .filter((a) => a && typeof a.id === 'string')
    .map((a) => ({ id: ids.has(a.id) ? a.id : (byPrompt.get(a.id.trim().toLowerCase()) ?? a.id), value: String(a.value ?? '') }));
  const result = await connector.answerMfa(connectorContext(engine, customer, session.institution_id), state.mfaState, answers);
  return advance(engine, customer, session, result, state.credentials);
}

/** Completes an OAuth sign-in with the code the institution sent to the redirect URI. */
export async function completeLinkOAuth(
  engine: Engine,
  input: { partnerId: string; sessionId: string; code: string; customerId?: string; psu?: PsuContext },
): Promise<LinkStep> {
  const session = await loadSession(engine, input, 'oauth');
  const state = openJson<LinkState>(engine, session.state_encrypted!);
  if (state.kind !== 'oauth') throw new ServiceError('LinkStepMismatch');
  const customer = await getCustomerForPartner(engine.database.kysely, input.partnerId, session.customer_id);
  const connector = await connectorFor(engine, session.institution_id);
  // The customer's browser brought the code back: the calls made now are attended.
  const attended = input.psu ? { psu: input.psu } : {};
  const result = await connector.completeOAuth(
    { ...connectorContext(engine, customer, session.institution_id), ...attended },
    { code: input.code, redirectUri: state.redirectUri, pending: state.pending },
  );
  return advance(engine, customer, session, result, null, input.psu);
}

/** Moves a session on after the institution answered a sign-in step. */
async function advance(
  engine: Engine,
  customer: CustomerRow,
  session: LinkSessionRow,
  result: AuthResult,
  credentials: Credential[] | null,
  psu?: PsuContext,
): Promise<LinkStep> {
  if (!result.ok) return failSession(engine, session, result.code, result.message);
  if (result.kind === 'mfa') {
    const state: LinkState = { kind: 'mfa', mfaState: result.state, credentials: credentials ?? [], challenges: result.challenges };
    await saveStep(engine, session, 'mfa', { state_encrypted: sealJson(engine, state) });
    return { step: 'mfa', sessionId: session.id, challenges: result.challenges };
  }
  const connector = await connectorFor(engine, session.institution_id);
  const listed = await connector.listAccounts({ ...connectorContext(engine, customer, session.institution_id), ...(psu ? { psu } : {}) }, result.session);
  if (!listed.ok) return failSession(engine, session, listed.code, listed.message);
  const state: LinkState = { kind: 'session', session: listed.session ?? result.session, credentials };
  await saveStep(engine, session, 'accounts', { state_encrypted: sealJson(engine, state), discovered: JSON.stringify(listed.value) });
  return { step: 'accounts', sessionId: session.id, accounts: await discovered(engine, customer, session, listed.value) };
}

async function failSession(engine: Engine, session: LinkSessionRow, code: number, message: string): Promise<LinkStep> {
  await saveStep(engine, session, 'failed', { state_encrypted: null, failure_code: code, failure_message: message });
  return { step: 'failed', sessionId: session.id, code, message };
}

async function saveStep(
  engine: Engine,
  session: LinkSessionRow,
  step: LinkStepName,
  changes: Pick<LinkSessionUpdate, 'state_encrypted' | 'discovered' | 'failure_code' | 'failure_message'>,
): Promise<void> {
  const now = serviceNow(engine);
  await sessions.updateLinkSession(engine.database.kysely, session.id, {
    ...changes,
    step,
    updated_at: now,
    expires_at: now + engine.settings.linkSessionTtlSeconds,
  });
}

/**
 * A live session of this partner (and of this customer, when the caller names one) at the expected step: 404 when
 * unknown, expired or another partner's or customer's; 409 at another step.
 */
async function loadSession(
  runtime: Pick<Runtime, 'database' | 'clock'>,
  input: { partnerId: string; sessionId: string; customerId?: string; institutionId?: number },
  step: LinkStepName,
): Promise<LinkSessionRow> {
  const { partnerId, sessionId } = input;
  const session =
    typeof sessionId === 'string' && sessionId.length > 0 ? await sessions.findLinkSession(runtime.database.kysely, sessionId, partnerId) : undefined;
  const otherCustomer =
    session !== undefined &&
    ((input.customerId !== undefined && String(session.customer_id) !== String(input.customerId).trim()) ||
      (input.institutionId !== undefined && session.institution_id !== input.institutionId));
  if (!session || otherCustomer || Number(session.expires_at) <= serviceNow(runtime))
    throw new ServiceError('ResourceNotFound', 'Sign-in session not found or expired. Start the sign-in again.');
  if (session.step !== step) {
    throw new ServiceError('LinkStepMismatch', `The sign-in is at step "${session.step}", not "${step}".`);
  }
  return session;
}

/** The customer's accounts at the institution with these refs (what a new sign-in would duplicate). */
async function linkedWithRefs(db: Executor, customer: CustomerRow, institutionId: number, refs: readonly string[]): Promise<AccountRow[]> {
  if (refs.length === 0) return [];
  return selectAccountsWithRefs(db, customer.id, institutionId, refs);
}

const CHOICE_PURPOSE = 'account-choice';

/**
 * What the accounts step answers as an account's `ref`, and Connect sends back to choose it: a keyed digest of the
 * customer, the institution and the institution's ref, the same in every sign-in of that customer there. Never the
 * ref itself, which may hold the full account number (an OFX ref does).
 */
function choiceOf(runtime: Pick<Runtime, 'keys'>, session: Pick<LinkSessionRow, 'customer_id' | 'institution_id'>, ref: string): string {
  return hmacBase64Url(runtime.keys.derive(CHOICE_PURPOSE), `${session.customer_id}\u0000${session.institution_id}\u0000${ref}`);
}

async function discovered(
  runtime: Pick<Runtime, 'database' | 'keys'>,
  customer: CustomerRow,
  session: LinkSessionRow,
  accounts: readonly ConnectorAccount[],
): Promise<DiscoveredAccountRecord[]> {
  const linked = await linkedWithRefs(
    runtime.database.kysely,
    customer,
    session.institution_id,
    accounts.map((a) => a.ref),
  );
  const linkedRefs = new Set(
    linked.filter((a) => session.institution_login_id === null || a.institution_login_id === session.institution_login_id).map((a) => a.ref),
  );
  return accounts.map((a) => ({
    ref: choiceOf(runtime, session, a.ref),
    name: a.name,
    type: a.type,
    accountNumberDisplay: a.accountNumberDisplay,
    balance: a.balance,
    currency: a.currency,
    alreadyLinked: linkedRefs.has(a.ref),
    marketSegment: a.marketSegment,
  }));
}

/**
 * Saves the sign-in: the institution login (session and credentials encrypted) and the chosen accounts (new ones
 * created, existing ones brought up to date), with account events, in one transaction. Signing in again with the
 * same credentials reuses the login that already holds those accounts, so nothing is duplicated. For Fix
 * (a session started with institutionLoginId), accountRefs may be omitted: the login's session and credentials
 * are replaced and its error status cleared. Otherwise accountRefs omitted means every account. accountRefs are the
 * `ref`s the accounts step answered (digests, see choiceOf), not the institution's.
 */
export async function finishLink(
  runtime: Pick<Engine, 'config' | 'database' | 'clock' | 'keys' | 'onEventsRecorded'>,
  input: { partnerId: string; sessionId: string; accountRefs?: string[]; customerId?: string; sameAs?: SameAsAnswers | undefined; ask?: boolean },
  within?: (tx: Executor, result: LinkResult) => Promise<void>,
): Promise<LinkResult> {
  const session = await loadSession(runtime, input, 'accounts');
  const state = openJson<LinkState>(runtime, session.state_encrypted!);
  if (state.kind !== 'session') throw new ServiceError('LinkStepMismatch');
  const offered: ConnectorAccount[] = JSON.parse(session.discovered ?? '[]');
  const byChoice = new Map(offered.map((a) => [choiceOf(runtime, session, a.ref), a.ref]));
  const isFix = session.institution_login_id !== null;
  if (input.accountRefs !== undefined) {
    const unknown = input.accountRefs.filter((r) => !byChoice.has(r));
    if (unknown.length > 0) throw new ServiceError('InvalidParameter', `Invalid parameter (accountRefs): the institution did not offer ${unknown.join(', ')}.`);
    if (input.accountRefs.length === 0 && !isFix) throw new ServiceError('BadRequest', 'Choose at least one account to link.');
  } else if (offered.length === 0 && !isFix) {
    throw new ServiceError('BadRequest', 'The institution shows no accounts for this sign-in, so there is nothing to link.');
  }
  // The institution's refs of the chosen accounts.
  const chosenRefs = input.accountRefs === undefined ? undefined : new Set(input.accountRefs.map((r) => byChoice.get(r)!));

  return runtime.database.kysely.transaction().execute(async (tx) => {
    // One step wins: a second finishLink of the same session (or a concurrent one) finds it finished.
    if (!(await sessions.claimLinkSession(tx, session.id, serviceNow(runtime))))
      throw new ServiceError('LinkStepMismatch', 'The sign-in has already been finished.');
    const customer = await getCustomerForPartner(tx, input.partnerId, session.customer_id);
    // Serialise linking per customer, so two sign-ins at once cannot both create the same accounts.
    await lockCustomerForLinking(tx, customer.id);
    const now = customerNow(runtime, customer);
    const secrets = {
      session_encrypted: sealJson(runtime, state.session),
      credentials_encrypted: state.credentials ? sealJson(runtime, state.credentials) : null,
      aggregation_status_code: 0,
      aggregation_status_message: null,
      // A new sign-in ends any error state the sandbox controls set, as it ends a real one.
      sandbox_failure_code: null,
      sandbox_failure_message: null,
      updated_at: now,
      // and puts a real institution's login (back) on the refresh schedule.
      ...scheduleAfter(runtime, { institution_id: session.institution_id }, 0),
    };

    let login: InstitutionLoginRow;
    let chosen: ConnectorAccount[];
    if (isFix) {
      login = await getLoginRow(tx, customer, session.institution_login_id!);
      const existingRefs = new Set((await listAccountRows(tx, customer, { institutionLoginId: login.id })).map((a) => a.ref));
      chosen = offered.filter((a) => (chosenRefs ?? existingRefs).has(a.ref));
      login = await updateLogin(tx, login.id, secrets);
      await clearLoginAccountsStatus(tx, login.id);
    } else {
      chosen = chosenRefs === undefined ? offered : offered.filter((a) => chosenRefs.has(a.ref));
      // A live login of these accounts is signed in again; a statement-file login holding the same refs (a file
      // whose accounts share an OFX account id gets the refs the live connector gives them) is never one to reuse:
      // nothing refreshes it. Its accounts are taken over below, like any file's.
      const fileLogins = await statementFileLogins(tx, customer);
      const existing = (
        await linkedWithRefs(
          tx,
          customer,
          session.institution_id,
          offered.map((a) => a.ref),
        )
      ).filter((a) => !fileLogins.has(Number(a.institution_login_id)));
      const reuse = existing.at(-1)?.institution_login_id;
      login =
        reuse !== undefined
          ? await updateLogin(tx, reuse, secrets)
          : await insertLogin(tx, {
              partner_id: customer.partner_id,
              customer_id: customer.id,
              institution_id: session.institution_id,
              ...secrets,
              created_at: now,
            });
      if (reuse !== undefined) await clearLoginAccountsStatus(tx, login.id);
    }

    const stored = new Map((await listAccountRows(tx, customer, { institutionLoginId: login.id })).map((a) => [a.ref, a]));
    const fresh = chosen.filter((a) => !stored.has(a.ref));
    if (fresh.length > 0) for (const [ref, row] of await takeOverFileAccounts(runtime, tx, customer, login, session, fresh, input)) stored.set(ref, row);
    const rows: AccountRow[] = [];
    const events: AggregationEvent[] = [];
    for (const a of chosen) {
      // Saved, not aggregated: the first refresh reads their data.
      const saved = await storeFetchedAccount(tx, login, stored.get(a.ref), { account: a, aggregated: false }, now);
      rows.push(saved.row);
      events.push(...saved.events);
    }
    const records = await accountRecords(tx, rows);
    await recordEvents(runtime, tx, events);
    const result = { institutionLoginId: login.id, institutionId: login.institution_id, accounts: records };
    // Callers (Connect) add what must commit with the link, such as its webhook.
    if (within) await within(tx, result);
    return result;
  });
}

/** The ids of the customer's statement-file logins. */
async function statementFileLogins(db: Executor, customer: CustomerRow): Promise<Set<number>> {
  return new Set((await listCustomerLogins(db, customer.id)).filter((l) => l.source === 'statement-file').map((l) => Number(l.id)));
}

/**
 * New live accounts that are accounts made from statement files take them over (account-match.service.ts): the file's
 * account moves to the live login under the live ref, keeping its id and transactions (the live source's are matched
 * to them as they arrive, dedup.service.ts), and a statement-file login left without accounts goes. Uncertain ones
 * are asked (AccountMatchUncertain, answered by `sameAs` with the accounts step's refs) when `ask`, else linked new.
 * Answers the moved rows by the live ref.
 */
async function takeOverFileAccounts(
  runtime: Pick<Engine, 'database' | 'keys'>,
  tx: Executor,
  customer: CustomerRow,
  login: InstitutionLoginRow,
  session: LinkSessionRow,
  fresh: readonly ConnectorAccount[],
  input: { sameAs?: SameAsAnswers | undefined; ask?: boolean },
): Promise<Map<string, AccountRow>> {
  const fileLogins = await statementFileLogins(tx, customer);
  const files = (await listAccountRows(tx, customer)).filter((r) => fileLogins.has(Number(r.institution_login_id)));
  const moved = new Map<string, AccountRow>();
  if (files.length === 0) return moved;
  const byHandle = new Map(fresh.map((a) => [choiceOf(runtime, session, a.ref), a]));
  const incoming = [...byHandle].map(([ref, a]) => ({ ref, name: a.name, type: a.type, number: a.number, transactions: [] }));
  const placements = await placeIncomingAccounts(runtime.database, session.institution_id, incoming, files, {
    answers: input.sameAs,
    executor: tx,
    ask: input.ask ?? false,
  });
  const left = new Set<number>();
  for (const [handle, p] of placements) {
    if (p.kind !== 'existing') continue;
    const a = byHandle.get(handle)!;
    moved.set(a.ref, await moveAccount(tx, p.row.id, login, a.ref));
    left.add(Number(p.row.institution_login_id));
  }
  for (const id of left) if (id !== login.id && !(await loginHasAccounts(tx, id))) await deleteLogin(tx, id);
  return moved;
}

/**
 * A customer's institution login with its accounts, ids as numbers: the Connect app (ConnectLogin) and the
 * dashboard (DashboardInstitutionLogin) each show it their way, with the institution's name.
 */
export interface InstitutionLoginSummary {
  institutionLoginId: number;
  institutionId: number;
  aggregationStatusCode: number;
  /** Made by statement file uploads: no credentials, no connector. */
  statementFile: boolean;
  accounts: AccountRecord[];
}

/** The customer's institution logins with their accounts (Connect's account management). */
export async function listInstitutionLogins(runtime: Pick<Runtime, 'database'>, partnerId: string, customerId: string): Promise<InstitutionLoginSummary[]> {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const logins = await listCustomerLogins(db, customer.id);
  const records = await accountRecords(db, await listAccountRows(db, customer));
  return logins.map((l) => ({
    institutionLoginId: l.id,
    institutionId: l.institution_id,
    aggregationStatusCode: l.aggregation_status_code,
    statementFile: l.source === 'statement-file',
    accounts: records.filter((r) => r.institutionLoginId === l.id),
  }));
}

/** The step a sign-in is at now (Connect asks while the user signs in at an OAuth institution in another window). */
export async function getLinkStep(
  runtime: Pick<Runtime, 'database' | 'clock' | 'keys'>,
  input: { partnerId: string; sessionId: string; customerId: string },
): Promise<SignInStepRecord> {
  const db = runtime.database.kysely;
  const session =
    typeof input.sessionId === 'string' && input.sessionId.length > 0 ? await sessions.findLinkSession(db, input.sessionId, input.partnerId) : undefined;
  if (!session || String(session.customer_id) !== String(input.customerId) || Number(session.expires_at) <= serviceNow(runtime)) {
    throw new ServiceError('ResourceNotFound', 'Sign-in session not found or expired. Start the sign-in again.');
  }
  switch (session.step) {
    case 'failed':
      return { step: 'failed', sessionId: session.id, code: session.failure_code ?? 0, message: session.failure_message ?? '' };
    case 'mfa':
      return { step: 'mfa', sessionId: session.id, challenges: openJson<Extract<LinkState, { kind: 'mfa' }>>(runtime, session.state_encrypted!).challenges };
    case 'accounts': {
      const customer = await getCustomerForPartner(db, input.partnerId, session.customer_id);
      return { step: 'accounts', sessionId: session.id, accounts: await discovered(runtime, customer, session, JSON.parse(session.discovered ?? '[]')) };
    }
    case 'finished':
      return { step: 'finished', sessionId: session.id };
    default:
      return { step: 'oauth', sessionId: session.id };
  }
}

/** A sign-in waiting at the OAuth step for the institution to send the browser back. */
export interface OAuthSession {
  partnerId: string;
  customerId: string;
  institutionId: number;
  /** The customer's clock now. */
  customerNow: number;
  /** The Connect link it runs in, when Connect started it. */
  connectLinkId?: string;
}

/** A sign-in at the OAuth step, by its id (what the redirect brings back: `state`, or a reference); undefined when unknown or over. */
export async function findOAuthSession(runtime: Pick<Runtime, 'database' | 'clock' | 'keys'>, sessionId: string): Promise<OAuthSession | undefined> {
  const db = runtime.database.kysely;
  const session = await sessions.findOAuthLinkSession(db, sessionId);
  if (!session || Number(session.expires_at) <= serviceNow(runtime)) return undefined;
  const customer = await getCustomerForPartner(db, session.partner_id, session.customer_id);
  const state = session.state_encrypted ? openJson<LinkState>(runtime, session.state_encrypted) : undefined;
  const connectLinkId = state?.kind === 'oauth' ? state.connectLinkId : undefined;
  return {
    partnerId: session.partner_id,
    customerId: String(session.customer_id),
    institutionId: session.institution_id,
    customerNow: customerNow(runtime, customer),
    ...(connectLinkId !== undefined ? { connectLinkId } : {}),
  };
}

/** Removes sign-in sessions that expired (each new sign-in does; expired ones are refused regardless). */
export async function purgeExpiredLinkSessions(runtime: Pick<Runtime, 'database' | 'clock'>): Promise<number> {
  return sessions.deleteExpiredLinkSessions(runtime.database.kysely, serviceNow(runtime));
}
