/**
 * The HTTP exchange with an OFX server: one POST per request, answered by one OFX document. The connector is
 * written against OfxTransport, so the wiring decides how institutions are reached; createHttpTransport is the
 * ready-made one over node's fetch, with an outbound URL policy, a time limit for the whole exchange, a size limit
 * on the answer, and no redirects (a redirect could lead past the URL policy).
 */
import { decodeOfxBytes } from './markup.js';

export interface OfxTransportRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface OfxTransportResponse {
  status: number;
  body: string;
}

export type OfxTransport = (request: OfxTransportRequest) => Promise<OfxTransportResponse>;

/** Why a transport gave no answer; the connector turns every cause into aggregation status 102. */
export class OfxTransportError extends Error {
  override readonly name = 'OfxTransportError';
  constructor(
    readonly reason: 'network' | 'timeout' | 'too-large' | 'refused-url',
    message: string,
  ) {
    super(message);
  }
}

export interface HttpTransportOptions {
  /** The longest a whole exchange (connect, send, receive the body) may take. */
  timeoutMs: number;
  /** The largest answer body read, in bytes. */
  maxBytes: number;
  /** Checks an institution's URL against the outbound policy: undefined to allow, or the reason it is refused. */
  allowUrl: (url: string) => string | undefined;
}

/** A transport over node's fetch. Bodies are sent as UTF-8 and answers decoded by the character set they declare. */
export function createHttpTransport(options: HttpTransportOptions): OfxTransport {
  return async ({ url, body, headers }) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new OfxTransportError('refused-url', 'The institution URL is not a valid URL');
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new OfxTransportError('refused-url', `The ${target.protocol} scheme is not HTTP`);
    const refusal = options.allowUrl(url);
    if (refusal !== undefined) throw new OfxTransportError('refused-url', refusal);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    try {
      const response = await fetch(target, { method: 'POST', body, headers, redirect: 'manual', signal: controller.signal });
      const declared = Number(response.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        controller.abort();
        throw new OfxTransportError('too-large', `The answer is larger than ${options.maxBytes} bytes`);
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      if (response.body) {
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > options.maxBytes) {
            controller.abort();
            throw new OfxTransportError('too-large', `The answer is larger than ${options.maxBytes} bytes`);
          }
          chunks.push(value);
        }
      }
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.byteLength;
      }
      return { status: response.status, body: decodeOfxBytes(bytes) };
    } catch (error) {
      if (error instanceof OfxTransportError) throw error;
      if (timedOut) throw new OfxTransportError('timeout', `No answer within ${options.timeoutMs} ms`);
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      throw new OfxTransportError('network', typeof cause === 'string' ? cause : error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  };
}
