import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorAccount, ConnectorContext, ConnectorFailure, ConnectorSession, ConnectorTransaction } from '../../src/connectors/connector.js';
import { ConnectorUsageError } from '../../src/connectors/connector.js';
import { createHttpTransport, OfxConnector, type OfxInstitutionConfig, type OfxTransport } from '../../src/connectors/ofx/connector.js';
import { formatOfxDate } from '../../src/connectors/ofx/dates.js';
import { type OfxServer, type OfxServerTransaction, type OfxServerUser, startOfxServer } from '../helpers/ofx-server.js';

const DAY = 86_400;
const NOW = Date.parse('2025-03-01T15:00:00Z') / 1000;
const ctx: ConnectorContext = { institutionId: 4242, now: NOW };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const transport = createHttpTransport({ timeoutMs: 2000, maxBytes: 1 << 20, mode: 'sandbox' });
const credentials = (user: string, password: string) => [
  { id: '4242001', value: user },
  { id: '4242002', value: password },
];

const checking: OfxServerTransaction[] = [
  { fitId: '1', type: 'POS', posted: NOW - 20 * DAY, user: NOW - 21 * DAY, amount: -42.17, name: 'KROGER #512', memo: 'POS PURCHASE' },
  { fitId: '2', type: 'CHECK', posted: NOW - 15 * DAY, amount: -1200, name: 'CHECK 1042', checkNum: '1042' },
  { fitId: '3', type: 'DIRECTDEP', posted: NOW - 10 * DAY, amount: 2450.33, name: 'ACME CORP PAYROLL' },
  { fitId: '4', type: 'ATM', posted: NOW - 2 * DAY, amount: -60, name: 'ATM WITHDRAWAL' },
  { fitId: 'OLD', type: 'DEBIT', posted: NOW - 400 * DAY, amount: -9.99, name: 'ANNUAL FEE' },
];

function users(): OfxServerUser[] {
  return [
    {
      userId: 'jane',
      password: 'secret&<1>',
      accounts: [
        {
          kind: 'bank',
          bankId: '121000248',
          acctId: '1234567890',
          acctType: 'CHECKING',
          description: 'Everyday Checking',
          balance: 3310.59,
          available: 3250.59,
          transactions: checking,
        },
        {
          kind: 'bank',
          bankId: '121000248',
          acctId: '5550001',
          acctType: 'SAVINGS',
          balance: 10628.67,
          transactions: [{ fitId: '1', type: 'INT', posted: NOW - 20 * DAY, amount: 3.17, name: 'INTEREST EARNED' }],
        },
        { kind: 'bank', bankId: '121000248', acctId: '7000111', acctType: 'CREDITLINE', description: 'Home Equity Line', balance: -12000, available: 38000 },
        {
          kind: 'creditCard',
          acctId: '4111111111114321',
          description: 'Rewards Visa',
          balance: -1523.87,
          available: 8476.13,
          transactions: [{ fitId: '1', type: 'DEBIT', posted: NOW - 5 * DAY, amount: -15.49, name: 'NETFLIX.COM' }],
        },
        {
          kind: 'investment',
          brokerId: 'brokerco.com',
          acctId: 'Z12345678',
          description: 'Rollover IRA',
          productType: 'IRA',
          cash: 1536.45,
          positions: [
            { kind: 'STOCK', uniqueId: '037833100', units: 10, unitPrice: 221.55 },
            { kind: 'MF', uniqueId: '922908710', units: 20.5, unitPrice: 500 },
          ],
          transactions: [
            { kind: 'BUYSTOCK', fitId: 'B1', trade: NOW - 12 * DAY, uniqueId: '037833100', units: 10, unitPrice: 194.35, total: -1943.5 },
            { kind: 'INCOME', fitId: 'I1', trade: NOW - 8 * DAY, uniqueId: '037833100', total: 2.5, incomeType: 'DIV' },
            { kind: 'REINVEST', fitId: 'R1', trade: NOW - 4 * DAY, uniqueId: '922908710', units: 0.1, unitPrice: 480, total: -48 },
          ],
        },
        { kind: 'bank', bankId: '121000248', acctId: '1234500000', acctType: 'SAVINGS', description: 'Pending savings', balance: 0, serviceStatus: 'PEND' },
      ],
      securities: [
        { kind: 'STOCK', uniqueId: '037833100', name: 'Apple Inc.', ticker: 'AAPL', unitPrice: 221.55 },
        { kind: 'MF', uniqueId: '922908710', name: 'Vanguard 500 Index Admiral', ticker: 'VFIAX' },
      ],
    },
    { userId: 'locked', password: 'pw', accounts: [], failure: { signon: 15502, signonMessage: 'Too many attempts' } },
    { userId: 'newpass', password: 'pw', accounts: [], failure: { signon: 15000 } },
    { userId: 'mfa', password: 'pw', accounts: [], failure: { signon: 3000 } },
    { userId: 'device', password: 'pw', accounts: [{ kind: 'creditCard', acctId: '9', balance: 0 }], requireClientUid: true },
    { userId: 'down', password: 'pw', accounts: [], failure: { http: 500 } },
    { userId: 'garbage', password: 'pw', accounts: [], failure: { garbage: true } },
    { userId: 'slow', password: 'pw', accounts: [], failure: { delayMs: 3000 } },
    {
      userId: 'partial',
      password: 'pw',
      accounts: [
        { kind: 'bank', bankId: '1', acctId: 'A', acctType: 'CHECKING', balance: 1 },
        { kind: 'bank', bankId: '1', acctId: 'GONE', acctType: 'SAVINGS', balance: 2 },
      ],
      failure: { statement: 2003, statementAccounts: ['GONE'] },
    },
    {
      userId: 'broken',
      password: 'pw',
      accounts: [{ kind: 'bank', bankId: '1', acctId: 'A', acctType: 'CHECKING', balance: 1 }],
      failure: { statement: 2000, statementMessage: 'Host unavailable' },
    },
  ];
}

function failure(result: { ok: boolean }): ConnectorFailure {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result).slice(0, 300)}`);
  return result as ConnectorFailure;
}

async function signIn(connector: OfxConnector, user = 'jane', password = 'secret&<1>'): Promise<ConnectorSession> {
  const result = await connector.authenticate(ctx, credentials(user, password));
  if (!result.ok || result.kind !== 'authenticated') throw new Error(`sign-in failed: ${JSON.stringify(result)}`);
  return result.session;
}

describe.each([
  { format: 'sgml' as const, version: 103 },
  { format: 'xml' as const, version: 211 },
])('the OFX connector against a $format server (version $version)', ({ format, version }) => {
  let server: OfxServer;
  let institution: OfxInstitutionConfig;
  let connector: OfxConnector;

  beforeAll(async () => {
    server = await startOfxServer({ format, users: users(), org: 'FirstPrairie', fid: '10898' });
    institution = { url: server.url, org: 'FirstPrairie', fid: '10898', version };
    connector = new OfxConnector({ institution, transport });
  });
  afterAll(async () => {
    await server.close();
  });

  const lastRequest = () => server.requests.at(-1)!;

  it('offers a user id and password form and signs in with credentials', () => {
    expect(connector.capabilities).toEqual({ authMode: 'credentials', historyDays: 730 });
    expect(connector.loginForm(ctx)).toEqual([
      { id: '4242001', name: 'User ID', label: 'User ID', kind: 'text', displayOrder: 1, hint: expect.stringContaining('Quicken') },
      { id: '4242002', name: 'Password', label: 'Password', kind: 'password', displayOrder: 2 },
    ]);
  });

  it('authenticates with ACCTINFORQ and keeps credentials, CLIENTUID and the active accounts in the session', async () => {
    const session = await signIn(connector);
    expect(session.userId).toBe('jane');
    expect(session.password).toBe('secret&<1>');
    expect(session.clientUid).toMatch(UUID);
    expect((session.accounts as { ref: string }[]).map((a) => a.ref)).toEqual([
      'CHECKING:121000248:1234567890',
      'SAVINGS:121000248:5550001',
      'CREDITLINE:121000248:7000111',
      'CREDITCARD:4111111111114321',
      'INVESTMENT:brokerco.com:Z12345678',
    ]);
    expect(JSON.parse(JSON.stringify(session))).toEqual(session);

    const request = lastRequest();
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/x-ofx');
    expect(request.syntax).toBe(format);
    expect(request.version).toBe(version);
    expect(request.signon).toEqual({
      dtClient: formatOfxDate(NOW),
      userId: 'jane',
      password: 'secret&<1>',
      language: 'ENG',
      org: 'FirstPrairie',
      fid: '10898',
      appId: 'QWIN',
      appVer: '2700',
      clientUid: session.clientUid,
    });
    expect(request.transactions).toEqual([{ kind: 'accountInfo', trnuid: expect.stringMatching(UUID), dtAcctUp: '19700101' }]);
  });

  it('uses a fresh TRNUID for every request and keeps the CLIENTUID of the session on every call', async () => {
    const session = await signIn(connector);
    const from = server.requests.length;
    await connector.listAccounts(ctx, session);
    await connector.fetchTransactions(ctx, session, 'CHECKING:121000248:1234567890', NOW - 30 * DAY, NOW);
    const sent = server.requests.slice(from - 1);
    expect(new Set(sent.map((r) => r.signon?.clientUid))).toEqual(new Set([session.clientUid]));
    const trnuids = sent.flatMap((r) => r.transactions.map((t) => t.trnuid));
    expect(trnuids.length).toBeGreaterThanOrEqual(8);
    expect(new Set(trnuids).size).toBe(trnuids.length);
    // A second sign-in without a CLIENTUID key is a new client.
    expect((await signIn(connector)).clientUid).not.toBe(session.clientUid);
  });

  it('sends the configured APPID and APPVER', async () => {
    const custom = new OfxConnector({ institution: { ...institution, appId: 'QMOFX', appVer: '2500' }, transport });
    await signIn(custom);
    expect(lastRequest().signon).toMatchObject({ appId: 'QMOFX', appVer: '2500' });
  });

  it('answers a wrong password with 103 and never sends an empty form', async () => {
    const wrong = failure(await connector.authenticate(ctx, credentials('jane', 'nope')));
    expect(wrong.code).toBe(103);
    expect(wrong.message).toContain('The user ID or password is incorrect.');
    expect(wrong.message).toContain('(OFX status 15500)');
    const before = server.requests.length;
    expect(failure(await connector.authenticate(ctx, credentials('jane', ''))).code).toBe(103);
    expect(failure(await connector.authenticate(ctx, [])).code).toBe(103);
    expect(server.requests.length).toBe(before);
  });

  it('finds the credentials by name when the form ids are not the institution ones', async () => {
    const result = await connector.authenticate(ctx, [
      { id: 'a', name: 'Banking Userid', value: 'jane' },
      { id: 'b', name: 'Banking Password', value: 'secret&<1>' },
    ]);
    expect(result.ok).toBe(true);
  });

  it('asks the user to approve this device for 15510, and signs in once the institution has (with a CLIENTUID key)', async () => {
    const keyed = new OfxConnector({ institution, transport, clientUidKey: 'a key of this deployment, 32 bytes or more' });
    const refused = failure(await keyed.authenticate(ctx, credentials('device', 'pw')));
    expect(refused.code).toBe(108);
    expect(refused.message).toMatch(/approve the new device or application/);
    expect(refused.message).toContain('approve the new connection within 7 days');
    const clientUid = lastRequest().signon?.clientUid;
    expect(clientUid).toMatch(UUID);
    server.approveClientUid('device', clientUid!);
    const session = await signIn(keyed, 'device', 'pw');
    expect(session.clientUid).toBe(clientUid);
    // Another user at the same institution is another client.
    const other = new OfxConnector({ institution, transport, clientUidKey: 'a key of this deployment, 32 bytes or more' });
    await other.authenticate(ctx, credentials('jane', 'secret&<1>'));
    expect(lastRequest().signon?.clientUid).not.toBe(clientUid);
  });

  it('maps a locked or expired password to 109 and an MFA demand to 185', async () => {
    const locked = failure(await connector.authenticate(ctx, credentials('locked', 'pw')));
    expect(locked.code).toBe(109);
    expect(locked.message).toContain('Too many attempts');
    expect(failure(await connector.authenticate(ctx, credentials('newpass', 'pw'))).code).toBe(109);
    expect(failure(await connector.authenticate(ctx, credentials('mfa', 'pw'))).code).toBe(185);
  });

  it('answers HTTP 500, a garbage body, a refused connection and a timeout with 102', async () => {
    const down = failure(await connector.authenticate(ctx, credentials('down', 'pw')));
    expect(down).toMatchObject({ code: 102, message: expect.stringContaining('HTTP 500') });
    expect(failure(await connector.authenticate(ctx, credentials('garbage', 'pw'))).code).toBe(102);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nowhere = new OfxConnector({ institution: { ...institution, url: `http://127.0.0.1:${port}/ofx` }, transport });
    expect(failure(await nowhere.authenticate(ctx, credentials('jane', 'x'))).code).toBe(102);

    const impatient = new OfxConnector({ institution, transport: createHttpTransport({ timeoutMs: 200, maxBytes: 1 << 20, mode: 'sandbox' }) });
    const slow = failure(await impatient.authenticate(ctx, credentials('slow', 'pw')));
    expect(slow).toMatchObject({ code: 102, message: expect.stringContaining('No answer within 200 ms') });
  });

  it('lists every account type with balances, details and positions', async () => {
    const session = await signIn(connector);
    const result = await connector.listAccounts(ctx, session);
    if (!result.ok) throw new Error(result.message);
    const byRef = new Map<string, ConnectorAccount>(result.value.map((a) => [a.ref, a]));
    expect(result.value.map((a) => [a.ref, a.type, a.balance, a.displayPosition])).toEqual([
      ['CHECKING:121000248:1234567890', 'checking', 3310.59, 1],
      ['SAVINGS:121000248:5550001', 'savings', 10628.67, 2],
      ['CREDITLINE:121000248:7000111', 'lineOfCredit', -12000, 3],
      ['CREDITCARD:4111111111114321', 'creditCard', -1523.87, 4],
      ['INVESTMENT:brokerco.com:Z12345678', 'investmentTaxDeferred', 14001.95, 5],
    ]);
    expect(byRef.get('CHECKING:121000248:1234567890')).toMatchObject({
      name: 'Everyday Checking',
      number: '1234567890',
      accountNumberDisplay: '7890',
      realAccountNumberLast4: '7890',
      balanceDate: NOW,
      detail: { availableBalanceAmount: 3250.59 },
    });
    expect(byRef.get('SAVINGS:121000248:5550001')).toMatchObject({ name: 'Savings ...0001', detail: { availableBalanceAmount: 10628.67 } });
    expect(byRef.get('CREDITLINE:121000248:7000111')).toMatchObject({ detail: { creditAvailableAmount: 38000, locPrincipalBalance: 12000 } });
    const brokerage = byRef.get('INVESTMENT:brokerco.com:Z12345678');
    if (brokerage?.type !== 'investmentTaxDeferred') throw new Error('no brokerage account');
    expect(brokerage.detail).toMatchObject({ availableCashBalance: 1536.45, currentBalance: 14001.95 });
    expect(brokerage.position.map((p) => [p.symbol, p.fundName, p.quantity, p.unitPrice, p.marketValue])).toEqual([
      ['AAPL', 'Apple Inc.', 10, 221.55, '2215.50'],
      ['VFIAX', 'Vanguard 500 Index Admiral', 20.5, 500, '10250.00'],
    ]);

    // One sign-on with the account list, then one request with a short statement of each account.
    const [info, statements] = server.requests.slice(-2);
    expect(info?.transactions.map((t) => t.kind)).toEqual(['accountInfo']);
    expect(statements?.transactions.map((t) => [t.kind, t.acctId])).toEqual([
      ['bank', '1234567890'],
      ['bank', '5550001'],
      ['bank', '7000111'],
      ['creditCard', '4111111111114321'],
      ['investment', 'Z12345678'],
    ]);
    expect(statements?.transactions.every((t) => t.dtStart === formatOfxDate(NOW - 3 * DAY, 'date') && t.dtEnd === undefined)).toBe(true);
    expect(statements?.transactions.at(-1)).toMatchObject({ brokerId: 'brokerco.com', includePositions: true, includeBalance: true, includeOpenOrders: false });
    expect('session' in result).toBe(false);
  });

  it('leaves out an account the server no longer finds, and fails on a server error', async () => {
    const partial = await connector.listAccounts(ctx, await signIn(connector, 'partial', 'pw'));
    if (!partial.ok) throw new Error(partial.message);
    expect(partial.value.map((a) => a.ref)).toEqual(['CHECKING:1:A']);
    const broken = failure(await connector.listAccounts(ctx, await signIn(connector, 'broken', 'pw')));
    expect(broken.code).toBe(102);
    expect(broken.message).toContain('Host unavailable');
  });

  it('hands back a new session when the account list changed', async () => {
    const session = await signIn(connector, 'partial', 'pw');
    server.setAccounts('partial', [
      { kind: 'bank', bankId: '1', acctId: 'A', acctType: 'CHECKING', balance: 1 },
      { kind: 'bank', bankId: '1', acctId: 'NEW', acctType: 'SAVINGS', balance: 5 },
    ]);
    const result = await connector.listAccounts(ctx, session);
    if (!result.ok) throw new Error(result.message);
    expect(result.value.map((a) => a.ref)).toEqual(['CHECKING:1:A', 'SAVINGS:1:NEW']);
    expect(((result.session?.accounts ?? []) as { ref: string }[]).map((a) => a.ref)).toEqual(['CHECKING:1:A', 'SAVINGS:1:NEW']);
    expect(result.session?.clientUid).toBe(session.clientUid);
  });

  it('fetches the transactions of a window, oldest first, asking with a margin of a day', async () => {
    const session = await signIn(connector);
    const from = NOW - 16 * DAY;
    const to = NOW - 5 * DAY;
    const result = await connector.fetchTransactions(ctx, session, 'CHECKING:121000248:1234567890', from, to);
    if (!result.ok) throw new Error(result.message);
    expect(result.value.map((t) => [t.ref, t.amount])).toEqual([
      ['CHECKING:121000248:1234567890:2', -1200],
      ['CHECKING:121000248:1234567890:3', 2450.33],
    ]);
    expect(result.value[0]).toMatchObject({ status: 'active', type: 'check', checkNum: '1042', postedDate: NOW - 15 * DAY, transactionDate: NOW - 15 * DAY });
    expect(lastRequest().transactions).toEqual([
      {
        kind: 'bank',
        trnuid: expect.stringMatching(UUID),
        acctId: '1234567890',
        bankId: '121000248',
        acctType: 'CHECKING',
        dtStart: formatOfxDate(from - DAY, 'date'),
        dtEnd: formatOfxDate(to + 2 * DAY, 'date'),
        includeTransactions: true,
      },
    ]);

    const all = await connector.fetchTransactions(ctx, session, 'CHECKING:121000248:1234567890', NOW - 30 * DAY, NOW);
    if (!all.ok) throw new Error(all.message);
    expect(all.value.map((t) => t.ref.split(':').at(-1))).toEqual(['1', '2', '3', '4']);
    // DTUSER is the transaction date; DTPOSTED the posted date.
    expect(all.value[0]).toMatchObject({ transactionDate: NOW - 21 * DAY, postedDate: NOW - 20 * DAY, memo: 'POS PURCHASE', description: 'KROGER #512' });
    expect(lastRequest().transactions[0]?.dtEnd).toBeUndefined();
  });

  it('asks no further back than the history the institution serves', async () => {
    const session = await signIn(connector);
    const short = new OfxConnector({ institution: { ...institution, historyDays: 90 }, transport });
    expect(short.capabilities.historyDays).toBe(90);
    const result = await short.fetchTransactions(ctx, session, 'CHECKING:121000248:1234567890', NOW - 1000 * DAY, NOW);
    if (!result.ok) throw new Error(result.message);
    expect(lastRequest().transactions[0]?.dtStart).toBe(formatOfxDate(NOW - 91 * DAY, 'date'));
    expect(result.value.some((t) => t.ref.endsWith(':OLD'))).toBe(false);
    const old = await connector.fetchTransactions(ctx, session, 'CHECKING:121000248:1234567890', NOW - 1000 * DAY, NOW);
    expect(old.ok && old.value.map((t) => t.ref.split(':').at(-1))).toEqual(['OLD', '1', '2', '3', '4']);
    const before = server.requests.length;
    expect(await short.fetchTransactions(ctx, session, 'CHECKING:121000248:1234567890', NOW - 1000 * DAY, NOW - 500 * DAY)).toEqual({ ok: true, value: [] });
    expect(server.requests.length).toBe(before);
  });

  it('keeps the refs of an account apart from another account with the same FITIDs', async () => {
    const session = await signIn(connector);
    const a = await connector.fetchTransactions(ctx, session, 'CHECKING:121000248:1234567890', NOW - 30 * DAY, NOW);
    const b = await connector.fetchTransactions(ctx, session, 'SAVINGS:121000248:5550001', NOW - 30 * DAY, NOW);
    const c = await connector.fetchTransactions(ctx, session, 'CREDITCARD:4111111111114321', NOW - 30 * DAY, NOW);
    if (!a.ok || !b.ok || !c.ok) throw new Error('fetch failed');
    expect(b.value.map((t) => t.ref)).toEqual(['SAVINGS:121000248:5550001:1']);
    expect(c.value.map((t) => [t.ref, t.description, t.type])).toEqual([['CREDITCARD:4111111111114321:1', 'NETFLIX.COM', 'debit']]);
    const refs = [...a.value, ...b.value, ...c.value].map((t) => t.ref);
    expect(new Set(refs).size).toBe(refs.length);
    expect(lastRequest().transactions[0]).toMatchObject({ kind: 'creditCard', acctId: '4111111111114321' });
  });

  it('fetches investment transactions with their securities', async () => {
    const session = await signIn(connector);
    const result = await connector.fetchTransactions(ctx, session, 'INVESTMENT:brokerco.com:Z12345678', NOW - 30 * DAY, NOW);
    if (!result.ok) throw new Error(result.message);
    expect(result.value.map((t) => [t.ref.split(':').slice(3).join(':'), t.amount, t.investmentTransactionType, t.ticker])).toEqual([
      ['B1', -1943.5, 'purchased', 'AAPL'],
      ['I1', 2.5, 'dividend', 'AAPL'],
      ['R1:income', 48, 'dividend', 'VFIAX'],
      ['R1', -48, 'dividendReinvest', 'VFIAX'],
    ]);
    expect(lastRequest().transactions[0]).toMatchObject({ kind: 'investment', brokerId: 'brokerco.com', acctId: 'Z12345678', includeOpenOrders: false });
  });

  it('sees transactions added at the institution on the next fetch, with the refs of the old ones unchanged', async () => {
    const session = await signIn(connector);
    const ref = 'CHECKING:121000248:1234567890';
    const first = await connector.fetchTransactions(ctx, session, ref, NOW - 30 * DAY, NOW);
    if (!first.ok) throw new Error(first.message);
    server.setTransactions('jane', '1234567890', [
      ...checking,
      { fitId: '5', type: 'DEBIT', posted: NOW - DAY, amount: -8.4, name: 'BAGEL SHOP' },
      { fitId: '6', type: 'CREDIT', posted: NOW - 3 * DAY, amount: 20, name: 'REFUND' },
    ]);
    try {
      const second = await connector.fetchTransactions(ctx, session, ref, NOW - 30 * DAY, NOW);
      if (!second.ok) throw new Error(second.message);
      const old = new Map(first.value.map((t): [string, ConnectorTransaction] => [t.ref, t]));
      for (const t of second.value.filter((x) => old.has(x.ref))) expect(t).toEqual(old.get(t.ref));
      expect(second.value.filter((t) => !old.has(t.ref)).map((t) => [t.ref, t.description])).toEqual([
        [`${ref}:6`, 'REFUND'],
        [`${ref}:5`, 'BAGEL SHOP'],
      ]);
      expect(second.value.map((t) => t.transactionDate)).toEqual([...second.value.map((t) => t.transactionDate)].sort((x, y) => x - y));
    } finally {
      server.setTransactions('jane', '1234567890', checking);
    }
  });

  it('answers a statement error of one account with its code', async () => {
    const session = await signIn(connector, 'partial', 'pw');
    const gone = failure(await connector.fetchTransactions(ctx, session, 'SAVINGS:1:GONE', NOW - 30 * DAY, NOW));
    expect(gone.code).toBe(102);
    expect(gone.message).toContain('OFX status 2003');
  });

  it('refuses what it cannot serve: a foreign session is 103, a foreign ref, MFA answers and OAuth are usage errors', async () => {
    expect(failure(await connector.listAccounts(ctx, { testbank: 'x' })).code).toBe(103);
    expect(failure(await connector.fetchTransactions(ctx, { userId: 'jane', password: 1 }, 'CREDITCARD:1', 0, NOW)).code).toBe(103);
    const session = await signIn(connector);
    await expect(connector.fetchTransactions(ctx, session, 'acct-1', 0, NOW)).rejects.toThrow(ConnectorUsageError);
    await expect(connector.answerMfa(ctx, {}, [])).rejects.toThrow(ConnectorUsageError);
    await expect(connector.startOAuth(ctx, { redirectUri: 'https://x', state: 's' })).rejects.toThrow(ConnectorUsageError);
    await expect(connector.completeOAuth(ctx, { code: 'c', redirectUri: 'https://x', pending: {} })).rejects.toThrow(ConnectorUsageError);
  });
});

describe('the OFX connector with version 1.0.2 (the default)', () => {
  let server: OfxServer;
  beforeAll(async () => {
    server = await startOfxServer({ format: 'sgml', users: users(), closeLeaves: true });
  });
  afterAll(async () => {
    await server.close();
  });

  it('leaves CLIENTUID out of 1.0.2 requests unless told to send it, and reads servers that close leaves', async () => {
    const plain = new OfxConnector({ institution: { url: server.url, org: 'O', fid: '1' }, transport });
    const session = await signIn(plain);
    expect(server.requests.at(-1)?.version).toBe(102);
    expect(server.requests.at(-1)?.signon?.clientUid).toBeUndefined();
    expect(session.clientUid).toMatch(UUID);
    const accounts = await plain.listAccounts(ctx, session);
    expect(accounts.ok && accounts.value).toHaveLength(5);
    const sending = new OfxConnector({ institution: { url: server.url, org: 'O', fid: '1', sendClientUid: true }, transport });
    const second = await signIn(sending);
    expect(server.requests.at(-1)?.signon?.clientUid).toBe(second.clientUid);
  });

  it('refuses a version it does not speak', () => {
    expect(() => new OfxConnector({ institution: { url: server.url, org: 'O', fid: '1', version: 230 }, transport })).toThrow(ConnectorUsageError);
    expect(() => new OfxConnector({ institution: { url: server.url, org: 'O', fid: '1', historyDays: 0 }, transport })).toThrow(ConnectorUsageError);
  });
});

describe('a transport that misbehaves', () => {
  const institution = { url: 'https://ofx.example.test/ofx', org: 'O', fid: '1' };
  const ofx = (body: string) => `OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\n\r\n<OFX>${body}</OFX>`;
  const sonrs = (code: number) =>
    `<SIGNONMSGSRSV1><SONRS><STATUS><CODE>${code}<SEVERITY>${code ? 'ERROR' : 'INFO'}</STATUS><DTSERVER>20250301</SONRS></SIGNONMSGSRSV1>`;

  it.each<[string, OfxTransport, number, RegExp]>([
    [
      'throws',
      async () => {
        throw new Error('socket hang up');
      },
      102,
      /socket hang up/,
    ],
    ['answers HTTP 503 with HTML', async () => ({ status: 503, body: '<html>busy</html>' }), 102, /HTTP 503/],
    ['answers HTTP 400 with an OFX sign-on error', async () => ({ status: 400, body: ofx(sonrs(15500)) }), 103, /15500/],
    ['answers an OFX body without a sign-on', async () => ({ status: 200, body: ofx('<X>1</X>') }), 102, /no sign-on response/],
    ['answers a sign-on without an account list', async () => ({ status: 200, body: ofx(sonrs(0)) }), 102, /no account list/],
    ['answers a truncated body', async () => ({ status: 200, body: ofx(sonrs(0)).slice(0, 80) }), 102, /ends before/],
    [
      'answers an account list error',
      async () => ({
        status: 200,
        body: ofx(`${sonrs(0)}<SIGNUPMSGSRSV1><ACCTINFOTRNRS><TRNUID>1<STATUS><CODE>2000<SEVERITY>ERROR</STATUS></ACCTINFOTRNRS></SIGNUPMSGSRSV1>`),
      }),
      102,
      /OFX status 2000/,
    ],
  ])('fails with the mapped code when it %s', async (_name, broken, code, message) => {
    const connector = new OfxConnector({ institution, transport: broken });
    const result = failure(await connector.authenticate(ctx, credentials('jane', 'pw')));
    expect(result.code).toBe(code);
    expect(result.message).toMatch(message);
  });
});

describe('createHttpTransport', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { Location: 'http://127.0.0.1:1/elsewhere' });
        res.end();
      } else if (req.url === '/large') {
        res.writeHead(200, { 'Content-Type': 'application/x-ofx' });
        res.end('x'.repeat(5000));
      } else if (req.url === '/chunked') {
        res.writeHead(200, { 'Content-Type': 'application/x-ofx', 'Transfer-Encoding': 'chunked' });
        for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
        res.end();
      } else {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.writeHead(200, { 'Content-Type': 'application/x-ofx' });
          // An SGML answer in windows-1252, as 1.x servers send it.
          res.end(
            Buffer.concat([
              Buffer.from('OFXHEADER:100\r\nCHARSET:1252\r\n\r\n<OFX><A>'),
              Buffer.from([0x80]),
              Buffer.from(`${req.headers['content-type']}:${Buffer.concat(chunks).toString()}</OFX>`),
            ]),
          );
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(async () => {
    await close();
  });

  const send = (transport: OfxTransport, path: string) => transport({ url: `${url}${path}`, body: 'hello', headers: { 'Content-Type': 'application/x-ofx' } });

  it('posts the body with the headers given and decodes the answer by its character set', async () => {
    const t = createHttpTransport({ timeoutMs: 2000, maxBytes: 10_000, mode: 'sandbox' });
    expect(await send(t, '/ofx')).toEqual({ status: 200, body: 'OFXHEADER:100\r\nCHARSET:1252\r\n\r\n<OFX><A>€application/x-ofx:hello</OFX>' });
  });

  it('refuses, before connecting, a URL the outbound target policy refuses in production mode or that is not HTTP', async () => {
    const t = createHttpTransport({ mode: 'production', timeoutMs: 2000, maxBytes: 10_000 });
    await expect(send(t, '/ofx')).rejects.toMatchObject({ reason: 'refused-url', message: expect.stringMatching(/only https/) });
    await expect(t({ url: url.replace('http:', 'https:'), body: '', headers: {} })).rejects.toMatchObject({
      reason: 'refused-url',
      message: expect.stringMatching(/127\.0\.0\.1 is a loopback address/),
    });
    await expect(t({ url: 'file:///etc/passwd', body: '', headers: {} })).rejects.toMatchObject({ reason: 'refused-url' });
    await expect(t({ url: 'not a url', body: '', headers: {} })).rejects.toMatchObject({ reason: 'refused-url' });
  });

  it('refuses an answer larger than the limit, declared or streamed', async () => {
    const t = createHttpTransport({ timeoutMs: 2000, maxBytes: 4000, mode: 'sandbox' });
    await expect(send(t, '/large')).rejects.toMatchObject({ reason: 'too-large' });
    await expect(send(t, '/chunked')).rejects.toMatchObject({ reason: 'too-large' });
  });

  it('does not follow redirects', async () => {
    const t = createHttpTransport({ timeoutMs: 2000, maxBytes: 4000, mode: 'sandbox' });
    expect((await send(t, '/redirect')).status).toBe(302);
  });
});
