/**
 * The two SimpleFIN requests: claiming a setup token's access URL, and reading `/accounts` with it. HTTP goes
 * through an injected transport, so the connector runs against a local bridge in tests and against the network
 * (createHttpTransport) in service; the transport bounds how long an answer may take and how large it may be.
 * Credentials travel only in the Authorization header, never in the request URL.
 */
import type { SimplefinProblem } from './errors.js';
import { checkBridgeUrl, splitAccessUrl, type UrlPolicy } from './token.js';
import { parseAccountSet, type SimplefinAccountSet } from './wire.js';

export interface SimplefinRequest {
  method: 'GET' | 'POST';
  /** Never holds credentials. */
  url: string;
  headers: Record<string, string>;
}

export interface SimplefinHttpResponse {
  status: number;
  body: string;
}

/** Sends one request. Rejects with SimplefinTransportError for timeouts, oversized answers and network failures. */
export type SimplefinTransport = (request: SimplefinRequest) => Promise<SimplefinHttpResponse>;

export class SimplefinTransportError extends Error {
  override readonly name = 'SimplefinTransportError';
  constructor(
    readonly kind: 'timeout' | 'too-large' | 'unreachable',
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
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * A transport on Node's fetch. TLS certificates are verified (fetch's default), redirects are not followed (a
 * redirect would carry the Authorization header elsewhere: it comes back as its 3xx status), and the whole
 * exchange, body included, must finish within timeoutMs and maxBytes.
 */
export function createHttpTransport(options: HttpTransportOptions = {}): SimplefinTransport {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  return async (request) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new SimplefinTransportError('timeout', 'the bridge did not answer in time')), timeoutMs);
    try {
      const headers: Record<string, string> = {};
      // fetch computes Content-Length from the body itself.
      for (const [name, value] of Object.entries(request.headers)) if (name.toLowerCase() !== 'content-length') headers[name] = value;
      const response = await fetch(request.url, {
        method: request.method,
        headers,
        body: request.method === 'POST' ? new Uint8Array(0) : undefined,
        redirect: 'manual',
        signal: controller.signal,
      });
      const declared = Number(response.headers.get('content-length') ?? Number.NaN);
      if (declared > maxBytes) {
        controller.abort();
        throw new SimplefinTransportError('too-large', 'the answer is larger than allowed');
      }
      return { status: response.status, body: await readLimited(response, maxBytes, controller) };
    } catch (e) {
      if (e instanceof SimplefinTransportError) throw e;
      const reason: unknown = controller.signal.reason;
      if (controller.signal.aborted && reason instanceof SimplefinTransportError) throw reason;
      // The original error is not kept: its text may quote the address.
      throw new SimplefinTransportError('unreachable', 'the bridge could not be reached', systemCode(e));
    } finally {
      clearTimeout(timer);
    }
  };
}

async function readLimited(response: Response, maxBytes: number, controller: AbortController): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      controller.abort();
      throw new SimplefinTransportError('too-large', 'the answer is larger than allowed');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function systemCode(e: unknown): string | undefined {
  const cause = e instanceof Error ? (e.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(cause.code) ? cause.code : undefined;
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
      if (e instanceof SimplefinTransportError) return { ok: false, problem: { kind: e.kind } };
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
