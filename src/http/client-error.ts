import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorName } from '../contract/errors/catalogue.js';
import { ServiceError } from '../contract/errors/service-error.js';
import { HSTS } from './plugins/transport.js';

/** Node's errors for requests its parser or its timers refused, by code; anything else is a malformed request. */
const BY_NODE_CODE: Record<string, ErrorName> = {
  HPE_HEADER_OVERFLOW: 'HeadersTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'RequestTimeout',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'PayloadTooLarge',
};

/** The catalogue error for a request Node refused before any route saw it. */
export function clientErrorOf(error: NodeJS.ErrnoException & { reason?: unknown }): ServiceError {
  const name = BY_NODE_CODE[error.code ?? ''] ?? 'MalformedHttpRequest';
  // llhttp's reason is a fixed phrase ("Invalid method encountered"); the request's own bytes are never echoed.
  const reason = name === 'MalformedHttpRequest' && typeof error.reason === 'string' ? error.reason : undefined;
  return new ServiceError(name, reason ? `Malformed HTTP request: ${reason}` : undefined);
}

/**
 * The whole raw HTTP response for such a request, in the documented error format. Always JSON, as there is no
 * parsed Accept to negotiate with, and `Connection: close`, since the rest of the connection cannot be parsed.
 */
export function clientErrorResponse(error: NodeJS.ErrnoException, tls: boolean): string {
  const err = clientErrorOf(error);
  const body = JSON.stringify({ code: err.code, message: err.message });
  return [
    `HTTP/1.1 ${err.status} ${http.STATUS_CODES[err.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    ...(tls ? [`Strict-Transport-Security: ${HSTS}`] : []),
    '',
    body,
  ].join('\r\n');
}

/**
 * Fastify's clientErrorHandler: answers malformed requests (400), oversized request lines and headers (431) and
 * requests that never finished arriving (408) like every other error, instead of Fastify's own body. As Node
 * does, it writes nothing when the socket is gone or a response on it has already started (keep-alive), which
 * the answer would corrupt.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.trace({ err: error }, 'client error');
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(clientErrorResponse(error, 'encrypted' in socket));
  socket.destroy(error);
}
