import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientErrorHandler, clientErrorResponse } from '../../src/http/client-error.js';

const nodeError = (code: string, reason?: string) => Object.assign(new Error(code), { code, ...(reason ? { reason } : {}) });

/** A socket that records what the handler does to it. */
function fakeSocket(extra: Record<string, unknown> = {}) {
  const socket = {
    writable: true,
    destroyed: false,
    written: [] as string[],
    destroyedWith: undefined as unknown,
    write(data: string) {
      this.written.push(data);
      return true;
    },
    destroy(e: unknown) {
      this.destroyedWith = e;
      this.destroyed = true;
    },
    ...extra,
  };
  return socket;
}
const app = { log: { trace: () => undefined } } as unknown as FastifyInstance;
const handle = (error: Error, socket: ReturnType<typeof fakeSocket>) => clientErrorHandler.call(app, error, socket as unknown as Socket);

describe('answers to requests Node refused', () => {
  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout', '10408'],
    ['HPE_HEADER_OVERFLOW', 431, 'Request Header Fields Too Large', '10431'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'Payload Too Large', '10042'],
    ['HPE_INVALID_METHOD', 400, 'Bad Request', '10400'],
    ['SOMETHING_NEW', 400, 'Bad Request', '10400'],
  ])('answers %s with %i and code %s as {code, message}', (code, status, phrase, errorCode) => {
    const raw = clientErrorResponse(nodeError(code), false);
    const [head, body] = raw.split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${phrase}`);
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body!)}`);
    expect(head).not.toContain('Strict-Transport-Security');
    expect(Object.keys(JSON.parse(body!))).toEqual(['code', 'message']);
    expect(JSON.parse(body!).code).toBe(errorCode);
  });

  it('says what llhttp found wrong, and sends HSTS over TLS', () => {
    const raw = clientErrorResponse(nodeError('HPE_INVALID_METHOD', 'Invalid method encountered'), true);
    expect(raw).toContain('Strict-Transport-Security: max-age=31536000; includeSubDomains');
    expect(JSON.parse(raw.split('\r\n\r\n')[1]!)).toEqual({ code: '10400', message: 'Malformed HTTP request: Invalid method encountered' });
  });

  it('writes the answer and closes the connection', () => {
    const socket = fakeSocket({ encrypted: true });
    const error = nodeError('HPE_HEADER_OVERFLOW');
    handle(error, socket);
    expect(socket.written).toHaveLength(1);
    expect(socket.written[0]).toMatch(/^HTTP\/1.1 431 [\s\S]*Strict-Transport-Security[\s\S]*"code":"10431"/);
    expect(socket.destroyedWith).toBe(error);
  });

  it('writes nothing into a response already under way, or to a socket that is gone', () => {
    for (const socket of [fakeSocket({ _httpMessage: { headersSent: true } }), fakeSocket({ writable: false }), fakeSocket({ destroyed: true })]) {
      handle(nodeError('HPE_INVALID_METHOD'), socket);
      expect(socket.written).toEqual([]);
      expect(socket.destroyed).toBe(true);
    }
    const reset = fakeSocket();
    handle(nodeError('ECONNRESET'), reset);
    expect([reset.written, reset.destroyed]).toEqual([[], false]);
  });
});
