/**
 * The connector of one bank reached through Enable Banking. The customer signs in on the bank's own pages (OAuth
 * style: startOAuth gives the address, the bank sends the browser back with a code, completeOAuth makes the session);
 * the session then reads the accounts the customer shared until the consent ends.
 *
 * Every read first asks Enable Banking for the session's status, which costs no read at the bank, so an ended consent
 * is reported (945, 946, 947: Connect Fix) before the bank is asked anything. Reads without the customer count
 * against PSD2's 4 a day (limits.ts); reads while the customer is in Connect carry the PSU headers and do not.
 */
import {
  type AccountsResult,
  type AuthResult,
  type ConnectorAccount,
  type ConnectorCapabilities,
  type ConnectorContext,
  type ConnectorFailure,
  type ConnectorSession,
  ConnectorUsageError,
  type InstitutionConnector,
  type LoginField,
  type OAuthStart,
  type TransactionsResult,
} from '../connector.js';
import type { EnableBankingClient } from './client.js';
import { EnableBankingFailures, failureOf, formatEpoch, sessionStatusFailure } from './errors.js';
import { type BankConnection, MAX_CONSENT_SECONDS, psuTypeOf } from './institutions.js';
import { DAY, type ReadLedger, scheduledReadAt, UNATTENDED_READS_PER_DAY, unattendedReadAt } from './limits.js';
import { type AccountFacts, mapAccount, mapTransactions } from './map.js';
import { psuHeaders } from './psu.js';
import { type EnableBankingSessionData, factsOf, readPending, readSession, writePending, writeSession } from './session.js';

/** Days of transactions read where the bank does not say: what PSD2 has banks serve without a new sign-in. */
export const DEFAULT_HISTORY_DAYS = 90;

/**
 * Taken off the bank's maximum consent validity: Enable Banking checks `valid_until` against its own clock, which may
 * run a little ahead of this one.
 */
const CLOCK_MARGIN_SECONDS = 60;

export interface EnableBankingConnectorOptions {
  client: EnableBankingClient;
  /** The bank, as the catalogue stored it (institutions.ts). */
  bank: BankConnection;
  /** This process's record of unattended reads, shared by every bank's connector. */
  ledger: ReadLedger;
  /** The service mode: plain http sign-in addresses only in sandbox mode (a local test API's pages). */
  mode: 'sandbox' | 'production';
}

/** Epoch seconds as ISO 8601 in UTC. */
function isoInstant(epoch: number): string {
  return new Date(epoch * 1000).toISOString();
}

/** The UTC day of epoch seconds, as the API's date parameters take it. */
function isoDay(epoch: number): string {
  return isoInstant(epoch).slice(0, 10);
}

export class EnableBankingConnector implements InstitutionConnector {
  readonly capabilities: ConnectorCapabilities;

  constructor(private readonly options: EnableBankingConnectorOptions) {
    this.capabilities = { authMode: 'oauth', historyDays: options.bank.transaction_total_days ?? DEFAULT_HISTORY_DAYS };
  }

  /** Sign-in happens on the bank's pages: there is no form. */
  loginForm(_ctx?: ConnectorContext): LoginField[] {
    return [];
  }

  async authenticate(): Promise<AuthResult> {
    throw new ConnectorUsageError('Banks reached through Enable Banking sign in on their own pages (OAuth), not with a credentials form');
  }

  async answerMfa(): Promise<AuthResult> {
    throw new ConnectorUsageError('Banks reached through Enable Banking ask their questions on their own pages');
  }

  /** Starts a consent at the bank for as long as it allows, at most 180 days; what Enable Banking refuses is a failure. */
  async startOAuth(ctx: ConnectorContext, request: { redirectUri: string; state: string }): Promise<OAuthStart | ConnectorFailure> {
    const { bank, client } = this.options;
    const psuType = psuTypeOf(bank);
    const validUntil = ctx.now + Math.min(Math.max(1, bank.maximum_consent_validity - CLOCK_MARGIN_SECONDS), MAX_CONSENT_SECONDS);
    const answer = await client.startAuthorization({
      access: { valid_until: isoInstant(validUntil) },
      aspsp: { name: bank.name, country: bank.country },
      state: request.state,
      redirect_url: request.redirectUri,
      psu_type: psuType,
    });
    if (!answer.ok) return failureOf(answer.problem, 'start');
    const url = new URL(answer.value.url);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.options.mode === 'sandbox')) {
      return EnableBankingFailures.malformed('url is not an https address');
    }
    return { authorizeUrl: url.href, pending: writePending({ psuType, validUntil }) };
  }

  /** Makes the session of the code the bank sent back: the consent and the accounts the customer shared. */
  async completeOAuth(ctx: ConnectorContext, request: { code: string; redirectUri: string; pending: ConnectorSession }): Promise<AuthResult> {
    const pending = readPending(request.pending);
    if (!pending) throw new ConnectorUsageError('The sign-in state is not an Enable Banking one');
    const answer = await this.options.client.createSession(request.code);
    if (!answer.ok) return failureOf(answer.problem, 'authorize');
    const accounts = new Map<string, AccountFacts>();
    for (const account of answer.value.accounts) {
      const facts = factsOf(account);
      if (!accounts.has(facts.ref)) accounts.set(facts.ref, facts);
    }
    if (accounts.size === 0) return EnableBankingFailures.noAccountsShared();
    const data: EnableBankingSessionData = {
      sessionId: answer.value.sessionId,
      psuType: answer.value.psuType ?? pending.psuType,
      authorizedAt: ctx.now,
      validUntil: answer.value.validUntil ?? pending.validUntil,
      accounts: [...accounts.values()],
      unattended: [],
    };
    return { ok: true, kind: 'authenticated', session: writeSession(data) };
  }

  /**
   * The shared accounts that can be read, with their balances. An unattended listing is a refresh: it is counted, and
   * refused without asking the bank once the day's are used.
   */
  async listAccounts(ctx: ConnectorContext, session: ConnectorSession): Promise<AccountsResult> {
    const data = this.open(session);
    const ended = await this.checkSession(ctx, data);
    if (ended) return ended;
    const headers = psuHeaders(this.options.bank.required_psu_headers, ctx.psu);
    if (!headers) {
      const { ledger } = this.options;
      const allowedAt = unattendedReadAt(ledger.recent(data.sessionId, data.unattended, ctx.now), ctx.now);
      if (allowedAt > ctx.now) return EnableBankingFailures.dailyReadsUsed(UNATTENDED_READS_PER_DAY, formatEpoch(allowedAt));
      data.unattended = ledger.record(data.sessionId, data.unattended, ctx.now);
    }
    const context = { country: this.options.bank.country, psuType: data.psuType, authorizedAt: data.authorizedAt, validUntil: data.validUntil };
    const accounts: ConnectorAccount[] = [];
    for (const facts of data.accounts) {
      if (facts.uid === undefined) continue;
      const balances = await this.options.client.balances(facts.uid, headers ?? {});
      if (!balances.ok) return failureOf(balances.problem, 'read');
      accounts.push(mapAccount(facts, balances.value, context, ctx.now, accounts.length + 1));
    }
    return { ok: true, value: accounts, session: writeSession(data) };
  }

  /** An account's transactions dated in [from, to], booked and pending, in one request (and its pages). */
  async fetchTransactions(ctx: ConnectorContext, session: ConnectorSession, accountRef: string, from: number, to: number): Promise<TransactionsResult> {
    const data = this.open(session);
    const facts = data.accounts.find((a) => a.ref === accountRef);
    if (!facts) throw new ConnectorUsageError(`No account ${accountRef} in this Enable Banking session`);
    if (ctx.now >= data.validUntil) return EnableBankingFailures.consentExpired();
    const lo = Math.max(from, ctx.now - this.capabilities.historyDays * DAY);
    const hi = Math.min(to, ctx.now);
    if (facts.uid === undefined || lo > hi) return { ok: true, value: [] };
    const headers = psuHeaders(this.options.bank.required_psu_headers, ctx.psu) ?? {};
    const answer = await this.options.client.transactions(facts.uid, { dateFrom: isoDay(lo), dateTo: isoDay(hi) }, headers);
    if (!answer.ok) return failureOf(answer.problem, 'read');
    const list = mapTransactions(accountRef, answer.value, this.options.bank.country, ctx.now);
    return { ok: true, value: list.filter((t) => t.transactionDate >= from && t.transactionDate <= to) };
  }

  /** The scheduled refresh: at most 4 unattended reads in a UTC day, 6 hours apart at least. */
  backgroundRefreshAt(ctx: ConnectorContext, session: ConnectorSession): number {
    const data = this.open(session);
    return scheduledReadAt(this.options.ledger.recent(data.sessionId, data.unattended, ctx.now), ctx.now);
  }

  /** The session's data; a session that is not an Enable Banking one is a wiring error. */
  private open(session: ConnectorSession): EnableBankingSessionData {
    const data = readSession(session);
    if (!data) throw new ConnectorUsageError('The session is not an Enable Banking session');
    return data;
  }

  /** Why the session cannot be read (its consent ended, or Enable Banking could not say), else undefined. */
  private async checkSession(ctx: ConnectorContext, data: EnableBankingSessionData): Promise<ConnectorFailure | undefined> {
    if (ctx.now >= data.validUntil) return EnableBankingFailures.consentExpired();
    const state = await this.options.client.session(data.sessionId);
    if (!state.ok) return failureOf(state.problem, 'read');
    const ended = sessionStatusFailure(state.value.status);
    if (ended) return ended;
    if (state.value.validUntil !== undefined) data.validUntil = state.value.validUntil;
    return ctx.now >= data.validUntil ? EnableBankingFailures.consentExpired() : undefined;
  }
}
