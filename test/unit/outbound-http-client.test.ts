import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestWithPolicy } from '../../src/outbox/transports/http.js';
import { type OutboundHttpError, type OutboundRequest, outboundRequest } from '../../src/platform/net/http-client.js';
import { selfSignedFor, tableResolver } from '../helpers/net.js';

/** Paths asked, in order (a redirect's target must never appear). */
const asked: string[] = [];

function handler(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    asked.push(req.url ?? '');
    if (req.url === '/declared') {
      // Declares more than it sends, and the body never ends: refused on the declared length, cut at the limit.
      res.writeHead(200, { 'Content-Length': '1000000' });
      res.write('d'.repeat(600));
    } else if (req.url === '/streamed') {
      res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
      for (let i = 0; i < 4; i++) res.write('s'.repeat(300));
      res.end();
    } else if (req.url === '/exactly') {
      res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
      for (let i = 0; i < 5; i++) res.write('e'.repeat(100));
      res.end();
    } else if (req.url === '/redirect') {
      res.writeHead(307, { Location: '/elsewhere' }).end();
    } else if (req.url === '/silent') {
      // Never answers.
    } else {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`${req.method} ${req.headers['content-length'] ?? '-'}`);
    }
  });
}

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

let plain: Server;
let tls: Server;
let base: string;
let tlsPort: number;
let ca: string;

beforeAll(async () => {
  plain = createServer(handler);
  base = `http://127.0.0.1:${await listen(plain)}`;
  const pems = await selfSignedFor('hooks.test');
  ca = pems.cert;
  tls = createTlsServer(pems, handler);
  tlsPort = await listen(tls);
});
afterAll(async () => {
  for (const s of [plain, tls]) s.closeAllConnections();
  await Promise.all([plain, tls].map((s) => new Promise((r) => s.close(r))));
});

const request = (path: string, options: Partial<OutboundRequest> = {}) =>
  outboundRequest({ url: `${base}${path}`, method: 'GET', mode: 'sandbox', timeoutMs: 5000, maxBytes: 500, oversized: 'refuse', ...options });

async function failure(promise: Promise<unknown>): Promise<OutboundHttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: 'OutboundHttpError' });
  return error as OutboundHttpError;
}

describe('the outbound HTTP client', () => {
  it('keeps the first bytes of an oversized answer when told to truncate, declared or streamed', async () => {
    for (const path of ['/declared', '/streamed']) {
      const answer = await request(path, { oversized: 'truncate' });
      expect(answer).toMatchObject({ status: 200, truncated: true });
      expect(answer.body).toHaveLength(500);
    }
    expect(await request('/exactly', { oversized: 'truncate' })).toMatchObject({ truncated: false, body: Buffer.from('e'.repeat(500)) });
  });

  it('fails on an oversized answer when told to refuse, declared or streamed, and reads one of exactly the limit', async () => {
    for (const path of ['/declared', '/streamed']) {
      expect(await failure(request(path))).toMatchObject({ reason: 'too-large', message: 'the answer is larger than 500 bytes' });
    }
    expect(await request('/exactly')).toMatchObject({ truncated: false, body: Buffer.from('e'.repeat(500)) });
  });

  it('gives the body its own length, whatever the caller said, and an empty POST a length of 0', async () => {
    expect((await request('/echo', { method: 'POST', body: 'héllo', headers: { 'Content-Length': '99' } })).body.toString()).toBe('POST 6');
    expect((await request('/echo', { method: 'POST' })).body.toString()).toBe('POST 0');
    expect((await request('/echo')).body.toString()).toBe('GET -');
  });

  it('returns a redirect as it is, never following it', async () => {
    const answer = await request('/redirect');
    expect(answer).toMatchObject({ status: 307, headers: { location: '/elsewhere' } });
    expect(asked).not.toContain('/elsewhere');
  });

  it('ends the exchange at the time limit', async () => {
    expect(await failure(request('/silent', { timeoutMs: 100 }))).toMatchObject({ reason: 'timeout', message: 'no answer within 100 ms' });
  });

  it('refuses a literal address before connecting and a resolved one when connecting, saying which', async () => {
    expect(await failure(request('', { url: 'http://169.254.169.254/latest' }))).toMatchObject({ reason: 'refused', code: 'ETARGETREFUSED' });
    expect(await failure(request('', { url: 'http://127.0.0.1/x', mode: 'production' }))).toMatchObject({
      reason: 'refused',
      message: expect.stringMatching(/127\.0\.0\.1 is a loopback address/),
    });
    const resolve = tableResolver({ 'metadata.hooks.test': ['169.254.169.254'] });
    expect(await failure(request('', { url: 'http://metadata.hooks.test/x', resolve }))).toMatchObject({
      reason: 'refused',
      message: expect.stringMatching(/^metadata\.hooks\.test: 169\.254\.169\.254 is a cloud metadata address/),
    });
    expect((await failure(request('', { url: 'ftp://hooks.test/x' }))).reason).toBe('url');
  });

  it('verifies the certificate of an https server', async () => {
    const resolve = tableResolver({ 'hooks.test': ['127.0.0.1'] });
    const url = `https://hooks.test:${tlsPort}/echo`;
    expect((await request('', { url, resolve, ca })).body.toString()).toBe('GET -');
    expect(await failure(request('', { url, resolve }))).toMatchObject({ reason: 'network', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('says a connection nobody accepts failed, with its system code', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await new Promise((r) => probe.close(r));
    expect(await failure(request('', { url: `http://127.0.0.1:${port}/x` }))).toMatchObject({ reason: 'network', code: 'ECONNREFUSED' });
  });
});

describe('a delivery request with a header Node refuses', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails at once and leaves no timer behind to go off later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const sent = requestWithPolicy({ url: `${base}/echo`, method: 'POST', headers: { 'x-note': 'one\ntwo' }, body: '{}', timeoutMs: 1000, mode: 'sandbox' });
    expect(await failure(sent)).toMatchObject({ reason: 'unsent', code: 'ERR_INVALID_CHAR' });
    // A timer left running would go off on a request that was never made (and threw, ending the process).
    expect(vi.getTimerCount()).toBe(0);
  });
});
