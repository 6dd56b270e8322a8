import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResult, ConnectorFailure, ConnectorResult, ConnectorSession } from '../../src/connectors/connector.js';
import { createHttpTransport } from '../../src/connectors/simplefin/client.js';
import { SimplefinConnector, type SimplefinConnectorOptions, simplefinNotices } from '../../src/connectors/simplefin/connector.js';
import {
  bridgeErrorCode,
  failureOf,
  failureOfNotices,
  MAX_BRIDGE_MESSAGE_LENGTH,
  noticeOf,
  redact,
  SIMPLEFIN_ERROR_TABLE,
  sanitizeBridgeText,
} from '../../src/connectors/simplefin/errors.js';
import { simplefinUrlPolicy } from '../../src/connectors/simplefin/token.js';
import { type BridgeFault, demoAccounts, type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';

const NOW = 1_790_000_000;
const INST = 300001;
const ctx = (now = NOW) => ({ institutionId: INST, now });

function expectFailure(result: AuthResult | ConnectorResult<unknown>, code: number): ConnectorFailure {
  if (result.ok) throw new Error(`expected failure ${code}, got success`);
  expect(result.code).toBe(code);
  return result;
}

function sessionOf(result: AuthResult): ConnectorSession {
  if (!result.ok || result.kind !== 'authenticated') throw new Error(`expected a session, got ${JSON.stringify(result)}`);
  return result.session;
}

function tableRow(situation: RegExp) {
  const row = SIMPLEFIN_ERROR_TABLE.find((r) => situation.test(r.situation));
  if (!row) throw new Error(`no table row ${situation}`);
  return row;
}

describe('bridge error codes', () => {
  it.each([
    [{ code: 'con.auth', message: 'Authentication required' }, 108],
    [{ code: 'con.auth', message: 'anything at all' }, 108],
    [{ code: 'con.', message: 'Connection problem' }, 102],
    [{ code: 'con.mfa', message: 'Please sign in again to Example Bank' }, 108],
    [{ code: 'con.unknownsub', message: 'Temporary failure' }, 102],
    [{ code: 'gen.auth', message: 'No credentials provided' }, 103],
    [{ code: 'gen.api', message: 'Bad start-date' }, 102],
    [{ code: 'gen.', message: 'Something went wrong' }, 102],
    [{ code: 'gen.newthing', message: 'Please reauthenticate' }, 102],
    [{ code: 'act.failed', message: 'Failed to get account information. Try again later.' }, 102],
    [{ code: 'act.missingdata', message: 'Incomplete transaction listing.' }, 102],
    [{ code: 'xyz.future', message: 'You must log in to continue' }, 108],
    [{ message: 'You must reauthenticate.' }, 108],
    [{ message: 'Connection to Example Bank may need attention' }, 108],
    [{ message: 'Your credentials for Example Bank were rejected' }, 108],
    [{ message: 'Example Bank requires multi-factor verification' }, 108],
    [{ message: 'Example Bank is having technical difficulties' }, 102],
    [{ message: 'Data may be stale' }, 102],
  ])('%j is %i', (error, code) => {
    expect(bridgeErrorCode(error)).toBe(code);
  });

  it('picks the most severe of several errors for a failure', () => {
    const notices = [
      noticeOf({ code: 'act.failed', message: 'later' }),
      noticeOf({ code: 'con.auth', message: 'Sign in again' }),
      noticeOf({ code: 'gen.', message: 'x' }),
    ];
    expect(failureOfNotices(notices)).toEqual({ ok: false, code: 108, message: 'Your SimpleFIN bridge needs you to act: Sign in again.' });
    expect(failureOfNotices([...notices, noticeOf({ code: 'gen.auth', message: 'No credentials' })])?.code).toBe(103);
    expect(failureOfNotices([])).toBeUndefined();
  });
});

describe('sanitising bridge text', () => {
  it('leaves one line without control or bidi characters, within the cap', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (text) => {
        const clean = sanitizeBridgeText(text);
        expect(clean.length).toBeLessThanOrEqual(MAX_BRIDGE_MESSAGE_LENGTH);
        expect(clean).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/);
        expect(clean).toBe(clean.trim());
      }),
    );
  });

  it('keeps ordinary text and marks a cut', () => {
    expect(sanitizeBridgeText('  Sign in  again\r\nat <b>My Bank</b> ')).toBe('Sign in again at <b>My Bank</b>');
    expect(sanitizeBridgeText('x'.repeat(500))).toBe(`${'x'.repeat(MAX_BRIDGE_MESSAGE_LENGTH - 1)}…`);
  });

  it('cuts secrets out', () => {
    expect(redact('see https://u:hunter22@b.example/x and hunter22', ['https://u:hunter22@b.example/x', 'hunter22', 'ab', undefined])).toBe(
      'see [hidden] and [hidden]',
    );
  });
});

describe('failures of the exchange', () => {
  it('says after a claim that the token is spent', () => {
    expect(failureOf({ kind: 'server-error', status: 500 }, 'first-accounts').message).toMatch(/The setup token has been used/);
    expect(failureOf({ kind: 'server-error', status: 500 }, 'accounts').message).not.toMatch(/setup token/);
    // A claim answered 200 spent the token, even when its answer could not be used.
    expect(failureOf({ kind: 'malformed', detail: 'the claim answer is not an access URL' }, 'claim').message).toMatch(/The setup token has been used/);
    expect(failureOf({ kind: 'claim-refused', status: 403 }, 'claim').message).not.toMatch(/has been used/);
  });

  it('documents every failure code the mapping produces', () => {
    expect(SIMPLEFIN_ERROR_TABLE.map((r) => r.code)).toEqual([
      103, 103, 103, 103, 103, 103, 108, 102, 102, 102, 102, 102, 102, 102, 102, 102, 103, 108, 102, 102,
    ]);
    for (const row of SIMPLEFIN_ERROR_TABLE) expect(row.message.length).toBeGreaterThan(20);
  });
});

describe('errors through the connector', () => {
  let bridge: SimplefinBridge;
  let connector: SimplefinConnector;
  let session: ConnectorSession;
  let step = 0;
  /** A later time for each call, so that no call is served from the previous answer. */
  const later = () => ctx(NOW + ++step * 1000);

  async function setup(options: Partial<SimplefinConnectorOptions> = {}, user = 'alice') {
    // The default time limit: a local bridge answers long before it, however loaded the machine.
    connector = new SimplefinConnector({
      transport: createHttpTransport({ mode: 'sandbox' }),
      allowUrl: simplefinUrlPolicy('sandbox'),
      ...options,
    });
    const token = bridge.createSetupToken({ user, accounts: demoAccounts(NOW) });
    session = sessionOf(await connector.authenticate(ctx(), [{ id: `${INST}001`, value: token }]));
  }

  beforeEach(async () => {
    step = 0;
    bridge = await startSimplefinBridge({ now: () => NOW });
    await setup();
  });
  afterEach(() => bridge.close());

  it.each<[string, BridgeFault, number, RegExp]>([
    ['402', { status: 402 }, 108, /answers 402/],
    ['500', { status: 500 }, 102, /HTTP 5xx/],
    ['503', { status: 503, body: 'maintenance' }, 102, /HTTP 5xx/],
    ['a redirect', { status: 307 }, 102, /other HTTP status/],
    ['garbage', { garbage: true }, 102, /not JSON/],
    ['a dropped connection', { drop: true }, 102, /Connection refused/],
    ['a slow bridge', { delayMs: 1000 }, 102, /Timeout/],
  ])('maps %s on /accounts as the table says', async (_, fault, code, row) => {
    bridge.fault(fault);
    // The slow bridge is asked, with the same session, by a connector whose time limit is shorter than its delay: both
    // are timers of this process, and the limit, started first and shorter, always fires first.
    const asking =
      'delayMs' in fault
        ? new SimplefinConnector({ transport: createHttpTransport({ mode: 'sandbox', timeoutMs: 100 }), allowUrl: simplefinUrlPolicy('sandbox') })
        : connector;
    const failure = expectFailure(await asking.listAccounts(later(), session), code);
    const documented = tableRow(row);
    expect(documented.code).toBe(code);
    if (!/<|HTTP \d/.test(documented.message)) expect(failure.message).toBe(documented.message);
  });

  it('maps a revoked access to 103 asking for a new setup token', async () => {
    bridge.revoke('alice');
    const failure = expectFailure(await connector.listAccounts(later(), session), 103);
    expect(failure.message).toBe(tableRow(/401 \(access revoked\)/).message);
    expect(failure.message).toMatch(/access was revoked.*new setup token/);
    expectFailure(await connector.fetchTransactions(later(), session, 'ACT-checking', NOW - 80 * 86_400, NOW), 103);
  });

  it('maps a claim refused to 103, and says the token may be compromised', async () => {
    const token = bridge.createSetupToken({ user: 'bob', accounts: demoAccounts(NOW) });
    sessionOf(await connector.authenticate(ctx(), [{ id: `${INST}001`, value: token }]));
    const failure = expectFailure(await connector.authenticate(ctx(), [{ id: `${INST}001`, value: token }]), 103);
    expect(failure.message).toBe(tableRow(/Claim answers 403/).message);
    expect(failure.message).toMatch(/already used or is not valid: make a new one at your SimpleFIN bridge/);
    expect(failure.message).toMatch(/disable it/);
  });

  it('fails a sign-in whose first data request fails, saying the token is spent', async () => {
    const token = bridge.createSetupToken({ user: 'carol', accounts: demoAccounts(NOW) });
    bridge.fault({ status: 500 }, { user: 'carol' });
    const failure = expectFailure(await connector.authenticate(ctx(), [{ id: `${INST}001`, value: token }]), 102);
    expect(failure.message).toMatch(/HTTP 500.*The setup token has been used/);
  });

  it('reads a 403 right after a successful claim as a token that is not valid', async () => {
    const token = bridge.createSetupToken({ user: 'erin', accounts: demoAccounts(NOW) });
    bridge.fault({ status: 403 }, { user: 'erin' });
    const failure = expectFailure(await connector.authenticate(ctx(), [{ id: `${INST}001`, value: token }]), 103);
    expect(failure.message).toBe(tableRow(/401 right after the claim/).message);
  });

  it('maps 402 at sign-in to 108', async () => {
    const token = bridge.createSetupToken({ user: 'dave', accounts: demoAccounts(NOW) });
    bridge.fault({ status: 402 }, { user: 'dave' });
    expectFailure(await connector.authenticate(ctx(), [{ id: `${INST}001`, value: token }]), 108);
  });

  it('returns the accounts of a partial answer and keeps its errors as notices', async () => {
    bridge.setErrors('alice', [
      { code: 'con.auth', msg: 'Authentication required for Second Example Card Co', conn_id: 'CON-second.example' },
      { code: 'act.missingdata', msg: 'Incomplete transaction listing.', account_id: 'ACT-savings' },
    ]);
    const listed = await connector.listAccounts(later(), session);
    if (!listed.ok || !listed.session) throw new Error('expected accounts and a session');
    expect(listed.value.map((a) => a.ref)).toEqual(['ACT-checking', 'ACT-savings', 'ACT-card']);
    expect(simplefinNotices(listed.session)).toEqual([
      { code: 108, message: 'Authentication required for Second Example Card Co', bridgeCode: 'con.auth', connId: 'CON-second.example', at: NOW + step * 1000 },
      { code: 102, message: 'Incomplete transaction listing.', bridgeCode: 'act.missingdata', accountId: 'ACT-savings', at: NOW + step * 1000 },
    ]);
    const transactions = await connector.fetchTransactions(ctx(NOW + step * 1000), listed.session, 'ACT-card', NOW - 10 * 86_400, NOW);
    expect(transactions.ok && transactions.value.map((t) => t.ref)).toEqual(['ACT-card:TRN-2']);
  });

  it.each([
    ['con.auth', 108, 'Your SimpleFIN bridge needs you to act: Authentication required.'],
    ['gen.auth', 103, 'Your SimpleFIN bridge refused this connection: Authentication required. Make a new setup token at your bridge.'],
    ['gen.', 102, 'The SimpleFIN bridge reported a problem: Authentication required. Try again later.'],
  ])('fails on %s errors that come without any account', async (code, failureCode, message) => {
    bridge.setAccounts('alice', []);
    bridge.setErrors('alice', [{ code, msg: 'Authentication required' }]);
    expect(expectFailure(await connector.listAccounts(later(), session), failureCode).message).toBe(message);
  });

  it('reads v1 error strings that ask the user to sign in again as 108', async () => {
    await setup({ protocolVersion: 1 }, 'v1user');
    bridge.setAccounts('v1user', []);
    bridge.setErrors('v1user', [], ['You must reauthenticate.']);
    expect(expectFailure(await connector.listAccounts(later(), session), 108).message).toBe('Your SimpleFIN bridge needs you to act: You must reauthenticate.');
    bridge.setErrors('v1user', [], ['Example Bank is temporarily unavailable']);
    expectFailure(await connector.listAccounts(later(), session), 102);
    expect(bridge.accountRequests('v1user').every((r) => r.query.version === undefined)).toBe(true);
    bridge.setErrors('v1user', []);
    expect(await connector.listAccounts(later(), session)).toMatchObject({ ok: true, value: [] });
  });

  it('shows bridge messages sanitised, capped and without the access URL secrets', async () => {
    const access = new URL(bridge.accessUrlOf('alice'));
    bridge.setAccounts('alice', []);
    bridge.setErrors('alice', [{ code: 'con.auth', msg: `Sign\u0000 in\u202e again ${access.password} ${'!'.repeat(600)}` }]);
    const failure = expectFailure(await connector.listAccounts(later(), session), 108);
    expect(failure.message).not.toContain(access.password);
    expect(failure.message).toContain('Sign in again [hidden]');
    expect(failure.message).not.toMatch(/[\u0000\u202e]/);
    expect(failure.message.length).toBeLessThan(MAX_BRIDGE_MESSAGE_LENGTH + 60);
  });

  it('does not contact an access URL the policy no longer allows', async () => {
    const strict = new SimplefinConnector({ transport: createHttpTransport({ mode: 'sandbox' }), allowUrl: simplefinUrlPolicy('production') });
    const before = bridge.requests.length;
    const failure = expectFailure(await strict.listAccounts(later(), session), 103);
    expect(failure.message).toMatch(/not allowed: only https/);
    expect(failure.message).not.toContain(new URL(bridge.accessUrlOf('alice')).password);
    expect(bridge.requests.length).toBe(before);
  });
});
