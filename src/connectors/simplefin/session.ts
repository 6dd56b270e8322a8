/**
 * What the SimpleFIN connector keeps in its (encrypted) session: the access URL, the times of the requests of the
 * last day (the quota), the last answers' transactions (so later calls for the same dates need no request), and
 * the bridge's last notices. Never the setup token: it is spent once claimed and stays out of storage.
 */
import type { ConnectorSession, JsonValue } from '../connector.js';
import type { BridgeNotice } from './errors.js';
import { type AccountFacts, factsOf, isPending } from './map.js';
import type { DateWindow } from './quota.js';
import { type SimplefinAccountSet, type SimplefinTransaction, tryReadTransaction, writeTransaction } from './wire.js';

/** Transactions of every account whose posting time is in [start, end), as the bridge last gave them. */
export interface TransactionCache {
  start: number;
  end: number;
  /** When the part nearest `end` was fetched: transactions posted shortly before it may still arrive later. */
  fetchedAt: number;
  /** Accounts (with balances) of the latest answer, and when it came. */
  accountsAt: number;
  accounts: AccountFacts[];
  /** By SimpleFIN account id. */
  transactions: Record<string, SimplefinTransaction[]>;
}

export interface StoredNotice extends BridgeNotice {
  /** When it was reported (ctx.now). */
  at: number;
}

export interface SimplefinSessionData {
  accessUrl: string;
  requests: number[];
  cache?: TransactionCache;
  notices: StoredNotice[];
}

/** Marks (and versions) a SimpleFIN session. */
const FORMAT = 1;
/** Notices kept: the latest answers' few. */
const MAX_NOTICES = 20;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEpoch(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function readFacts(value: unknown): AccountFacts | undefined {
  if (!isRecord(value)) return undefined;
  const { id, name, currency, balance, availableBalance, balanceDate, institution } = value;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof currency !== 'string' || typeof balance !== 'string' || !isEpoch(balanceDate))
    return undefined;
  const facts: AccountFacts = { id, name, currency, balance, balanceDate };
  if (typeof availableBalance === 'string') facts.availableBalance = availableBalance;
  if (typeof institution === 'string') facts.institution = institution;
  return facts;
}

function readCache(value: unknown): TransactionCache | undefined {
  if (!isRecord(value)) return undefined;
  const { start, end, fetchedAt, accountsAt, accounts, transactions } = value;
  if (!isEpoch(start) || !isEpoch(end) || !isEpoch(fetchedAt) || !isEpoch(accountsAt) || start > end) return undefined;
  if (!Array.isArray(accounts) || !isRecord(transactions)) return undefined;
  const facts = accounts.map(readFacts);
  if (facts.some((f) => f === undefined)) return undefined;
  const byAccount: Record<string, SimplefinTransaction[]> = {};
  for (const [accountId, list] of Object.entries(transactions)) {
    if (!Array.isArray(list)) return undefined;
    const read = list.map(tryReadTransaction);
    if (read.some((t) => t === undefined)) return undefined;
    byAccount[accountId] = read as SimplefinTransaction[];
  }
  return { start, end, fetchedAt, accountsAt, accounts: facts as AccountFacts[], transactions: byAccount };
}

function readNotice(value: unknown): StoredNotice | undefined {
  if (!isRecord(value)) return undefined;
  const { code, message, at, bridgeCode, accountId, connId } = value;
  if ((code !== 102 && code !== 103 && code !== 108) || typeof message !== 'string' || !isEpoch(at)) return undefined;
  const notice: StoredNotice = { code, message, at };
  if (typeof bridgeCode === 'string') notice.bridgeCode = bridgeCode;
  if (typeof accountId === 'string') notice.accountId = accountId;
  if (typeof connId === 'string') notice.connId = connId;
  return notice;
}

/**
 * The connector's data in a stored session, or undefined when the session is not a SimpleFIN one. A damaged cache or
 * notice list is dropped (they are only an optimisation and a courtesy); the access URL and request times are not
 * optional.
 */
export function readSession(session: ConnectorSession): SimplefinSessionData | undefined {
  if (session.simplefin !== FORMAT || typeof session.accessUrl !== 'string' || !Array.isArray(session.requests)) return undefined;
  const requests = session.requests.filter(isEpoch);
  const data: SimplefinSessionData = { accessUrl: session.accessUrl, requests, notices: [] };
  const cache = readCache(session.cache);
  if (cache) data.cache = cache;
  if (Array.isArray(session.notices)) data.notices = session.notices.map(readNotice).filter((n): n is StoredNotice => n !== undefined);
  return data;
}

export function writeSession(data: SimplefinSessionData): ConnectorSession {
  const session: ConnectorSession = { simplefin: FORMAT, accessUrl: data.accessUrl, requests: [...data.requests] };
  if (data.cache) {
    const c = data.cache;
    const transactions: { [key: string]: JsonValue } = {};
    for (const [accountId, list] of Object.entries(c.transactions)) transactions[accountId] = list.map(writeTransaction);
    session.cache = {
      start: c.start,
      end: c.end,
      fetchedAt: c.fetchedAt,
      accountsAt: c.accountsAt,
      accounts: c.accounts.map((a) => ({ ...a })),
      transactions,
    };
  }
  if (data.notices.length > 0) session.notices = data.notices.slice(0, MAX_NOTICES).map((n) => ({ ...n }));
  return session;
}

/** A cache holding one answer, for the window it was asked for. */
export function cacheOf(set: SimplefinAccountSet, window: DateWindow, now: number): TransactionCache {
  const transactions: Record<string, SimplefinTransaction[]> = {};
  for (const account of set.accounts) transactions[account.id] = dedupe(account.transactions);
  return {
    start: window.start,
    end: window.end,
    fetchedAt: now,
    accountsAt: now,
    accounts: set.accounts.map((a) => factsOf(a, set.connections)),
    transactions,
  };
}

function dedupe(list: readonly SimplefinTransaction[]): SimplefinTransaction[] {
  return [...new Map(list.map((t) => [t.id, t])).values()];
}

/**
 * Adds an answer for `window` to the cache. Inside the window the answer replaces what was cached (a newer answer
 * for the present also replaces every pending transaction: they are as of the latest answer). A window that does
 * not touch the cached range is kept only when it is newer; an older one with a gap is not cached.
 */
export function mergeIntoCache(cache: TransactionCache | undefined, set: SimplefinAccountSet, window: DateWindow, now: number): TransactionCache {
  if (!cache || window.start > cache.end) return cacheOf(set, window, now);
  if (window.end < cache.start) return cache;
  const reachesEnd = window.end >= cache.end;
  const incoming = new Map(set.accounts.map((a) => [a.id, a.transactions]));
  const transactions: Record<string, SimplefinTransaction[]> = {};
  for (const accountId of new Set([...Object.keys(cache.transactions), ...incoming.keys()])) {
    const kept = (cache.transactions[accountId] ?? []).filter((t) => (isPending(t) ? !reachesEnd : t.posted < window.start || t.posted >= window.end));
    transactions[accountId] = dedupe([...kept, ...(incoming.get(accountId) ?? [])]);
  }
  return {
    start: Math.min(cache.start, window.start),
    end: Math.max(cache.end, window.end),
    fetchedAt: reachesEnd ? now : cache.fetchedAt,
    // Every answer carries the accounts as of now.
    accountsAt: set.accounts.length > 0 ? now : cache.accountsAt,
    accounts: set.accounts.length > 0 ? set.accounts.map((a) => factsOf(a, set.connections)) : cache.accounts,
    transactions,
  };
}

/**
 * Keeps the cache within `max` transactions by forgetting the oldest posted ones; the covered range then starts
 * after the newest forgotten one. Pending transactions are the present and are never forgotten first.
 */
export function boundCache(cache: TransactionCache, max: number): TransactionCache {
  const all = Object.values(cache.transactions).flat();
  if (all.length <= max) return cache;
  const posted = all.filter((t) => !isPending(t)).sort((a, b) => a.posted - b.posted);
  const drop = Math.min(posted.length, all.length - max);
  const start = drop > 0 ? Math.max(cache.start, (posted[drop - 1] as SimplefinTransaction).posted + 1) : cache.start;
  const transactions: Record<string, SimplefinTransaction[]> = {};
  for (const [accountId, list] of Object.entries(cache.transactions)) transactions[accountId] = list.filter((t) => isPending(t) || t.posted >= start);
  return { ...cache, start: Math.min(start, cache.end), transactions };
}
