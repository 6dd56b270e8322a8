/**
 * The two SimpleFIN requests: claiming a setup token's access URL, and reading `/accounts` with it. HTTP goes
 * through an injected transport, so the connector runs against a local bridge in tests and against the network
 * (createHttpTransport, over the connectors' HTTP transport) in service; the transport applies the outbound target
 * policy when connecting and bounds how long an answer may take and how large it may be. Credentials travel only in
 * the Authorization header, never in the request URL.
 */
import type { PolicyMode, Resolver } from '../../platform/net/outbound.js';
import { ConnectorHttpError, type ConnectorTextResponse, createConnectorHttp } from '../http-transport.js';
import type { SimplefinProblem } from './errors.js';
import { checkBridgeUrl, splitAccessUrl, type UrlPolicy } from './token.js';
import { parseAccountSet, type SimplefinAccountSet } from './wire.js';

export interface SimplefinRequest {
  method: 'GET' | 'POST';
  /** Never holds credentials. */
  url: string;
  headers: Record<string, string>;
}

export type SimplefinHttpResponse = ConnectorTextResponse;

/** Sends one request. Rejects with SimplefinTransportError for refusals, timeouts, oversized answers and network failures. */
export type SimplefinTransport = (request: SimplefinRequest) => Promise<SimplefinHttpResponse>;

export class SimplefinTransportError extends Error {
  override readonly name = 'SimplefinTransportError';
  constructor(
    /** `refused`: the address the bridge's name led to is one the outbound target policy refuses; nothing was sent. */
    readonly kind: 'refused' | 'timeout' | 'too-large' | 'unreachable',
    message: string,
    /** A system error code such as ECONNREFUSED, when there was one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The bridge builds answers from its cached bank data, but a first sync behind it can take a while. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Months of transactions of a dozen accounts stay well below this. */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export interface HttpTransportOptions {
  /** The service mode (config.mode): https only in production. */
  mode: PolicyMode;
  timeoutMs?: number;
  maxBytes?: number;
  /** Resolves host names (tests stand in for DNS); dns.lookup otherwise. */
  resolve?: Resolver;
  /** Certificates trusted besides the system's (a local test bridge's own). */
  ca?: string | Buffer;
}

/**
 * A transport over HTTP(S) (../http-transport.ts): TLS certificates verified, the address checked by the outbound
 * target policy when connecting, redirects not followed (a redirect would carry the Authorization header elsewhere:
 * it comes back as its 3xx status), and the whole exchange, body included, within timeoutMs and maxBytes. Answers
 * are read as UTF-8, as the protocol's JSON is.
 */
export function createHttpTransport(options: HttpTransportOptions): SimplefinTransport {
  const send = createConnectorHttp({
    mode: options.mode,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
  });
  return async (request) => {
    try {
      const answer = await send({ method: request.method, url: request.url, headers: request.headers, ...(request.method === 'POST' ? { body: '' } : {}) });
      return { status: answer.status, body: answer.body.toString('utf8') };
    } catch (e) {
      // The original messages are not kept: they may name the bridge's address.
      if (!(e instanceof ConnectorHttpError)) throw new SimplefinTransportError('unreachable', 'the bridge could not be reached');
      switch (e.reason) {
        case 'refused':
          throw new SimplefinTransportError('refused', "the bridge's address is one this service may not contact");
        case 'timeout':
          throw new SimplefinTransportError('timeout', 'the bridge did not answer in time');
        case 'too-large':
          throw new SimplefinTransportError('too-large', 'the answer is larger than allowed');
        case 'network':
          throw new SimplefinTransportError('unreachable', 'the bridge could not be reached', e.code);
      }
    }
  };
}

export interface AccountsQuery {
  /** Epoch seconds: transactions on or after. */
  startDate?: number;
  /** Epoch seconds: transactions before (not on). */
  endDate?: number;
  /** Include pending transactions. */
  pending?: boolean;
  /** 2 asks for the v2 shape (connections, errlist); a v1 bridge ignores it and the v1 answer is read as well. */
  version?: 1 | 2;
  /** Only these accounts. */
  accountIds?: readonly string[];
  balancesOnly?: boolean;
}

export type ClientResult<T> = { ok: true; value: T } | { ok: false; problem: SimplefinProblem };

/** A bridge whose name resolved to an address the policy refuses (found when connecting, so after the URL checks). */
const REFUSED_AT_CONNECT = "The bridge's address is not allowed: its name leads to an address this service may not contact.";

/** The longest access URL accepted from a claim. */
const MAX_ACCESS_URL_LENGTH = 2048;

export interface SimplefinClientOptions {
  transport: SimplefinTransport;
  allowUrl: UrlPolicy;
}

export class SimplefinClient {
  constructor(private readonly options: SimplefinClientOptions) {}

  /** Claims a setup token's access URL (once: the bridge refuses a second claim with 403). */
  async claim(claimUrl: string): Promise<ClientResult<string>> {
    const checked = checkBridgeUrl(claimUrl, 'claim', this.options.allowUrl);
    if (!checked.ok) return { ok: false, problem: { kind: 'url-refused', reason: checked.reason } };
    const answer = await this.send({ method: 'POST', url: checked.value.href, headers: { 'content-length': '0', accept: 'text/plain' } });
    if (!answer.ok) return answer;
    const { status, body } = answer.value;
    if (status !== 200) {
      if (status === 402 || status === 429 || status >= 500 || status < 400) return { ok: false, problem: statusProblem(status) };
      return { ok: false, problem: { kind: 'claim-refused', status } };
    }
    const text = body.trim();
    const shape = text.length <= MAX_ACCESS_URL_LENGTH ? checkBridgeUrl(text, 'access') : undefined;
    if (!shape?.ok) return { ok: false, problem: { kind: 'malformed', detail: 'the claim answer is not an access URL' } };
    const allowed = checkBridgeUrl(text, 'access', this.options.allowUrl);
    if (!allowed.ok) return { ok: false, problem: { kind: 'url-refused', reason: allowed.reason } };
    return { ok: true, value: allowed.value.href };
  }

  /** Reads `/accounts`; the answer is validated (wire.ts) and holds the bridge's own errors beside the data. */
  async fetchAccounts(accessUrl: string, query: AccountsQuery = {}): Promise<ClientResult<SimplefinAccountSet>> {
    const request = accountsRequest(accessUrl, query, this.options.allowUrl);
    if (!request.ok) return request;
    const answer = await this.send(request.value);
    if (!answer.ok) return answer;
    const { status, body } = answer.value;
    if (status !== 200) return { ok: false, problem: statusProblem(status) };
    const parsed = parseAccountSet(body);
    return parsed.ok ? parsed : { ok: false, problem: { kind: 'malformed', detail: parsed.detail } };
  }

  private async send(request: SimplefinRequest): Promise<ClientResult<SimplefinHttpResponse>> {
    try {
      return { ok: true, value: await this.options.transport(request) };
    } catch (e) {
      if (e instanceof SimplefinTransportError) {
        if (e.kind === 'refused') return { ok: false, problem: { kind: 'url-refused', reason: REFUSED_AT_CONNECT } };
        return { ok: false, problem: { kind: e.kind } };
      }
      return { ok: false, problem: { kind: 'unreachable' } };
    }
  }
}

/** The `/accounts` request for an access URL: its credentials moved into a Basic Authorization header. */
export function accountsRequest(accessUrl: string, query: AccountsQuery, allowUrl: UrlPolicy): ClientResult<SimplefinRequest> {
  const checked = checkBridgeUrl(accessUrl, 'access', allowUrl);
  if (!checked.ok) return { ok: false, problem: { kind: 'url-refused', reason: checked.reason } };
  const { base, authorization } = splitAccessUrl(checked.value);
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/accounts`;
  url.search = '';
  const params = url.searchParams;
  if (query.startDate !== undefined) params.set('start-date', String(Math.floor(query.startDate)));
  if (query.endDate !== undefined) params.set('end-date', String(Math.floor(query.endDate)));
  if (query.pending) params.set('pending', '1');
  if (query.balancesOnly) params.set('balances-only', '1');
  for (const id of query.accountIds ?? []) params.append('account', id);
  if (query.version === 2) params.set('version', '2');
  return { ok: true, value: { method: 'GET', url: url.href, headers: { authorization, accept: 'application/json' } } };
}

function statusProblem(status: number): SimplefinProblem {
  if (status === 401 || status === 403) return { kind: 'access-refused' };
  if (status === 402) return { kind: 'payment-required' };
  if (status === 429) return { kind: 'rate-limited' };
  if (status >= 500) return { kind: 'server-error', status };
  return { kind: 'unexpected-status', status };
}
