/**
 * A local Enable Banking API (node:http on 127.0.0.1, a free port) speaking the published wire format, for the
 * connector's tests: JWT authentication (RS256, the application's key, which the fake makes and hands out), the bank
 * catalogue, consent through a bank page and a single-use code, sessions that expire by the fake's clock, are closed
 * or revoked, accounts whose uid changes with every session while their identification_hash stays, paged
 * transactions, and the PSD2 limit on unattended reads. Tests move the clock, change banks and data at runtime,
 * inject faults and read the log of every request (with the token's header and claims, the PSU headers and the
 * session).
 *
 * Where the published description leaves an answer open, the fake picks one and says so here:
 * - validation errors answer 422, unknown sessions and accounts 404, authentication and dead sessions 401;
 * - a reused authorization code answers ALREADY_AUTHORIZED, one older than ten minutes EXPIRED_AUTHORIZATION_CODE;
 * - unattended reads are counted per account (its identification_hash, so a new session does not reset them), per
 *   endpoint and per UTC day of the fake's clock; a request with a continuation_key continues the read it belongs to
 *   and is not counted;
 * - without date_from every transaction is served; a transaction's date is its booking date, else its transaction
 *   date, else its value date.
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID, verify } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  type AccountIdentification,
  defaultDataSet,
  type EnableBankingDataSet,
  type FakeAccount,
  type FakeBank,
  type FakeTransaction,
  isoDate,
  type PsuType,
} from './enable-banking-data.js';
import { applyCommonFault, type CommonFault, isCommonFault } from './fake-faults.js';

export * from './enable-banking-data.js';

const DAY = 86_400;
/** Published lifetime limit of an application's token. */
const MAX_TOKEN_LIFETIME = DAY;
const CODE_LIFETIME = 600;

/** The PSU headers as published; a request carrying any of them says the user is present. */
export const PSU_HEADERS = [
  'Psu-Ip-Address',
  'Psu-User-Agent',
  'Psu-Referer',
  'Psu-Accept',
  'Psu-Accept-Charset',
  'Psu-Accept-Encoding',
  'Psu-Accept-Language',
  'Psu-Geo-Location',
] as const;

/** Error codes the fake answers, with the status and message it answers them with. */
const ERRORS = {
  AUTHORIZATION_NOT_PROVIDED: [401, 'Authorization header is not provided'],
  UNAUTHORIZED_ACCESS: [401, 'Unauthorized access'],
  WRONG_REQUEST_PARAMETERS: [422, 'Wrong request parameters provided'],
  WRONG_ASPSP_PROVIDED: [422, 'Wrong ASPSP name provided'],
  REDIRECT_URI_NOT_ALLOWED: [422, 'Redirect URI not allowed'],
  WRONG_AUTHORIZATION_CODE: [422, 'Wrong authorization code provided'],
  EXPIRED_AUTHORIZATION_CODE: [422, 'Authorization code is expired'],
  ALREADY_AUTHORIZED: [422, 'Session is already authorized'],
  SESSION_DOES_NOT_EXIST: [404, 'No session found matching provided id'],
  ACCOUNT_DOES_NOT_EXIST: [404, 'No account found matching provided id'],
  EXPIRED_SESSION: [401, 'Session is expired'],
  CLOSED_SESSION: [401, 'Session is closed'],
  REVOKED_SESSION: [401, 'Session is revoked'],
  PSU_HEADER_NOT_PROVIDED: [422, 'Required PSU header is not provided'],
  ASPSP_RATE_LIMIT_EXCEEDED: [429, 'ASPSP Rate limit exceeded'],
  ASPSP_ERROR: [400, 'Error interacting with ASPSP'],
  ASPSP_TIMEOUT: [408, 'Timeout interacting with ASPSP'],
  WRONG_CONTINUATION_KEY: [422, 'Wrong continuation key provided'],
  DATE_TO_WITHOUT_DATE_FROM: [422, 'date_from must be provided if date_to provided'],
  DATE_FROM_IN_FUTURE: [422, 'date_from can not be in the future'],
  WRONG_DATE_INTERVAL: [422, 'date_from should be less than or equal date_to'],
} as const satisfies Record<string, readonly [number, string]>;

export type EnableBankingErrorCode = keyof typeof ERRORS;
export type AccountEndpoint = 'details' | 'balances' | 'transactions';
export type SessionStatus = 'AUTHORIZED' | 'EXPIRED' | 'CLOSED' | 'REVOKED';

/** An answer in the published error shape `{ code, message, error, detail }`; usable as a fault. */
export function enableBankingError(error: EnableBankingErrorCode, detail: unknown = null): { status: number; body: unknown } {
  const [status, message] = ERRORS[error];
  return { status, body: { code: status, message, error, detail } };
}

export type EnableBankingFault =
  /** This status and body (JSON unless a string); the published error shape of the status when no body is given. */
  { status: number; body?: unknown } | CommonFault;

export interface EnableBankingRequest {
  method: string;
  path: string;
  query: Record<string, string[]>;
  status: number;
  /** The error code answered, if any. */
  error?: string;
  /** The JSON body sent, if any. */
  body?: unknown;
  /** The PSU headers sent, by their published names. */
  psuHeaders: Record<string, string>;
  /** A data read with every PSU header the bank requires (not limited); unset for other requests. */
  attended?: boolean;
  /** Counted against the account's unattended reads of the day. */
  counted: boolean;
  /** The token's decoded header and claims, whether or not it was accepted. */
  jwt?: { header: Record<string, unknown>; claims: Record<string, unknown> };
  /** Why the token was refused. */
  jwtProblem?: string;
  sessionId?: string;
  accountUid?: string;
  /** The data set's key of the account read. */
  accountKey?: string;
  endpoint?: AccountEndpoint;
}

export interface EnableBankingSessionInfo {
  id: string;
  status: SessionStatus;
  bank: { name: string; country: string };
  psuType: PsuType;
  /** Epoch seconds. */
  validUntil: number;
  accounts: { key: string; uid: string; identificationHash: string }[];
}

export interface EnableBankingFakeOptions {
  /** The banks served; defaultDataSet(now) when absent. */
  data?: EnableBankingDataSet;
  /** The application id (the token's kid); a random UUID when absent. */
  appId?: string;
  appName?: string;
  /** Redirect URLs registered for the application; POST /auth refuses others. */
  redirectUrls?: string[];
  /** The fake's clock (epoch seconds) from the start; the real time when absent. */
  now?: number;
  /** Transactions per page. */
  pageSize?: number;
  /** Unattended reads of an account and endpoint allowed per day. */
  unattendedDailyLimit?: number;
}

export interface EnableBankingFake {
  /** The API root, e.g. http://127.0.0.1:PORT (what LEDGERLINK_ENABLE_BANKING_URL names). */
  url: string;
  appId: string;
  /** The application's private key (PKCS#8 PEM) that tokens are signed with. */
  privateKeyPem: string;
  publicKeyPem: string;
  /** Writes the private key to DIR/enable-banking-<appId>.pem (mode 0600) and returns the path. */
  writeKeyFile(dir: string): string;
  /** The fake's clock in epoch seconds: the real time until set. */
  now: number;
  /** Moves the clock on by this many seconds. */
  advance(seconds: number): void;
  redirectUrls: string[];
  pageSize: number;
  /** The live data set: tests may change banks and accounts in place. */
  data: EnableBankingDataSet;
  addBank(bank: FakeBank): void;
  removeBank(name: string, country: string): void;
  /** An account of the data set by its key, live. */
  account(key: string): FakeAccount;
  /** The identification_hash the account has in every session. */
  identificationHashOf(key: string): string;
  /** Consents on the bank page as the user would; returns the callback URL (with code and state). */
  approve(authorizeUrl: string, options?: { accounts?: string[] }): string;
  /** Refuses on the bank page; returns the callback URL (error=access_denied, error_description, state). */
  deny(authorizeUrl: string): string;
  /** The bank revokes the consent behind a session. */
  revoke(sessionId: string): void;
  session(sessionId: string): EnableBankingSessionInfo;
  sessions(): EnableBankingSessionInfo[];
  /** The uid an account has in a session. */
  uidOf(sessionId: string, key: string): string;
  /** Unattended reads of the account counted on the clock's day (one endpoint, or all). */
  unattendedReads(key: string, endpoint?: AccountEndpoint): number;
  requests: EnableBankingRequest[];
  /**
   * Answers the next matching request (or `times` of them) with a fault, after the ones already waiting; a string
   * path is matched exactly, a RegExp against the path. `fault(undefined, options)` clears the matching ones, or all.
   */
  fault(fault: EnableBankingFault | undefined, options?: { path?: string | RegExp; method?: string; times?: number }): void;
  /** Back to the default data set (or the one given), forgetting sessions, counts, faults and the log. */
  reset(data?: EnableBankingDataSet): void;
  close(): Promise<void>;
}

interface Authorization {
  id: string;
  state: string;
  redirectUrl: string;
  bank: { name: string; country: string };
  psuType: PsuType;
  access: Record<string, unknown>;
  validUntil: number;
  only?: AccountIdentification[];
  psuIdHash: string;
  decided?: 'allowed' | 'denied';
  code?: string;
  codeIssuedAt?: number;
  codeUsed?: boolean;
  chosen?: string[];
}

interface Session {
  id: string;
  bank: { name: string; country: string };
  psuType: PsuType;
  access: Record<string, unknown>;
  validUntil: number;
  psuIdHash: string;
  status: 'AUTHORIZED' | 'CLOSED' | 'REVOKED';
  created: number;
  closed?: number;
  accounts: { uid: string; key: string }[];
}

interface Continuation {
  uid: string;
  page: number;
  filter: TransactionFilter;
}

interface TransactionFilter {
  from?: string;
  to?: string;
  status?: string;
}

interface Fault {
  path?: string | RegExp;
  method?: string;
  fault: EnableBankingFault;
  times: number;
}

class Refusal extends Error {
  constructor(
    readonly code: EnableBankingErrorCode,
    readonly detail: unknown = null,
  ) {
    super(code);
  }
}

const TRANSACTION_STATUSES = new Set(['BOOK', 'CNCL', 'HOLD', 'OTHR', 'PDNG', 'RJCT', 'SCHD']);
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function queryOf(url: URL): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) (out[key] ??= []).push(value);
  return out;
}

function iso(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON path and value an identification hash is made from, as the published examples show. */
function identificationHash(bank: { name: string; country: string }, id: AccountIdentification): string {
  const [fields, value] = id.iban
    ? [[['account', 'account_id', 'iban']], id.iban]
    : [
        [['aspsp_name'], ['aspsp_country'], ['account', 'account_id', 'other', 'scheme_name'], ['account', 'account_id', 'other', 'identification']],
        `${bank.name}\n${bank.country}\n${id.other?.scheme_name}\n${id.other?.identification}`,
      ];
  const digest = createHash('sha256').update(value.replace(/\s/g, '')).digest('base64');
  return `${Buffer.from(JSON.stringify(fields)).toString('base64')}.${digest}`;
}

function sameIdentification(a: AccountIdentification, b: AccountIdentification): boolean {
  if (a.iban || b.iban) return (a.iban ?? '').replace(/\s/g, '') === (b.iban ?? '').replace(/\s/g, '');
  return a.other?.identification === b.other?.identification && a.other?.scheme_name === b.other?.scheme_name;
}

function transactionDate(t: FakeTransaction): string | undefined {
  return t.booking_date ?? t.transaction_date ?? t.value_date;
}

function bankPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1b1b1b; background: #f4f6f8; }
  main { box-sizing: border-box; max-width: 32rem; margin: 0 auto; padding: 1.5rem 1rem; background: #fff; min-height: 100vh; }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; overflow-wrap: anywhere; }
  h2 { font-size: 1.1rem; margin: 1.25rem 0 0.5rem; }
  ul { padding-left: 1.25rem; overflow-wrap: anywhere; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.5rem; }
  button { flex: 1 1 8rem; min-height: 2.75rem; font: inherit; font-weight: 600; border-radius: 0.375rem; cursor: pointer; }
  .allow { background: #0b5d3b; color: #fff; border: 2px solid #0b5d3b; }
  .deny { background: #fff; color: #8a1c1c; border: 2px solid #8a1c1c; }
  button:focus-visible { outline: 3px solid #1a56b3; outline-offset: 2px; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function logoSvg(bank: string): string {
  const initials = bank
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${escapeHtml(bank)}"><rect width="64" height="64" rx="12" fill="#0b5d3b"/><text x="32" y="40" font-family="sans-serif" font-size="24" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`;
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startEnableBankingFake(options: EnableBankingFakeOptions = {}): Promise<EnableBankingFake> {
  const appId = options.appId ?? randomUUID();
  const appName = options.appName ?? 'Ledgerlink tests';
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  let fixedNow = options.now;
  const clock = () => fixedNow ?? Math.floor(Date.now() / 1000);
  let data = structuredClone(options.data ?? defaultDataSet(clock()));
  let redirectUrls = [...(options.redirectUrls ?? [])];
  let pageSize = options.pageSize ?? 3;
  const dailyLimit = options.unattendedDailyLimit ?? 4;

  const authorizations = new Map<string, Authorization>();
  const byCode = new Map<string, Authorization>();
  const sessions = new Map<string, Session>();
  const byUid = new Map<string, { session: Session; key: string }>();
  const continuations = new Map<string, Continuation>();
  const unattended = new Map<string, number>();
  const faults: Fault[] = [];
  const requests: EnableBankingRequest[] = [];
  let reads = 0;
  let root = '';

  const findBank = (name: string, country: string) => data.banks.find((b) => b.name === name && b.country === country);
  const findAccount = (key: string): { bank: FakeBank; account: FakeAccount } | undefined => {
    for (const bank of data.banks) {
      const account = bank.accounts.find((a) => a.key === key);
      if (account) return { bank, account };
    }
    return undefined;
  };
  const accountOf = (key: string) => {
    const found = findAccount(key);
    if (!found) throw new Error(`No account ${key} in the data set`);
    return found;
  };
  const hashesOf = (bank: FakeBank, account: FakeAccount): string[] => [
    identificationHash(bank, account.account_id),
    ...(account.all_account_ids ?? []).map((other) => identificationHash(bank, { other })),
  ];
  const statusOf = (session: Session): SessionStatus => (session.status === 'AUTHORIZED' && clock() >= session.validUntil ? 'EXPIRED' : session.status);
  const countKey = (hash: string, endpoint: AccountEndpoint) => `${hash}|${endpoint}|${Math.floor(clock() / DAY)}`;

  const logoOf = (bank: FakeBank) => bank.logo ?? `${root}/brands/${bank.country}/${encodeURIComponent(bank.name)}/`;
  const aspspData = (bank: FakeBank) => {
    const { accounts: _accounts, ...published } = bank;
    return { ...published, logo: logoOf(bank) };
  };

  const accountResource = (bank: FakeBank, account: FakeAccount, uid: string) => {
    const { key: _key, psuTypes: _psuTypes, balances: _balances, transactions: _transactions, emptyPages: _emptyPages, ...published } = account;
    const hashes = hashesOf(bank, account);
    return {
      ...published,
      account_servicer: { ...(bank.bic ? { bic_fi: bank.bic } : {}), name: bank.name },
      uid,
      identification_hash: hashes[0],
      identification_hashes: hashes,
    };
  };

  const decide = (authorizeUrl: string, decision: 'allowed' | 'denied', chosen?: string[]): string => {
    const id = new URL(authorizeUrl, 'http://127.0.0.1').searchParams.get('authorization_id') ?? '';
    const auth = authorizations.get(id);
    if (!auth) throw new Error(`No authorization ${id}`);
    if (auth.decided) throw new Error(`Authorization ${id} was already ${auth.decided}`);
    auth.decided = decision;
    const callback = new URL(auth.redirectUrl);
    if (decision === 'allowed') {
      auth.code = randomBytes(16).toString('hex');
      auth.codeIssuedAt = clock();
      if (chosen) auth.chosen = [...chosen];
      byCode.set(auth.code, auth);
      callback.searchParams.set('code', auth.code);
    } else {
      callback.searchParams.set('error', 'access_denied');
      callback.searchParams.set('error_description', 'The user refused to share account information');
    }
    callback.searchParams.set('state', auth.state);
    return callback.toString();
  };

  /** The session behind an account uid, refusing dead ones as the API does. */
  const liveAccount = (uid: string, log: EnableBankingRequest) => {
    const entry = byUid.get(uid);
    if (!entry) throw new Refusal('ACCOUNT_DOES_NOT_EXIST', `Account ${uid} not found`);
    log.sessionId = entry.session.id;
    log.accountKey = entry.key;
    const status = statusOf(entry.session);
    if (status === 'EXPIRED') throw new Refusal('EXPIRED_SESSION');
    if (status === 'CLOSED') throw new Refusal('CLOSED_SESSION');
    if (status === 'REVOKED') throw new Refusal('REVOKED_SESSION');
    const found = findAccount(entry.key);
    if (!found) throw new Refusal('ACCOUNT_DOES_NOT_EXIST', `Account ${uid} not found`);
    return { ...found, session: entry.session };
  };

  /** Applies the PSU header rule and the daily limit; true when the read is attended. */
  const admitRead = (bank: FakeBank, account: FakeAccount, endpoint: AccountEndpoint, log: EnableBankingRequest, continues: boolean) => {
    const sent = Object.keys(log.psuHeaders);
    if (sent.length > 0) {
      const missing = bank.required_psu_headers.filter((h) => !sent.some((s) => s.toLowerCase() === h.toLowerCase()));
      if (missing.length > 0) throw new Refusal('PSU_HEADER_NOT_PROVIDED', `PSU header ${missing.join(', ')} is not provided`);
      log.attended = true;
      return;
    }
    log.attended = false;
    if (continues) return;
    const key = countKey(identificationHash(bank, account.account_id), endpoint);
    if ((unattended.get(key) ?? 0) >= dailyLimit) {
      throw new Refusal('ASPSP_RATE_LIMIT_EXCEEDED', { message: 'Too many requests', error_name: 'RateLimitException', error_data: {} });
    }
  };

  const countRead = (bank: FakeBank, account: FakeAccount, endpoint: AccountEndpoint, log: EnableBankingRequest, continues: boolean) => {
    if (log.attended || continues) return;
    const key = countKey(identificationHash(bank, account.account_id), endpoint);
    unattended.set(key, (unattended.get(key) ?? 0) + 1);
    log.counted = true;
  };

  const transactionFilter = (q: URLSearchParams): TransactionFilter => {
    const from = q.get('date_from') ?? undefined;
    const to = q.get('date_to') ?? undefined;
    const status = q.get('transaction_status') ?? undefined;
    for (const [name, value] of [
      ['date_from', from],
      ['date_to', to],
    ] as const) {
      if (value !== undefined && (!ISO_DAY.test(value) || Number.isNaN(Date.parse(value))))
        throw new Refusal('WRONG_REQUEST_PARAMETERS', `${name} is not a date`);
    }
    if (status !== undefined && !TRANSACTION_STATUSES.has(status))
      throw new Refusal('WRONG_REQUEST_PARAMETERS', `transaction_status ${status} is not supported`);
    if (to !== undefined && from === undefined) throw new Refusal('DATE_TO_WITHOUT_DATE_FROM');
    if (from !== undefined && from > isoDate(clock())) throw new Refusal('DATE_FROM_IN_FUTURE');
    if (from !== undefined && to !== undefined && from > to) throw new Refusal('WRONG_DATE_INTERVAL');
    return { from, to, status };
  };

  const pagesOf = (account: FakeAccount, filter: TransactionFilter): FakeTransaction[][] => {
    const matching = account.transactions.filter((t) => {
      if (filter.status !== undefined && t.status !== filter.status) return false;
      const date = transactionDate(t);
      if (date === undefined) return true;
      return (filter.from === undefined || date >= filter.from) && (filter.to === undefined || date <= filter.to);
    });
    const pages: FakeTransaction[][] = [];
    for (let i = 0; i < matching.length; i += pageSize) pages.push(matching.slice(i, i + pageSize));
    if (pages.length === 0) pages.push([]);
    for (const at of [...(account.emptyPages ?? [])].sort((a, b) => a - b)) {
      if (at > 0 && at < pages.length) pages.splice(at, 0, []);
    }
    return pages;
  };

  const readTransactions = (uid: string, q: URLSearchParams, log: EnableBankingRequest) => {
    const { bank, account, session } = liveAccount(uid, log);
    const key = q.get('continuation_key');
    let filter: TransactionFilter;
    let page = 0;
    if (key !== null) {
      const continuation = continuations.get(key);
      if (!continuation || continuation.uid !== uid) throw new Refusal('WRONG_CONTINUATION_KEY');
      ({ filter, page } = continuation);
    } else {
      filter = transactionFilter(q);
    }
    admitRead(bank, account, 'transactions', log, key !== null);
    const pages = pagesOf(account, filter);
    const serial = ++reads;
    const transactions = (pages[page] ?? []).map((t, i) => ({ ...structuredClone(t), transaction_id: `${session.id.slice(0, 8)}-${serial}-${page}-${i}` }));
    let next: string | null = null;
    if (page + 1 < pages.length) {
      next = randomBytes(12).toString('base64url');
      continuations.set(next, { uid, page: page + 1, filter });
    }
    countRead(bank, account, 'transactions', log, key !== null);
    return { transactions, continuation_key: next };
  };

  const startAuthorization = (body: unknown) => {
    const b = (body ?? {}) as Record<string, any>;
    const access = b.access as Record<string, unknown> | undefined;
    if (!access || typeof access.valid_until !== 'string') throw new Refusal('WRONG_REQUEST_PARAMETERS', 'access.valid_until is required');
    const validUntilMs = Date.parse(access.valid_until);
    if (Number.isNaN(validUntilMs) || !/(Z|[+-]\d{2}:\d{2})$/.test(access.valid_until)) {
      throw new Refusal('WRONG_REQUEST_PARAMETERS', 'access.valid_until must be an RFC 3339 date-time with a time zone');
    }
    if (typeof b.aspsp?.name !== 'string' || typeof b.aspsp?.country !== 'string')
      throw new Refusal('WRONG_REQUEST_PARAMETERS', 'aspsp.name and aspsp.country are required');
    if (typeof b.state !== 'string') throw new Refusal('WRONG_REQUEST_PARAMETERS', 'state is required');
    if (typeof b.redirect_url !== 'string' || b.redirect_url === '') throw new Refusal('WRONG_REQUEST_PARAMETERS', 'redirect_url is required');
    const bank = findBank(b.aspsp.name, b.aspsp.country);
    if (!bank) throw new Refusal('WRONG_ASPSP_PROVIDED', `No ASPSP ${b.aspsp.name} in ${b.aspsp.country}`);
    if (!redirectUrls.includes(b.redirect_url)) throw new Refusal('REDIRECT_URI_NOT_ALLOWED', `${b.redirect_url} is not a redirect URL of the application`);
    const psuType: PsuType = b.psu_type ?? 'personal';
    if (!bank.psu_types.includes(psuType)) throw new Refusal('WRONG_REQUEST_PARAMETERS', `${bank.name} does not support psu_type ${String(psuType)}`);
    const validUntil = Math.floor(validUntilMs / 1000);
    if (validUntil <= clock()) throw new Refusal('WRONG_REQUEST_PARAMETERS', 'access.valid_until is in the past');
    if (validUntil > clock() + bank.maximum_consent_validity) {
      throw new Refusal('WRONG_REQUEST_PARAMETERS', `access.valid_until exceeds the maximum consent validity of ${bank.maximum_consent_validity} seconds`);
    }
    const auth: Authorization = {
      id: randomUUID(),
      state: b.state,
      redirectUrl: b.redirect_url,
      bank: { name: bank.name, country: bank.country },
      psuType,
      access: structuredClone(access),
      validUntil,
      ...(Array.isArray(access.accounts) ? { only: access.accounts as AccountIdentification[] } : {}),
      psuIdHash: createHash('sha256')
        .update(`${appId}:${typeof b.psu_id === 'string' ? b.psu_id : randomUUID()}`)
        .digest('base64'),
    };
    authorizations.set(auth.id, auth);
    return { url: `${root}/bank/authorize?authorization_id=${auth.id}`, authorization_id: auth.id, psu_id_hash: auth.psuIdHash };
  };

  /** The bank's accounts a consent covers: those of its PSU type, and of `access.accounts` when given. */
  const consented = (bank: FakeBank, auth: Authorization) =>
    bank.accounts.filter(
      (a) => (a.psuTypes ?? bank.psu_types).includes(auth.psuType) && (!auth.only || auth.only.some((id) => sameIdentification(id, a.account_id))),
    );

  const createSession = (body: unknown, log: EnableBankingRequest) => {
    const code = (body as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string') throw new Refusal('WRONG_REQUEST_PARAMETERS', 'code is required');
    const auth = byCode.get(code);
    if (!auth) throw new Refusal('WRONG_AUTHORIZATION_CODE');
    if (auth.codeUsed) throw new Refusal('ALREADY_AUTHORIZED');
    if (clock() - (auth.codeIssuedAt ?? 0) > CODE_LIFETIME) throw new Refusal('EXPIRED_AUTHORIZATION_CODE');
    const bank = findBank(auth.bank.name, auth.bank.country);
    if (!bank) throw new Refusal('WRONG_ASPSP_PROVIDED');
    auth.codeUsed = true;
    const accounts = consented(bank, auth).filter((a) => !auth.chosen || auth.chosen.includes(a.key));
    const session: Session = {
      id: randomUUID(),
      bank: auth.bank,
      psuType: auth.psuType,
      access: auth.access,
      validUntil: auth.validUntil,
      psuIdHash: auth.psuIdHash,
      status: 'AUTHORIZED',
      created: clock(),
      accounts: accounts.map((a) => ({ uid: randomUUID(), key: a.key })),
    };
    sessions.set(session.id, session);
    for (const a of session.accounts) byUid.set(a.uid, { session, key: a.key });
    log.sessionId = session.id;
    return {
      session_id: session.id,
      accounts: session.accounts.map((a) => accountResource(bank, accountOf(a.key).account, a.uid)),
      aspsp: session.bank,
      psu_type: session.psuType,
      access: session.access,
    };
  };

  const sessionBody = (session: Session) => {
    const accountsData = session.accounts.flatMap((a) => {
      const found = findAccount(a.key);
      if (!found) return [];
      const hashes = hashesOf(found.bank, found.account);
      return [{ uid: a.uid, identification_hash: hashes[0], identification_hashes: hashes }];
    });
    return {
      status: statusOf(session),
      accounts: accountsData.map((a) => a.uid),
      accounts_data: accountsData,
      aspsp: session.bank,
      psu_type: session.psuType,
      psu_id_hash: session.psuIdHash,
      access: session.access,
      created: iso(session.created),
      authorized: iso(session.created),
      ...(session.closed !== undefined ? { closed: iso(session.closed) } : {}),
    };
  };

  const knownSession = (id: string, log: EnableBankingRequest) => {
    const session = sessions.get(id);
    if (!session) throw new Refusal('SESSION_DOES_NOT_EXIST');
    log.sessionId = session.id;
    return session;
  };

  /** The API's routes; each returns the 200 answer's body or throws a Refusal. */
  const route = (method: string, url: URL, body: unknown, log: EnableBankingRequest): unknown => {
    const p = url.pathname;
    const q = url.searchParams;
    if (method === 'GET' && p === '/application') {
      return {
        name: appName,
        kid: appId,
        environment: 'SANDBOX',
        redirect_urls: redirectUrls,
        active: true,
        countries: [...new Set(data.banks.map((b) => b.country))].sort(),
        services: ['AIS'],
      };
    }
    if (method === 'GET' && p === '/aspsps') {
      const country = q.get('country');
      const psuType = q.get('psu_type');
      const service = q.get('service');
      if (country !== null && !/^[A-Z]{2}$/.test(country)) throw new Refusal('WRONG_REQUEST_PARAMETERS', 'country must be two capital letters');
      if (psuType !== null && psuType !== 'personal' && psuType !== 'business')
        throw new Refusal('WRONG_REQUEST_PARAMETERS', `psu_type ${psuType} is not supported`);
      if (service !== null && service !== 'AIS' && service !== 'PIS') throw new Refusal('WRONG_REQUEST_PARAMETERS', `service ${service} is not supported`);
      return {
        aspsps: data.banks
          .filter((b) => (country === null || b.country === country) && (psuType === null || b.psu_types.includes(psuType as PsuType)) && service !== 'PIS')
          .map(aspspData),
      };
    }
    if (method === 'POST' && p === '/auth') return startAuthorization(body);
    if (method === 'POST' && p === '/sessions') return createSession(body, log);
    const sessionPath = /^\/sessions\/([^/]+)$/.exec(p);
    if (sessionPath && method === 'GET') return sessionBody(knownSession(decodeURIComponent(sessionPath[1] as string), log));
    if (sessionPath && method === 'DELETE') {
      const session = knownSession(decodeURIComponent(sessionPath[1] as string), log);
      if (session.status === 'AUTHORIZED') {
        session.status = 'CLOSED';
        session.closed = clock();
      }
      return { message: 'OK' };
    }
    const accountPath = /^\/accounts\/([^/]+)\/(details|balances|transactions)$/.exec(p);
    if (accountPath && method === 'GET') {
      const uid = decodeURIComponent(accountPath[1] as string);
      const endpoint = accountPath[2] as AccountEndpoint;
      log.accountUid = uid;
      log.endpoint = endpoint;
      if (endpoint === 'transactions') return readTransactions(uid, q, log);
      const { bank, account } = liveAccount(uid, log);
      admitRead(bank, account, endpoint, log, false);
      countRead(bank, account, endpoint, log, false);
      if (endpoint === 'details') return accountResource(bank, account, uid);
      return { balances: structuredClone(account.balances) };
    }
    throw Object.assign(new Error('not found'), { notFound: true });
  };

  const send = (res: ServerResponse, log: EnableBankingRequest, status: number, body: string, type: string, headers: Record<string, string> = {}) => {
    log.status = status;
    res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };
  const sendJson = (res: ServerResponse, log: EnableBankingRequest, status: number, body: unknown) =>
    send(res, log, status, JSON.stringify(body), 'application/json');
  const refuse = (res: ServerResponse, log: EnableBankingRequest, error: EnableBankingErrorCode, detail: unknown = null) => {
    const answer = enableBankingError(error, detail);
    log.error = error;
    sendJson(res, log, answer.status, answer.body);
  };

  const faultFor = (method: string, pathname: string): EnableBankingFault | undefined => {
    const found = faults.find(
      (f) =>
        (f.method === undefined || f.method === method) && (f.path === undefined || (typeof f.path === 'string' ? f.path === pathname : f.path.test(pathname))),
    );
    if (!found) return undefined;
    if (--found.times <= 0) faults.splice(faults.indexOf(found), 1);
    return found.fault;
  };

  /** Answers with a fault; true when it answered. */
  const applyFault = async (fault: EnableBankingFault | undefined, req: IncomingMessage, res: ServerResponse, log: EnableBankingRequest): Promise<boolean> => {
    if (!fault) return false;
    if (isCommonFault(fault)) return applyCommonFault(fault, req, (status, body, type) => send(res, log, status, body, type));
    const body = fault.body ?? { code: fault.status, message: STATUS_CODES[fault.status] ?? 'Error', error: null, detail: null };
    const error = (body as { error?: unknown } | null)?.error;
    if (typeof error === 'string') log.error = error;
    if (typeof body === 'string') send(res, log, fault.status, body, 'text/plain');
    else sendJson(res, log, fault.status, body);
    return true;
  };

  /** The bank's consent page and its form, logos: what a browser sees, without the API's authentication. */
  const serveBrowser = (method: string, url: URL, form: URLSearchParams, res: ServerResponse, log: EnableBankingRequest) => {
    const logo = /^\/brands\/([A-Z]{2})\/([^/]+)\/?$/.exec(url.pathname);
    if (logo && method === 'GET') {
      const bank = findBank(decodeURIComponent(logo[2] as string), logo[1] as string);
      if (!bank) return send(res, log, 404, 'Not found', 'text/plain');
      return send(res, log, 200, logoSvg(bank.name), 'image/svg+xml');
    }
    if (url.pathname !== '/bank/authorize') return send(res, log, 404, 'Not found', 'text/plain');
    const id = (method === 'POST' ? form.get('authorization_id') : url.searchParams.get('authorization_id')) ?? '';
    const auth = authorizations.get(id);
    if (!auth) {
      return send(
        res,
        log,
        404,
        bankPage(
          'Authorisation not found',
          '<h1>Authorisation not found</h1>\n<p>This link is not valid. Return to the service you came from and try again.</p>',
        ),
        'text/html; charset=utf-8',
      );
    }
    const bankName = escapeHtml(auth.bank.name);
    if (auth.decided) {
      return send(
        res,
        log,
        409,
        bankPage(
          `${auth.bank.name}: already answered`,
          `<h1>${bankName}</h1>\n<p>This request has already been answered. Return to the service you came from.</p>`,
        ),
        'text/html; charset=utf-8',
      );
    }
    if (method === 'POST') {
      const decision = form.get('decision');
      if (decision !== 'allow' && decision !== 'deny') return send(res, log, 400, 'decision must be allow or deny', 'text/plain');
      const location = decide(`/bank/authorize?authorization_id=${encodeURIComponent(id)}`, decision === 'allow' ? 'allowed' : 'denied');
      return send(res, log, 302, '', 'text/plain', { location });
    }
    const bank = findBank(auth.bank.name, auth.bank.country);
    const shared = bank ? consented(bank, auth) : [];
    const items = shared
      .map(
        (a) =>
          `<li>${escapeHtml([a.details ?? a.product ?? a.cash_account_type, a.account_id.iban ?? a.account_id.other?.identification].filter(Boolean).join(', '))}</li>`,
      )
      .join('\n');
    const body = `<h1>${bankName}</h1>
<p><strong>${escapeHtml(appName)}</strong> asks to see your accounts, their balances and transactions until ${escapeHtml(isoDate(auth.validUntil))}.</p>
<h2>Accounts shared</h2>
<ul>
${items || '<li>No accounts</li>'}
</ul>
<form method="post" action="/bank/authorize">
<input type="hidden" name="authorization_id" value="${escapeHtml(auth.id)}">
<div class="actions">
<button type="submit" name="decision" value="allow" class="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="deny">Deny</button>
</div>
</form>`;
    return send(res, log, 200, bankPage(`${auth.bank.name}: share your account information`, body), 'text/html; charset=utf-8');
  };

  const authenticate = (header: string | undefined, log: EnableBankingRequest): EnableBankingErrorCode | undefined => {
    const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    if (!match) {
      log.jwtProblem = header === undefined ? 'no Authorization header' : 'not a Bearer token';
      return header === undefined ? 'AUTHORIZATION_NOT_PROVIDED' : 'UNAUTHORIZED_ACCESS';
    }
    const parts = (match[1] as string).split('.');
    const header_ = parts.length === 3 ? decodeSegment(parts[0] as string) : undefined;
    const claims = parts.length === 3 ? decodeSegment(parts[1] as string) : undefined;
    if (!header_ || !claims) {
      log.jwtProblem = 'not a JWT';
      return 'UNAUTHORIZED_ACCESS';
    }
    log.jwt = { header: header_, claims };
    const problem = (() => {
      if (header_.alg !== 'RS256') return `alg ${String(header_.alg)} is not RS256`;
      if (header_.typ !== 'JWT') return `typ ${String(header_.typ)} is not JWT`;
      if (header_.kid !== appId) return `kid ${String(header_.kid)} is not an application id`;
      const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
      if (!verify('sha256', signed, keys.publicKey, Buffer.from(parts[2] as string, 'base64url'))) return 'the signature does not verify';
      if (claims.iss !== 'enablebanking.com') return `iss ${String(claims.iss)} is not enablebanking.com`;
      if (claims.aud !== 'api.enablebanking.com') return `aud ${String(claims.aud)} is not api.enablebanking.com`;
      if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return 'iat and exp must be numbers';
      if (claims.exp <= claims.iat) return 'exp is not after iat';
      if (claims.exp - claims.iat > MAX_TOKEN_LIFETIME) return `the lifetime exceeds ${MAX_TOKEN_LIFETIME} seconds`;
      // Tokens are signed with the real time, whatever test time the bank's clock is set to.
      if (claims.exp <= Math.floor(Date.now() / 1000)) return 'the token has expired';
      return undefined;
    })();
    if (problem) {
      log.jwtProblem = problem;
      return 'UNAUTHORIZED_ACCESS';
    }
    return undefined;
  };

  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const psuHeaders: Record<string, string> = {};
      for (const name of PSU_HEADERS) {
        const value = req.headers[name.toLowerCase()];
        if (typeof value === 'string') psuHeaders[name] = value;
      }
      const log: EnableBankingRequest = { method, path: url.pathname, query: queryOf(url), status: 0, psuHeaders, counted: false };
      requests.push(log);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const browser = url.pathname.startsWith('/bank/') || url.pathname.startsWith('/brands/');
      let body: unknown;
      if (!browser && raw !== '') {
        try {
          body = JSON.parse(raw);
          log.body = body;
        } catch {
          body = Symbol('unparsable');
        }
      }
      if (!browser) {
        const problem = authenticate(req.headers.authorization, log);
        if (await applyFault(faultFor(method, url.pathname), req, res, log)) return;
        if (problem) return refuse(res, log, problem, log.jwtProblem ?? null);
      } else if (await applyFault(faultFor(method, url.pathname), req, res, log)) return;
      if (browser) return serveBrowser(method, url, new URLSearchParams(raw), res, log);
      if (typeof body === 'symbol') return refuse(res, log, 'WRONG_REQUEST_PARAMETERS', 'the body is not JSON');
      try {
        sendJson(res, log, 200, route(method, url, body, log));
      } catch (error) {
        if (error instanceof Refusal) return refuse(res, log, error.code, error.detail);
        if ((error as { notFound?: boolean }).notFound) return sendJson(res, log, 404, { code: 404, message: 'Not Found', error: null, detail: null });
        throw error;
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const info = (session: Session): EnableBankingSessionInfo => ({
    id: session.id,
    status: statusOf(session),
    bank: { ...session.bank },
    psuType: session.psuType,
    validUntil: session.validUntil,
    accounts: session.accounts.map((a) => {
      const found = findAccount(a.key);
      return { key: a.key, uid: a.uid, identificationHash: found ? identificationHash(found.bank, found.account.account_id) : '' };
    }),
  });
  const sessionById = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`No session ${id}`);
    return session;
  };

  return {
    url: root,
    appId,
    privateKeyPem: keys.privateKey,
    publicKeyPem: keys.publicKey,
    writeKeyFile(dir) {
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `enable-banking-${appId}.pem`);
      writeFileSync(file, keys.privateKey, { mode: 0o600 });
      return file;
    },
    get now() {
      return clock();
    },
    set now(value: number) {
      fixedNow = value;
    },
    advance(seconds) {
      fixedNow = clock() + seconds;
    },
    get redirectUrls() {
      return redirectUrls;
    },
    set redirectUrls(urls: string[]) {
      redirectUrls = [...urls];
    },
    get pageSize() {
      return pageSize;
    },
    set pageSize(size: number) {
      if (!Number.isInteger(size) || size < 1) throw new Error('The page size is a positive integer');
      pageSize = size;
    },
    get data() {
      return data;
    },
    addBank(bank) {
      if (findBank(bank.name, bank.country)) throw new Error(`${bank.name} (${bank.country}) exists`);
      data.banks.push(structuredClone(bank));
    },
    removeBank(name, country) {
      data.banks = data.banks.filter((b) => !(b.name === name && b.country === country));
    },
    account: (key) => accountOf(key).account,
    identificationHashOf(key) {
      const { bank, account } = accountOf(key);
      return identificationHash(bank, account.account_id);
    },
    approve: (authorizeUrl, approveOptions = {}) => decide(authorizeUrl, 'allowed', approveOptions.accounts),
    deny: (authorizeUrl) => decide(authorizeUrl, 'denied'),
    revoke(sessionId) {
      sessionById(sessionId).status = 'REVOKED';
    },
    session: (sessionId) => info(sessionById(sessionId)),
    sessions: () => [...sessions.values()].map(info),
    uidOf(sessionId, key) {
      const found = sessionById(sessionId).accounts.find((a) => a.key === key);
      if (!found) throw new Error(`Session ${sessionId} has no account ${key}`);
      return found.uid;
    },
    unattendedReads(key, endpoint) {
      const { bank, account } = accountOf(key);
      const hash = identificationHash(bank, account.account_id);
      const endpoints: AccountEndpoint[] = endpoint ? [endpoint] : ['details', 'balances', 'transactions'];
      return endpoints.reduce((sum, e) => sum + (unattended.get(countKey(hash, e)) ?? 0), 0);
    },
    requests,
    fault(fault, faultOptions = {}) {
      if (fault) {
        faults.push({ path: faultOptions.path, method: faultOptions.method?.toUpperCase(), fault, times: faultOptions.times ?? 1 });
        return;
      }
      const same = (f: Fault) =>
        (faultOptions.path === undefined || String(f.path) === String(faultOptions.path)) &&
        (faultOptions.method === undefined || f.method === faultOptions.method.toUpperCase());
      for (let i = faults.length - 1; i >= 0; i--) if (same(faults[i] as Fault)) faults.splice(i, 1);
    },
    reset(next) {
      data = structuredClone(next ?? defaultDataSet(clock()));
      for (const map of [authorizations, byCode, sessions, byUid, continuations, unattended]) map.clear();
      faults.length = 0;
      requests.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
