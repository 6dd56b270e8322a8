import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import type { Keys } from '../../platform/keys.js';
import { literalHostRefusal, type PolicyMode, policyLookup, TargetRefusedError } from '../../platform/net/outbound.js';
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
}

export interface PolicyResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, cut at maxResponseBytes. */
  body: string;
  truncated: boolean;
}

/**
 * One HTTP(S) request to a partner-controlled URL, under the outbound target policy: the resolved address is
 * checked when connecting (IP literals before), redirects are returned as they are and never followed, a fresh
 * connection is made every time (so every request is checked again), the answer is capped and the whole exchange
 * bounded by a timeout. Rejects on network errors, timeouts and policy refusals (TargetRefusedError).
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
  const options = { method: spec.method, headers, agent: false as const, lookup: policyLookup(spec.mode) };

  return new Promise<PolicyResponse>((resolve, reject) => {
    const req = url.protocol === 'https:' ? https.request(url, { ...options, minVersion: 'TLSv1.2' }) : http.request(url, options);
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${spec.timeoutMs} ms`)), spec.timeoutMs);
    const settle =
      <T>(fn: (v: T) => void) =>
      (v: T) => {
        clearTimeout(timer);
        fn(v);
      };
    const done = settle(resolve);
    const failed = settle(reject);
    req.on('error', failed);
    req.on('response', (res) => {
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
  });
}

export interface HttpTransportOptions {
  mode: PolicyMode;
  timeoutMs: number;
  /** Signatures carry the time of each attempt. */
  clock: Clock;
  /** To decrypt signing secrets. */
  keys: Keys;
}

/**
 * Delivers txpush and webhook rows: POST the stored body with the stored headers plus `webhook-id` (the event id),
 * `webhook-timestamp` and, when a signing secret is set, `webhook-signature`. Only HTTP 200 acknowledges.
 */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  return async (delivery) => {
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
}
