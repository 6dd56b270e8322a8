/**
 * The one outbound HTTP(S) client: every request Ledgerlink makes to an address someone else chose (partners'
 * listeners and webhooks, institutions' servers) goes through it, under the outbound target policy (outbound.ts):
 *
 * - the address is checked when each connection is made, after DNS (an IP literal before connecting); kept-alive
 *   connections (keepalive.ts) were checked when they were made;
 * - redirects are never followed: a 3xx comes back as it is;
 * - the whole exchange (a free connection, connect, send, the full answer) must end within timeoutMs;
 * - an answer larger than maxBytes is cut there (`truncate`: deliveries keep the start of a listener's answer) or
 *   fails the request (`refuse`: connectors need the whole answer or none), declared or as it streams;
 * - TLS 1.2 or later, certificates verified (against `ca` too, when given).
 *
 * Callers keep their own URL rules and words for failures; this client says which kind of failure it was.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { PolicyAgents } from './keepalive.js';
import { literalHostRefusal, type PolicyMode, policyLookup, type Resolver, TargetRefusedError } from './outbound.js';

/** What to do with an answer larger than maxBytes: keep its first maxBytes bytes, or fail the request. */
export type Oversized = 'truncate' | 'refuse';

export interface OutboundRequest {
  url: string | URL;
  method: 'GET' | 'POST' | 'PUT';
  /** Sent as given, except Content-Length, which is the body's own. */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The outbound target policy mode (config.mode). */
  mode: PolicyMode;
  /** The whole exchange must end within this. */
  timeoutMs: number;
  maxBytes: number;
  oversized: Oversized;
  /** Kept-alive connections to reuse (made under the same mode); without them the request opens one of its own. */
  agents?: PolicyAgents;
  /** Stands for DNS (tests); dns.lookup otherwise. */
  resolve?: Resolver;
  /** Certificates trusted besides the system's, for a server with its own (a local test server). */
  ca?: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, at most maxBytes of it. */
  body: Buffer;
  /** More than maxBytes had come when it was cut (an answer cut exactly at maxBytes reads as whole). */
  truncated: boolean;
}

/**
 * Why no answer came: `url`, not an http(s) URL; `refused`, the policy refused the address; `timeout`; `too-large`
 * (oversized `refuse`); `unsent`, Node refused the request itself (a header value, say); `network`, the connection
 * failed; `cut-off`, the answer ended early.
 */
export type OutboundFailure = 'url' | 'refused' | 'timeout' | 'too-large' | 'unsent' | 'network' | 'cut-off';

/** The error the client rejects with; its message is the underlying one (which may quote the address). */
export class OutboundHttpError extends Error {
  override readonly name = 'OutboundHttpError';
  constructor(
    readonly reason: OutboundFailure,
    message: string,
    /** A system error code such as ECONNREFUSED, when there was one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Errors of a kept-alive connection the other side closed just as a request went out on it. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/** Errors of node:net and node:tls carry a code such as ECONNRESET; anything else is not quoted. */
function systemCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
}

function failure(reason: OutboundFailure, error: Error): OutboundHttpError {
  return new OutboundHttpError(reason, error.message, systemCode(error));
}

/**
 * One HTTP(S) exchange under the outbound target policy (see the file's comment). With `agents`, a kept-alive
 * connection to the same origin is reused, and a request whose reused connection turns out closed before any answer
 * goes once more on a fresh one, within the same timeout. Resolves with any HTTP status; rejects with
 * OutboundHttpError.
 */
export function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = typeof request.url === 'string' ? new URL(request.url) : request.url;
  } catch {
    return Promise.reject(new OutboundHttpError('url', `"${request.url}" is not a URL`));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundHttpError('url', `${url.protocol} URLs are not supported`));
  const refusal = literalHostRefusal(url, request.mode);
  if (refusal) return Promise.reject(new OutboundHttpError('refused', refusal, 'ETARGETREFUSED'));

  const { maxBytes, agents } = request;
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.from(request.body);
  const headers: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) if (name.toLowerCase() !== 'content-length') headers[name] = value;
  if (body !== undefined || request.method !== 'GET') headers['content-length'] = body?.length ?? 0;
  const secure = url.protocol === 'https:';
  const tls = { minVersion: 'TLSv1.2' as const, ...(request.ca ? { ca: request.ca } : {}) };
  const fresh: http.RequestOptions = { method: request.method, headers, agent: false, lookup: agents?.lookup ?? policyLookup(request.mode, request.resolve) };
  const pooled: http.RequestOptions | undefined = agents ? { method: request.method, headers, agent: secure ? agents.https : agents.http } : undefined;

  return new Promise<OutboundResponse>((resolve, reject) => {
    let req: http.ClientRequest | undefined;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const fail = (error: OutboundHttpError) => {
      settle(() => reject(error));
      req?.destroy();
    };
    const timer = setTimeout(() => fail(new OutboundHttpError('timeout', `no answer within ${request.timeoutMs} ms`)), request.timeoutMs);

    const send = (options: http.RequestOptions, mayRetry: boolean) => {
      let answered = false;
      let sent: http.ClientRequest;
      try {
        sent = secure ? https.request(url, { ...options, ...tls }) : http.request(url, options);
      } catch (error) {
        return fail(failure('unsent', error as Error));
      }
      req = sent;
      sent.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        // Nothing was answered on a connection the other side had already closed: most likely nothing was read either.
        if (mayRetry && !answered && sent.reusedSocket && STALE_CONNECTION.has(error.code ?? '')) return send(fresh, false);
        fail(error instanceof TargetRefusedError ? new OutboundHttpError('refused', error.message, error.code) : failure('network', error));
      });
      sent.on('response', (res) => {
        answered = true;
        const tooLarge = () => {
          res.destroy();
          fail(new OutboundHttpError('too-large', `the answer is larger than ${maxBytes} bytes`));
        };
        const declared = Number(res.headers['content-length']);
        if (request.oversized === 'refuse' && Number.isFinite(declared) && declared > maxBytes) return tooLarge();
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = (truncated: boolean) =>
          settle(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated }));
        res.on('data', (chunk: Buffer) => {
          if (request.oversized === 'refuse') {
            if (size + chunk.length > maxBytes) return tooLarge();
          } else if (size + chunk.length >= maxBytes) {
            // The rest is not wanted: what was kept is the answer.
            chunks.push(chunk.subarray(0, maxBytes - size));
            finish(size + chunk.length > maxBytes);
            return res.destroy();
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => finish(false));
        res.on('error', (error) => fail(failure('cut-off', error)));
        // A connection closed before the end of the body; 'end' has not come and will not.
        res.on('close', () => {
          if (!res.complete) fail(new OutboundHttpError('cut-off', 'the answer was cut off'));
        });
      });
      sent.end(body);
    };
    send(pooled ?? fresh, pooled !== undefined);
  });
}
