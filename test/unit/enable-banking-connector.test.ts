import { verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type AuthResult,
  type ConnectorContext,
  type ConnectorFailure,
  type ConnectorResult,
  type ConnectorSession,
  ConnectorUsageError,
  type PsuContext,
} from '../../src/connectors/connector.js';
import { EnableBankingClient } from '../../src/connectors/enablebanking/client.js';
import { DEFAULT_HISTORY_DAYS, EnableBankingConnector } from '../../src/connectors/enablebanking/connector.js';
import type { BankConnection } from '../../src/connectors/enablebanking/institutions.js';
import { JwtSigner } from '../../src/connectors/enablebanking/jwt.js';
import { MAX_TRANSACTION_PAGES, ReadLedger } from '../../src/connectors/enablebanking/limits.js';
import { accountResource, apiError, applicationKey, balance, STUB_BASE, type StubRoute, stubApi, transaction } from '../helpers/enable-banking-stub.js';
import { started } from '../helpers/oauth.js';

const APP_ID = 'app-7d3c';
const DAY = 86_400;
const NOW = Date.parse('2026-11-25T10:00:00Z') / 1000;
const INST = 800_003;
const key = applicationKey();

const NORDEA: BankConnection = {
  name: 'Nordea',
  country: 'FI',
  psu_types: ['personal', 'business'],
  maximum_consent_validity: 90 * DAY,
  required_psu_headers: ['Psu-Ip-Address', 'Psu-User-Agent'],
};

const PSU: PsuContext = { ipAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', acceptLanguage: 'fi-FI,fi;q=0.9', accept: 'text/html' };

const ctx = (now = NOW, psu?: PsuContext): ConnectorContext => (psu ? { institutionId: INST, now, psu } : { institutionId: INST, now });

/** The answers of a linked session with a current account, a card with only `other`, and an account that cannot be read. */
function linkedRoutes(): Record<string, StubRoute> {
  return {
    'POST /auth': { body: { url: 'https://auth.enablebanking.example/ais/start?id=1', authorization_id: 'a-1' } },
    'POST /sessions': {
      body: {
        session_id: 's-1',
        accounts: [
          accountResource('uid-a', 'hash-a'),
          accountResource('uid-c', 'hash-c', { account_id: { other: { identification: '5555XXXXXXXX4321', scheme_name: 'CPAN' } }, cash_account_type: 'CARD' }),
          accountResource('', 'hash-x', { uid: undefined }),
          accountResource('uid-a2', 'hash-a'),
        ],
        aspsp: { name: 'Nordea', country: 'FI' },
        psu_type: 'personal',
        access: { valid_until: '2027-02-23T09:59:00.000000+00:00' },
      },
    },
    'GET /sessions/s-1': { body: { status: 'AUTHORIZED', accounts: ['uid-a', 'uid-c'], access: { valid_until: '2027-02-23T09:59:00+00:00' } } },
    'GET /accounts/uid-a/balances': { body: { balances: [balance('CLBD', '1520.40'), balance('ITAV', '1490.40')] } },
    'GET /accounts/uid-c/balances': { body: { balances: [balance('ITBD', '-310.00')] } },
  };
}

function make(routes: Record<string, StubRoute> = linkedRoutes(), bank: BankConnection = NORDEA, ledger = new ReadLedger()) {
  const api = stubApi(routes);
  const client = new EnableBankingClient({ baseUrl: new URL(STUB_BASE), transport: api.transport, signer: new JwtSigner(APP_ID, key.privateKey) });
  return { api, connector: new EnableBankingConnector({ client, bank, ledger, mode: 'production' }) };
}

function sessionOf(result: AuthResult): ConnectorSession {
  if (!result.ok || result.kind !== 'authenticated') throw new Error(`expected a session, got ${JSON.stringify(result)}`);
  return result.session;
}

function ok<T>(result: ConnectorResult<T>): { value: T; session: ConnectorSession } {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  return { value: result.value, session: result.session! };
}

function failed(result: AuthResult | ConnectorResult<unknown>, code: number): ConnectorFailure {
  if (result.ok) throw new Error(`expected failure ${code}, got success`);
  expect(result.code).toBe(code);
  return result;
}

async function linked(setup = make()) {
  const pending = started(await setup.connector.startOAuth(ctx(), { redirectUri: 'https://ll.example/connect/oauth/callback', state: 'st-1' })).pending;
  const session = sessionOf(await setup.connector.completeOAuth(ctx(), { code: 'code-1', redirectUri: 'https://ll.example/connect/oauth/callback', pending }));
  setup.api.requests.length = 0;
  return { ...setup, session };
}

describe('Enable Banking sign-in', () => {
  it('is OAuth on the bank pages, with no form, and reads the days of history the bank serves', async () => {
    const { connector } = make();
    expect(connector.capabilities).toEqual({ authMode: 'oauth', historyDays: DEFAULT_HISTORY_DAYS });
    expect(connector.loginForm(ctx())).toEqual([]);
    expect(make(undefined, { ...NORDEA, transaction_total_days: 730 }).connector.capabilities.historyDays).toBe(730);
    await expect(connector.authenticate()).rejects.toThrow(ConnectorUsageError);
  });

  it('starts with POST /auth: the bank, the state, the callback, personal customers where offered, and a consent no longer than the bank allows', async () => {
    const { api, connector } = make({ 'POST /auth': { body: { url: 'https://auth.enablebanking.example/ais/start?id=1', authorization_id: 'a-1' } } });
    const start = started(await connector.startOAuth(ctx(), { redirectUri: 'https://ll.example/connect/oauth/callback', state: 'st-1' }));
    expect(start.authorizeUrl).toBe('https://auth.enablebanking.example/ais/start?id=1');
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      path: '/auth',
      body: {
        access: { valid_until: new Date((NOW + 90 * DAY - 60) * 1000).toISOString() },
        aspsp: { name: 'Nordea', country: 'FI' },
        state: 'st-1',
        redirect_url: 'https://ll.example/connect/oauth/callback',
        psu_type: 'personal',
      },
    });
    expect(JSON.parse(JSON.stringify(start.pending))).toEqual(start.pending);

    // A bank allowing more than 180 days is asked for 180; a bank for businesses only, for a business consent.
    const long = make(
      { 'POST /auth': { body: { url: 'https://auth.enablebanking.example/x' } } },
      { ...NORDEA, maximum_consent_validity: 730 * DAY, psu_types: ['business'] },
    );
    await long.connector.startOAuth(ctx(), { redirectUri: 'https://ll.example/cb', state: 's' });
    expect(long.api.requests[0]?.body).toMatchObject({ access: { valid_until: new Date((NOW + 180 * DAY) * 1000).toISOString() }, psu_type: 'business' });
  });

  it('answers what Enable Banking refuses at the start as a failure, and a plain http bank address in production too', async () => {
    const { connector } = make({ 'POST /auth': apiError(400, 'REDIRECT_URI_NOT_ALLOWED') });
    expect(await connector.startOAuth(ctx(), { redirectUri: 'https://ll.example/cb', state: 's' })).toMatchObject({
      ok: false,
      code: 102,
      message: expect.stringContaining('REDIRECT_URI_NOT_ALLOWED'),
    });
    const plain = make({ 'POST /auth': { body: { url: 'http://auth.enablebanking.example/x' } } });
    expect(await plain.connector.startOAuth(ctx(), { redirectUri: 'https://ll.example/cb', state: 's' })).toMatchObject({ ok: false, code: 102 });
  });

  it('completes with POST /sessions: the session keeps the consent and the shared accounts, each once, by identification hash', async () => {
    const setup = make();
    const pending = started(await setup.connector.startOAuth(ctx(), { redirectUri: 'https://ll.example/cb', state: 's' })).pending;
    const session = sessionOf(await setup.connector.completeOAuth(ctx(), { code: 'code-1', redirectUri: 'https://ll.example/cb', pending }));
    expect(setup.api.requests[1]).toMatchObject({ method: 'POST', path: '/sessions', body: { code: 'code-1' } });
    expect(session).toMatchObject({
      sessionId: 's-1',
      psuType: 'personal',
      authorizedAt: NOW,
      validUntil: Date.parse('2027-02-23T09:59:00Z') / 1000,
      unattended: [],
    });
    expect((session.accounts as { ref: string; uid?: string }[]).map((a) => [a.ref, a.uid])).toEqual([
      ['hash-a', 'uid-a'],
      ['hash-c', 'uid-c'],
      ['hash-x', undefined],
    ]);
    expect(JSON.parse(JSON.stringify(session))).toEqual(session);
  });

  it('fails a refused or expired code with 103, a consent sharing no account with 108, and trouble with 102', async () => {
    const pending = { enablebankingSignIn: 1, psuType: 'personal', validUntil: NOW + DAY };
    const complete = (answer: StubRoute) =>
      make({ 'POST /sessions': answer }).connector.completeOAuth(ctx(), { code: 'c', redirectUri: 'https://x/cb', pending });
    failed(await complete(apiError(400, 'WRONG_AUTHORIZATION_CODE')), 103);
    failed(await complete(apiError(400, 'EXPIRED_AUTHORIZATION_CODE')), 103);
    failed(await complete(apiError(422)), 103);
    failed(await complete({ body: { session_id: 's-2', accounts: [] } }), 108);
    failed(await complete(apiError(503)), 102);
    failed(await complete({ fail: 'timeout' }), 102);
    failed(await complete({ body: '<html>' }), 102);
    await expect(make().connector.completeOAuth(ctx(), { code: 'c', redirectUri: 'https://x/cb', pending: {} })).rejects.toThrow(ConnectorUsageError);
  });
});

describe('Enable Banking reads', () => {
  it("list the readable accounts after asking for the session's status, and record the unattended read in the session", async () => {
    const { api, connector, session } = await linked();
    const listed = ok(await connector.listAccounts(ctx(), session));
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /sessions/s-1', 'GET /accounts/uid-a/balances', 'GET /accounts/uid-c/balances']);
    expect(listed.value.map((a) => [a.ref, a.type, a.balance, a.displayPosition])).toEqual([
      ['hash-a', 'checking', 1520.4, 1],
      ['hash-c', 'creditCard', -310, 2],
    ]);
    expect(listed.value[0]?.authorization).toEqual({ startDate: NOW, endDate: Date.parse('2027-02-23T09:59:00Z') / 1000 });
    expect(listed.session.unattended).toEqual([NOW]);
  });

  it('report an ended consent from the session status (945, 946, 947, also CANCELLED and INVALID) without reading the bank', async () => {
    for (const [status, code] of [
      ['EXPIRED', 945],
      ['CLOSED', 946],
      ['REVOKED', 947],
      ['CANCELLED', 946],
      ['INVALID', 946],
      ['PENDING_AUTHORIZATION', 102],
    ] as const) {
      const setup = make({ ...linkedRoutes(), 'GET /sessions/s-1': { body: { status } } });
      const { api, connector, session } = await linked(setup);
      failed(await connector.listAccounts(ctx(), session), code);
      expect(api.requests.map((r) => r.path)).toEqual(['/sessions/s-1']);
    }
  });

  it('report the 401 codes of an ended session as 945, 946 and 947, and a consent past its date without asking at all', async () => {
    for (const [error, code] of [
      ['EXPIRED_SESSION', 945],
      ['CLOSED_SESSION', 946],
      ['REVOKED_SESSION', 947],
    ] as const) {
      const { connector, session } = await linked(make({ ...linkedRoutes(), 'GET /accounts/uid-a/balances': apiError(401, error) }));
      failed(await connector.listAccounts(ctx(), session), code);
      failed(await make({ 'GET /sessions/s-1': apiError(401, error) }).connector.listAccounts(ctx(), session), code);
    }
    const { api, connector, session } = await linked();
    const later = Date.parse('2027-02-23T10:00:00Z') / 1000;
    failed(await connector.listAccounts(ctx(later), session), 945);
    failed(await connector.fetchTransactions(ctx(later), session, 'hash-a', later - DAY, later), 945);
    expect(api.requests).toEqual([]);
  });

  it('read booked and pending transactions in one request and follow continuation_key across an empty page until there is none', async () => {
    const pages: Record<string, unknown> = {
      '': {
        transactions: [transaction({ entry_reference: 'p1-a' }), transaction({ entry_reference: 'p1-b', transaction_date: '2026-11-18' })],
        continuation_key: 'k1',
      },
      k1: { transactions: [], continuation_key: 'k2' },
      k2: {
        transactions: [transaction({ entry_reference: null, status: 'PDNG', booking_date: null, transaction_date: '2026-11-24' })],
        continuation_key: null,
      },
    };
    const routes = {
      ...linkedRoutes(),
      'GET /accounts/uid-a/transactions': (r: { query: Record<string, string> }) => ({ body: pages[r.query.continuation_key ?? ''] }),
    };
    const { api, connector, session } = await linked(make(routes));
    const got = ok(await connector.fetchTransactions(ctx(), session, 'hash-a', NOW - 30 * DAY, NOW));
    expect(api.requests.map((r) => r.query)).toEqual([
      { date_from: '2026-10-26', date_to: '2026-11-25' },
      { date_from: '2026-10-26', date_to: '2026-11-25', continuation_key: 'k1' },
      { date_from: '2026-10-26', date_to: '2026-11-25', continuation_key: 'k2' },
    ]);
    expect(got.value.map((t) => [t.ref.slice(0, 2), t.status, t.amount])).toEqual([
      ['e:', 'active', -12.5],
      ['e:', 'active', -12.5],
      ['h:', 'pending', -12.5],
    ]);
    expect(got.value.map((t) => t.ref).slice(0, 2)).toEqual(['e:p1-b', 'e:p1-a']);
  });

  it(`fail a transaction list that does not end within ${MAX_TRANSACTION_PAGES} pages, and only serve what [from, to] holds`, async () => {
    let n = 0;
    const endless = { ...linkedRoutes(), 'GET /accounts/uid-a/transactions': () => ({ body: { transactions: [], continuation_key: `k${++n}` } }) };
    const { api, connector, session } = await linked(make(endless));
    const failure = failed(await connector.fetchTransactions(ctx(), session, 'hash-a', NOW - DAY, NOW), 102);
    expect(failure.message).toContain(`${MAX_TRANSACTION_PAGES} pages`);
    expect(api.requests).toHaveLength(MAX_TRANSACTION_PAGES);

    const dated = {
      ...linkedRoutes(),
      'GET /accounts/uid-a/transactions': {
        body: { transactions: [transaction({ transaction_date: '2026-11-10' }), transaction({ entry_reference: 'E-2', transaction_date: '2026-11-24' })] },
      },
    };
    const two = await linked(make(dated));
    const got = ok(await two.connector.fetchTransactions(ctx(), two.session, 'hash-a', Date.parse('2026-11-20T00:00:00Z') / 1000, NOW));
    expect(got.value.map((t) => t.ref)).toEqual(['e:E-2']);
    expect(two.api.requests[0]?.query).toMatchObject({ date_from: '2026-11-20' });
  });

  it('refuse an account ref the session does not hold as a usage error, and serve an account that cannot be read as empty', async () => {
    const { connector, session } = await linked();
    await expect(connector.fetchTransactions(ctx(), session, 'hash-nope', NOW - DAY, NOW)).rejects.toThrow(ConnectorUsageError);
    expect(ok(await connector.fetchTransactions(ctx(), session, 'hash-x', NOW - DAY, NOW)).value).toEqual([]);
  });

  it('carry a JWT of the application on every request', async () => {
    const { api, connector, session } = await linked(make({ ...linkedRoutes(), 'GET /accounts/uid-a/transactions': { body: { transactions: [] } } }));
    await connector.listAccounts(ctx(), session);
    await connector.fetchTransactions(ctx(), session, 'hash-a', NOW - DAY, NOW);
    expect(api.requests.length).toBeGreaterThan(3);
    for (const request of api.requests) {
      const [, token] = /^Bearer (.+)$/.exec(request.headers.authorization ?? '') ?? [];
      const [header, claims, signature] = (token ?? '').split('.');
      expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({ kid: APP_ID, alg: 'RS256' });
      expect(verify('sha256', Buffer.from(`${header}.${claims}`), key.publicKey, Buffer.from(signature!, 'base64url'))).toBe(true);
    }
  });
});

describe('Enable Banking PSU headers', () => {
  const routes = { ...linkedRoutes(), 'GET /accounts/uid-a/transactions': { body: { transactions: [] } } };
  const psuHeadersOf = (headers: Record<string, string>) => Object.keys(headers).filter((h) => /^psu-/i.test(h));

  it('go with every read while the customer is in Connect (all the bank requires), never to GET /sessions, and such reads are not counted', async () => {
    const { api, connector, session } = await linked(make(routes));
    const listed = ok(await connector.listAccounts(ctx(NOW, PSU), session));
    await connector.fetchTransactions(ctx(NOW, PSU), listed.session, 'hash-a', NOW - DAY, NOW);
    expect(api.requests.map((r) => [r.path, psuHeadersOf(r.headers)])).toEqual([
      ['/sessions/s-1', []],
      ['/accounts/uid-a/balances', ['Psu-Ip-Address', 'Psu-User-Agent']],
      ['/accounts/uid-c/balances', ['Psu-Ip-Address', 'Psu-User-Agent']],
      ['/accounts/uid-a/transactions', ['Psu-Ip-Address', 'Psu-User-Agent']],
    ]);
    expect(api.requests[1]?.headers['Psu-Ip-Address']).toBe(PSU.ipAddress);
    expect(listed.session.unattended).toEqual([]);
  });

  it("are all left out when the customer's browser did not give one the bank requires (the read is then unattended), and without a customer", async () => {
    for (const required of [['Psu-Ip-Address', 'Psu-Accept-Charset'], ['Psu-Geo-Location']]) {
      const { api, connector, session } = await linked(make(routes, { ...NORDEA, required_psu_headers: required }));
      const listed = ok(await connector.listAccounts(ctx(NOW, PSU), session));
      expect(api.requests.flatMap((r) => psuHeadersOf(r.headers))).toEqual([]);
      expect(listed.session.unattended).toEqual([NOW]);
    }
    const { api, connector, session } = await linked(make(routes));
    await connector.listAccounts(ctx(), session);
    await connector.fetchTransactions(ctx(), session, 'hash-a', NOW - DAY, NOW);
    expect(api.requests.flatMap((r) => psuHeadersOf(r.headers))).toEqual([]);
  });

  it('are the ones the bank names, in any letter case, and a value a header cannot carry counts as not given', async () => {
    const bank = { ...NORDEA, required_psu_headers: ['psu-accept-language', 'PSU-ACCEPT'] };
    const { api, connector, session } = await linked(make(routes, bank));
    await connector.listAccounts(ctx(NOW, PSU), session);
    expect(api.requests[1]?.headers).toMatchObject({ 'Psu-Accept-Language': 'fi-FI,fi;q=0.9', 'Psu-Accept': 'text/html' });
    const odd = await linked(make(routes, bank));
    await odd.connector.listAccounts(ctx(NOW, { ...PSU, accept: 'text/html\r\nX-Injected: 1' }), odd.session);
    expect(odd.api.requests.flatMap((r) => psuHeadersOf(r.headers))).toEqual([]);
  });
});

describe('Enable Banking unattended reads', () => {
  it('are at most 4 a UTC day: the fifth is refused without reading the bank, naming when the next is allowed; attended reads still go', async () => {
    const { api, connector, session: first } = await linked();
    let session = first;
    for (let i = 0; i < 4; i++) session = ok(await connector.listAccounts(ctx(NOW + i * 60), session)).session;
    api.requests.length = 0;
    const refused = failed(await connector.listAccounts(ctx(NOW + 300), session), 102);
    expect(refused.message).toContain('2026-11-26 00:00 UTC');
    expect(api.requests.map((r) => r.path)).toEqual(['/sessions/s-1']);
    ok(await connector.listAccounts(ctx(NOW + 360, PSU), session));
    ok(await connector.listAccounts(ctx(Date.parse('2026-11-26T00:00:00Z') / 1000), session));
  });

  it('that failed are still counted, though the failure stores no session', async () => {
    const ledger = new ReadLedger();
    const setup = make({ ...linkedRoutes(), 'GET /accounts/uid-c/balances': apiError(500) }, NORDEA, ledger);
    const { connector, session } = await linked(setup);
    failed(await connector.listAccounts(ctx(), session), 102);
    expect(session.unattended).toEqual([]);
    expect(connector.backgroundRefreshAt(ctx(), session)).toBe(NOW + 6 * 3600);
  });
});
