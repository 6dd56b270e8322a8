/**
 * The Enable Banking API requests the connector makes, each with the application's JWT. HTTP goes through an injected
 * transport, so the connector runs against a local fake of the API in tests and against the network
 * (createHttpTransport, over the connectors' HTTP transport) in service; that transport applies the outbound target
 * policy when connecting and bounds how long an answer may take and how large it may be.
 */
import { ConnectorHttpError, type ConnectorHttpOptions, type ConnectorTextResponse, createConnectorHttp } from '../http-transport.js';
import type { EnableBankingProblem } from './errors.js';
import type { JwtSigner } from './jwt.js';
import { MAX_TRANSACTION_PAGES } from './limits.js';
import {
  type ApplicationInfo,
  type AspspEntry,
  parseApplication,
  parseAspsps,
  parseAuthStart,
  parseBalances,
  parseErrorBody,
  parseSessionCreated,
  parseSessionState,
  parseTransactionPage,
  type BalanceEntry,
  type ParseResult,
  type PsuType,
  type SessionCreated,
  type SessionState,
  type TransactionEntry,
} from './wire.js';

export interface EnableBankingRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends one request. Rejects with EnableBankingTransportError for refusals, timeouts, oversized answers and network failures. */
export type EnableBankingTransport = (request: EnableBankingRequest) => Promise<ConnectorTextResponse>;

export class EnableBankingTransportError extends Error {
  override readonly name = 'EnableBankingTransportError';
  constructor(
    /** `refused`: the outbound target policy refused the address; nothing was sent. */
    readonly kind: 'refused' | 'timeout' | 'too-large' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}

/** Enable Banking waits for the bank behind it, and banks can be slow. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** A page of transactions or the list of every bank stays well below this. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * A transport over HTTP(S) (../http-transport.ts, with the service mode and the bounds of ConnectorHttpOptions):
 * certificates verified, the address checked by the outbound target policy when connecting, redirects not followed
 * (they come back as their 3xx status), the whole exchange within its time and size. Answers are read as UTF-8, as
 * the API's JSON is.
 */
export function createHttpTransport(options: ConnectorHttpOptions): EnableBankingTransport {
  const send = createConnectorHttp(options);
  return async (request) => {
    try {
      const answer = await send(request);
      return { status: answer.status, body: answer.body.toString('utf8') };
    } catch (e) {
      if (!(e instanceof ConnectorHttpError)) throw new EnableBankingTransportError('unreachable', 'Enable Banking could not be reached');
      throw new EnableBankingTransportError(e.reason === 'network' ? 'unreachable' : e.reason, e.message);
    }
  };
}

export type ClientResult<T> = { ok: true; value: T } | { ok: false; problem: EnableBankingProblem };

/** A transaction list's dates (YYYY-MM-DD, both included). */
export interface TransactionQuery {
  dateFrom: string;
  dateTo: string;
}

export interface EnableBankingClientOptions {
  /** The API's base address (settings.ts's apiBaseUrl). */
  baseUrl: URL;
  transport: EnableBankingTransport;
  signer: JwtSigner;
}

export class EnableBankingClient {
  constructor(private readonly options: EnableBankingClientOptions) {}

  /** The banks that serve account information to a kind of customer, in every country the application covers. */
  aspsps(psuType: PsuType): Promise<ClientResult<AspspEntry[]>> {
    return this.send('GET', '/aspsps', { query: { psu_type: psuType, service: 'AIS' } }, parseAspsps);
  }

  /** The application the JWT belongs to (its redirect URLs). */
  application(): Promise<ClientResult<ApplicationInfo>> {
    return this.send('GET', '/application', {}, parseApplication);
  }

  /** Starts a sign-in at a bank: where to send the customer. */
  startAuthorization(body: object): Promise<ClientResult<{ url: string }>> {
    return this.send('POST', '/auth', { body }, parseAuthStart);
  }

  /** Makes the session of the code the bank sent back. */
  createSession(code: string): Promise<ClientResult<SessionCreated>> {
    return this.send('POST', '/sessions', { body: { code } }, parseSessionCreated);
  }

  /** The session's status (Enable Banking answers it without asking the bank). */
  session(sessionId: string): Promise<ClientResult<SessionState>> {
    return this.send('GET', `/sessions/${encodeURIComponent(sessionId)}`, {}, parseSessionState);
  }

  balances(uid: string, headers: Record<string, string>): Promise<ClientResult<BalanceEntry[]>> {
    return this.send('GET', `/accounts/${encodeURIComponent(uid)}/balances`, { headers }, parseBalances);
  }

  /**
   * An account's transactions, booked and pending, every page: the continuation key is followed until the API gives
   * none, also past a page without transactions, and at most MAX_TRANSACTION_PAGES pages are read.
   */
  async transactions(uid: string, query: TransactionQuery, headers: Record<string, string>): Promise<ClientResult<TransactionEntry[]>> {
    const all: TransactionEntry[] = [];
    let continuationKey: string | undefined;
    for (let page = 0; page < MAX_TRANSACTION_PAGES; page++) {
      const params: Record<string, string> = { date_from: query.dateFrom, date_to: query.dateTo };
      if (continuationKey !== undefined) params.continuation_key = continuationKey;
      const answer = await this.send('GET', `/accounts/${encodeURIComponent(uid)}/transactions`, { query: params, headers }, parseTransactionPage);
      if (!answer.ok) return answer;
      all.push(...answer.value.transactions);
      continuationKey = answer.value.continuationKey;
      if (continuationKey === undefined) return { ok: true, value: all };
    }
    return { ok: false, problem: { kind: 'too-many-pages', pages: MAX_TRANSACTION_PAGES } };
  }

  private async send<T>(
    method: 'GET' | 'POST',
    path: string,
    parts: { query?: Record<string, string>; body?: object; headers?: Record<string, string> },
    parse: (body: string) => ParseResult<T>,
  ): Promise<ClientResult<T>> {
    const url = new URL(this.options.baseUrl.href);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
    for (const [name, value] of Object.entries(parts.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = {
      ...parts.headers,
      authorization: `Bearer ${this.options.signer.token()}`,
      accept: 'application/json',
    };
    const request: EnableBankingRequest = { method, url: url.href, headers };
    if (parts.body !== undefined) {
      request.body = JSON.stringify(parts.body);
      headers['content-type'] = 'application/json';
    }
    let answer: ConnectorTextResponse;
    try {
      answer = await this.options.transport(request);
    } catch (e) {
      return { ok: false, problem: { kind: e instanceof EnableBankingTransportError ? e.kind : 'unreachable' } };
    }
    if (answer.status < 200 || answer.status > 299) {
      const { error } = parseErrorBody(answer.body);
      return { ok: false, problem: error === undefined ? { kind: 'api', status: answer.status } : { kind: 'api', status: answer.status, error } };
    }
    const parsed = parse(answer.body);
    return parsed.ok ? parsed : { ok: false, problem: { kind: 'malformed', detail: parsed.detail } };
  }
}
