/**
 * The test bank connector: serves every test institution from the test profiles, with the institution's
 * behaviour (standard, OAuth, always MFA, down). Data is a pure function of (institution, profile, ctx.now).
 */
import { randomBytes } from 'node:crypto';
import { safeEqual } from '../../platform/secrets.js';
import type { TestInstitution } from './institutions.js';
import {
  type AccountsResult,
  AggregationStatus,
  type AuthResult,
  type ConnectorCapabilities,
  type ConnectorContext,
  type ConnectorFailure,
  type ConnectorSession,
  ConnectorUsageError,
  type Credential,
  type InstitutionConnector,
  type LoginField,
  type MfaAnswer,
  type OAuthStart,
  type TransactionsResult,
} from '../connector.js';
import { challengeOf, loginFields, readCredentials, roundAnswered, Signer } from './auth.js';
import { Ledger } from './ledger.js';
import type { MfaQuestionSpec, ProfileSpec } from './profile-spec.js';
import { ALWAYS_MFA_ROUND, findProfile, TEST_PROFILES } from './profiles.js';
import { accountRecord, HISTORY_DAYS, transactionsBetween } from './records.js';

/** How long an MFA challenge can be answered, in seconds of the customer's clock. */
export const MFA_STATE_TTL_SECONDS = 600;
/** How long an OAuth authorization code is valid, in seconds of the customer's clock. */
export const OAUTH_CODE_TTL_SECONDS = 300;
/** Where the hosted Connect app serves the test bank's OAuth sign-in page. */
export const TEST_BANK_AUTHORIZE_PATH = '/connect/testbank/oauth/authorize';

export interface TestBankOptions {
  /** At least 32 bytes; signs sessions, MFA states, authorize requests and OAuth codes. */
  key: Buffer;
  /** Absolute or relative URL of the OAuth sign-in page; defaults to TEST_BANK_AUTHORIZE_PATH. */
  authorizeUrl?: string;
}

const ledgers = new Map<string, Ledger>();

/** The books of a profile at an institution (built once per process; they are immutable). */
export function ledgerFor(profile: ProfileSpec, institutionId: number): Ledger {
  const key = `${institutionId}:${profile.id}`;
  let ledger = ledgers.get(key);
  if (!ledger) {
    ledger = new Ledger(profile, institutionId);
    ledgers.set(key, ledger);
  }
  return ledger;
}

/** Binds an authorize link's institution, redirect URI and state, so the page cannot be used as an open redirect. */
function authorizeSignature(signer: Signer, institutionId: number, redirectUri: string, state: string): string {
  return signer.sign('authorize', { i: institutionId, u: redirectUri, s: state }).split('.')[1] as string;
}

function fail(code: ConnectorFailure['code'], message: string): ConnectorFailure {
  return { ok: false, code, message };
}

const DOWN = () => fail(AggregationStatus.InstitutionDown, 'The institution is not responding. Try again later.');
const BAD_CREDENTIALS = () => fail(AggregationStatus.InvalidCredentials, 'The user ID or password is incorrect.');

export class TestBankConnector implements InstitutionConnector {
  readonly capabilities: ConnectorCapabilities;
  private readonly signer: Signer;
  private readonly authorizeUrl: string;

  constructor(
    readonly institution: TestInstitution,
    options: TestBankOptions,
  ) {
    this.signer = new Signer(options.key);
    this.authorizeUrl = options.authorizeUrl ?? TEST_BANK_AUTHORIZE_PATH;
    this.capabilities = { authMode: institution.behaviour === 'oauth' ? 'oauth' : 'credentials', historyDays: HISTORY_DAYS };
  }

  private check(ctx: ConnectorContext): void {
    if (ctx.institutionId !== this.institution.id) {
      throw new ConnectorUsageError(`This connector serves institution ${this.institution.id}, not ${ctx.institutionId}`);
    }
  }

  private requireMode(mode: ConnectorCapabilities['authMode']): void {
    if (this.capabilities.authMode !== mode) {
      throw new ConnectorUsageError(`Institution ${this.institution.id} signs in with ${this.capabilities.authMode}, not ${mode}`);
    }
  }

  loginForm(ctx: ConnectorContext): LoginField[] {
    this.check(ctx);
    return this.capabilities.authMode === 'credentials' ? loginFields(this.institution.id) : [];
  }

  /** The MFA rounds a profile goes through here. */
  private mfaRounds(profile: ProfileSpec): readonly (readonly MfaQuestionSpec[])[] {
    if (this.institution.behaviour === 'oauth') return [];
    if (profile.mfa) return profile.mfa;
    return this.institution.behaviour === 'always-mfa' ? [ALWAYS_MFA_ROUND] : [];
  }

  private session(ctx: ConnectorContext, profile: ProfileSpec): AuthResult {
    if (profile.signInFailure) return fail(profile.signInFailure.code, profile.signInFailure.message);
    const token = this.signer.sign('session', { i: this.institution.id, p: profile.id, t: ctx.now });
    return { ok: true, kind: 'authenticated', session: { testbank: token } };
  }

  private mfaStep(ctx: ConnectorContext, profile: ProfileSpec, round: number): AuthResult {
    const rounds = this.mfaRounds(profile);
    if (round >= rounds.length) return this.session(ctx, profile);
    const token = this.signer.sign('mfa', { i: this.institution.id, p: profile.id, r: round, t: ctx.now });
    return { ok: true, kind: 'mfa', challenges: (rounds[round] ?? []).map(challengeOf), state: { testbank: token } };
  }

  async authenticate(ctx: ConnectorContext, credentials: Credential[]): Promise<AuthResult> {
    this.check(ctx);
    this.requireMode('credentials');
    if (this.institution.behaviour === 'down') return DOWN();
    const { username, password } = readCredentials(this.institution.id, credentials);
    const profile = username ? findProfile(username) : undefined;
    if (!profile || password !== (profile.password ?? profile.id)) return BAD_CREDENTIALS();
    // Error profiles fail after the password is accepted, before any MFA.
    if (profile.signInFailure) return fail(profile.signInFailure.code, profile.signInFailure.message);
    return this.mfaStep(ctx, profile, 0);
  }

  async answerMfa(ctx: ConnectorContext, state: ConnectorSession, answers: MfaAnswer[]): Promise<AuthResult> {
    this.check(ctx);
    this.requireMode('credentials');
    if (this.institution.behaviour === 'down') return DOWN();
    const payload = this.signer.verify('mfa', state.testbank);
    const profile = typeof payload?.p === 'string' ? findProfile(payload.p) : undefined;
    if (!payload || !profile || payload.i !== this.institution.id || typeof payload.r !== 'number' || typeof payload.t !== 'number') {
      return fail(AggregationStatus.MfaRequired, 'The security question is no longer valid. Sign in again.');
    }
    if (ctx.now - payload.t > MFA_STATE_TTL_SECONDS) {
      return fail(AggregationStatus.MfaRequired, 'The security question timed out. Sign in again.');
    }
    const round = this.mfaRounds(profile)[payload.r];
    if (!round) return fail(AggregationStatus.MfaRequired, 'The security question is no longer valid. Sign in again.');
    if (!roundAnswered(round, answers)) return fail(AggregationStatus.MfaIncorrect, 'The answer to the security question is incorrect.');
    return this.mfaStep(ctx, profile, payload.r + 1);
  }

  async startOAuth(ctx: ConnectorContext, request: { redirectUri: string; state: string }): Promise<OAuthStart> {
    this.check(ctx);
    this.requireMode('oauth');
    const query = new URLSearchParams({
      institutionId: String(this.institution.id),
      redirect_uri: request.redirectUri,
      state: request.state,
      response_type: 'code',
    });
    query.set('signature', authorizeSignature(this.signer, this.institution.id, request.redirectUri, request.state));
    // Codes are signed and bound to the redirect URI, so nothing needs to be kept until completeOAuth.
    return { authorizeUrl: `${this.authorizeUrl}?${query.toString()}`, pending: {} };
  }

  async completeOAuth(ctx: ConnectorContext, request: { code: string; redirectUri: string; pending: ConnectorSession }): Promise<AuthResult> {
    this.check(ctx);
    this.requireMode('oauth');
    const payload = this.signer.verify('code', request.code);
    const profile = typeof payload?.p === 'string' ? findProfile(payload.p) : undefined;
    if (!payload || !profile || payload.i !== this.institution.id || payload.u !== request.redirectUri) {
      return fail(AggregationStatus.InvalidCredentials, 'The authorization code is not valid. Sign in at the institution again.');
    }
    if (typeof payload.e !== 'number' || ctx.now > payload.e) {
      return fail(AggregationStatus.InvalidCredentials, 'The authorization code has expired. Sign in at the institution again.');
    }
    return this.session(ctx, profile);
  }

  /** The profile behind a stored session, or the failure a refresh ends in. */
  private open(ctx: ConnectorContext, session: ConnectorSession): ProfileSpec | ConnectorFailure {
    this.check(ctx);
    if (this.institution.behaviour === 'down') return DOWN();
    const payload = this.signer.verify('session', session.testbank);
    const profile = typeof payload?.p === 'string' ? findProfile(payload.p) : undefined;
    if (!payload || !profile || payload.i !== this.institution.id || typeof payload.t !== 'number') {
      return fail(AggregationStatus.InvalidCredentials, 'The saved sign-in is not valid. Sign in again.');
    }
    const failure = profile.refreshFailure;
    if (failure && ctx.now - payload.t > failure.afterSeconds) return fail(failure.code, failure.message);
    return profile;
  }

  async listAccounts(ctx: ConnectorContext, session: ConnectorSession): Promise<AccountsResult> {
    const profile = this.open(ctx, session);
    if ('ok' in profile) return profile;
    const ledger = ledgerFor(profile, this.institution.id);
    return { ok: true, value: ledger.models.map((model) => accountRecord(ledger, model, ctx.now)) };
  }

  async fetchTransactions(ctx: ConnectorContext, session: ConnectorSession, accountRef: string, from: number, to: number): Promise<TransactionsResult> {
    const profile = this.open(ctx, session);
    if ('ok' in profile) return profile;
    const ledger = ledgerFor(profile, this.institution.id);
    const model = ledger.models.find((m) => m.identity.ref === accountRef);
    if (!model) throw new ConnectorUsageError(`No account ${accountRef} at this login`);
    return { ok: true, value: transactionsBetween(ledger, model, from, to, ctx.now) };
  }
}

/** A verified request for the OAuth sign-in page. */
export interface AuthorizeRequest {
  institutionId: number;
  redirectUri: string;
  state: string;
}

/**
 * What the hosted Connect app's test bank OAuth page needs: it checks the request it was opened with, lets
 * the user pick a profile (or sign in with one), and sends the browser back to the redirect URI with a code
 * that the connector verifies statelessly. Built with the same key as the connectors.
 */
export class TestBankOAuthPages {
  private readonly signer: Signer;

  constructor(options: Pick<TestBankOptions, 'key'>) {
    this.signer = new Signer(options.key);
  }

  /** Checks the query the page was opened with (as built by startOAuth). */
  parseAuthorizeRequest(query: Record<string, string | undefined>): { ok: true; request: AuthorizeRequest } | { ok: false; error: string } {
    const institutionId = Number(query.institutionId);
    const redirectUri = query.redirect_uri;
    const state = query.state;
    if (!Number.isInteger(institutionId) || !redirectUri || state === undefined || query.response_type !== 'code' || !query.signature) {
      return { ok: false, error: 'The sign-in link is incomplete.' };
    }
    if (!safeEqual(authorizeSignature(this.signer, institutionId, redirectUri, state), query.signature)) {
      return { ok: false, error: 'The sign-in link is not valid.' };
    }
    return { ok: true, request: { institutionId, redirectUri, state } };
  }

  /** The profiles a user can sign in with on the OAuth page. */
  listOAuthProfiles(): { id: string; summary: string }[] {
    return TEST_PROFILES.map((p) => ({ id: p.id, summary: p.summary }));
  }

  /** Checks a username/password typed on the OAuth page; returns the profile id. */
  signIn(username: string, password: string): string | undefined {
    const profile = findProfile(username);
    return profile && password === (profile.password ?? profile.id) ? profile.id : undefined;
  }

  /** A code for the chosen profile, valid OAUTH_CODE_TTL_SECONDS after `now` (the customer's clock). */
  issueAuthorizationCode(request: AuthorizeRequest, profileId: string, now: number): string {
    const profile = findProfile(profileId);
    if (!profile) throw new ConnectorUsageError(`No test profile ${profileId}`);
    return this.signer.sign('code', {
      i: request.institutionId,
      p: profile.id,
      u: request.redirectUri,
      e: now + OAUTH_CODE_TTL_SECONDS,
      n: randomBytes(9).toString('base64url'),
    });
  }

  /** Where to send the browser back: the redirect URI with `code` (or `error`) and `state`. */
  redirectUrl(request: AuthorizeRequest, outcome: { code: string } | { error: 'access_denied' }): string {
    const url = new URL(request.redirectUri);
    if ('code' in outcome) url.searchParams.set('code', outcome.code);
    else url.searchParams.set('error', outcome.error);
    url.searchParams.set('state', request.state);
    return url.toString();
  }
}
