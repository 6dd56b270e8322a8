/**
 * The OFX Direct Connect connector: an institution's OFX server reached over HTTPS POST, as Quicken and GnuCash
 * reach it. OFX has no tokens: every request signs on with the user id and password, so the session keeps both (the
 * engine stores sessions encrypted) together with the CLIENTUID that identifies this client to the institution.
 *
 * - authenticate: a sign-on with ACCTINFORQ; the account list goes into the session.
 * - listAccounts: ACCTINFORQ again (accounts come and go), then one request holding a statement request per account
 *   over the last few days. ACCTINFORS carries no balances, and a short statement is the request every server
 *   answers (it is what Quicken sends on each update), where balance-only requests (INCLUDE N, STMTENDRQ) are
 *   optional parts of the specification. Each statement has its own status, so one failing account does not hide
 *   the others.
 * - fetchTransactions: the statement request that fits the account (STMTRQ, CCSTMTRQ, INVSTMTRQ) over the window.
 *
 * Whatever the server does (refuses, fails, times out, answers garbage) ends in a ConnectorFailure with the code of
 * status.ts; only calls the connector cannot serve at all throw ConnectorUsageError.
 */
import { createHmac, randomUUID } from 'node:crypto';
import {
  type AccountsResult,
  AggregationStatus,
  type AuthResult,
  type ConnectorAccount,
  type ConnectorCapabilities,
  type ConnectorContext,
  type ConnectorFailure,
  type ConnectorResult,
  type ConnectorSession,
  ConnectorUsageError,
  type Credential,
  CredentialsOnlyConnector,
  type JsonValue,
  type LoginField,
  type TransactionsResult,
} from '../connector.js';
import { SECONDS_PER_DAY, utcDayStart } from './dates.js';
import { accountIdOfRef, accountRecordOf, accountRefOf, bankTransactionsOf, investmentTransactionsOf } from './map.js';
import { isOfxBankAccountType, type OfxAccountId, type OfxAccountInfo, type OfxResponse, type OfxStatementResponse, readOfxResponse } from './parse.js';
import { buildOfxRequest, isOfxVersion, type OfxRequestItem, type OfxVersion } from './request.js';
import { ofxStatusFailure, ofxTransportFailure } from './status.js';
import { type OfxTransport, OfxTransportError } from './transport.js';

export { createHttpTransport, type HttpTransportOptions, type OfxTransport, OfxTransportError } from './transport.js';

export interface OfxInstitutionConfig {
  /** The OFX server's URL. */
  url: string;
  /** FI/FID and FI/ORG of the sign-on. */
  fid: string;
  org: string;
  /** BROKERID for investment accounts, when the account list does not give one. */
  brokerId?: string;
  /** APPID and APPVER; QWIN 2700 (a recent Quicken for Windows) unless given, since many servers admit only Quicken. */
  appId?: string;
  appVer?: string;
  /** The OFX version spoken: 102 (default), 103, 151, 160, 200, 203, 211 or 220. */
  version?: number;
  /** How far back the server serves transactions, in days; 730 unless given (the server answers what it has). */
  historyDays?: number;
  /** Send CLIENTUID even in versions that predate it, for servers that want it in 1.0.2. */
  sendClientUid?: boolean;
}

export interface OfxConnectorOptions {
  institution: OfxInstitutionConfig;
  transport: OfxTransport;
  /**
   * When given, a user's CLIENTUID is derived from this key, the institution and the user id, so it is the same at
   * every sign-in of that user here, including the sign-in that follows approving this client at the institution
   * (15510). Without it, each first sign-in makes a fresh random one.
   */
  clientUidKey?: string | Uint8Array;
}

/** The days before `now` that a balance request covers. */
const BALANCE_WINDOW_DAYS = 3;
/** Days added on each side of a transaction window: servers read request dates in their own time zone. */
const WINDOW_MARGIN_DAYS = 1;
const DEFAULT_HISTORY_DAYS = 730;

interface StoredAccount {
  ref: string;
  account: OfxAccountId;
  description?: string;
  productType?: string;
  checkWriting?: boolean;
  optionLevel?: string;
}

interface OfxSession {
  userId: string;
  password: string;
  clientUid: string;
  accounts: StoredAccount[];
}

function fail(code: ConnectorFailure['code'], message: string): ConnectorFailure {
  return { ok: false, code, message };
}

const INVALID_SESSION = () => fail(AggregationStatus.InvalidCredentials, 'The saved sign-in is not valid. Sign in again.');

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function readAccountId(value: unknown): OfxAccountId | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (!isString(v.acctId) || v.acctId === '') return undefined;
  if (v.kind === 'creditCard') return { kind: 'creditCard', acctId: v.acctId };
  if (v.kind === 'investment' && isString(v.brokerId)) return { kind: 'investment', brokerId: v.brokerId, acctId: v.acctId };
  if (v.kind === 'bank' && isString(v.bankId) && isOfxBankAccountType(v.acctType)) {
    const id: OfxAccountId = { kind: 'bank', bankId: v.bankId, acctId: v.acctId, acctType: v.acctType };
    if (isString(v.branchId)) id.branchId = v.branchId;
    return id;
  }
  return undefined;
}

/** The session as stored, or undefined when it is not one this connector made. */
function readSession(session: ConnectorSession): OfxSession | undefined {
  const { userId, password, clientUid, accounts } = session;
  if (!isString(userId) || userId === '' || !isString(password) || !isString(clientUid) || clientUid === '' || !Array.isArray(accounts)) return undefined;
  const stored: StoredAccount[] = [];
  for (const a of accounts) {
    if (!a || typeof a !== 'object' || Array.isArray(a)) return undefined;
    const account = readAccountId(a.account);
    if (!account) return undefined;
    const entry: StoredAccount = { ref: accountRefOf(account), account };
    if (isString(a.description)) entry.description = a.description;
    if (isString(a.productType)) entry.productType = a.productType;
    if (typeof a.checkWriting === 'boolean') entry.checkWriting = a.checkWriting;
    if (isString(a.optionLevel)) entry.optionLevel = a.optionLevel;
    stored.push(entry);
  }
  return { userId, password, clientUid, accounts: stored };
}

function sessionOf(s: OfxSession): ConnectorSession {
  const accounts: JsonValue[] = s.accounts.map((a) => {
    const out: { [key: string]: JsonValue } = { ref: a.ref, account: { ...a.account } };
    if (a.description !== undefined) out.description = a.description;
    if (a.productType !== undefined) out.productType = a.productType;
    if (a.checkWriting !== undefined) out.checkWriting = a.checkWriting;
    if (a.optionLevel !== undefined) out.optionLevel = a.optionLevel;
    return out;
  });
  return { userId: s.userId, password: s.password, clientUid: s.clientUid, accounts };
}

const PASSWORD_NAME = /pass|pin|secret/i;

/** The user id and password of a form: by field id, then by name, then by position. */
function readCredentials(institutionId: number, credentials: readonly Credential[]): { userId?: string; password?: string } {
  let user = credentials.find((c) => c.id === `${institutionId}001`);
  let password = credentials.find((c) => c.id === `${institutionId}002`);
  password ??= credentials.find((c) => c !== user && PASSWORD_NAME.test(`${c.name ?? ''} ${c.id}`));
  user ??= credentials.find((c) => c !== password && !PASSWORD_NAME.test(`${c.name ?? ''} ${c.id}`));
  return { userId: user?.value.trim(), password: password?.value };
}

/** Accounts whose service is active (or whose server does not say), each once. */
function usableAccounts(infos: readonly OfxAccountInfo[], brokerId: string | undefined): StoredAccount[] {
  const seen = new Set<string>();
  const out: StoredAccount[] = [];
  for (const info of infos) {
    if (info.serviceStatus !== undefined && info.serviceStatus !== 'ACTIVE') continue;
    const account: OfxAccountId =
      info.account.kind === 'investment' && info.account.brokerId === '' ? { ...info.account, brokerId: brokerId ?? '' } : info.account;
    const ref = accountRefOf(account);
    if (seen.has(ref)) continue;
    seen.add(ref);
    const entry: StoredAccount = { ref, account };
    if (info.description !== undefined) entry.description = info.description;
    if (info.productType !== undefined) entry.productType = info.productType;
    if (info.checkWriting !== undefined) entry.checkWriting = info.checkWriting;
    if (info.optionLevel !== undefined) entry.optionLevel = info.optionLevel;
    out.push(entry);
  }
  return out;
}

/** The most accounts one login is read with: a statement request for each goes into one body. */
export const MAX_OFX_ACCOUNTS = 200;

/** Statement failures that concern one account only (gone, closed, not enabled): that account is left out. */
const ACCOUNT_LEVEL_CODES: ReadonlySet<number> = new Set([2001, 2002, 2003, 2004, 2005]);

export class OfxConnector extends CredentialsOnlyConnector {
  readonly capabilities: ConnectorCapabilities;
  protected readonly refusals = {
    mfa: 'OFX Direct Connect sign-ins ask no MFA questions through this connector',
    oauth: 'OFX Direct Connect institutions sign in with credentials, not OAuth',
  };
  private readonly institution: OfxInstitutionConfig;
  private readonly transport: OfxTransport;
  private readonly version: OfxVersion;
  private readonly clientUidKey: string | Uint8Array | undefined;

  constructor(options: OfxConnectorOptions) {
    super();
    const version = options.institution.version ?? 102;
    if (!isOfxVersion(version)) throw new ConnectorUsageError(`OFX version ${version} is not one this connector speaks`);
    const historyDays = options.institution.historyDays ?? DEFAULT_HISTORY_DAYS;
    if (!Number.isInteger(historyDays) || historyDays < 1) throw new ConnectorUsageError(`historyDays must be a positive integer, not ${historyDays}`);
    this.institution = options.institution;
    this.transport = options.transport;
    this.version = version;
    this.clientUidKey = options.clientUidKey;
    this.capabilities = { authMode: 'credentials', historyDays };
  }

  loginForm(ctx: ConnectorContext): LoginField[] {
    return [
      {
        id: `${ctx.institutionId}001`,
        name: 'User ID',
        label: 'User ID',
        kind: 'text',
        displayOrder: 1,
        hint: 'The user ID and password you use with Quicken or another money program (Direct Connect), usually your online banking ones. Some institutions ask you to turn on Direct Connect first.',
      },
      { id: `${ctx.institutionId}002`, name: 'Password', label: 'Password', kind: 'password', displayOrder: 2 },
    ];
  }

  /** The CLIENTUID of a first sign-in: derived when a key is configured, else fresh. */
  private newClientUid(ctx: ConnectorContext, userId: string): string {
    if (this.clientUidKey === undefined) return randomUUID();
    const digest = createHmac('sha256', this.clientUidKey).update(`ofx-clientuid\u0000${ctx.institutionId}\u0000${userId}`).digest();
    // Shaped as a version-4 UUID: servers that require CLIENTUID check its form.
    digest[6] = (digest[6]! & 0x0f) | 0x40;
    digest[8] = (digest[8]! & 0x3f) | 0x80;
    const hex = digest.subarray(0, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  }

  /** One request and its answer, or the failure it ended in (transport, HTTP, body, or sign-on status). */
  private async exchange(
    ctx: ConnectorContext,
    s: Pick<OfxSession, 'userId' | 'password' | 'clientUid'>,
    items: OfxRequestItem[],
  ): Promise<OfxResponse | ConnectorFailure> {
    const { institution } = this;
    const body = buildOfxRequest(
      {
        version: this.version,
        now: ctx.now,
        userId: s.userId,
        password: s.password,
        org: institution.org,
        fid: institution.fid,
        appId: institution.appId ?? 'QWIN',
        appVer: institution.appVer ?? '2700',
        clientUid: s.clientUid,
        sendClientUid: institution.sendClientUid ?? false,
      },
      items,
    );
    let answer: { status: number; body: string };
    try {
      answer = await this.transport({ url: institution.url, body, headers: { 'Content-Type': 'application/x-ofx', Accept: 'application/x-ofx, */*' } });
    } catch (error) {
      if (error instanceof OfxTransportError) return ofxTransportFailure(error.reason, error.message);
      return ofxTransportFailure('network', error instanceof Error ? error.message : String(error));
    }
    let response: OfxResponse | undefined;
    let unreadable = 'no OFX document';
    try {
      response = readOfxResponse(typeof answer.body === 'string' ? answer.body : '');
    } catch (error) {
      unreadable = error instanceof Error ? error.message : String(error);
    }
    // Some servers answer a refused sign-on with an HTTP error and an OFX body; the body says more.
    const signonFailure = response?.signon ? ofxStatusFailure(response.signon.status) : undefined;
    if (signonFailure) return signonFailure;
    if (answer.status < 200 || answer.status > 299) return ofxTransportFailure('http-status', `HTTP ${answer.status}`);
    if (!response) return ofxTransportFailure('unparseable', unreadable);
    if (!response.signon) return ofxTransportFailure('unparseable', 'the answer has no sign-on response');
    return response;
  }

  /** Signs on and lists the accounts; the failure when the server refuses. */
  private async accountList(ctx: ConnectorContext, s: Pick<OfxSession, 'userId' | 'password' | 'clientUid'>): Promise<StoredAccount[] | ConnectorFailure> {
    const response = await this.exchange(ctx, s, [{ kind: 'accountInfo', trnuid: randomUUID() }]);
    if ('ok' in response) return response;
    const info = response.accountInfo;
    if (!info) return ofxTransportFailure('unparseable', 'the answer has no account list');
    const failure = ofxStatusFailure(info.status);
    if (failure) return failure;
    const accounts = usableAccounts(info.accounts, this.institution.brokerId);
    if (accounts.length > MAX_OFX_ACCOUNTS)
      return ofxTransportFailure('unparseable', `the institution lists ${accounts.length} accounts, more than ${MAX_OFX_ACCOUNTS}`);
    return accounts;
  }

  async authenticate(ctx: ConnectorContext, credentials: Credential[]): Promise<AuthResult> {
    const { userId, password } = readCredentials(ctx.institutionId, credentials);
    // An empty form never reaches the institution: failed sign-ons count towards its lockout.
    if (!userId || !password) return fail(AggregationStatus.InvalidCredentials, 'Enter the user ID and password.');
    const signon = { userId, password, clientUid: this.newClientUid(ctx, userId) };
    const accounts = await this.accountList(ctx, signon);
    if ('ok' in accounts) return accounts;
    return { ok: true, kind: 'authenticated', session: sessionOf({ ...signon, accounts }) };
  }

  async listAccounts(ctx: ConnectorContext, session: ConnectorSession): Promise<AccountsResult> {
    const s = readSession(session);
    if (!s) return INVALID_SESSION();
    const accounts = await this.accountList(ctx, s);
    if ('ok' in accounts) return accounts;
    const replacement = sessionOf({ ...s, accounts });
    const changed = JSON.stringify(replacement.accounts) !== JSON.stringify(sessionOf(s).accounts);
    if (accounts.length === 0) return changed ? { ok: true, value: [], session: replacement } : { ok: true, value: [] };

    const items = accounts.map((a) => ({
      kind: 'statement' as const,
      trnuid: randomUUID(),
      account: a.account,
      start: utcDayStart(ctx.now) - BALANCE_WINDOW_DAYS * SECONDS_PER_DAY,
    }));
    const response = await this.exchange(ctx, s, items);
    if ('ok' in response) return response;
    return guarded(() => {
      const records: ConnectorAccount[] = [];
      for (const [i, a] of accounts.entries()) {
        const result = statementFor(response, items[i]!.trnuid, a.account);
        if (!result) return ofxTransportFailure('unparseable', `the answer has no statement of account ${a.account.acctId}`);
        const failure = ofxStatusFailure(result.status);
        if (failure && ACCOUNT_LEVEL_CODES.has(result.status.code)) continue;
        if (failure) return failure;
        const info: OfxAccountInfo = { account: a.account, supportsDownload: true };
        if (a.description !== undefined) info.description = a.description;
        if (a.productType !== undefined) info.productType = a.productType;
        records.push(
          accountRecordOf({
            account: a.account,
            info,
            statement: result.statement,
            securities: response.securities,
            now: ctx.now,
            displayPosition: records.length + 1,
            checkWriting: a.checkWriting ?? false,
            optionTrading: a.optionLevel !== undefined && a.optionLevel.toUpperCase() !== 'NONE',
          }),
        );
      }
      return changed ? { ok: true, value: records, session: replacement } : { ok: true, value: records };
    });
  }

  async fetchTransactions(ctx: ConnectorContext, session: ConnectorSession, accountRef: string, from: number, to: number): Promise<TransactionsResult> {
    const s = readSession(session);
    if (!s) return INVALID_SESSION();
    let account = s.accounts.find((a) => a.ref === accountRef)?.account ?? accountIdOfRef(accountRef);
    if (!account) throw new ConnectorUsageError(`${accountRef} is not an account ref of this connector`);
    if (account.kind === 'investment' && account.brokerId === '' && this.institution.brokerId) account = { ...account, brokerId: this.institution.brokerId };
    const earliest = ctx.now - this.capabilities.historyDays * SECONDS_PER_DAY;
    const start = Math.max(from, earliest);
    const end = Math.min(to, ctx.now);
    if (start > end) return { ok: true, value: [] };

    // Whole days with a margin, and no end when the window reaches today: some servers refuse an end in their future.
    const margin = WINDOW_MARGIN_DAYS * SECONDS_PER_DAY;
    const requestEnd = utcDayStart(end) + 2 * margin;
    const item: OfxRequestItem = {
      kind: 'statement',
      trnuid: randomUUID(),
      account,
      start: utcDayStart(start) - margin,
      ...(requestEnd < utcDayStart(ctx.now) ? { end: requestEnd } : {}),
    };
    const response = await this.exchange(ctx, s, [item]);
    if ('ok' in response) return response;
    return guarded(() => {
      const result = statementFor(response, item.trnuid, account);
      if (!result) return ofxTransportFailure('unparseable', `the answer has no statement of account ${account.acctId}`);
      const failure = ofxStatusFailure(result.status);
      if (failure) return failure;
      const statement = result.statement;
      if (!statement) return { ok: true, value: [] };
      const all =
        statement.kind === 'investment' ? investmentTransactionsOf(accountRef, statement, response.securities) : bankTransactionsOf(accountRef, statement);
      const within = all.filter((t) => t.transactionDate >= from && t.transactionDate <= to);
      // Oldest first; records of one date keep the server's order.
      const order = new Map(within.map((t, i) => [t, i]));
      within.sort((a, b) => a.transactionDate - b.transactionDate || order.get(a)! - order.get(b)!);
      return { ok: true, value: within };
    });
  }
}

/** Reading an answer never throws: anything unexpected in it makes it an unreadable answer (102). */
function guarded<T>(read: () => ConnectorResult<T>): ConnectorResult<T> {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConnectorUsageError) throw error;
    return ofxTransportFailure('unparseable', error instanceof Error ? error.message : String(error));
  }
}

function sameAccount(a: OfxAccountId, b: OfxAccountId): boolean {
  if (a.kind !== b.kind || a.acctId !== b.acctId) return false;
  if (a.kind === 'bank' && b.kind === 'bank') return a.acctType === b.acctType && (a.bankId === b.bankId || a.bankId === '' || b.bankId === '');
  return true;
}

const trnuidIndexes = new WeakMap<OfxResponse, Map<string, OfxStatementResponse>>();

/** The statement answering a request: by TRNUID, else by account (servers that do not echo TRNUIDs faithfully). */
function statementFor(response: OfxResponse, trnuid: string, account: OfxAccountId): OfxStatementResponse | undefined {
  let index = trnuidIndexes.get(response);
  if (!index) {
    index = new Map();
    for (const r of response.statements) if (r.trnuid !== undefined && !index.has(r.trnuid)) index.set(r.trnuid, r);
    trnuidIndexes.set(response, index);
  }
  const byTrnuid = index.get(trnuid);
  if (byTrnuid) return byTrnuid;
  const byAccount = response.statements.find((r) => r.statement && sameAccount(r.statement.account, account));
  if (byAccount) return byAccount;
  // A single failed statement without a TRNUID answers the single request made.
  const failed = response.statements.filter((r) => !r.statement);
  return failed.length === 1 && response.statements.length === 1 ? failed[0] : undefined;
}
