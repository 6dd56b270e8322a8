/**
 * The SimpleFIN connector: one institution login is one SimpleFIN access URL, claimed once from the setup token the
 * user pastes, and every data call is a `GET /accounts` of it.
 *
 * The bridge allows about 24 requests a day per access URL, and a `/accounts` answer holds every account with its
 * balances and transactions at once. So listAccounts asks for a short recent window and keeps that answer's
 * transactions (bounded) in the session it returns; fetchTransactions serves what that answer covers without asking
 * again (the engine fetches each account's transactions right after listing the accounts), and asks only for the
 * older dates it lacks, in windows of at most the bridge's maximum range, which then serve the other accounts too.
 */
import {
  type AccountsResult,
  type AuthResult,
  type ConnectorCapabilities,
  type ConnectorContext,
  type ConnectorFailure,
  type ConnectorSession,
  type ConnectorTransaction,
  ConnectorUsageError,
  type Credential,
  CredentialsOnlyConnector,
  type LoginField,
  type TransactionsResult,
} from '../connector.js';
import { SimplefinClient, type SimplefinTransport } from './client.js';
import { type BridgeNotice, failureOf, failureOfNotices, formatEpoch, noticeOf, redact, SimplefinFailures, type SimplefinProblem } from './errors.js';
import { mapAccount, mapTransaction, transactionDateOf } from './map.js';
import { DAY, type DateWindow, nextAllowedAt, quotaFailure, RequestLedger, splitWindows } from './quota.js';
import {
  boundCache,
  cacheOf,
  mergeIntoCache,
  readSession,
  type SimplefinSessionData,
  type StoredNotice,
  type TransactionCache,
  writeSession,
} from './session.js';
import { checkBridgeUrl, decodeSetupToken, decodeUrlPart, type UrlPolicy } from './token.js';
import type { SimplefinAccount, SimplefinAccountSet, SimplefinTransaction } from './wire.js';

export interface SimplefinConnectorOptions {
  transport: SimplefinTransport;
  /** Which claim and access URLs may be contacted (simplefinUrlPolicy gives the usual ones). */
  allowUrl: UrlPolicy;
  /** The longest date range one request may cover (SimpleFIN Bridge: 90 days). */
  maxWindowDays?: number;
  /** Requests a day per access URL (SimpleFIN Bridge: 24). */
  dailyQuota?: number;
  /** How far back transactions are served. */
  historyDays?: number;
  /** The window listAccounts asks for: enough for a routine refresh's transactions to come from its answer. */
  recentDays?: number;
  /** How long an answer stands for the present: calls within it are served from the session without a request. */
  freshSeconds?: number;
  /** Transactions kept in the session at most. */
  maxCachedTransactions?: number;
  /** The protocol version asked for; the answer is read in whichever shape it comes. */
  protocolVersion?: 1 | 2;
}

export const SIMPLEFIN_DEFAULTS = {
  maxWindowDays: 90,
  dailyQuota: 24,
  // A new bridge connection holds about 90 days of history, and 90 days is one request: a longer history would
  // cost a request of the daily quota per further 90 days, for data the bridge mostly does not have.
  historyDays: 90,
  // Covers a routine refresh's window (the last ten days, or since the last success with some overlap).
  recentDays: 14,
  freshSeconds: 15 * 60,
  maxCachedTransactions: 2000,
  protocolVersion: 2,
} as const;

/** How long after it happened a transaction may post: asking for posting times up to this much after `to`. */
const POSTING_LAG = 7 * DAY;
/** The bridge syncs with banks on its own schedule: transactions posted this close before an answer may come later. */
const LATE_ARRIVAL = 7 * DAY;

/** The share of the daily quota scheduled refreshes may use: the rest stays for the user's own refreshes and history loads. */
const BACKGROUND_SHARE = 0.5;

/** The token field's id suffix, as the contract numbers form fields. */
const TOKEN_FIELD = '001';

export class SimplefinConnector extends CredentialsOnlyConnector {
  readonly capabilities: ConnectorCapabilities;
  protected readonly refusals = {
    mfa: 'SimpleFIN connections ask no MFA questions',
    oauth: 'SimpleFIN connections sign in with a setup token, not OAuth',
  };
  private readonly client: SimplefinClient;
  private readonly ledger = new RequestLedger();
  private readonly settings: Required<Omit<SimplefinConnectorOptions, 'transport' | 'allowUrl'>>;

  constructor(private readonly options: SimplefinConnectorOptions) {
    super();
    this.settings = {
      maxWindowDays: options.maxWindowDays ?? SIMPLEFIN_DEFAULTS.maxWindowDays,
      dailyQuota: options.dailyQuota ?? SIMPLEFIN_DEFAULTS.dailyQuota,
      historyDays: options.historyDays ?? SIMPLEFIN_DEFAULTS.historyDays,
      recentDays: options.recentDays ?? SIMPLEFIN_DEFAULTS.recentDays,
      freshSeconds: options.freshSeconds ?? SIMPLEFIN_DEFAULTS.freshSeconds,
      maxCachedTransactions: options.maxCachedTransactions ?? SIMPLEFIN_DEFAULTS.maxCachedTransactions,
      protocolVersion: options.protocolVersion ?? SIMPLEFIN_DEFAULTS.protocolVersion,
    };
    for (const key of ['maxWindowDays', 'dailyQuota', 'historyDays', 'recentDays'] as const) {
      if (!(this.settings[key] > 0)) throw new RangeError(`SimpleFIN option ${key} must be positive`);
    }
    this.capabilities = { authMode: 'credentials', historyDays: this.settings.historyDays };
    this.client = new SimplefinClient({ transport: options.transport, allowUrl: options.allowUrl });
  }

  loginForm(ctx: ConnectorContext): LoginField[] {
    return [
      {
        id: `${ctx.institutionId}${TOKEN_FIELD}`,
        name: 'SimpleFIN Setup Token',
        label: 'Setup token',
        kind: 'token',
        displayOrder: 1,
        hint: 'Make one at your SimpleFIN Bridge (Connections, then New app connection) and paste it here. It works once, and it gives read-only access to the accounts you linked there.',
      },
    ];
  }

  async authenticate(ctx: ConnectorContext, credentials: Credential[]): Promise<AuthResult> {
    const token = tokenOf(ctx, credentials);
    if (!token) return SimplefinFailures.missingToken();
    const secrets: (string | undefined)[] = [token, token.trim(), token.replace(/\s+/g, '')];
    try {
      const decoded = decodeSetupToken(token);
      if (!decoded.ok) return SimplefinFailures.invalidToken(decoded.reason);
      // Known before the policy sees the claim URL, so that nothing it says or throws can quote it.
      secrets.push(decoded.value.href, decoded.value.pathname, decoded.value.pathname.split('/').pop());
      const allowed = checkBridgeUrl(decoded.value.href, 'claim', this.options.allowUrl);
      if (!allowed.ok) return SimplefinFailures.invalidToken(redact(allowed.reason, secrets));
      const claimed = await this.client.claim(decoded.value.href);
      if (!claimed.ok) return failureOf(claimed.problem, 'claim');
      const accessUrl = claimed.value;
      secrets.push(accessUrl);
      const data: SimplefinSessionData = { accessUrl, requests: [], notices: [] };
      const window = this.recentWindow(ctx.now);
      const answer = await this.request(ctx, data, window);
      if (!answer.ok) return answer.problem ? failureOf(answer.problem, 'first-accounts') : answer.failure;
      data.cache = boundCache(cacheOf(answer.set, window, ctx.now), this.settings.maxCachedTransactions);
      data.notices = this.noticesOf(ctx, data, [answer.set], secrets);
      return { ok: true, kind: 'authenticated', session: writeSession(data) };
    } catch (e) {
      // Nothing thrown from here may quote the token or the addresses it led to.
      const message = e instanceof Error ? e.message : String(e);
      throw new Error(`SimpleFIN sign-in failed: ${redact(message, secrets)}`);
    }
  }

  async listAccounts(ctx: ConnectorContext, session: ConnectorSession): Promise<AccountsResult> {
    const data = this.open(session);
    const refused = this.refusedAccess(data);
    if (refused) return refused;
    if (data.cache && this.isFresh(data.cache.accountsAt, ctx.now)) return { ok: true, value: data.cache.accounts.map((a, i) => mapAccount(a, i + 1)) };
    const window = this.recentWindow(ctx.now);
    const answer = await this.request(ctx, data, window);
    if (!answer.ok) return answer.failure;
    data.notices = this.noticesOf(ctx, data, [answer.set]);
    if (answer.set.accounts.length === 0) {
      const failure = failureOfNotices(data.notices);
      if (failure) return failure;
    }
    // A fresh listing starts a fresh cache: older history stays out of the session once it has been delivered.
    data.cache = boundCache(cacheOf(answer.set, window, ctx.now), this.settings.maxCachedTransactions);
    return { ok: true, value: data.cache.accounts.map((a, i) => mapAccount(a, i + 1)), session: writeSession(data) };
  }

  async fetchTransactions(ctx: ConnectorContext, session: ConnectorSession, accountRef: string, from: number, to: number): Promise<TransactionsResult> {
    const data = this.open(session);
    const refused = this.refusedAccess(data);
    if (refused) return refused;
    const now = ctx.now;
    if (data.cache && this.isFresh(data.cache.accountsAt, now) && !data.cache.accounts.some((a) => a.id === accountRef)) {
      throw new ConnectorUsageError(`No account ${accountRef} at this SimpleFIN connection`);
    }
    // The served history is the half-open range of historyDays days ending just after now, so that a full history
    // is exactly one request of the bridge's maximum range.
    const lo = Math.max(from, now + 1 - this.settings.historyDays * DAY);
    const hi = Math.min(to, now);
    if (lo > hi) return { ok: true, value: [] };
    const need: DateWindow = { start: lo, end: Math.min(hi + POSTING_LAG, now) + 1 };

    const windows = this.missingWindows(data.cache, need, now);
    const answers: { window: DateWindow; set: SimplefinAccountSet }[] = [];
    let shortfall: DateWindow | undefined;
    for (const window of windows) {
      const answer = await this.request(ctx, data, window);
      if (!answer.ok) {
        if (answer.quota && answers.length > 0) {
          shortfall = { start: window.start, end: (windows[windows.length - 1] as DateWindow).end };
          break;
        }
        return answer.failure;
      }
      answers.push({ window, set: answer.set });
    }
    if (answers.length === 0) return { ok: true, value: this.transactionsOf(data.cache, [], accountRef, from, to, now) };

    data.notices = this.noticesOf(
      ctx,
      data,
      answers.map((a) => a.set),
    );
    if (shortfall) data.notices.push(this.shortfallNotice(shortfall, now));
    const seen = answers.some((a) => a.set.accounts.some((acc) => acc.id === accountRef)) || data.cache?.transactions[accountRef] !== undefined;
    if (!seen) {
      const failure = failureOfNotices(data.notices.filter((n) => n.accountId === undefined || n.accountId === accountRef));
      if (failure) return failure;
    }
    let cache = data.cache;
    // Newest first, so each window touches the range merged before it; one that does not is still in the result.
    for (const { window, set } of [...answers].reverse()) cache = mergeIntoCache(cache, set, window, now);
    data.cache = cache ? boundCache(cache, this.settings.maxCachedTransactions) : undefined;
    return {
      ok: true,
      value: this.transactionsOf(
        cache,
        answers.map((a) => a.set),
        accountRef,
        from,
        to,
        now,
      ),
      session: writeSession(data),
    };
  }

  /**
   * A scheduled refresh asks only while the last 24 hours hold fewer requests than half the quota (12 of 24): however
   * often the schedule runs, it leaves about half the quota to the user's own refreshes and history loads.
   */
  backgroundRefreshAt(ctx: ConnectorContext, session: ConnectorSession): number {
    const data = this.open(session);
    const share = Math.max(1, Math.floor(this.settings.dailyQuota * BACKGROUND_SHARE));
    return nextAllowedAt(this.ledger.recent(data.accessUrl, data.requests, ctx.now), ctx.now, share);
  }

  /** The session's data; a session that is not a SimpleFIN one is a wiring error. */
  private open(session: ConnectorSession): SimplefinSessionData {
    const data = readSession(session);
    if (!data) throw new ConnectorUsageError('The session is not a SimpleFIN session');
    return data;
  }

  /** A stored access URL the current policy no longer allows (e.g. http once out of the sandbox) is not contacted. */
  private refusedAccess(data: SimplefinSessionData): ConnectorFailure | undefined {
    const checked = checkBridgeUrl(data.accessUrl, 'access', this.options.allowUrl);
    return checked.ok ? undefined : SimplefinFailures.urlRefused(checked.reason);
  }

  private isFresh(at: number, now: number): boolean {
    return now >= at && now - at <= this.settings.freshSeconds;
  }

  private recentWindow(now: number): DateWindow {
    return { start: now + 1 - Math.min(this.settings.recentDays, this.settings.maxWindowDays) * DAY, end: now + 1 };
  }

  /**
   * The windows to ask for so that posting times in `need` are all known: what the cache does not cover, split into
   * the bridge's maximum range, oldest first. A cache fetched a while ago is not trusted for its last days.
   */
  private missingWindows(cache: TransactionCache | undefined, need: DateWindow, now: number): DateWindow[] {
    const max = this.settings.maxWindowDays * DAY;
    if (!cache) return splitWindows(need.start, need.end, max);
    const reachesPresent = cache.end > cache.fetchedAt;
    const trustedEnd =
      reachesPresent && this.isFresh(cache.fetchedAt, now) ? Number.POSITIVE_INFINITY : Math.min(cache.end, cache.fetchedAt + 1 - LATE_ARRIVAL);
    if (trustedEnd <= cache.start) return splitWindows(need.start, need.end, max);
    const windows: DateWindow[] = [];
    if (need.start < cache.start) windows.push(...splitWindows(need.start, Math.min(need.end, cache.start), max));
    if (trustedEnd < need.end) windows.push(...splitWindows(Math.max(need.start, trustedEnd), need.end, max));
    return windows;
  }

  /** One `/accounts` request, if the quota allows it; counted before it is sent, so failed ones count too. */
  private async request(
    ctx: ConnectorContext,
    data: SimplefinSessionData,
    window: DateWindow,
  ): Promise<{ ok: true; set: SimplefinAccountSet } | { ok: false; failure: ConnectorFailure; quota: boolean; problem?: SimplefinProblem }> {
    const reserved = this.ledger.reserve(data.accessUrl, data.requests, ctx.now, this.settings.dailyQuota);
    if (!reserved.ok) return { ok: false, failure: quotaFailure(this.settings.dailyQuota, reserved.nextAt), quota: true };
    data.requests = reserved.requests;
    const answer = await this.client.fetchAccounts(data.accessUrl, {
      startDate: window.start,
      endDate: window.end,
      pending: true,
      version: this.settings.protocolVersion,
    });
    if (!answer.ok) return { ok: false, failure: failureOf(answer.problem, 'accounts'), quota: false, problem: answer.problem };
    return { ok: true, set: answer.value };
  }

  /** The bridge's errors of the latest answers, sanitised, without the access URL's secrets. */
  private noticesOf(
    ctx: ConnectorContext,
    data: SimplefinSessionData,
    sets: readonly SimplefinAccountSet[],
    more: readonly (string | undefined)[] = [],
  ): StoredNotice[] {
    const url = new URL(data.accessUrl);
    const secrets = [...more, data.accessUrl, url.password, decodeUrlPart(url.password)];
    const notices = new Map<string, StoredNotice>();
    for (const set of sets) {
      for (const error of set.errors) {
        const notice: BridgeNotice = noticeOf(error, secrets);
        notices.set(`${notice.code}|${notice.bridgeCode ?? ''}|${notice.accountId ?? ''}|${notice.message}`, { ...notice, at: ctx.now });
      }
    }
    return [...notices.values()];
  }

  private shortfallNotice(missing: DateWindow, now: number): StoredNotice {
    return {
      code: 102,
      message: `Transactions posted from ${formatEpoch(missing.start)} to ${formatEpoch(missing.end)} were not loaded: the bridge's daily request quota was used up.`,
      at: now,
    };
  }

  /** An account's transactions dated in [from, to], from the cache and from answers it did not take, oldest first. */
  private transactionsOf(
    cache: TransactionCache | undefined,
    sets: readonly SimplefinAccountSet[],
    accountRef: string,
    from: number,
    to: number,
    now: number,
  ): ConnectorTransaction[] {
    const byId = new Map<string, SimplefinTransaction>();
    for (const t of cache?.transactions[accountRef] ?? []) byId.set(t.id, t);
    let latest: SimplefinAccount | undefined;
    for (const set of sets) {
      const account = set.accounts.find((a) => a.id === accountRef);
      for (const t of account?.transactions ?? []) byId.set(t.id, t);
      latest = account ?? latest;
    }
    const facts = latest ?? cache?.accounts.find((a) => a.id === accountRef) ?? { id: accountRef, currency: 'USD', balanceDate: now };
    return [...byId.values()]
      .filter((t) => {
        const date = transactionDateOf(t, facts.balanceDate);
        return date >= from && date <= to;
      })
      .map((t) => mapTransaction(facts, t))
      .sort((a, b) => a.transactionDate - b.transactionDate || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  }
}

/** The setup token: the field `<institutionId>001`, else any field ending in 001, else the only field there is. */
function tokenOf(ctx: ConnectorContext, credentials: readonly Credential[]): string | undefined {
  const field =
    credentials.find((c) => c.id === `${ctx.institutionId}${TOKEN_FIELD}`) ??
    credentials.find((c) => c.id.endsWith(TOKEN_FIELD)) ??
    (credentials.length === 1 ? credentials[0] : undefined);
  const value = typeof field?.value === 'string' ? field.value : '';
  return value.trim() ? value : undefined;
}

/** The bridge's latest notices (sanitised errors it reported beside its data, and requests the quota held back). */
export function simplefinNotices(session: ConnectorSession): StoredNotice[] {
  return readSession(session)?.notices ?? [];
}
