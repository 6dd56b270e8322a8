import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuthResult,
  type ConnectorResult,
  type ConnectorSession,
  type ConnectorTransaction,
  ConnectorUsageError,
  type Credential,
} from '../../src/connectors/connector.js';
import { createHttpTransport, type SimplefinTransport } from '../../src/connectors/simplefin/client.js';
import { SIMPLEFIN_DEFAULTS, SimplefinConnector, type SimplefinConnectorOptions, simplefinNotices } from '../../src/connectors/simplefin/connector.js';
import { simplefinUrlPolicy } from '../../src/connectors/simplefin/token.js';
import { demoAccounts, type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';

const NOW = 1_790_000_000;
const DAY = 86_400;
const INST = 300003;
const ctx = (now = NOW) => ({ institutionId: INST, now });
const form = (token: string): Credential[] => [{ id: `${INST}001`, name: 'SimpleFIN Setup Token', value: token }];

function sessionOf(result: AuthResult): ConnectorSession {
  if (!result.ok || result.kind !== 'authenticated') throw new Error(`expected a session, got ${JSON.stringify(result)}`);
  return result.session;
}

function ok<T>(result: ConnectorResult<T>): { value: T; session: ConnectorSession | undefined } {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  return { value: result.value, session: result.session };
}

describe('SimpleFIN connector', () => {
  let bridge: SimplefinBridge;
  let connector: SimplefinConnector;

  function make(options: Partial<SimplefinConnectorOptions> = {}) {
    connector = new SimplefinConnector({
      transport: createHttpTransport({ mode: 'sandbox', timeoutMs: 2000 }),
      allowUrl: simplefinUrlPolicy('sandbox'),
      ...options,
    });
    return connector;
  }

  beforeEach(async () => {
    bridge = await startSimplefinBridge({ now: () => NOW });
    make();
  });
  afterEach(() => bridge.close());

  it('asks for one secret field, the setup token, and serves credentials sign-in with 90 days of history', () => {
    expect(connector.loginForm(ctx())).toEqual([
      {
        id: `${INST}001`,
        name: 'SimpleFIN Setup Token',
        label: 'Setup token',
        kind: 'token',
        displayOrder: 1,
        hint: expect.stringContaining('New app connection'),
      },
    ]);
    expect(connector.capabilities).toEqual({ authMode: 'credentials', historyDays: 90 });
    expect(make({ historyDays: 365 }).capabilities.historyDays).toBe(365);
    expect(SIMPLEFIN_DEFAULTS).toMatchObject({ maxWindowDays: 90, dailyQuota: 24 });
  });

  it('signs in end to end: claims the token, reads the accounts once, and keeps only the access URL and request times', async () => {
    const token = bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) });
    const session = sessionOf(await connector.authenticate(ctx(), form(token)));
    expect(session.accessUrl).toBe(bridge.accessUrlOf('alice'));
    expect(session.requests).toEqual([NOW]);
    expect(JSON.parse(JSON.stringify(session))).toEqual(session);
    expect(bridge.requests.map((r) => [r.method, r.path.replace(/claim\/.*/, 'claim/…'), r.status, r.user])).toEqual([
      ['POST', '/simplefin/claim/…', 200, 'alice'],
      ['GET', '/simplefin/accounts', 200, 'alice'],
    ]);
    const [accountsRequest] = bridge.accountRequests('alice');
    expect(accountsRequest?.query).toEqual({ 'start-date': [String(NOW + 1 - 14 * DAY)], 'end-date': [String(NOW + 1)], pending: ['1'], version: ['2'] });

    // The engine lists the accounts right after signing in: the sign-in's answer serves it.
    const listed = ok(await connector.listAccounts(ctx(), session));
    expect(bridge.accountRequests('alice')).toHaveLength(1);
    expect(listed.value.map((a) => [a.ref, a.type, a.balance, a.institutionName, a.displayPosition])).toEqual([
      ['ACT-checking', 'checking', 1520.75, 'First Example Bank', 1],
      ['ACT-savings', 'savings', 10000, 'First Example Bank', 2],
      ['ACT-card', 'creditCard', -640.2, 'Second Example Card Co', 3],
    ]);
    expect(listed.value[0]).toMatchObject({ accountNumberDisplay: '1234', balanceDate: NOW - 3600, detail: { availableBalanceAmount: 1490.75 } });
  });

  it('finds the token in a field ending in 001, or in the only field', async () => {
    for (const credentials of [
      (t: string) => [{ id: '999001', value: t }],
      (t: string) => [{ id: 'token', value: t }],
      (t: string) => [
        { id: `${INST}002`, value: 'unused' },
        { id: `${INST}001`, value: ` ${t}\n` },
      ],
    ]) {
      const token = bridge.createSetupToken({ accounts: demoAccounts(NOW) });
      expect(await connector.authenticate(ctx(), credentials(token))).toMatchObject({ ok: true, kind: 'authenticated' });
    }
    expect(await connector.authenticate(ctx(), [])).toEqual({ ok: false, code: 103, message: 'Paste the setup token your SimpleFIN bridge showed.' });
    expect(await connector.authenticate(ctx(), form('   '))).toMatchObject({ ok: false, code: 103 });
    expect(await connector.authenticate(ctx(), form('definitely not a token'))).toMatchObject({
      ok: false,
      code: 103,
      message: expect.stringMatching(/not a SimpleFIN setup token/),
    });
  });

  it('loads the first history like the engine does in two requests for all accounts', async () => {
    const session = sessionOf(await connector.authenticate(ctx(), form(bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) }))));
    let current = ok(await connector.listAccounts(ctx(), session)).session ?? session;
    const byAccount: Record<string, string[]> = {};
    for (const ref of ['ACT-checking', 'ACT-savings', 'ACT-card']) {
      const result = ok(await connector.fetchTransactions(ctx(), current, ref, NOW - 90 * DAY, NOW));
      current = result.session ?? current;
      byAccount[ref] = result.value.map((t) => `${t.ref} ${t.status}`);
    }
    expect(byAccount).toEqual({
      'ACT-checking': ['ACT-checking:TRN-1 active', 'ACT-checking:TRN-2 active', 'ACT-checking:TRN-3 active', 'ACT-checking:TRN-4 pending'],
      'ACT-savings': ['ACT-savings:TRN-1 active'],
      'ACT-card': ['ACT-card:TRN-1 active', 'ACT-card:TRN-2 active'],
    });
    expect(bridge.accountRequests('alice')).toHaveLength(2);
    expect(current.requests).toEqual([NOW, NOW]);
  });

  it('picks up new transactions on the next refresh, with old refs unchanged and nothing twice', async () => {
    const session = sessionOf(await connector.authenticate(ctx(), form(bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) }))));
    const first = ok(await connector.fetchTransactions(ctx(), session, 'ACT-checking', NOW - 10 * DAY, NOW));
    expect(first.value.map((t) => t.ref)).toEqual(['ACT-checking:TRN-2', 'ACT-checking:TRN-3', 'ACT-checking:TRN-4']);

    // A day later: the pending purchase posted (same id), and a new one arrived.
    const later = NOW + DAY;
    bridge.setAccounts(
      'alice',
      demoAccounts(NOW).map((a) =>
        a.id !== 'ACT-checking'
          ? a
          : {
              ...a,
              transactions: [
                ...(a.transactions ?? []).filter((t) => t.id !== 'TRN-4'),
                { id: 'TRN-4', posted: NOW + 3600, amount: '-30.00', description: 'SHELL OIL 5521', transacted_at: NOW - 7200 },
              ],
            },
      ),
    );
    bridge.addTransactions('alice', 'ACT-checking', [{ id: 'TRN-5', posted: later - 600, amount: '-9.99', description: 'NETFLIX.COM' }]);
    const listed = ok(await connector.listAccounts(ctx(later), first.session ?? session));
    const next = ok(await connector.fetchTransactions(ctx(later), listed.session ?? session, 'ACT-checking', later - 10 * DAY, later));
    const refs = next.value.map((t) => t.ref);
    expect(refs).toEqual(['ACT-checking:TRN-2', 'ACT-checking:TRN-3', 'ACT-checking:TRN-4', 'ACT-checking:TRN-5']);
    expect(new Set(refs).size).toBe(refs.length);
    const before = new Map(first.value.map((t) => [t.ref, t]));
    for (const t of next.value) {
      const old = before.get(t.ref);
      if (old && t.ref !== 'ACT-checking:TRN-4') expect(t).toEqual(old);
    }
    const posted = next.value.find((t) => t.ref === 'ACT-checking:TRN-4') as ConnectorTransaction;
    expect(posted).toMatchObject({ status: 'active', postedDate: NOW + 3600, transactionDate: NOW - 7200 });
    expect(next.value.at(-1)).toMatchObject({ description: 'NETFLIX.COM', categorization: { category: 'Streaming Services' } });
    expect(bridge.accountRequests('alice')).toHaveLength(2);
  });

  it('does not see transactions added within freshSeconds of the last answer, and does after', async () => {
    const session = sessionOf(await connector.authenticate(ctx(), form(bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) }))));
    bridge.addTransactions('alice', 'ACT-savings', [{ id: 'TRN-9', posted: NOW - 60, amount: '100.00', description: 'TRANSFER FROM CHECKING' }]);
    const soon = ok(await connector.fetchTransactions(ctx(NOW + 300), session, 'ACT-savings', NOW - 10 * DAY, NOW + 300));
    expect(soon.value).toEqual([]);
    const listed = ok(await connector.listAccounts(ctx(NOW + 1000), session));
    const after = ok(await connector.fetchTransactions(ctx(NOW + 1000), listed.session ?? session, 'ACT-savings', NOW - 10 * DAY, NOW + 1000));
    expect(after.value.map((t) => t.ref)).toEqual(['ACT-savings:TRN-9']);
  });

  it('asks again for the last days of an old answer, since the bridge may learn of them late', async () => {
    const session = sessionOf(await connector.authenticate(ctx(), form(bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) }))));
    bridge.addTransactions('alice', 'ACT-savings', [{ id: 'TRN-late', posted: NOW - 3 * DAY, amount: '5.00', description: 'LATE CREDIT' }]);
    // No listing first: the session's answer is two hours old.
    const result = ok(await connector.fetchTransactions(ctx(NOW + 7200), session, 'ACT-savings', NOW - 5 * DAY, NOW + 7200));
    expect(result.value.map((t) => t.ref)).toEqual(['ACT-savings:TRN-late']);
    const [, refetch] = bridge.accountRequests('alice');
    expect(Number(refetch?.query['start-date']?.[0])).toBe(NOW - 5 * DAY);
  });

  it('keeps the session within maxCachedTransactions and still serves every transaction', async () => {
    make({ maxCachedTransactions: 3 });
    const session = sessionOf(await connector.authenticate(ctx(), form(bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) }))));
    const cached = Object.values((session.cache as { transactions: Record<string, unknown[]> }).transactions).flat();
    expect(cached.length).toBeLessThanOrEqual(3);
    const result = ok(await connector.fetchTransactions(ctx(), session, 'ACT-checking', NOW - 10 * DAY, NOW));
    expect(result.value.map((t) => t.ref)).toEqual(['ACT-checking:TRN-2', 'ACT-checking:TRN-3', 'ACT-checking:TRN-4']);
  });

  it('speaks v1 as well: organisations name the institutions', async () => {
    make({ protocolVersion: 1 });
    const session = sessionOf(await connector.authenticate(ctx(), form(bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) }))));
    const listed = ok(await connector.listAccounts(ctx(), session));
    expect(listed.value.map((a) => a.institutionName)).toEqual(['First Example Bank', 'First Example Bank', 'Second Example Card Co']);
    expect(bridge.accountRequests('alice')[0]?.query.version).toBeUndefined();
  });

  it('refuses calls it cannot serve', async () => {
    const session = sessionOf(await connector.authenticate(ctx(), form(bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) }))));
    await expect(connector.answerMfa()).rejects.toBeInstanceOf(ConnectorUsageError);
    await expect(connector.startOAuth()).rejects.toBeInstanceOf(ConnectorUsageError);
    await expect(connector.completeOAuth()).rejects.toBeInstanceOf(ConnectorUsageError);
    await expect(connector.listAccounts(ctx(), { testbank: 'x' })).rejects.toBeInstanceOf(ConnectorUsageError);
    await expect(connector.fetchTransactions(ctx(), session, 'ACT-nope', NOW - DAY, NOW)).rejects.toBeInstanceOf(ConnectorUsageError);
    expect(ok(await connector.fetchTransactions(ctx(), session, 'ACT-card', NOW + DAY, NOW)).value).toEqual([]);
    expect(() => make({ dailyQuota: 0 })).toThrow(RangeError);
  });

  it('survives a damaged cache in a stored session by asking the bridge again', async () => {
    const session = sessionOf(await connector.authenticate(ctx(), form(bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) }))));
    const damaged = { ...session, cache: { start: 'yesterday' }, notices: [{ code: 7 }] };
    const listed = ok(await connector.listAccounts(ctx(), damaged));
    expect(listed.value).toHaveLength(3);
    expect(bridge.accountRequests('alice')).toHaveLength(2);
  });

  it('never lets the setup token or its claim URL appear in a session, a result, a notice or an error', async () => {
    const token = bridge.createSetupToken({ user: 'alice', accounts: demoAccounts(NOW) });
    const claimUrl = Buffer.from(token, 'base64').toString('utf8');
    const claimCode = claimUrl.slice(claimUrl.lastIndexOf('/') + 1);
    const secrets = [token, token.replace(/=+$/, ''), Buffer.from(claimUrl).toString('base64url'), claimUrl, claimCode];
    const produced: unknown[] = [];
    const record = async <T>(promise: Promise<T>): Promise<T | undefined> => {
      try {
        const result = await promise;
        produced.push(result);
        return result;
      } catch (e) {
        produced.push(e instanceof Error ? { name: e.name, message: e.message, stack: e.stack, cause: String(e.cause) } : e);
        return undefined;
      }
    };

    bridge.setErrors('alice', [{ code: 'con.auth', msg: `Please sign in again (${claimCode})` }]);
    const auth = await record(connector.authenticate(ctx(), form(`  ${token}\n`)));
    const session = sessionOf(auth as AuthResult);
    await record(connector.authenticate(ctx(), form(token)));
    await record(connector.authenticate(ctx(), form(token.replace(/=+$/, ''))));
    produced.push(simplefinNotices(session));
    // Once claimed, the connector no longer knows the token: a bridge repeating it later is not its doing.
    bridge.setErrors('alice', [{ code: 'con.auth', msg: 'Please sign in again' }]);
    const listed = await record(connector.listAccounts(ctx(NOW + 1000), session));
    await record(
      connector.fetchTransactions(ctx(NOW + 1000), (listed as { session?: ConnectorSession }).session ?? session, 'ACT-card', NOW - 90 * DAY, NOW + 1000),
    );
    bridge.revoke('alice');
    await record(connector.listAccounts(ctx(NOW + 2000), session));

    // A fresh token whose claim fails in every way the transport can fail.
    for (const fault of [{ status: 500 }, { garbage: true as const }, { drop: true as const }, { status: 404 }]) {
      const other = bridge.createSetupToken({ accounts: demoAccounts(NOW) });
      secrets.push(other, Buffer.from(other, 'base64').toString('utf8'));
      bridge.fault(fault, { on: 'claim' });
      await record(connector.authenticate(ctx(), form(other)));
      bridge.fault(undefined, { on: 'claim' });
    }

    // Failures inside the claim's policy and transport, quoting what they were given.
    const leaky: SimplefinTransport = async (request) => {
      throw new Error(`cannot reach ${request.url}`);
    };
    const third = bridge.createSetupToken({ accounts: demoAccounts(NOW) });
    secrets.push(third, Buffer.from(third, 'base64').toString('utf8'));
    await record(make({ transport: leaky }).authenticate(ctx(), form(third)));
    const fourth = bridge.createSetupToken({ accounts: demoAccounts(NOW) });
    secrets.push(fourth, Buffer.from(fourth, 'base64').toString('utf8'));
    await record(
      make({
        allowUrl: (url) => {
          throw new Error(`policy exploded on ${url.href}`);
        },
      }).authenticate(ctx(), form(fourth)),
    );
    await record(make({ allowUrl: (url) => `refused ${url.href} ${url.pathname}` }).authenticate(ctx(), form(fourth)));

    const text = JSON.stringify(produced);
    expect(produced.length).toBeGreaterThanOrEqual(14);
    expect(text).toContain('policy exploded on [hidden]');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain(claimCode);
  });
});
