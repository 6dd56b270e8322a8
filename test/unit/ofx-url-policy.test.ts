import type dns from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport, OfxTransportError } from '../../src/connectors/ofx/transport.js';
import { ofxUrlProblem } from '../../src/modules/institutions/ofx-directory.service.js';
import type { Resolver } from '../../src/platform/net/outbound.js';

type Mode = 'sandbox' | 'production';

/** Names resolve nowhere: a transport that asks DNS has passed every check it makes before connecting. */
function nowhere(asked: string[]): Resolver {
  return ((hostname: string, _options: unknown, callback: (e: Error | null, a: dns.LookupAddress[]) => void) => {
    asked.push(hostname);
    callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  }) as unknown as Resolver;
}

/** What the connectors' OFX transport does with a URL: refuses it, or tries to connect (and fails: nothing answers). */
async function transportVerdict(mode: Mode, url: string): Promise<{ refused: boolean; message: string; asked: string[] }> {
  const asked: string[] = [];
  const transport = createHttpTransport({ mode, timeoutMs: 2000, maxBytes: 1000, resolve: nowhere(asked) });
  const error = await transport({ url, body: '', headers: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OfxTransportError);
  return { refused: (error as OfxTransportError).reason === 'refused-url', message: (error as OfxTransportError).message, asked };
}

describe('the OFX server URLs an operator may add', () => {
  let closedPort: number;
  beforeAll(async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });

  const cases: [Mode, string, RegExp | undefined][] = [
    ['sandbox', 'http://ofx.bank.example/ofx', undefined],
    ['sandbox', 'https://ofx.bank.example/ofx', undefined],
    ['sandbox', 'http://localhost:8080/ofx', undefined],
    ['sandbox', 'http://169.254.169.254/latest', /cloud metadata address/],
    ['sandbox', 'http://169.254.10.10/ofx', /link-local address/],
    ['sandbox', 'https://[fe80::1]/ofx', /link-local address/],
    ['sandbox', 'http://0.0.0.0:8080/ofx', /unspecified address/],
    ['sandbox', 'ftp://ofx.bank.example/ofx', /only https/],
    ['production', 'https://ofx.bank.example/ofx', undefined],
    ['production', 'http://ofx.bank.example/ofx', /only https addresses are allowed in production mode/],
    ['production', 'https://127.0.0.1/ofx', /loopback address/],
    ['production', 'https://10.0.0.1/ofx', /private address/],
    ['production', 'https://[::ffff:192.168.1.1]/ofx', /private address/],
    ['production', 'https://localhost/ofx', /localhost is this machine/],
    ['production', 'https://ofx.localhost/ofx', /this machine/],
    ['production', 'https://169.254.169.254/ofx', /cloud metadata address/],
  ];

  it.each(cases.map(([mode, url, refusal]) => [mode, url, refusal ? 'refused' : 'allowed', refusal] as const))(
    'in %s mode, %s is %s by both',
    async (mode, url, _, refusal) => {
      const problem = ofxUrlProblem(url, mode);
      const verdict = await transportVerdict(mode, url);
      if (refusal === undefined) {
        expect(problem).toBeUndefined();
        // The transport let it through to the lookup: only DNS stopped it.
        expect(verdict.refused).toBe(false);
        expect(verdict.asked).toEqual([new URL(url).hostname]);
      } else {
        expect(problem).toMatch(refusal);
        expect(verdict.refused).toBe(true);
        expect(verdict.message).toMatch(refusal);
        expect(verdict.asked).toEqual([]);
      }
    },
  );

  it('allows plain http to a loopback literal in sandbox mode only, as the transport does', async () => {
    const url = `http://127.0.0.1:${closedPort}/ofx`;
    expect(ofxUrlProblem(url, 'sandbox')).toBeUndefined();
    // Nothing listens there: the transport tried to connect.
    expect(await transportVerdict('sandbox', url)).toMatchObject({ refused: false, message: expect.stringMatching(/ECONNREFUSED/) });
    expect(ofxUrlProblem(url, 'production')).toMatch(/only https/);
    expect((await transportVerdict('production', url)).refused).toBe(true);
  });

  it('refuses credentials in the URL and text that is not a URL, in either mode', async () => {
    for (const mode of ['sandbox', 'production'] as const) {
      expect(ofxUrlProblem('https://user:pw@ofx.bank.example/ofx', mode)).toMatch(/user name or password/);
      expect((await transportVerdict(mode, 'https://user:pw@ofx.bank.example/ofx')).refused).toBe(true);
      expect(ofxUrlProblem('ofx dot bank', mode)).toMatch(/not a URL/);
      expect((await transportVerdict(mode, 'ofx dot bank')).refused).toBe(true);
    }
  });
});
