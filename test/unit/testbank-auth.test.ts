import { describe, expect, it } from 'vitest';
import { type AuthResult, type ConnectorSession, ConnectorUsageError, type MfaAnswer } from '../../src/connectors/connector.js';
import { MFA_STATE_TTL_SECONDS, OAUTH_CODE_TTL_SECONDS, TEST_BANK_AUTHORIZE_PATH } from '../../src/connectors/testbank/connector.js';
import { accounts, connector, credentials, ctx, DAY, expectFailure, NOW, sessionOf, testBank, signIn, transactions, value } from '../helpers/testbank.js';
import { started } from '../helpers/oauth.js';

const TEST_BANK = 101732;
const MFA_BANK = 102175;
const DOWN_BANK = 102176;
const OAUTH_BANK = 102168;

function authenticate(profile: string, password = profile, institutionId = TEST_BANK, now = NOW): Promise<AuthResult> {
  return connector(institutionId).authenticate(ctx(institutionId, now), credentials(institutionId, profile, password));
}

function challenged(result: AuthResult) {
  if (!result.ok || result.kind !== 'mfa') throw new Error(`expected MFA, got ${JSON.stringify(result)}`);
  return result;
}

function answer(state: ConnectorSession, answers: MfaAnswer[], institutionId = TEST_BANK, now = NOW): Promise<AuthResult> {
  return connector(institutionId).answerMfa(ctx(institutionId, now), state, answers);
}

describe('test bank sign-in', () => {
  it('offers a user id and a password field with the institution-prefixed ids', () => {
    expect(connector(102105).loginForm(ctx(102105))).toEqual([
      { id: '102105001', name: 'Banking Userid', label: 'User ID', kind: 'text', displayOrder: 1 },
      { id: '102105002', name: 'Banking Password', label: 'Password', kind: 'password', displayOrder: 2 },
    ]);
  });

  it('signs profile_03 in at 102105 with exactly what public setup scripts send', async () => {
    const result = await connector(102105).authenticate(ctx(102105), [
      { id: '102105001', name: 'Banking Userid', value: 'profile_03' },
      { id: '102105002', name: 'Banking Password', value: 'profile_03' },
    ]);
    expect((await accounts(sessionOf(result), 102105)).length).toBe(7);
  });

  it('accepts lenient forms: fields named but without ids, two bare values, any case of the username', async () => {
    const c = connector(TEST_BANK);
    const byName = await c.authenticate(ctx(), [
      { id: 'password', name: 'Password', value: 'profile_01' },
      { id: 'username', name: 'Username', value: 'profile_01' },
    ]);
    expect(byName).toMatchObject({ ok: true, kind: 'authenticated' });
    const bare = await c.authenticate(ctx(), [
      { id: 'a', value: 'profile_01' },
      { id: 'b', value: 'profile_01' },
    ]);
    expect(bare).toMatchObject({ ok: true, kind: 'authenticated' });
    expect(await authenticate('PROFILE_01 ', 'profile_01')).toMatchObject({ ok: true, kind: 'authenticated' });
  });

  it('answers a wrong password, an unknown user or a missing field with 103', async () => {
    expectFailure(await authenticate('profile_01', 'wrong'), 103);
    expectFailure(await authenticate('profile_01', 'PROFILE_01'), 103);
    expectFailure(await authenticate('nobody'), 103);
    expectFailure(await connector(TEST_BANK).authenticate(ctx(), [{ id: '101732001', value: 'profile_01' }]), 103);
    expectFailure(await connector(TEST_BANK).authenticate(ctx(), []), 103);
  });

  it.each([
    ['error_102', 102],
    ['error_108', 108],
    ['error_109', 109],
  ])('ends every sign-in of %s in %i, after checking the password', async (profile, code) => {
    for (const institutionId of [101732, 102105, 102106, MFA_BANK]) expectFailure(await authenticate(profile, profile, institutionId), code);
    expectFailure(await authenticate(profile, 'wrong'), 103);
  });

  it('ends every sign-in at the institution that is down in 102', async () => {
    expectFailure(await authenticate('profile_01', 'profile_01', DOWN_BANK), 102);
    expectFailure(await authenticate('profile_01', 'wrong', DOWN_BANK), 102);
  });

  it('hands out JSON-serialisable sessions that later refreshes accept', async () => {
    const session = JSON.parse(JSON.stringify(await signIn('profile_01'))) as ConnectorSession;
    const later = NOW + 90 * DAY;
    expect(value(await connector(TEST_BANK).listAccounts(ctx(TEST_BANK, later), session)).length).toBe(2);
  });

  it('refuses a tampered session or one from another institution with 103', async () => {
    const session = await signIn('profile_01');
    const token = String(session.testbank);
    const [body, mac] = token.split('.');
    const forged = Buffer.from(Buffer.from(body!, 'base64url').toString().replace('profile_01', 'profile_02')).toString('base64url');
    expectFailure(await connector(TEST_BANK).listAccounts(ctx(), { testbank: `${forged}.${mac}` }), 103);
    expectFailure(await connector(TEST_BANK).listAccounts(ctx(), {}), 103);
    expectFailure(await connector(102105).listAccounts(ctx(102105), session), 103);
  });

  it('refuses calls made with another institution in the context', async () => {
    await expect(connector(TEST_BANK).authenticate(ctx(102105), credentials(TEST_BANK, 'profile_01'))).rejects.toThrow(ConnectorUsageError);
    expect(() => connector(TEST_BANK).loginForm(ctx(102105))).toThrow(ConnectorUsageError);
  });

  it('refuses an account ref the login does not have', async () => {
    await expect(connector(TEST_BANK).fetchTransactions(ctx(), await signIn('profile_01'), 'nope', NOW - DAY, NOW)).rejects.toThrow(ConnectorUsageError);
  });
});

describe('test bank MFA', () => {
  it('asks mfa_text a text question and lets the right answer in, in any case', async () => {
    const mfa = challenged(await authenticate('mfa_text'));
    expect(mfa.challenges).toEqual([{ id: 'pet', kind: 'text', prompt: 'What is the name of your first pet?' }]);
    const session = sessionOf(await answer(mfa.state, [{ id: 'pet', value: ' Rex ' }]));
    expect((await accounts(session)).map((a) => a.type)).toEqual(['checking', 'savings', 'creditCard']);
  });

  it('answers a wrong MFA answer with 187 and a missing one too', async () => {
    const mfa = challenged(await authenticate('mfa_text'));
    expectFailure(await answer(mfa.state, [{ id: 'pet', value: 'fido' }]), 187);
    expectFailure(await answer(mfa.state, []), 187);
  });

  it('asks mfa_choice to pick an option and accepts only the right value', async () => {
    const mfa = challenged(await authenticate('mfa_choice'));
    const [challenge] = mfa.challenges;
    expect(challenge).toMatchObject({ id: 'street', kind: 'choice' });
    expect(challenge?.kind === 'choice' && challenge.options.map((o) => o.value)).toEqual(['maple', 'oak', 'pine', 'cedar']);
    expectFailure(await answer(mfa.state, [{ id: 'street', value: 'maple' }]), 187);
    expect(await answer(mfa.state, [{ id: 'street', value: 'oak' }])).toMatchObject({ ok: true, kind: 'authenticated' });
  });

  it('shows mfa_image an SVG picture with options', async () => {
    const mfa = challenged(await authenticate('mfa_image'));
    const [challenge] = mfa.challenges;
    if (challenge?.kind !== 'image') throw new Error('expected an image challenge');
    expect(challenge.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(challenge.image.split(',')[1]!, 'base64').toString();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<circle.*<\/svg>$/);
    expect(challenge.options?.map((o) => o.label)).toEqual(['Sun', 'Anchor', 'Tree', 'House']);
    expectFailure(await answer(mfa.state, [{ id: 'picture', value: 'tree' }]), 187);
    expect(await answer(mfa.state, [{ id: 'picture', value: 'sun' }])).toMatchObject({ ok: true, kind: 'authenticated' });
  });

  it('takes mfa_multi through two rounds, the second with two questions answered together', async () => {
    const first = challenged(await authenticate('mfa_multi'));
    expect(first.challenges.map((c) => c.id)).toEqual(['city']);
    const second = challenged(await answer(first.state, [{ id: 'city', value: 'Springfield' }]));
    expect(second.challenges.map((c) => [c.id, c.kind])).toEqual([
      ['color', 'choice'],
      ['phone', 'text'],
    ]);
    expectFailure(
      await answer(second.state, [
        { id: 'color', value: 'blue' },
        { id: 'phone', value: '1234' },
      ]),
      187,
    );
    expect(
      await answer(second.state, [
        { id: 'phone', value: '0199' },
        { id: 'color', value: 'blue' },
      ]),
    ).toMatchObject({ ok: true, kind: 'authenticated' });
  });

  it('times MFA states out after ten minutes and refuses altered or foreign ones with 185', async () => {
    const mfa = challenged(await authenticate('mfa_text'));
    expectFailure(await answer(mfa.state, [{ id: 'pet', value: 'rex' }], TEST_BANK, NOW + MFA_STATE_TTL_SECONDS + 1), 185);
    expect(await answer(mfa.state, [{ id: 'pet', value: 'rex' }], TEST_BANK, NOW + MFA_STATE_TTL_SECONDS)).toMatchObject({ ok: true });
    expectFailure(await answer({ testbank: `${mfa.state.testbank}x` }, [{ id: 'pet', value: 'rex' }]), 185);
    expectFailure(await answer(mfa.state, [{ id: 'pet', value: 'rex' }], 102105), 185);
  });

  it('asks every profile a one-time passcode at the always-MFA institution, and MFA profiles their own questions', async () => {
    const mfa = challenged(await authenticate('profile_01', 'profile_01', MFA_BANK));
    expect(mfa.challenges).toEqual([{ id: 'otp', kind: 'text', prompt: expect.stringContaining('6-digit code') }]);
    expectFailure(await answer(mfa.state, [{ id: 'otp', value: '000000' }], MFA_BANK), 187);
    const session = sessionOf(await answer(mfa.state, [{ id: 'otp', value: '123456' }], MFA_BANK));
    expect((await accounts(session, MFA_BANK)).length).toBe(2);
    expect(challenged(await authenticate('mfa_choice', 'mfa_choice', MFA_BANK)).challenges[0]!.id).toBe('street');
  });

  it('remembers the device: background refreshes of MFA profiles need no answer', async () => {
    const mfa = challenged(await authenticate('mfa_text'));
    const session = sessionOf(await answer(mfa.state, [{ id: 'pet', value: 'rex' }]));
    const later = NOW + 60 * DAY;
    expect(value(await connector(TEST_BANK).listAccounts(ctx(TEST_BANK, later), session)).length).toBe(3);
  });
});

describe('test bank refresh failures', () => {
  async function mfaRefreshSession(now: number) {
    const mfa = challenged(await authenticate('mfa_refresh', 'mfa_refresh', TEST_BANK, now));
    return sessionOf(await answer(mfa.state, [{ id: 'teacher', value: 'Smith' }], TEST_BANK, now));
  }

  it('ends mfa_refresh refreshes in 185 once the remembered device is a day old, until MFA is answered again', async () => {
    const session = await mfaRefreshSession(NOW);
    expect(await connector(TEST_BANK).listAccounts(ctx(TEST_BANK, NOW + DAY - 1), session)).toMatchObject({ ok: true });
    const later = NOW + DAY + 1;
    expectFailure(await connector(TEST_BANK).listAccounts(ctx(TEST_BANK, later), session), 185);
    expectFailure(await connector(TEST_BANK).fetchTransactions(ctx(TEST_BANK, later), session, 'any', NOW, later), 185);
    const fixed = await mfaRefreshSession(later);
    expect(await connector(TEST_BANK).listAccounts(ctx(TEST_BANK, later + 3600), fixed)).toMatchObject({ ok: true });
  });

  it.each([
    ['refresh_103', 103],
    ['refresh_108', 108],
  ])('ends %s refreshes more than a day after sign-in in %i, until the user signs in again', async (profile, code) => {
    const session = await signIn(profile);
    const ref = (await accounts(session))[0]!.ref;
    expect((await transactions(session, ref, NOW - DAY, NOW)).length).toBeGreaterThan(0);
    const later = NOW + 2 * DAY;
    expectFailure(await connector(TEST_BANK).listAccounts(ctx(TEST_BANK, later), session), code);
    const again = await signIn(profile, TEST_BANK, later);
    expect(await connector(TEST_BANK).listAccounts(ctx(TEST_BANK, later), again)).toMatchObject({ ok: true });
  });
});

describe('test bank OAuth', () => {
  const oauth = connector(OAUTH_BANK);
  const redirectUri = 'https://connect.example/oauth/callback';

  async function authorize(state = 'st-123') {
    const { authorizeUrl, pending } = started(await oauth.startOAuth(ctx(OAUTH_BANK), { redirectUri, state }));
    const url = new URL(authorizeUrl, 'http://ledgerlink.local');
    const parsed = testBank.oauthPages.parseAuthorizeRequest(Object.fromEntries(url.searchParams));
    if (!parsed.ok) throw new Error(parsed.error);
    return { url, request: parsed.request, pending };
  }

  it('signs in through OAuth, not with credentials', async () => {
    expect(oauth.capabilities).toEqual({ authMode: 'oauth', historyDays: 730 });
    expect(oauth.loginForm(ctx(OAUTH_BANK))).toEqual([]);
    await expect(oauth.authenticate(ctx(OAUTH_BANK), credentials(OAUTH_BANK, 'profile_01'))).rejects.toThrow(ConnectorUsageError);
    await expect(connector(TEST_BANK).startOAuth(ctx(), { redirectUri, state: 's' })).rejects.toThrow(ConnectorUsageError);
  });

  it('points the user at the test bank authorize page with a signed request', async () => {
    const { url, request } = await authorize();
    expect(url.pathname).toBe(TEST_BANK_AUTHORIZE_PATH);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      institutionId: '102168',
      redirect_uri: redirectUri,
      state: 'st-123',
      response_type: 'code',
      signature: expect.any(String),
    });
    expect(request).toEqual({ institutionId: OAUTH_BANK, redirectUri, state: 'st-123' });
    const tampered = { ...Object.fromEntries(url.searchParams), redirect_uri: 'https://evil.example/' };
    expect(testBank.oauthPages.parseAuthorizeRequest(tampered)).toMatchObject({ ok: false });
    expect(testBank.oauthPages.parseAuthorizeRequest({ institutionId: '102168' })).toMatchObject({ ok: false });
  });

  it('exchanges a code issued for a profile for a session that reads its accounts', async () => {
    const { request, pending } = await authorize();
    expect(testBank.oauthPages.listOAuthProfiles().map((p) => p.id)).toContain('profile_02');
    expect(testBank.oauthPages.signIn('profile_02', 'profile_02')).toBe('profile_02');
    expect(testBank.oauthPages.signIn('profile_02', 'nope')).toBeUndefined();
    const code = testBank.oauthPages.issueAuthorizationCode(request, 'profile_02', NOW);
    const back = new URL(testBank.oauthPages.redirectUrl(request, { code }));
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('st-123');
    const session = sessionOf(await oauth.completeOAuth(ctx(OAUTH_BANK, NOW + 30), { code: back.searchParams.get('code')!, redirectUri, pending }));
    expect((await accounts(session, OAUTH_BANK)).length).toBe(9);
    expect(testBank.oauthPages.redirectUrl(request, { error: 'access_denied' })).toBe(`${redirectUri}?error=access_denied&state=st-123`);
  });

  it('refuses expired, altered, misdirected and foreign codes with 103', async () => {
    const { request, pending } = await authorize();
    const code = testBank.oauthPages.issueAuthorizationCode(request, 'profile_01', NOW);
    expectFailure(await oauth.completeOAuth(ctx(OAUTH_BANK, NOW + OAUTH_CODE_TTL_SECONDS + 1), { code, redirectUri, pending }), 103);
    expect(await oauth.completeOAuth(ctx(OAUTH_BANK, NOW + OAUTH_CODE_TTL_SECONDS), { code, redirectUri, pending })).toMatchObject({ ok: true });
    expectFailure(await oauth.completeOAuth(ctx(OAUTH_BANK), { code: code.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), redirectUri, pending }), 103);
    expectFailure(await oauth.completeOAuth(ctx(OAUTH_BANK), { code, redirectUri: 'https://other.example/cb', pending }), 103);
    const foreign = testBank.oauthPages.issueAuthorizationCode({ ...request, institutionId: TEST_BANK }, 'profile_01', NOW);
    expectFailure(await oauth.completeOAuth(ctx(OAUTH_BANK), { code: foreign, redirectUri, pending }), 103);
  });

  it('issues a different code each time, and error profiles fail after the OAuth sign-in', async () => {
    const { request, pending } = await authorize();
    const a = testBank.oauthPages.issueAuthorizationCode(request, 'error_108', NOW);
    expect(testBank.oauthPages.issueAuthorizationCode(request, 'error_108', NOW)).not.toBe(a);
    expectFailure(await oauth.completeOAuth(ctx(OAUTH_BANK), { code: a, redirectUri, pending }), 108);
  });
});
