import type { IncomingHttpHeaders } from 'node:http';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import type { Keys } from '../../platform/keys.js';
import { outboundRequest } from '../../platform/net/http-client.js';
import { createPolicyAgents, type PolicyAgents } from '../../platform/net/keepalive.js';
import type { PolicyMode, Resolver } from '../../platform/net/outbound.js';
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

/**
 * One HTTP(S) request to a partner-controlled URL through the outbound client (src/platform/net/http-client.ts):
 * the policy checked on every connection, redirects returned as they are, the whole exchange bounded by a timeout,
 * and the answer read up to maxResponseBytes, the rest dropped (a listener's answer is only kept as an excerpt).
 * Rejects with OutboundHttpError (its reason `refused` for policy refusals), whose message says what went wrong.
 */
export async function requestWithPolicy(spec: PolicyRequest): Promise<PolicyResponse> {
  const res = await outboundRequest({
    url: spec.url,
    method: spec.method,
    headers: { 'user-agent': USER_AGENT, ...spec.headers },
    body: spec.body,
    mode: spec.mode,
    timeoutMs: spec.timeoutMs,
    maxBytes: spec.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    oversized: 'truncate',
    agents: spec.agents,
  });
  return { status: res.status, headers: res.headers, body: res.body.toString('utf8'), truncated: res.truncated };
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
