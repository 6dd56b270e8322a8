import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyWebhook, WebhookVerificationError, type VerifiedMessage, type VerifyOptions } from './webhooks.js';

/**
 * Answers the TxPUSH listener verification: a GET with `?txpush_verification_code=CODE` gets 200, text/plain, the
 * code as the whole body. Returns whether the request was one (otherwise nothing was written).
 */
export function answerTxPushVerification(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method !== 'GET') return false;
  const code = new URL(request.url ?? '/', 'http://listener').searchParams.get('txpush_verification_code');
  if (code === null) return false;
  response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  response.end(code);
  return true;
}

export interface PushListenerOptions extends VerifyOptions {
  /** The signing keys (`whsec_...`) of the subscriptions this listener serves; read at every delivery. */
  signingKeys: () => Iterable<string>;
  /**
   * Called once per event id with the verified delivery. The delivery is acknowledged (200) when it resolves;
   * if it throws, the service is answered 500 and sends it again later.
   */
  onMessage: (message: VerifiedMessage) => unknown;
  /** Called with deliveries that fail verification (answered 401); default: ignored. */
  onRejected?: (error: WebhookVerificationError, request: IncomingMessage) => void;
  /** Largest body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** How many recent event ids are remembered to acknowledge repeats without handling them again (default 10,000). */
  rememberIds?: number;
}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped, so the connection can still carry the 413.
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size <= limit ? Buffer.concat(chunks) : undefined));
    request.on('error', reject);
  });
}

/**
 * A node:http request handler for a TxPUSH (or Connect webhook) listener: answers the verification GET, verifies
 * every POST's signature, drops repeats of an event id it already handled (deliveries are at least once), and
 * acknowledges with 200 once `onMessage` is done.
 */
export function createPushListener(options: PushListenerOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const seen = new Set<string>();
  const remember = options.rememberIds ?? 10_000;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (answerTxPushVerification(request, response)) return;
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'GET, POST' }).end();
      return;
    }
    const body = await readBody(request, options.maxBodyBytes ?? 4 * 1024 * 1024);
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    let message: VerifiedMessage;
    try {
      message = verifyWebhook(options.signingKeys(), body, request.headers, options);
    } catch (e) {
      if (!(e instanceof WebhookVerificationError)) throw e;
      options.onRejected?.(e, request);
      response.writeHead(401, { 'content-type': 'text/plain' }).end(e.message);
      return;
    }
    if (!seen.has(message.id)) {
      await options.onMessage(message);
      seen.add(message.id);
      // A Set iterates in insertion order: the first entry is the oldest.
      if (seen.size > remember) seen.delete(seen.values().next().value!);
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
  };
  return (request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end();
    });
  };
}
