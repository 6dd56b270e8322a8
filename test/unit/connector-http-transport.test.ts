import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorHttpError, type ConnectorHttpOptions, createConnectorHttp } from '../../src/connectors/http-transport.js';
import { selfSignedFor, tableResolver } from '../helpers/net.js';

/** What the local servers were asked, by path. */
const seen: { path: string; method: string; contentLength: string | undefined; body: string; authorization: string | undefined }[] = [];

function handler(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const path = req.url ?? '';
    seen.push({
      path,
      method: req.method ?? '',
      contentLength: req.headers['content-length'],
      body: Buffer.concat(chunks).toString('utf8'),
      authorization: req.headers.authorization,
    });
    if (path === '/echo') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Seen': req.headers['x-custom'] ?? '' });
      res.end(`${req.method} ${Buffer.concat(chunks).toString('utf8')}`);
    } else if (path === '/silent') {
      // Never answers: only the transport's time limit ends the exchange.
    } else if (path === '/slow-body') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
      res.write('the start arrives, the rest never does');
    } else if (path === '/declared-large') {
      // Says how large it is and sends only the start: only the declared length can tell.
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000000' });
      res.write('z'.repeat(100));
    } else if (path === '/streamed-large') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
      for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
      res.end();
    } else if (path === '/exactly') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
      for (let i = 0; i < 4; i++) res.write('x'.repeat(1000));
      res.end();
    } else if (path === '/redirect') {
      res.writeHead(302, { Location: `${redirectTarget}/landing` });
      res.end('moved');
    } else if (path === '/cut') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' });
      res.write('half');
      res.socket?.destroy();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
}

const listen = (server: Server, host = '127.0.0.1') =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

const resolver = tableResolver;

let plain: Server;
let tls: Server;
let other: Server;
let base: string;
let port: number;
let tlsPort: number;
let redirectTarget: string;
let ca: string;

beforeAll(async () => {
  plain = createServer(handler);
  port = await listen(plain);
  base = `http://127.0.0.1:${port}`;
  // Where a redirect would lead: it must never be asked anything.
  other = createServer(handler);
  redirectTarget = `http://127.0.0.1:${await listen(other)}/elsewhere`;
  const pems = await selfSignedFor('bank.test');
  ca = pems.cert;
  tls = createTlsServer(pems, handler);
  tlsPort = await listen(tls);
});
afterAll(async () => {
  for (const s of [plain, tls, other]) s.closeAllConnections();
  await Promise.all([close(plain), close(tls), close(other)]);
});

const http = (options: Partial<ConnectorHttpOptions> = {}) => createConnectorHttp({ mode: 'sandbox', timeoutMs: 5000, maxBytes: 4000, ...options });

async function failure(promise: Promise<unknown>): Promise<ConnectorHttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectorHttpError);
  return error as ConnectorHttpError;
}

describe('the connectors’ HTTP transport', () => {
  it('sends the method, headers and body, and returns the status, headers and bytes of the answer', async () => {
    const answer = await http()({ method: 'POST', url: `${base}/echo`, headers: { 'X-Custom': 'yes', 'Content-Length': '999' }, body: 'héllo' });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-seen']).toBe('yes');
    expect(answer.body.toString('utf8')).toBe('POST héllo');
    // The length is the body's own, whatever the caller said.
    expect(seen.at(-1)).toMatchObject({ path: '/echo', contentLength: String(Buffer.byteLength('héllo')) });
    await http()({ method: 'POST', url: `${base}/echo` });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', contentLength: '0', body: '' });
  });

  it('gives up when the whole exchange takes longer than the time limit, before the answer starts or while the body comes', async () => {
    expect(await failure(http({ timeoutMs: 150 })({ method: 'GET', url: `${base}/silent` }))).toMatchObject({
      reason: 'timeout',
      message: 'No answer within 150 ms',
    });
    expect((await failure(http({ timeoutMs: 150 })({ method: 'GET', url: `${base}/slow-body` }))).reason).toBe('timeout');
  });

  it('refuses an answer larger than the limit, whether declared or streamed, and reads one of exactly the limit', async () => {
    expect(await failure(http({ timeoutMs: 3000 })({ method: 'GET', url: `${base}/declared-large` }))).toMatchObject({
      reason: 'too-large',
      message: 'The answer is larger than 4000 bytes',
    });
    expect((await failure(http()({ method: 'GET', url: `${base}/streamed-large` }))).reason).toBe('too-large');
    expect((await http()({ method: 'GET', url: `${base}/exactly` })).body.length).toBe(4000);
  });

  it('returns a redirect as it is and never follows it', async () => {
    const before = seen.filter((s) => s.path.startsWith('/elsewhere')).length;
    const answer = await http()({ method: 'GET', url: `${base}/redirect` });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(`${redirectTarget}/landing`);
    expect(seen.filter((s) => s.path.startsWith('/elsewhere')).length).toBe(before);
  });

  it('reports a refused connection and a cut-off answer as network failures, without quoting the address', async () => {
    // A port that was just in use and is free now: nothing listens there.
    const probe = createServer();
    const closedPort = await listen(probe);
    await close(probe);
    const refused = await failure(http()({ method: 'GET', url: `http://127.0.0.1:${closedPort}/x?secret=abc` }));
    expect(refused).toMatchObject({ reason: 'network', code: 'ECONNREFUSED' });
    expect(refused.message).not.toContain(String(closedPort));
    expect(refused.message).not.toContain('secret');
    expect((await failure(http()({ method: 'GET', url: `${base}/cut` }))).reason).toBe('network');
  });

  it('refuses plain http in production mode, URLs that are not http(s) and URLs with credentials, before any lookup', async () => {
    const asked: string[] = [];
    const production = http({ mode: 'production', resolve: resolver({ 'bank.test': ['93.184.216.34'] }, asked) });
    expect(await failure(production({ method: 'GET', url: 'http://bank.test/ofx' }))).toMatchObject({
      reason: 'refused',
      message: expect.stringMatching(/only https addresses are allowed in production mode/),
    });
    expect((await failure(production({ method: 'GET', url: 'ftp://bank.test/ofx' }))).reason).toBe('refused');
    expect((await failure(production({ method: 'GET', url: 'not a url' }))).reason).toBe('refused');
    expect(await failure(http()({ method: 'GET', url: `http://user:pw@127.0.0.1:${port}/echo` }))).toMatchObject({
      reason: 'refused',
      message: expect.stringMatching(/user name or password/),
    });
    expect(asked).toEqual([]);
    expect(seen.some((s) => s.authorization)).toBe(false);
  });

  it.each([
    ['production', 'https://127.0.0.1/ofx', /127\.0\.0\.1 is a loopback address/],
    ['production', 'https://10.1.2.3/ofx', /10\.1\.2\.3 is a private address/],
    ['production', 'https://169.254.169.254/latest/meta-data', /cloud metadata address/],
    ['production', 'https://[::1]/ofx', /::1 is a loopback address/],
    ['production', 'https://[::ffff:a9fe:a9fe]/ofx', /cloud metadata address/],
    ['production', 'https://localhost/ofx', /localhost is this machine/],
    ['sandbox', 'http://169.254.169.254/latest/meta-data', /cloud metadata address/],
    ['sandbox', 'http://169.254.1.1/', /link-local address/],
    ['sandbox', 'http://0.0.0.0/', /unspecified address/],
    ['sandbox', 'http://[fe80::1]/', /link-local address/],
  ] as const)('refuses a literal address the policy refuses (%s mode, %s)', async (mode, url, why) => {
    expect(await failure(http({ mode })({ method: 'GET', url }))).toMatchObject({ reason: 'refused', message: expect.stringMatching(why) });
  });

  it('checks the address a name resolves to when it connects, in production mode', async () => {
    const asked: string[] = [];
    const production = http({
      mode: 'production',
      ca,
      resolve: resolver({ 'metadata.bank.test': ['169.254.169.254'], 'private.bank.test': ['10.0.0.7'], 'bank.test': ['127.0.0.1'] }, asked),
    });
    expect(await failure(production({ method: 'GET', url: 'https://metadata.bank.test/ofx' }))).toMatchObject({
      reason: 'refused',
      message: expect.stringMatching(/metadata\.bank\.test: 169\.254\.169\.254 is a cloud metadata address/),
    });
    expect(await failure(production({ method: 'GET', url: 'https://private.bank.test/ofx' }))).toMatchObject({
      reason: 'refused',
      message: expect.stringMatching(/10\.0\.0\.7 is a private address/),
    });
    // The same name the sandbox reaches (next test) is refused in production: it leads to this machine.
    expect((await failure(production({ method: 'POST', url: `https://bank.test:${tlsPort}/echo`, body: 'x' }))).reason).toBe('refused');
    expect(asked).toEqual(['metadata.bank.test', 'private.bank.test', 'bank.test']);
  });

  it('reaches a local https server by name in sandbox mode, verifying its certificate, and looks the name up for every request', async () => {
    const asked: string[] = [];
    const sandbox = http({ ca, resolve: resolver({ 'bank.test': ['127.0.0.1'], 'metadata.bank.test': ['169.254.169.254'] }, asked) });
    const answer = await sandbox({ method: 'POST', url: `https://bank.test:${tlsPort}/echo`, body: 'over tls' });
    expect(answer.body.toString('utf8')).toBe('POST over tls');
    await sandbox({ method: 'POST', url: `https://bank.test:${tlsPort}/echo`, body: 'again' });
    expect(asked).toEqual(['bank.test', 'bank.test']);
    // A name that leads to the metadata service is refused in the sandbox too.
    expect((await failure(sandbox({ method: 'GET', url: `http://metadata.bank.test:${port}/echo` }))).reason).toBe('refused');
    // Without the server's certificate trusted, TLS fails: the certificate is checked.
    const untrusting = http({ resolve: resolver({ 'bank.test': ['127.0.0.1'] }, []) });
    expect((await failure(untrusting({ method: 'GET', url: `https://bank.test:${tlsPort}/echo` }))).reason).toBe('network');
  });
});
