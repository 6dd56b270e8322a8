/**
 * What the hosted Connect app does for a verified link: every function takes the link row (checked by openLink on
 * each call, so a link that expired or was used stops working mid-way too) and acts only for that link's partner
 * and customer, in that link's variant. Each step is reported to the link's webhook.
 */
import type { PsuContext } from '../../connectors/connector.js';
import type { Static } from 'typebox';
import type { ConnectInstitution } from '../../contract/schemas/connect-app.js';
import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { OAUTH_CALLBACK_PATH, redirectOutcome, sessionParamOf } from '../../connectors/source.js';
import { testCredentialsHint } from '../../connectors/testbank/credentials-hint.js';
import { deleteAccount, deleteInstitutionLogin } from '../aggregation/accounts.service.js';
import { findCustomerLogin } from '../aggregation/logins.repository.js';
import { previewStatementFile } from '../aggregation/statement-preview.service.js';
import { type StatementUploadInput, uploadStatementFile } from '../aggregation/statements.service.js';
import { connectorContext, connectorFor, type Engine } from '../aggregation/engine.js';
import { accountSummary } from '../aggregation/records.js';
import {
  answerLinkMfa,
  completeLinkOAuth,
  findOAuthSession,
  finishLink,
  type OAuthSession,
  getLinkStep,
  listInstitutionLogins,
  startLink,
  type Credential,
  type LinkResult,
  type LinkStep,
  type MfaAnswer,
} from '../aggregation/linking.service.js';
import { assertCanLinkAt, customerMayUseInstitution, getCustomerForPartner } from '../customers/service.js';
import { brandingAssetUrl } from '../institutions/branding.js';
import { findInstitution, getInstitution, searchInstitutions } from '../institutions/service.js';
import type { InstitutionRow } from '../institutions/table.js';
import { findPartnerById } from '../partners/repository.js';
import { resolveExperience, type Experience } from './experiences.service.js';
import { asBorrower, connectUrl, linkRow, linkServesCustomer, markLinkUsed } from './links.service.js';
import { configurationFilter } from './components.service.js';
import { findConsumerOfCustomer } from '../consumers/service.js';
import { microEntryStatus, verifyMicroEntries } from '../microentries/service.js';
import { findLinkRow, findSessionInstitutionId } from './repository.js';
import type { ConnectLinkRow } from './table.js';
import { emitConnectEvent } from './webhooks.service.js';

/**
 * Where OAuth institutions send the browser back to: one fixed address for every source and link (banks and
 * aggregators accept only redirect URLs registered beforehand); the sign-in session in the query tells the rest.
 */
export { OAUTH_CALLBACK_PATH };

/** An institution as Connect lists it, for this customer (whether it may link there, upload statements there). */
export type InstitutionSummary = Static<typeof ConnectInstitution>;

export interface SessionConfig {
  mode: 'full' | 'lite' | 'fix' | 'microentry';
  customerId: string;
  experience: Experience;
  language: string;
  redirectUri: string | null;
  institution: InstitutionSummary | null;
  institutionLoginId: string | null;
  microEntry: MicroEntryPrompt | null;
  borrowers: BorrowerSummary[] | null;
}

/** A borrower of a joint borrower link, as the app names them. */
export interface BorrowerSummary {
  type: 'primary' | 'jointBorrower';
  customerId: string;
  name: string;
}

/** The two borrowers of a joint borrower link (their consumers' names), or null for any other link. */
async function borrowersOf(engine: Engine, link: ConnectLinkRow): Promise<BorrowerSummary[] | null> {
  if (link.joint_customer_id === null) return null;
  const named = async (type: BorrowerSummary['type'], customerId: number, fallback: string): Promise<BorrowerSummary> => {
    const consumer = await findConsumerOfCustomer(engine.runtime, link.partner_id, String(customerId));
    return { type, customerId: String(customerId), name: consumer ? `${consumer.firstName} ${consumer.lastName}`.trim() : fallback };
  };
  return [await named('primary', link.customer_id, 'Primary borrower'), await named('jointBorrower', link.joint_customer_id, 'Joint borrower')];
}

/** What the micro entry verification page shows: the account (its last four digits) and where its entries stand. */
export interface MicroEntryPrompt {
  accountId: string;
  accountNumberLast4: string;
  status: string;
  attemptsLeft: number;
}

async function microEntryPrompt(engine: Engine, link: ConnectLinkRow): Promise<MicroEntryPrompt | null> {
  if (link.micro_entry_account_id === null) return null;
  const customer = await getCustomerForPartner(db(engine), link.partner_id, link.customer_id);
  const entry = await microEntryStatus(engine, customer, link.micro_entry_account_id);
  return { accountId: String(entry.accountId), accountNumberLast4: entry.last4, status: entry.status, attemptsLeft: entry.attemptsLeft };
}

/**
 * The micro entry verification page's answer: the amounts go to
 * Verify Micro Entries, whose refusals (wrong amounts with the attempts left, attempts exceeded, not landed yet) the
 * page shows as they are.
 */
export async function verifyConnectMicroEntry(engine: Engine, link: ConnectLinkRow, amounts: readonly number[]): Promise<MicroEntryPrompt> {
  if (link.micro_entry_account_id === null) throw new ServiceError('ConnectActionNotAllowed', `A ${mode(link)} link does not verify micro entries.`);
  await verifyMicroEntries(engine, link.partner_id, String(link.customer_id), String(link.micro_entry_account_id), amounts);
  return (await microEntryPrompt(engine, link))!;
}

function db(engine: Engine) {
  return engine.runtime.database.kysely;
}

function summary(engine: Engine, row: InstitutionRow, available: boolean, customer: Parameters<typeof customerMayUseInstitution>[0]): InstitutionSummary {
  return {
    id: row.id,
    name: row.name,
    url: row.url_home_app,
    logo: brandingAssetUrl(engine.runtime.config.publicUrl, row.id, 'icon'),
    color: row.primary_color,
    oauth: row.oauth_enabled === 1,
    available,
    statementUpload: customerMayUseInstitution(customer, row.id),
  };
}

/** Which of these institutions the customer can link at now: one connector lookup for the whole list. */
async function availableAmong(engine: Engine, customer: Parameters<typeof customerMayUseInstitution>[0], ids: number[]): Promise<Set<number>> {
  const allowed = ids.filter((id) => customerMayUseInstitution(customer, id));
  const found = await Promise.all(allowed.map(async (id) => ((await engine.registry.resolve(id)).available ? id : undefined)));
  return new Set(found.filter((id): id is number => id !== undefined));
}

const mode = (link: ConnectLinkRow): SessionConfig['mode'] => (link.type === 'email' ? 'full' : link.type);

/** Opens the app for a link (`started` webhook) and answers what the app shows. */
export async function startConnectSession(engine: Engine, link: ConnectLinkRow): Promise<SessionConfig> {
  const customer = await getCustomerForPartner(db(engine), link.partner_id, link.customer_id);
  const institution = link.institution_id !== null ? await findInstitution(engine.runtime.database, link.institution_id) : undefined;
  await emitConnectEvent(db(engine), engine.runtime, link, 'started', { type: mode(link), experience: link.experience });
  return {
    mode: mode(link),
    customerId: String(link.customer_id),
    experience: await resolveExperience(db(engine), link.partner_id, link.experience),
    language: link.language ?? 'en',
    redirectUri: link.redirect_uri,
    institution: institution ? summary(engine, institution, (await availableAmong(engine, customer, [institution.id])).has(institution.id), customer) : null,
    institutionLoginId: link.institution_login_id !== null ? String(link.institution_login_id) : null,
    microEntry: await microEntryPrompt(engine, link),
    borrowers: await borrowersOf(engine, link),
  };
}

function requireFull(link: ConnectLinkRow, what: string): void {
  if (mode(link) !== 'full') throw new ServiceError('ConnectActionNotAllowed', `A ${mode(link)} link does not offer ${what}.`);
}

/**
 * Institution search over the catalogue (Full only: Lite and Fix links name their institution). Outside the sandbox
 * (a production partner's link) the generated, fictional institutions are not offered: nobody banks there.
 */
export async function searchConnectInstitutions(engine: Engine, link: ConnectLinkRow, query: { search?: string; start: number; limit: number }) {
  requireFull(link, 'institution search');
  const customer = await getCustomerForPartner(db(engine), link.partner_id, link.customer_id);
  const partner = await findPartnerById(db(engine), link.partner_id);
  const page = await searchInstitutions(engine.runtime.database, {
    search: query.search?.trim() ? query.search : undefined,
    start: query.start,
    limit: query.limit,
    withoutFictional: partner?.plan === 'production',
  });
  const available = await availableAmong(
    engine,
    customer,
    page.institutions.map((row) => row.id),
  );
  return {
    found: page.found,
    displaying: page.displaying,
    moreAvailable: page.moreAvailable,
    institutions: page.institutions.map((row) => summary(engine, row, available.has(row.id), customer)),
  };
}

/** The institution a link may sign in at: any for Full, the named one for Lite and Fix. */
function checkInstitution(link: ConnectLinkRow, institutionId: number): void {
  if (link.type === 'microentry') throw new ServiceError('ConnectActionNotAllowed', 'A micro entry verification link does not sign in at institutions.');
  if (link.institution_id !== null && link.institution_id !== institutionId) {
    throw new ServiceError('ConnectActionNotAllowed', `This link signs in at institution ${link.institution_id} only.`);
  }
}

/**
 * The user picked an institution (`institutionSelected` webhook): its sign-in form when it has a live connection;
 * otherwise (no connector, or a Fix link of a statement-file login) `live: false`, and the app offers statement uploads.
 */
export async function selectInstitution(engine: Engine, link: ConnectLinkRow, institutionId: number) {
  checkInstitution(link, institutionId);
  const customer = await getCustomerForPartner(db(engine), link.partner_id, link.customer_id);
  const institution = await assertCanLinkAt(engine.runtime.database, customer, institutionId);
  const lookup = await engine.registry.resolve(institutionId);
  const fixed = link.institution_login_id !== null ? await findCustomerLogin(db(engine), customer, Number(link.institution_login_id)) : undefined;
  const connector = lookup.available && fixed?.source !== 'statement-file' ? lookup.connector : undefined;
  await emitConnectEvent(db(engine), engine.runtime, link, 'institutionSelected', { institutionId: String(institutionId) });
  // Sandbox only: the test users that sign in at a test institution, shown under its form.
  const testCredentials = connector && engine.runtime.config.mode === 'sandbox' ? testCredentialsHint(institutionId) : undefined;
  return {
    institution: summary(engine, institution, connector !== undefined, customer),
    loginForm: connector ? connector.loginForm(connectorContext(engine, customer, institutionId)) : [],
    oauth: connector?.capabilities.authMode === 'oauth',
    live: connector !== undefined,
    ...(testCredentials ? { testCredentials } : {}),
  };
}

/**
 * Uploads a statement file for the institution (any the link may use), into the customer's statement-file login;
 * reported like a link (`added` webhook, in the same transaction).
 */
export async function uploadStatement(
  engine: Engine,
  link: ConnectLinkRow,
  institutionId: number,
  upload: Omit<StatementUploadInput, 'partnerId' | 'customerId' | 'institutionId'>,
) {
  checkInstitution(link, institutionId);
  const result = await uploadStatementFile(
    engine,
    { ...upload, partnerId: link.partner_id, customerId: String(link.customer_id), institutionId },
    reportAdded(engine, link),
  );
  return {
    ...(await addedAccounts(engine, result)),
    transactionsAdded: result.transactionsAdded,
    transactionsAlreadyPresent: result.transactionsAlreadyPresent,
    transactionsMatched: result.transactionsMatched,
    problems: result.problems,
    ...(result.mapping ? { mapping: result.mapping } : {}),
  };
}

/** What the user's statement file would store (the mapping screen's preview): read as an upload reads it, nothing stored, no webhook. */
export async function previewStatement(
  engine: Engine,
  link: ConnectLinkRow,
  institutionId: number,
  upload: Omit<StatementUploadInput, 'partnerId' | 'customerId' | 'institutionId'>,
) {
  checkInstitution(link, institutionId);
  return previewStatementFile(engine, { ...upload, partnerId: link.partner_id, customerId: String(link.customer_id), institutionId });
}

/** Reports a sign-in step to the webhook: MFA asked, accounts discovered, or the failure. */
async function reportStep(engine: Engine, link: ConnectLinkRow, institutionId: number, found: LinkStep): Promise<LinkStep> {
  const step = await offered(engine, link, found);
  const common = { institutionId: String(institutionId), sessionId: step.sessionId };
  if (step.step === 'mfa') await emitConnectEvent(db(engine), engine.runtime, link, 'mfa', { ...common, questions: step.challenges.map((c) => c.id) });
  if (step.step === 'accounts') await emitConnectEvent(db(engine), engine.runtime, link, 'discovered', { ...common, accounts: step.accounts.length });
  if (step.step === 'failed') {
    await emitConnectEvent(db(engine), engine.runtime, link, step.code === 103 ? 'invalidCredentials' : 'error', {
      ...common,
      code: step.code,
      reason: step.message,
    });
  }
  if (step.step === 'oauth') await emitConnectEvent(db(engine), engine.runtime, link, 'oauthStarted', common);
  return step;
}

/** The accounts step as the link offers it: the accounts its Connect Components configuration keeps. */
async function offered<T extends { step: string }>(engine: Engine, link: ConnectLinkRow, step: T): Promise<T> {
  if (!('accounts' in step) || !Array.isArray(step.accounts)) return step;
  const keep = await configurationFilter(db(engine), link);
  return keep ? { ...step, accounts: (step.accounts as Array<{ type: string; marketSegment: string }>).filter(keep) } : step;
}

/** Signs in: credentials, or (OAuth institutions) the authorize URL to open in a popup. Fix re-authenticates its login. */
export async function signIn(engine: Engine, link: ConnectLinkRow, institutionId: number, credentials: Credential[]): Promise<LinkStep> {
  checkInstitution(link, institutionId);
  const oauth = (await connectorFor(engine, institutionId)).capabilities.authMode === 'oauth';
  const step = await startLink(engine, {
    partnerId: link.partner_id,
    customerId: String(link.customer_id),
    institutionId,
    ...(oauth ? { redirectUri: `${engine.runtime.config.publicUrl}${OAUTH_CALLBACK_PATH}`, connectLinkId: link.id } : { credentials }),
    ...(link.institution_login_id !== null ? { institutionLoginId: link.institution_login_id } : {}),
  });
  if (!oauth)
    await emitConnectEvent(db(engine), engine.runtime, link, 'credentialsSubmitted', { institutionId: String(institutionId), sessionId: step.sessionId });
  return reportStep(engine, link, institutionId, step);
}

const NOT_IN_PROGRESS = { ok: false, message: 'This sign-in is not in progress any more. Close this window and start again in Connect.' };

/**
 * The sign-in session a redirect returns to, by the parameters the sources' redirects name it in (`state`, a
 * reference), with the parameter that named it.
 */
async function returningSession(
  engine: Engine,
  query: Readonly<Record<string, string | undefined>>,
): Promise<{ session: OAuthSession; param: string } | undefined> {
  for (const param of new Set(engine.registry.redirects.map(sessionParamOf))) {
    const id = query[param];
    const session = id ? await findOAuthSession(engine, id) : undefined;
    if (session) return { session, param };
  }
  return undefined;
}

/**
 * The institution sent the browser back from its sign-in page (in a popup), to the one callback of every source:
 * completes the sign-in of the session the query names, in the way its source's redirect declares, when the session
 * belongs to its Connect link's customer. The Connect app learns the outcome by asking for the session's step.
 * Answers what the popup page says.
 */
export async function completeOAuthCallback(
  engine: Engine,
  query: Readonly<Record<string, string | undefined>>,
  psu?: PsuContext,
): Promise<{ ok: boolean; message: string }> {
  const found = await returningSession(engine, query);
  // `linkId`: the callback address of sign-ins started before the address was one for all (and their codes are bound to it).
  const linkId = found?.session.connectLinkId ?? query.linkId;
  const link = found && linkId ? await findLinkRow(db(engine), linkId, found.session.partnerId) : undefined;
  if (!found || !link || !linkServesCustomer(link, found.session.customerId)) return NOT_IN_PROGRESS;
  const { session, param } = found;
  const sessionId = query[param]!;
  const lookup = await engine.registry.resolve(session.institutionId);
  const redirect = lookup.available ? lookup.source.redirect : undefined;
  if (!redirect || sessionParamOf(redirect) !== param) return NOT_IN_PROGRESS;
  // A joint borrower link's sign-in may be the joint borrower's: its events are reported for that customer.
  const opened = linkRow(link);
  const row = String(opened.customer_id) === found.session.customerId ? opened : asBorrower(opened, 'jointBorrower');
  const outcome = redirectOutcome(redirect, query);
  if ('declined' in outcome) {
    await emitConnectEvent(db(engine), engine.runtime, row, 'error', {
      institutionId: String(session.institutionId),
      sessionId,
      code: 0,
      reason: 'The user declined the authorization at the institution.',
    });
    return { ok: false, message: 'You declined the authorization. Close this window to go back to Connect.' };
  }
  const step = await reportStep(
    engine,
    row,
    session.institutionId,
    await completeLinkOAuth(engine, { partnerId: session.partnerId, customerId: session.customerId, sessionId, code: outcome.code, ...(psu ? { psu } : {}) }),
  );
  return step.step === 'failed'
    ? { ok: false, message: step.message }
    : { ok: true, message: 'You are signed in. This window closes by itself; if it does not, close it to continue in Connect.' };
}

/** Answers MFA questions. */
export async function answerMfa(engine: Engine, link: ConnectLinkRow, sessionId: string, answers: MfaAnswer[]): Promise<LinkStep> {
  const step = await answerLinkMfa(engine, { partnerId: link.partner_id, customerId: String(link.customer_id), sessionId, answers });
  const institutionId = await sessionInstitution(engine, sessionId);
  await emitConnectEvent(db(engine), engine.runtime, link, 'mfaAnswered', { institutionId: String(institutionId), sessionId });
  return reportStep(engine, link, institutionId, step);
}

async function sessionInstitution(engine: Engine, sessionId: string): Promise<number> {
  return (await findSessionInstitutionId(db(engine), sessionId)) ?? 0;
}

/** Reports accounts saved under a login (`added` webhook), in the transaction that saved them. */
function reportAdded(engine: Engine, link: ConnectLinkRow) {
  return async (tx: Executor, saved: Pick<LinkResult, 'institutionId' | 'institutionLoginId' | 'accounts'>): Promise<void> => {
    await emitConnectEvent(tx, engine.runtime, link, 'added', {
      institutionId: String(saved.institutionId),
      institutionLoginId: String(saved.institutionLoginId),
      accounts: saved.accounts.map((a) => a.id),
    });
  };
}

/** The login and accounts Connect shows after accounts were saved. */
async function addedAccounts(engine: Engine, result: Pick<LinkResult, 'institutionId' | 'institutionLoginId' | 'accounts'>) {
  const institution = await getInstitution(engine.runtime.database, result.institutionId);
  return {
    institutionLoginId: String(result.institutionLoginId),
    institution: { id: institution.id, name: institution.name },
    accounts: result.accounts.map(accountSummary),
  };
}

/** Where a sign-in is now (the app asks while an OAuth popup is open). */
export async function currentStep(engine: Engine, link: ConnectLinkRow, sessionId: string) {
  return offered(engine, link, await getLinkStep(engine, { partnerId: link.partner_id, customerId: String(link.customer_id), sessionId }));
}

/**
 * The accounts to save under a Connect Components configuration: those chosen (all when none are named) that the
 * configuration keeps, so an account it leaves out is never saved, whatever the app sends.
 */
async function keptRefs(engine: Engine, link: ConnectLinkRow, sessionId: string, accountRefs: string[] | undefined): Promise<string[] | undefined> {
  if (link.configuration_id === null || link.institution_login_id !== null) return accountRefs;
  const step = await currentStep(engine, link, sessionId);
  if (step.step !== 'accounts') return accountRefs;
  const kept = new Set(step.accounts.map((a) => a.ref));
  return (accountRefs ?? [...kept]).filter((ref) => kept.has(ref));
}

/** Saves the chosen accounts (`added` webhook, in the same transaction). */
export async function addAccounts(
  engine: Engine,
  link: ConnectLinkRow,
  sessionId: string,
  accountRefs: string[] | undefined,
  sameAs?: Record<string, string> | undefined,
) {
  const chosen = await keptRefs(engine, link, sessionId, accountRefs);
  // Connect asks the user whether an account is one made from a statement file where that is uncertain.
  const result = await finishLink(
    engine,
    { partnerId: link.partner_id, customerId: String(link.customer_id), sessionId, ...(chosen ? { accountRefs: chosen } : {}), sameAs, ask: true },
    reportAdded(engine, link),
  );
  return addedAccounts(engine, result);
}

/** Account management (Full only): the customer's logins with their accounts and institution names. */
export async function listLogins(engine: Engine, link: ConnectLinkRow) {
  requireFull(link, 'account management');
  const logins = await listInstitutionLogins(engine, link.partner_id, String(link.customer_id));
  return Promise.all(
    logins.map(async (l) => {
      const institution = await findInstitution(engine.runtime.database, l.institutionId);
      return {
        institutionLoginId: String(l.institutionLoginId),
        institution: { id: l.institutionId, name: institution?.name ?? String(l.institutionId) },
        aggregationStatusCode: l.aggregationStatusCode,
        accounts: l.accounts.map(accountSummary),
      };
    }),
  );
}

/** Deletes one account (`accountsDeleted`; and `institutionLoginDeleted` when it was the login's last). */
export async function removeAccount(engine: Engine, link: ConnectLinkRow, accountId: string): Promise<void> {
  requireFull(link, 'account management');
  await deleteAccount(engine, link.partner_id, String(link.customer_id), accountId, async (tx, deleted) => {
    await emitConnectEvent(tx, engine.runtime, link, 'accountsDeleted', { accounts: [deleted.accountId] });
    if (deleted.loginDeleted)
      await emitConnectEvent(tx, engine.runtime, link, 'institutionLoginDeleted', { institutionLoginId: String(deleted.institutionLoginId) });
  });
}

/** Deletes a login with all its accounts (`institutionLoginDeleted`). */
export async function removeLogin(engine: Engine, link: ConnectLinkRow, institutionLoginId: string): Promise<void> {
  requireFull(link, 'account management');
  await deleteInstitutionLogin(engine, link.partner_id, String(link.customer_id), institutionLoginId, async (tx, deleted) => {
    await emitConnectEvent(tx, engine.runtime, link, 'institutionLoginDeleted', {
      institutionLoginId: String(deleted.institutionLoginId),
      accounts: deleted.accountIds,
    });
  });
}

/** The user finished: a single-use link is spent, `done` is sent; answers where to send the browser (outside iframes). */
export async function finishSession(engine: Engine, link: ConnectLinkRow, reason: string): Promise<{ redirectUri: string | null }> {
  await db(engine)
    .transaction()
    .execute(async (tx: Executor) => {
      if (!(await markLinkUsed(tx, engine.runtime, link))) throw new ServiceError('ConnectLinkUsed');
      await emitConnectEvent(tx, engine.runtime, link, 'done', { reason });
    });
  return { redirectUri: link.redirect_uri };
}

/** The user left without finishing (`cancelled`). */
export async function cancelSession(engine: Engine, link: ConnectLinkRow, reason: string): Promise<{ redirectUri: string | null }> {
  await emitConnectEvent(db(engine), engine.runtime, link, 'cancelled', { reason });
  return { redirectUri: link.redirect_uri };
}

/** The connect URL the app is served at (for pages that link back to it). */
export { connectUrl };
