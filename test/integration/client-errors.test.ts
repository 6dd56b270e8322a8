import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits the raw bytes of one or more HTTP/1.1 responses (each with a Content-Length). */
function parseResponses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`not an HTTP response: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length']);
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe('requests Node refuses before any route sees them', () => {
  let ctx: TestContext;
  let port: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => ctx.close());

  /** Sends raw bytes, one write per chunk (each after the answers so far arrived); answers everything read until the server closes. */
  function exchange(...chunks: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      let next = 0;
      const send = () => {
        if (next < chunks.length) socket.write(chunks[next++]!);
      };
      socket.setEncoding('latin1');
      socket.on('connect', send);
      socket.on('data', (data: string) => {
        received += data;
        if (received.endsWith('}')) send();
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
      socket.setTimeout(10_000, () => socket.destroy(new Error(`no close; received ${JSON.stringify(received.slice(0, 300))}`)));
    });
  }

  const bad = (status: number, code: string) => ({ status, code });
  const oneAnswer = async (raw: string) => {
    const responses = parseResponses(await exchange(raw));
    expect(responses).toHaveLength(1);
    return responses[0]!;
  };

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', bad(400, '10400')],
    ['an unknown method', 'FETCH /health HTTP/1.1\r\nHost: x\r\n\r\n', bad(400, '10400')],
    ['a space in a header name', 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', bad(400, '10400')],
    ['a control character in a header value', 'GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n', bad(400, '10400')],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      bad(400, '10400'),
    ],
    [
      'an invalid chunk size',
      'POST /aggregation/v2/partners/authentication HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      bad(400, '10400'),
    ],
    ['a header over 16 KiB', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, bad(431, '10431')],
    ['a URL over 16 KiB', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, bad(431, '10431')],
    [
      'many headers adding up to over 16 KiB',
      `GET /health HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(40)}\r\n`).join('')}\r\n`,
      bad(431, '10431'),
    ],
  ])('answers %s in the documented error format and closes', async (_name, raw, expected) => {
    const res = await oneAnswer(raw);
    expect(res.status).toBe(expected.status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    expect(body.code).toBe(expected.code);
    expect(body.message).toEqual(expect.any(String));
    // Never the request's own bytes back.
    expect(res.body).not.toMatch(/GARBAGE|aaaa|Bad Header/);
  });

  it('answers a malformed request after a good one on the same keep-alive connection', async () => {
    const responses = parseResponses(await exchange('GET /health HTTP/1.1\r\nHost: x\r\n\r\n', 'NOT HTTP AT ALL\r\n\r\n'));
    expect(responses.map((r) => r.status)).toEqual([200, 400]);
    expect(JSON.parse(responses[1]!.body).code).toBe('10400');
  });

  it('keeps serving after refusing', async () => {
    const res = await oneAnswer('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
  });
});
