/**
 * The one way connectors reach an institution's server (an OFX server, a SimpleFIN bridge) over the network. The
 * URL is someone else's choice (a directory entry, an operator, a bridge's claim answer), so every request goes
 * through the outbound target policy (src/platform/net/outbound.ts):
 *
 * - https only in production mode; plain http in sandbox mode, for local test servers;
 * - the address is checked when the connection is made, after DNS (an IP literal before connecting), so a name that
 *   resolves to a private or metadata address, now or after a rebinding, is refused; each request opens its own
 *   connection, so each is checked;
 * - redirects are never followed (they could lead past the policy, or carry credentials elsewhere): a 3xx comes back
 *   as it is;
 * - the whole exchange (connect, send, the full answer) must end within timeoutMs, and an answer larger than maxBytes
 *   (declared or as it streams) is dropped.
 *
 * Errors never quote the URL's path or query, which may carry secrets. Answers are returned as bytes; each connector
 * decodes them as its protocol says.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { type PolicyMode, policyLookup, type Resolver, serverUrlProblem, TargetRefusedError } from '../platform/net/outbound.js';

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

/** Errors of node:net and node:tls carry a code such as ECONNRESET; anything else is not quoted. */
function systemCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
}

/** Builds the transport. Rejects with ConnectorHttpError; resolves with any HTTP status, 3xx included. */
export function createConnectorHttp(options: ConnectorHttpOptions): ConnectorHttp {
  const lookup = policyLookup(options.mode, options.resolve);
  return (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.reject(new ConnectorHttpError('refused', 'The address is not a valid URL'));
    }
    const problem = serverUrlProblem(url, options.mode);
    if (problem !== undefined) return Promise.reject(new ConnectorHttpError('refused', `The address is not allowed: ${problem}`));
    // Node would send URL credentials as a Basic header to wherever the URL leads; callers put them in headers.
    if (url.username || url.password) return Promise.reject(new ConnectorHttpError('refused', 'The address may not carry a user name or password'));

    const body = request.body === undefined ? undefined : typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.from(request.body);
    const headers: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) if (name.toLowerCase() !== 'content-length') headers[name] = value;
    if (body !== undefined || request.method === 'POST') headers['content-length'] = body?.length ?? 0;
    const common = { method: request.method, headers, agent: false as const, lookup };

    return new Promise<ConnectorHttpResponse>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const fail = (error: ConnectorHttpError) => {
        settle(() => reject(error));
        req.destroy();
      };
      let req: http.ClientRequest;
      try {
        req =
          url.protocol === 'https:'
            ? https.request(url, { ...common, minVersion: 'TLSv1.2', ...(options.ca ? { ca: options.ca } : {}) })
            : http.request(url, common);
      } catch (error) {
        // A header value Node refuses (a control character, say): nothing was sent.
        const code = systemCode(error);
        return reject(new ConnectorHttpError('network', code ? `The request could not be sent: ${code}` : 'The request could not be sent', code));
      }
      const timer = setTimeout(() => fail(new ConnectorHttpError('timeout', `No answer within ${options.timeoutMs} ms`)), options.timeoutMs);
      const tooLarge = () => new ConnectorHttpError('too-large', `The answer is larger than ${options.maxBytes} bytes`);

      req.on('error', (error) => {
        if (error instanceof TargetRefusedError) return fail(new ConnectorHttpError('refused', `The address is not allowed: ${error.message}`));
        const code = systemCode(error);
        fail(new ConnectorHttpError('network', code ? `The connection failed: ${code}` : 'The connection failed', code));
      });
      req.on('response', (res) => {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          res.destroy();
          return fail(tooLarge());
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            return fail(tooLarge());
          }
          chunks.push(chunk);
        });
        res.on('end', () => settle(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })));
        res.on('error', (error) => {
          const code = systemCode(error);
          fail(new ConnectorHttpError('network', code ? `The answer was cut off: ${code}` : 'The answer was cut off', code));
        });
        // A connection closed before the end of the body; 'end' has not come and will not.
        res.on('close', () => {
          if (!res.complete) fail(new ConnectorHttpError('network', 'The answer was cut off'));
        });
      });
      req.end(body);
    });
  };
}
