import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import type { Keys } from '../../platform/keys.js';
import { createPolicyAgents, type PolicyAgents } from '../../platform/net/keepalive.js';
import { literalHostRefusal, type PolicyMode, policyLookup, type Resolver, TargetRefusedError } from '../../platform/net/outbound.js';
import { deliveryRequestHeaders } from '../request-headers.js';
import { excerpt, responseExcerpt, type Transport } from './transport.js';

export const USER_AGENT = 'Ledgerlink-Delivery/1';

/** Responses are read up to this many bytes; the rest is dropped. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PolicyRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange (connect, send, answer) must end within this. */
  timeoutMs: number;
  /** The outbound target policy mode (config.mode). */
  mode: PolicyMode;
  maxResponseBytes?: number;
  /** Kept-alive connections to reuse (made under the same mode); without them the request opens one of its own. */
  agents?: PolicyAgents;
}

export interface PolicyResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, cut at maxResponseBytes. */
  body: string;
  truncated: boolean;
}

/** Errors of a kept-alive connection the other side closed just as a request went out on it. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/**
 * One HTTP(S) request to a partner-controlled URL, under the outbound target policy: the resolved address is
 * checked when connecting (IP literals before), redirects are returned as they are and never followed, the answer
 * is capped and the whole exchange bounded by a timeout. Without `agents` a fresh connection is made every time;
 * with them a kept-alive connection to the same origin is reused (checked when it was made), and a request whose
 * reused connection turns out closed before any answer goes once more on a fresh one, within the same timeout.
 * Rejects on network errors, timeouts and policy refusals (TargetRefusedError).
 */
export function requestWithPolicy(spec: PolicyRequest): Promise<PolicyResponse> {
  let url: URL;
  try {
    url = new URL(spec.url);
  } catch {
    return Promise.reject(new Error(`"${spec.url}" is not a URL`));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new Error(`${url.protocol} URLs are not supported`));
  const refusal = literalHostRefusal(url, spec.mode);
  if (refusal) return Promise.reject(new TargetRefusedError(refusal));
  const max = spec.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const body = spec.body === undefined ? undefined : Buffer.from(spec.body, 'utf8');
  const headers: Record<string, string | number> = { 'user-agent': USER_AGENT, ...spec.headers };
  if (body) headers['content-length'] = body.length;
  const secure = url.protocol === 'https:';
  const fresh = { method: spec.method, headers, agent: false as const, lookup: spec.agents?.lookup ?? policyLookup(spec.mode) };
  const pooled = spec.agents ? { method: spec.method, headers, agent: secure ? spec.agents.https : spec.agents.http } : undefined;

  return new Promise<PolicyResponse>((resolve, reject) => {
    let req: http.ClientRequest;
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${spec.timeoutMs} ms`)), spec.timeoutMs);
    const settle =
      <T>(fn: (v: T) => void) =>
      (v: T) => {
        clearTimeout(timer);
        fn(v);
      };
    const done = settle(resolve);
    const failed = settle(reject);
    const send = (options: http.RequestOptions, mayRetry: boolean) => {
      let answered = false;
      req = secure ? https.request(url, { ...options, minVersion: 'TLSv1.2' }) : http.request(url, options);
      req.on('error', (e: NodeJS.ErrnoException) => {
        // Nothing was answered on a connection the listener had already closed: most likely nothing was read either.
        if (mayRetry && !answered && req.reusedSocket && STALE_CONNECTION.has(e.code ?? '')) return send(fresh, false);
        failed(e);
      });
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = (truncated: boolean) =>
          done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), truncated });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk.subarray(0, max - size));
          size += chunk.length;
          if (size >= max) {
            finish(size > max);
            res.destroy();
          }
        });
        res.on('end', () => finish(false));
        res.on('error', failed);
      });
      req.end(body);
    };
    send(pooled ?? fresh, pooled !== undefined);
  });
}

export interface HttpTransportOptions {
  mode: PolicyMode;
  timeoutMs: number;
  /** Signatures carry the time of each attempt. */
  clock: Clock;
  /** To decrypt signing secrets. */
  keys: Keys;
  /** Connections kept open to one target at once (the worker's concurrency: a busy target can use every slot). */
  maxSocketsPerTarget: number;
  /** Stands for DNS (tests). */
  resolve?: Resolver;
}

export interface HttpTransport {
  send: Transport;
  /** Closes the kept-alive connections. */
  close(): void;
}

/**
 * Delivers txpush and webhook rows: POST the stored body with the stored headers plus `webhook-id` (the event id),
 * `webhook-timestamp` and, when a signing secret is set, `webhook-signature`. Only HTTP 200 acknowledges.
 * Connections to a target are kept alive between deliveries (createPolicyAgents).
 */
export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  const agents = createPolicyAgents({ mode: options.mode, maxSocketsPerOrigin: options.maxSocketsPerTarget, resolve: options.resolve });
  const send: Transport = async (delivery) => {
    const headers = deliveryRequestHeaders(options.keys, delivery, epochSeconds(options.clock));
    try {
      const res = await requestWithPolicy({
        url: delivery.target,
        method: delivery.method as 'POST',
        headers,
        body: delivery.body,
        timeoutMs: options.timeoutMs,
        mode: options.mode,
        maxResponseBytes: 4096,
        agents,
      });
      const response = responseExcerpt(res.body, res.truncated);
      if (res.status === 200) return { ok: true, statusCode: 200, error: null, response };
      if (res.status >= 300 && res.status < 400) {
        return {
          ok: false,
          statusCode: res.status,
          response,
          error: `HTTP ${res.status} redirect${res.headers.location ? ` to ${excerpt(res.headers.location, 300)}` : ''} not followed; the listener must answer 200`,
        };
      }
      const text = excerpt(res.body);
      return { ok: false, statusCode: res.status, error: `HTTP ${res.status}${text ? `: ${text}` : ''}; the listener must answer 200`, response };
    } catch (e) {
      return { ok: false, statusCode: null, error: (e as Error).message };
    }
  };
  return { send, close: () => agents.destroy() };
}
