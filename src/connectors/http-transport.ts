/**
 * The one way connectors reach an institution's server (an OFX server, a SimpleFIN bridge) over the network. The
 * URL is someone else's choice (a directory entry, an operator, a bridge's claim answer), so every request goes
 * through the outbound client (src/platform/net/http-client.ts) under the outbound target policy
 * (src/platform/net/outbound.ts):
 *
 * - https only in production mode; plain http in sandbox mode, for local test servers; no credentials in the URL;
 * - the address is checked when the connection is made, after DNS (an IP literal or `localhost` before connecting),
 *   so a name that resolves to a private or metadata address, now or after a rebinding, is refused; each request
 *   opens its own connection, so each is checked;
 * - redirects are never followed (they could lead past the policy, or carry credentials elsewhere): a 3xx comes back
 *   as it is;
 * - the whole exchange (connect, send, the full answer) must end within timeoutMs, and an answer larger than maxBytes
 *   (declared or as it streams) fails the request: a protocol answer is read whole or not at all.
 *
 * Errors never quote the URL's path or query, which may carry secrets. Answers are returned as bytes; each connector
 * decodes them as its protocol says.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { OutboundHttpError, type OutboundFailure, outboundRequest } from '../platform/net/http-client.js';
import { type PolicyMode, type Resolver, serverUrlProblem } from '../platform/net/outbound.js';

export interface ConnectorHttpOptions {
  /** The service mode (config.mode): which schemes and addresses the policy allows. */
  mode: PolicyMode;
  /** The longest a whole exchange may take, in milliseconds. */
  timeoutMs: number;
  /** The largest answer body read, in bytes. */
  maxBytes: number;
  /** Resolves host names; dns.lookup unless given (tests pass one that stands for DNS). */
  resolve?: Resolver;
  /** Certificates trusted besides the system's, for a server with its own (a local test server). */
  ca?: string | Buffer;
}

export interface ConnectorHttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface ConnectorHttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An answer as a connector's own transport hands it on: its status, and its body decoded as the protocol says. */
export interface ConnectorTextResponse {
  status: number;
  body: string;
}

/** Why no answer came: the policy refused the URL or its address, the time ran out, the answer was too large, or the network failed. */
export type ConnectorHttpFailure = 'refused' | 'timeout' | 'too-large' | 'network';

export class ConnectorHttpError extends Error {
  override readonly name = 'ConnectorHttpError';
  constructor(
    readonly reason: ConnectorHttpFailure,
    message: string,
    /** A system error code such as ECONNREFUSED, when there was one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export type ConnectorHttp = (request: ConnectorHttpRequest) => Promise<ConnectorHttpResponse>;

const MESSAGES: Record<OutboundFailure, (e: OutboundHttpError, options: ConnectorHttpOptions) => [ConnectorHttpFailure, string]> = {
  url: () => ['refused', 'The address is not a valid URL'],
  refused: (e) => ['refused', `The address is not allowed: ${e.message}`],
  timeout: (_, options) => ['timeout', `No answer within ${options.timeoutMs} ms`],
  'too-large': (_, options) => ['too-large', `The answer is larger than ${options.maxBytes} bytes`],
  unsent: (e) => ['network', e.code ? `The request could not be sent: ${e.code}` : 'The request could not be sent'],
  network: (e) => ['network', e.code ? `The connection failed: ${e.code}` : 'The connection failed'],
  'cut-off': (e) => ['network', e.code ? `The answer was cut off: ${e.code}` : 'The answer was cut off'],
};

/** Builds the transport. Rejects with ConnectorHttpError; resolves with any HTTP status, 3xx included. */
export function createConnectorHttp(options: ConnectorHttpOptions): ConnectorHttp {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new ConnectorHttpError('refused', 'The address is not a valid URL');
    }
    const problem = serverUrlProblem(url, options.mode);
    if (problem !== undefined) throw new ConnectorHttpError('refused', `The address is not allowed: ${problem}`);
    // Node would send URL credentials as a Basic header to wherever the URL leads; callers put them in headers.
    if (url.username || url.password) throw new ConnectorHttpError('refused', 'The address may not carry a user name or password');
    try {
      const answer = await outboundRequest({
        url,
        method: request.method,
        headers: request.headers,
        body: request.body,
        mode: options.mode,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
        oversized: 'refuse',
        resolve: options.resolve,
        ca: options.ca,
      });
      return { status: answer.status, headers: answer.headers, body: answer.body };
    } catch (error) {
      if (!(error instanceof OutboundHttpError)) throw new ConnectorHttpError('network', 'The connection failed');
      const [reason, message] = MESSAGES[error.reason](error, options);
      throw new ConnectorHttpError(reason, message, reason === 'network' ? error.code : undefined);
    }
  };
}
