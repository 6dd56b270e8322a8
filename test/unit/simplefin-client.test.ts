import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accountsRequest,
  createHttpTransport,
  SimplefinClient,
  type SimplefinRequest,
  SimplefinTransportError,
} from '../../src/connectors/simplefin/client.js';
import { decodeSetupToken, simplefinUrlPolicy } from '../../src/connectors/simplefin/token.js';
import { parseAccountSet } from '../../src/connectors/simplefin/wire.js';
import { demoAccounts, type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';

const NOW = 1_790_000_000;
const DAY = 86_400;
const sandbox = simplefinUrlPolicy('sandbox');

function claimUrlOf(token: string): string {
  const decoded = decodeSetupToken(token, sandbox);
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.value.href;
}

/** A client over a fixed answer, recording what it was asked. */
function fixed(status: number, body: string) {
  const sent: SimplefinRequest[] = [];
  const client = new SimplefinClient({
    transport: async (request) => {
      sent.push(request);
      return { status, body };
    },
    allowUrl: () => undefined,
  });
  return { client, sent };
}

const ACCESS = 'https://user:secretpass@bridge.example.org/simplefin';

function account(extra: Record<string, unknown> = {}) {
  return { id: 'A', name: 'Checking', currency: 'USD', balance: '10.00', 'balance-date': NOW, transactions: [], ...extra };
}

describe('claim', () => {
  let bridge: SimplefinBridge;
  beforeEach(async () => {
    bridge = await startSimplefinBridge({ now: () => NOW });
  });
  afterEach(() => bridge.close());

  it('claims once with an empty POST, and the bridge refuses the second claim with 403', async () => {
    const client = new SimplefinClient({ transport: createHttpTransport({ mode: 'sandbox' }), allowUrl: sandbox });
    const token = bridge.createSetupToken({ user: 'alice' });
    const first = await client.claim(claimUrlOf(token));
    expect(first).toEqual({ ok: true, value: bridge.accessUrlOf('alice') });
    expect(await client.claim(claimUrlOf(token))).toEqual({ ok: false, problem: { kind: 'claim-refused', status: 403 } });
    const claims = bridge.requests.filter((r) => r.path.includes('/claim/'));
    expect(claims.map((r) => [r.method, r.status, r.contentLength, r.user])).toEqual([
      ['POST', 200, '0', 'alice'],
      ['POST', 403, '0', 'alice'],
    ]);
  });

  it('refuses an unknown token with 403', async () => {
    const client = new SimplefinClient({ transport: createHttpTransport({ mode: 'sandbox' }), allowUrl: sandbox });
    expect(await client.claim(`${bridge.url}/claim/nosuchtoken`)).toEqual({ ok: false, problem: { kind: 'claim-refused', status: 403 } });
  });

  it('does not contact a claim URL the policy refuses', async () => {
    const client = new SimplefinClient({ transport: createHttpTransport({ mode: 'sandbox' }), allowUrl: simplefinUrlPolicy('production') });
    const result = await client.claim(claimUrlOf(bridge.createSetupToken()));
    expect(result).toMatchObject({ ok: false, problem: { kind: 'url-refused' } });
    expect(bridge.requests).toEqual([]);
  });

  it('refuses, when connecting, a bridge whose name leads to a private or metadata address in production mode', async () => {
    const asked: string[] = [];
    const resolve = ((hostname: string, _options: unknown, callback: (e: Error | null, a: { address: string; family: number }[]) => void) => {
      asked.push(hostname);
      callback(null, [{ address: hostname.startsWith('metadata') ? '169.254.169.254' : '10.0.0.9', family: 4 }]);
    }) as unknown as NonNullable<Parameters<typeof createHttpTransport>[0]['resolve']>;
    const client = new SimplefinClient({ transport: createHttpTransport({ mode: 'production', resolve }), allowUrl: simplefinUrlPolicy('production') });
    for (const host of ['bridge.rebind.example', 'metadata.rebind.example']) {
      expect(await client.claim(`https://${host}/simplefin/claim/abc`)).toEqual({
        ok: false,
        problem: { kind: 'url-refused', reason: "The bridge's address is not allowed: its name leads to an address this service may not contact." },
      });
    }
    expect(asked).toEqual(['bridge.rebind.example', 'metadata.rebind.example']);
  });

  it('reads the claim answer strictly: an access URL with credentials, allowed by the policy', async () => {
    const claim = 'https://bridge.example.org/simplefin/claim/abc';
    expect(await fixed(200, '  https://u:p@bridge.example.org/simplefin\n').client.claim(claim)).toEqual({
      ok: true,
      value: 'https://u:p@bridge.example.org/simplefin',
    });
    for (const body of [
      '',
      'OK',
      '<html>claimed</html>',
      'https://bridge.example.org/simplefin',
      'ftp://u:p@bridge.example.org/',
      `https://u:p@x.example/${'a'.repeat(3000)}`,
    ]) {
      expect(await fixed(200, body).client.claim(claim)).toEqual({
        ok: false,
        problem: { kind: 'malformed', detail: 'the claim answer is not an access URL' },
      });
    }
    const strict = new SimplefinClient({
      transport: async () => ({ status: 200, body: 'http://u:p@bridge.example.org/simplefin' }),
      allowUrl: simplefinUrlPolicy('production'),
    });
    expect(await strict.claim(claim)).toMatchObject({ ok: false, problem: { kind: 'url-refused' } });
  });

  it.each([
    [403, { kind: 'claim-refused', status: 403 }],
    [404, { kind: 'claim-refused', status: 404 }],
    [402, { kind: 'payment-required' }],
    [429, { kind: 'rate-limited' }],
    [503, { kind: 'server-error', status: 503 }],
    [302, { kind: 'unexpected-status', status: 302 }],
  ])('maps a claim answered %i', async (status, problem) => {
    expect(await fixed(status, '').client.claim('https://bridge.example.org/simplefin/claim/abc')).toEqual({ ok: false, problem });
  });
});

describe('the accounts request', () => {
  it('sends the credentials in a Basic header only, and the query the protocol defines', () => {
    const request = accountsRequest(
      'https://us%40er:p%3Ass@bridge.example.org/simplefin/',
      { startDate: 100, endDate: 200.7, pending: true, version: 2, accountIds: ['A', 'B'], balancesOnly: true },
      () => undefined,
    );
    if (!request.ok) throw new Error('refused');
    const url = new URL(request.value.url);
    expect(url.username + url.password).toBe('');
    expect(request.value.url).not.toContain('p%3Ass');
    expect(url.pathname).toBe('/simplefin/accounts');
    expect([...url.searchParams]).toEqual([
      ['start-date', '100'],
      ['end-date', '200'],
      ['pending', '1'],
      ['balances-only', '1'],
      ['account', 'A'],
      ['account', 'B'],
      ['version', '2'],
    ]);
    expect(request.value.headers.authorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
  });

  it('leaves out what was not asked for', () => {
    const request = accountsRequest(ACCESS, {}, () => undefined);
    expect(request.ok && request.value.url).toBe('https://bridge.example.org/simplefin/accounts');
  });

  it('reads an answer from the local bridge in both protocol versions', async () => {
    const bridge = await startSimplefinBridge({ now: () => NOW });
    try {
      const client = new SimplefinClient({ transport: createHttpTransport({ mode: 'sandbox' }), allowUrl: sandbox });
      const token = bridge.createSetupToken({ user: 'bob', accounts: demoAccounts(NOW) });
      const claimed = await client.claim(claimUrlOf(token));
      if (!claimed.ok) throw new Error('claim failed');
      bridge.setErrors('bob', [{ code: 'con.auth', msg: 'Authentication required', conn_id: 'CON-first.example' }]);
      const v1 = await client.fetchAccounts(claimed.value, { startDate: NOW - 10 * DAY, endDate: NOW + 1, pending: true, version: 1 });
      const v2 = await client.fetchAccounts(claimed.value, { startDate: NOW - 10 * DAY, endDate: NOW + 1, pending: true, version: 2 });
      if (!v1.ok || !v2.ok) throw new Error('fetch failed');
      expect(v1.value.version).toBe(1);
      expect(v1.value.errors).toEqual([{ message: 'Authentication required' }]);
      expect(v1.value.accounts[0]?.org).toEqual({ name: 'First Example Bank', domain: 'first.example', sfinUrl: 'https://sfin.example.com' });
      expect(v2.value.version).toBe(2);
      expect(v2.value.errors).toEqual([{ code: 'con.auth', message: 'Authentication required', connId: 'CON-first.example' }]);
      expect(v2.value.accounts[0]?.connId).toBe('CON-first.example');
      expect(v2.value.connections.map((c) => c.connId)).toEqual(['CON-first.example', 'CON-second.example']);
      // Posted in [start, end) plus the pending one.
      expect(v2.value.accounts[0]?.transactions.map((t) => t.id)).toEqual(['TRN-4', 'TRN-2', 'TRN-3']);
      expect(bridge.accountRequests('bob').every((r) => r.hasAuthorization && r.status === 200)).toBe(true);
    } finally {
      await bridge.close();
    }
  });

  it.each([
    [401, { kind: 'access-refused' }],
    [403, { kind: 'access-refused' }],
    [402, { kind: 'payment-required' }],
    [429, { kind: 'rate-limited' }],
    [500, { kind: 'server-error', status: 500 }],
    [502, { kind: 'server-error', status: 502 }],
    [301, { kind: 'unexpected-status', status: 301 }],
    [404, { kind: 'unexpected-status', status: 404 }],
  ])('maps /accounts answered %i', async (status, problem) => {
    expect(await fixed(status, '{"errors":[],"accounts":[]}').client.fetchAccounts(ACCESS)).toEqual({ ok: false, problem });
  });
});

describe('reading an Account Set', () => {
  const parse = (value: unknown) => parseAccountSet(typeof value === 'string' ? value : JSON.stringify(value));

  it('reads the protocol example, ignoring fields it does not define', () => {
    const result = parse({
      errors: [],
      accounts: [
        {
          org: { domain: 'mybank.com', 'sfin-url': 'https://sfin.mybank.com' },
          id: '2930002',
          name: 'Savings',
          currency: 'USD',
          balance: '100.23',
          'available-balance': '75.23',
          'balance-date': 978366153,
          transactions: [{ id: '12394832938403', posted: 793090572, amount: '-33293.43', description: "Uncle Frank's Bait Shop", extra: { category: 'food' } }],
          extra: { 'account-open-date': 978360153 },
          somethingNew: [1, 2, 3],
        },
      ],
      futureField: true,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        version: 1,
        errors: [],
        connections: [],
        accounts: [
          {
            id: '2930002',
            name: 'Savings',
            currency: 'USD',
            balance: '100.23',
            availableBalance: '75.23',
            balanceDate: 978366153,
            org: { domain: 'mybank.com', sfinUrl: 'https://sfin.mybank.com' },
            transactions: [{ id: '12394832938403', posted: 793090572, amount: '-33293.43', description: "Uncle Frank's Bait Shop", pending: false }],
          },
        ],
      },
    });
  });

  it('reads v2 errlist entries by msg or message, and prefers them to the deprecated strings', () => {
    const result = parse({
      errlist: [
        { code: 'con.auth', message: 'Authentication required', conn_id: 'CON-1' },
        { code: 'act.failed', msg: 'Failed to get all transactions.', account_id: 'A' },
        { code: 'gen.' },
      ],
      errors: ['Authentication required', 'Failed to get all transactions.'],
      connections: [{ conn_id: 'CON-1', name: 'My Bank - Jeff', org_id: 'ORG-1', org_name: 'My Bank', sfin_url: 'https://sfin.mybank.com' }],
      accounts: [account({ conn_id: 'CON-1' })],
    });
    expect(result.ok && result.value.errors).toEqual([
      { code: 'con.auth', message: 'Authentication required', connId: 'CON-1' },
      { code: 'act.failed', message: 'Failed to get all transactions.', accountId: 'A' },
      { code: 'gen.', message: 'gen.' },
    ]);
    expect(result.ok && result.value.connections).toEqual([
      { connId: 'CON-1', name: 'My Bank - Jeff', orgId: 'ORG-1', orgName: 'My Bank', sfinUrl: 'https://sfin.mybank.com' },
    ]);
  });

  it('treats null optional fields as absent', () => {
    const result = parse({
      errors: null,
      accounts: [
        account({
          'available-balance': null,
          org: null,
          transactions: [{ id: 't', posted: 1, amount: '1', description: 'x', payee: null, memo: null, pending: null, transacted_at: null }],
        }),
      ],
    });
    expect(result.ok && result.value.accounts[0]?.transactions[0]).toEqual({ id: 't', posted: 1, amount: '1', description: 'x', pending: false });
  });

  it.each([
    ['not JSON', '<html>busy</html>', 'the answer is not JSON'],
    ['an array', [], 'response is not an object'],
    ['no accounts', { errors: [] }, 'accounts is not an array'],
    ['a numeric balance', { accounts: [account({ balance: 10 })] }, 'accounts[0].balance is not a numeric string'],
    ['a text balance', { accounts: [account({ balance: 'ten' })] }, 'accounts[0].balance is not a numeric string'],
    ['an exponent', { accounts: [account({ balance: '1e5' })] }, 'accounts[0].balance is not a numeric string'],
    ['a text balance date', { accounts: [account({ 'balance-date': '978366153' })] }, 'accounts[0].balance-date is not a timestamp'],
    ['a fractional date', { accounts: [account({ 'balance-date': 1.5 })] }, 'accounts[0].balance-date is not a timestamp'],
    ['a missing id', { accounts: [account({ id: undefined })] }, 'accounts[0].id is not a non-empty string'],
    ['a numeric id', { accounts: [account({ id: 7 })] }, 'accounts[0].id is not a non-empty string'],
    ['an enormous id', { accounts: [account({ id: 'x'.repeat(300) })] }, 'accounts[0].id is too long'],
    ['transactions not a list', { accounts: [account({ transactions: {} })] }, 'accounts[0].transactions is not an array'],
    [
      'a numeric amount',
      { accounts: [account({ transactions: [{ id: 't', posted: 1, amount: -5, description: 'x' }] })] },
      'accounts[0].transactions[0].amount is not a numeric string',
    ],
    [
      'a text pending flag',
      { accounts: [account({ transactions: [{ id: 't', posted: 1, amount: '-5', description: 'x', pending: 'yes' }] })] },
      'accounts[0].transactions[0].pending is not a boolean',
    ],
    [
      'a negative posted time',
      { accounts: [account({ transactions: [{ id: 't', posted: -1, amount: '1', description: 'x' }] })] },
      'accounts[0].transactions[0].posted is not a timestamp',
    ],
    ['errors that are not strings', { errors: [{ text: 'x' }], accounts: [] }, 'errors[0] is not a string'],
    ['an errlist entry without code', { errlist: [{ msg: 'x' }], accounts: [] }, 'errlist[0].code is not a string'],
    ['a connection without id', { errlist: [], connections: [{ name: 'x' }], accounts: [] }, 'connections[0].conn_id is not a non-empty string'],
  ])('refuses %s, naming where', (_, value, detail) => {
    expect(parse(value)).toEqual({ ok: false, detail });
  });

  it('never quotes a value in what it says is wrong', () => {
    const result = parse({ accounts: [account({ balance: 'SECRET-VALUE' })] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.detail).not.toContain('SECRET');
  });
});

describe('the HTTP transport', () => {
  let bridge: SimplefinBridge;
  let accessUrl: string;
  beforeEach(async () => {
    bridge = await startSimplefinBridge({ now: () => NOW });
    const client = new SimplefinClient({ transport: createHttpTransport({ mode: 'sandbox' }), allowUrl: sandbox });
    const claimed = await client.claim(claimUrlOf(bridge.createSetupToken({ user: 'carol', accounts: demoAccounts(NOW) })));
    if (!claimed.ok) throw new Error('claim failed');
    accessUrl = claimed.value;
  });
  afterEach(() => bridge.close());

  const fetchWith = (options: Omit<Parameters<typeof createHttpTransport>[0], 'mode'>) =>
    new SimplefinClient({ transport: createHttpTransport({ mode: 'sandbox', ...options }), allowUrl: sandbox }).fetchAccounts(accessUrl, {
      startDate: NOW - DAY,
      endDate: NOW + 1,
    });

  it('gives up on a bridge that takes longer than the timeout', async () => {
    bridge.fault({ delayMs: 1000 });
    expect(await fetchWith({ timeoutMs: 100 })).toEqual({ ok: false, problem: { kind: 'timeout' } });
    // Given up before the bridge answered, not after: its answer was still to come. Timers of one process fire in the
    // order they fall due, so the bridge's, started later and longer, cannot come first however slow the machine.
    expect(bridge.accountRequests().at(-1)?.status, 'the bridge had not answered yet').toBe(0);
  });

  it('stops reading an answer larger than maxBytes, declared or streamed', async () => {
    bridge.fault({ bytes: 300_000, declared: true });
    expect(await fetchWith({ maxBytes: 100_000 })).toEqual({ ok: false, problem: { kind: 'too-large' } });
    bridge.fault({ bytes: 300_000 });
    expect(await fetchWith({ maxBytes: 100_000 })).toEqual({ ok: false, problem: { kind: 'too-large' } });
    bridge.fault({ bytes: 50_000 });
    expect(await fetchWith({ maxBytes: 100_000 })).toMatchObject({ ok: true, value: { accounts: [] } });
  });

  it('reports a dropped connection and a refused one as unreachable, without quoting the address', async () => {
    bridge.fault({ drop: true });
    expect(await fetchWith({})).toEqual({ ok: false, problem: { kind: 'unreachable' } });
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const error = await createHttpTransport({ mode: 'sandbox' })({ method: 'GET', url: `http://127.0.0.1:${port}/simplefin/accounts`, headers: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SimplefinTransportError);
    expect(error).toMatchObject({ kind: 'unreachable', code: 'ECONNREFUSED' });
    expect(String((error as Error).message)).not.toContain(String(port));
  });

  it('does not follow redirects', async () => {
    bridge.fault({ status: 302, body: 'moved' });
    expect(await fetchWith({})).toEqual({ ok: false, problem: { kind: 'unexpected-status', status: 302 } });
  });

  it('reads an unparseable answer as malformed', async () => {
    bridge.fault({ garbage: true });
    expect(await fetchWith({})).toEqual({ ok: false, problem: { kind: 'malformed', detail: 'the answer is not JSON' } });
  });

  it('turns any other transport failure into unreachable', async () => {
    const client = new SimplefinClient({
      transport: async () => {
        throw new Error(`socket hang up at ${accessUrl}`);
      },
      allowUrl: sandbox,
    });
    expect(await client.fetchAccounts(accessUrl)).toEqual({ ok: false, problem: { kind: 'unreachable' } });
  });
});
