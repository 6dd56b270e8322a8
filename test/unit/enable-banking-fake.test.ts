import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EnableBankingFake, PSU_HEADERS, startEnableBankingFake } from '../helpers/enable-banking.js';

const NOW = 1_790_000_000;
const REAL_NOW = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
const CALLBACK = 'https://ledgerlink.example/connect/enable-banking/callback';
const ATTENDED_FI = { 'Psu-Ip-Address': '198.51.100.7', 'Psu-User-Agent': 'Mozilla/5.0' };

let fake: EnableBankingFake;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token signed here with node:crypto, as the connector would sign it; the overrides break one thing at a time. */
function token(options: { header?: Record<string, unknown>; claims?: Record<string, unknown>; key?: string } = {}): string {
  const header = { typ: 'JWT', alg: 'RS256', kid: fake.appId, ...options.header };
  const claims = { iss: 'enablebanking.com', aud: 'api.enablebanking.com', iat: REAL_NOW(), exp: REAL_NOW() + 3600, ...options.claims };
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), options.key ?? fake.privateKeyPem).toString('base64url')}`;
}

async function api(
  method: string,
  target: string,
  options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
): Promise<{ status: number; body: any }> {
  const authorization: Record<string, string> = options.token === null ? {} : { authorization: `Bearer ${options.token ?? token()}` };
  const response = await fetch(`${fake.url}${target}`, {
    method,
    headers: { ...authorization, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Pages and garbage stay text.
  }
  return { status: response.status, body };
}

const validUntil = (seconds: number) => new Date((fake.now + seconds) * 1000).toISOString();

async function startAuth(overrides: Record<string, unknown> = {}) {
  return api('POST', '/auth', {
    body: {
      access: { valid_until: validUntil(30 * DAY) },
      aspsp: { name: 'Aurora Pankki', country: 'FI' },
      state: 'state-1',
      redirect_url: CALLBACK,
      psu_type: 'personal',
      ...overrides,
    },
  });
}

/** POST /auth, the user allows, POST /sessions: the session's answer. */
async function link(overrides: Record<string, unknown> = {}): Promise<any> {
  const auth = await startAuth(overrides);
  expect(auth.status).toBe(200);
  const callback = new URL(fake.approve(auth.body.url));
  const session = await api('POST', '/sessions', { body: { code: callback.searchParams.get('code') } });
  expect(session.status).toBe(200);
  return session.body;
}

async function allPages(uid: string, query = '', headers: Record<string, string> = {}) {
  const pages: any[] = [];
  let key: string | null = null;
  do {
    const suffix: string = key === null ? query : `?continuation_key=${encodeURIComponent(key)}`;
    const page = await api('GET', `/accounts/${uid}/transactions${suffix}`, { headers });
    expect(page.status).toBe(200);
    pages.push(page.body);
    key = page.body.continuation_key;
  } while (key !== null);
  return pages;
}

beforeAll(async () => {
  fake = await startEnableBankingFake({ now: NOW, redirectUrls: [CALLBACK] });
});

afterAll(() => fake.close());

beforeEach(() => {
  fake.now = NOW;
  fake.pageSize = 3;
  fake.redirectUrls = [CALLBACK];
  fake.reset();
});

describe('authentication', () => {
  it('accepts a token signed with the application key and records its header and claims', async () => {
    const answer = await api('GET', '/application');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ kid: fake.appId, environment: 'SANDBOX', redirect_urls: [CALLBACK], active: true, countries: ['FI', 'SE'] });
    expect(fake.requests[0]?.jwt).toEqual({
      header: { typ: 'JWT', alg: 'RS256', kid: fake.appId },
      claims: { iss: 'enablebanking.com', aud: 'api.enablebanking.com', iat: expect.any(Number), exp: expect.any(Number) },
    });
  });

  it('refuses a missing token, a wrong kid, aud, iss, alg or key, an expired one and one living over a day', async () => {
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const missing = await api('GET', '/aspsps', { token: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      code: 401,
      message: 'Authorization header is not provided',
      error: 'AUTHORIZATION_NOT_PROVIDED',
      detail: 'no Authorization header',
    });
    const refused = [
      token({ header: { kid: '00000000-0000-4000-8000-000000000000' } }),
      token({ claims: { aud: 'api.tilisy.com' } }),
      token({ claims: { iss: 'example.com' } }),
      token({ header: { alg: 'HS256' } }),
      token({ key: other.privateKey }),
      token({ claims: { iat: REAL_NOW() - 7200, exp: REAL_NOW() - 1 } }),
      token({ claims: { iat: REAL_NOW(), exp: REAL_NOW() + DAY + 1 } }),
      'not-a-token',
    ];
    for (const bad of refused) {
      const answer = await api('GET', '/aspsps', { token: bad });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: 401, error: 'UNAUTHORIZED_ACCESS' });
    }
    expect(fake.requests.slice(1).map((r) => r.jwtProblem)).toEqual([
      'kid 00000000-0000-4000-8000-000000000000 is not an application id',
      'aud api.tilisy.com is not api.enablebanking.com',
      'iss example.com is not enablebanking.com',
      'alg HS256 is not RS256',
      'the signature does not verify',
      'the token has expired',
      'the lifetime exceeds 86400 seconds',
      'not a JWT',
    ]);
    // A lifetime of exactly a day is allowed; expiry follows the real clock (tokens are signed with it), not the
    // fake's, which tests move to expire consents.
    const real = REAL_NOW();
    expect((await api('GET', '/aspsps', { token: token({ claims: { iat: real, exp: real + DAY } }) })).status).toBe(200);
    fake.advance(DAY);
    expect((await api('GET', '/aspsps', { token: token({ claims: { iat: real, exp: real + DAY } }) })).status).toBe(200);
  });

  it('writes the private key to a file only its owner reads', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'eb-key-'));
    try {
      const file = fake.writeKeyFile(dir);
      expect(readFileSync(file, 'utf8')).toBe(fake.privateKeyPem);
      expect(fake.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('catalogue', () => {
  it('lists banks as published, filtered by country and PSU type, and follows banks added and removed', async () => {
    const all = await api('GET', '/aspsps');
    expect(all.body.aspsps.map((a: any) => `${a.name} ${a.country}`)).toEqual(['Aurora Pankki FI', 'Fjäll Sparbank SE']);
    const aurora = all.body.aspsps[0];
    expect(aurora).toMatchObject({
      psu_types: ['personal', 'business'],
      maximum_consent_validity: 180 * DAY,
      bic: 'AURAFIHH',
      beta: false,
      required_psu_headers: ['Psu-Ip-Address', 'Psu-User-Agent'],
    });
    expect(aurora.accounts).toBeUndefined();
    expect(aurora.sandbox.users).toHaveLength(1);
    const logo = await fetch(aurora.logo);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');

    expect((await api('GET', '/aspsps?country=SE')).body.aspsps.map((a: any) => a.name)).toEqual(['Fjäll Sparbank']);
    expect((await api('GET', '/aspsps?psu_type=business')).body.aspsps.map((a: any) => a.name)).toEqual(['Aurora Pankki']);
    expect((await api('GET', '/aspsps?country=fi')).status).toBe(422);

    fake.addBank({ ...structuredClone(fake.data.banks[1]!), name: 'Nordlys Bank', country: 'NO', accounts: [] });
    fake.removeBank('Fjäll Sparbank', 'SE');
    expect((await api('GET', '/aspsps')).body.aspsps.map((a: any) => a.name)).toEqual(['Aurora Pankki', 'Nordlys Bank']);
  });
});

describe('consent', () => {
  it('refuses an unknown bank, a validity beyond the bank maximum, a PSU type the bank lacks and a foreign redirect URL', async () => {
    const unknown = await startAuth({ aspsp: { name: 'Aurora Pankki', country: 'SE' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 422, error: 'WRONG_ASPSP_PROVIDED', message: 'Wrong ASPSP name provided' });
    const tooLong = await startAuth({ access: { valid_until: validUntil(180 * DAY + 60) } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error).toBe('WRONG_REQUEST_PARAMETERS');
    expect((await startAuth({ access: { valid_until: validUntil(180 * DAY) } })).status).toBe(200);
    const business = await startAuth({ aspsp: { name: 'Fjäll Sparbank', country: 'SE' }, psu_type: 'business' });
    expect(business.status).toBe(422);
    expect(business.body.error).toBe('WRONG_REQUEST_PARAMETERS');
    const elsewhere = await startAuth({ redirect_url: 'https://evil.example/callback' });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error).toBe('REDIRECT_URI_NOT_ALLOWED');
  });

  it('links through the bank page: Allow redirects with code and state, the code opens one session only', async () => {
    const auth = await startAuth({ state: 'connect-42' });
    expect(auth.body).toMatchObject({
      url: expect.stringContaining(`${fake.url}/bank/authorize?authorization_id=`),
      authorization_id: expect.any(String),
      psu_id_hash: expect.any(String),
    });
    const page = await fetch(auth.body.url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<title>Aurora Pankki: share your account information<\/title>/);
    expect(html).toMatch(/<main>[\s\S]*<h1>Aurora Pankki<\/h1>[\s\S]*<\/main>/);
    expect(html).toMatch(/<button type="submit" name="decision" value="allow"[^>]*>Allow<\/button>/);
    expect(html).toMatch(/<button type="submit" name="decision" value="deny"[^>]*>Deny<\/button>/);

    const decision = await fetch(`${fake.url}/bank/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ authorization_id: auth.body.authorization_id, decision: 'allow' }),
    });
    expect(decision.status).toBe(302);
    const callback = new URL(decision.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(CALLBACK);
    expect(callback.searchParams.get('state')).toBe('connect-42');
    const code = callback.searchParams.get('code');

    const session = await api('POST', '/sessions', { body: { code } });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      aspsp: { name: 'Aurora Pankki', country: 'FI' },
      psu_type: 'personal',
      access: { valid_until: validUntil(30 * DAY) },
    });
    expect(fake.requests.at(-1)?.sessionId).toBe(session.body.session_id);
    const again = await api('POST', '/sessions', { body: { code } });
    expect(again.status).toBe(422);
    expect(again.body.error).toBe('ALREADY_AUTHORIZED');
    expect((await api('POST', '/sessions', { body: { code: 'nonsense' } })).body.error).toBe('WRONG_AUTHORIZATION_CODE');
    expect((await fetch(auth.body.url)).status).toBe(409);
  });

  it('Deny redirects with access_denied and the state, on the page and through the helper', async () => {
    const first = await startAuth({ state: 'connect-7' });
    const decision = await fetch(`${fake.url}/bank/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ authorization_id: first.body.authorization_id, decision: 'deny' }),
    });
    const refused = new URL(decision.headers.get('location') ?? '');
    expect(Object.fromEntries(refused.searchParams)).toEqual({ error: 'access_denied', error_description: expect.any(String), state: 'connect-7' });

    const second = await startAuth({ state: 'connect-8' });
    const callback = new URL(fake.deny(second.body.url));
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('connect-8');
    expect(callback.searchParams.has('code')).toBe(false);
  });

  it('gives every session new account uids while each account keeps its identification_hash', async () => {
    const first = await link();
    const second = await link();
    expect(first.accounts.map((a: any) => a.details)).toEqual(['Everyday account', 'Aurora Credit']);
    const [checking, card] = first.accounts;
    expect(checking).toMatchObject({ account_id: { iban: 'FI294711220000012345' }, cash_account_type: 'CACC', currency: 'EUR', usage: 'PRIV' });
    expect(card.account_id).toEqual({ other: { identification: '5413 33** **** 4242', scheme_name: 'CPAN' } });
    expect(card).toMatchObject({ cash_account_type: 'CARD', credit_limit: { currency: 'EUR', amount: '3000.00' } });
    expect(card.key).toBeUndefined();
    for (const i of [0, 1]) {
      expect(second.accounts[i].uid).not.toBe(first.accounts[i].uid);
      expect(second.accounts[i].identification_hash).toBe(first.accounts[i].identification_hash);
      expect(first.accounts[i].identification_hashes).toContain(first.accounts[i].identification_hash);
    }
    expect(checking.identification_hash).not.toBe(card.identification_hash);
    expect(checking.identification_hash).toBe(fake.identificationHashOf('fi-checking'));
    expect(fake.uidOf(second.session_id, 'fi-card')).toBe(second.accounts[1].uid);

    const business = await link({ psu_type: 'business' });
    expect(business.accounts.map((a: any) => a.account_id.iban)).toEqual(['FI314711220000067890']);
    const chosen = await startAuth();
    const code = new URL(fake.approve(chosen.body.url, { accounts: ['fi-card'] })).searchParams.get('code');
    expect((await api('POST', '/sessions', { body: { code } })).body.accounts.map((a: any) => a.cash_account_type)).toEqual(['CARD']);

    const status = await api('GET', `/sessions/${first.session_id}`);
    expect(status.body).toMatchObject({
      status: 'AUTHORIZED',
      accounts: first.accounts.map((a: any) => a.uid),
      aspsp: { name: 'Aurora Pankki', country: 'FI' },
    });
    expect(status.body.accounts_data[0]).toEqual({
      uid: checking.uid,
      identification_hash: checking.identification_hash,
      identification_hashes: checking.identification_hashes,
    });
  });
});

describe('account data', () => {
  it('pages transactions across an empty page that still carries a continuation_key', async () => {
    const session = await link();
    const uid = fake.uidOf(session.session_id, 'fi-checking');
    const pages = await allPages(uid);
    expect(pages.map((p) => p.transactions.length)).toEqual([3, 0, 3, 3]);
    expect(pages[1].continuation_key).toEqual(expect.any(String));
    expect(pages.at(-1).continuation_key).toBeNull();
    const transactions = pages.flatMap((p) => p.transactions);
    for (const t of transactions) {
      expect(Number(t.transaction_amount.amount)).toBeGreaterThan(0);
      expect(['CRDT', 'DBIT']).toContain(t.credit_debit_indicator);
    }
    const pending = transactions.filter((t) => t.status === 'PDNG');
    expect(pending).toHaveLength(2);
    for (const t of pending) {
      expect(t.booking_date).toBeUndefined();
      expect(t.entry_reference).toBeUndefined();
    }
    expect(new Set(transactions.filter((t) => t.status === 'BOOK').map((t) => t.entry_reference)).size).toBe(7);

    // transaction_id is no key: it changes on every read.
    const again = (await allPages(uid)).flatMap((p) => p.transactions);
    expect(again.map((t: any) => t.entry_reference)).toEqual(transactions.map((t) => t.entry_reference));
    for (const [i, t] of again.entries()) expect(t.transaction_id).not.toBe(transactions[i].transaction_id);

    fake.pageSize = 5;
    expect((await allPages(uid)).map((p) => p.transactions.length)).toEqual([5, 0, 4]);
    const booked = await allPages(uid, `?date_from=2026-09-01&transaction_status=BOOK`);
    expect(booked.flatMap((p) => p.transactions).every((t: any) => t.status === 'BOOK' && t.booking_date >= '2026-09-01')).toBe(true);
  });

  it('serves a foreign card purchase with the original amount only in exchange_rate', async () => {
    const session = await link();
    const transactions = (await allPages(fake.uidOf(session.session_id, 'fi-card'))).flatMap((p) => p.transactions);
    const foreign = transactions.find((t: any) => t.exchange_rate);
    expect(foreign.transaction_amount).toEqual({ currency: 'EUR', amount: '45.87' });
    expect(foreign.exchange_rate.instructed_amount).toEqual({ currency: 'USD', amount: '50.00' });
  });

  it('refuses a continuation key of another account, bad dates and unknown accounts', async () => {
    const session = await link();
    const checking = fake.uidOf(session.session_id, 'fi-checking');
    const card = fake.uidOf(session.session_id, 'fi-card');
    const first = await api('GET', `/accounts/${checking}/transactions`);
    const stolen = await api('GET', `/accounts/${card}/transactions?continuation_key=${first.body.continuation_key}`);
    expect(stolen.status).toBe(422);
    expect(stolen.body.error).toBe('WRONG_CONTINUATION_KEY');
    expect((await api('GET', `/accounts/${checking}/transactions?date_to=2026-09-01`)).body.error).toBe('DATE_TO_WITHOUT_DATE_FROM');
    expect((await api('GET', `/accounts/${checking}/transactions?date_from=2026-10-01`)).body.error).toBe('DATE_FROM_IN_FUTURE');
    expect((await api('GET', `/accounts/${checking}/transactions?date_from=2026-09-10&date_to=2026-09-01`)).body.error).toBe('WRONG_DATE_INTERVAL');
    const unknown = await api('GET', '/accounts/00000000-0000-4000-8000-000000000000/balances');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ACCOUNT_DOES_NOT_EXIST');
  });

  it('answers the 5th unattended read of an account and endpoint in a UTC day with 429, while attended reads pass', async () => {
    const session = await link();
    const uid = fake.uidOf(session.session_id, 'fi-checking');
    for (let i = 0; i < 4; i++) expect((await api('GET', `/accounts/${uid}/balances`)).status).toBe(200);
    const fifth = await api('GET', `/accounts/${uid}/balances`);
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ code: 429, error: 'ASPSP_RATE_LIMIT_EXCEEDED' });
    expect(fake.unattendedReads('fi-checking', 'balances')).toBe(4);

    const attended = await api('GET', `/accounts/${uid}/balances`, { headers: ATTENDED_FI });
    expect(attended.status).toBe(200);
    expect(attended.body.balances.map((b: any) => b.balance_type)).toEqual(['CLBD', 'ITAV']);
    expect(fake.requests.at(-1)).toMatchObject({
      attended: true,
      counted: false,
      psuHeaders: ATTENDED_FI,
      sessionId: session.session_id,
      accountKey: 'fi-checking',
    });
    const partial = await api('GET', `/accounts/${uid}/balances`, { headers: { 'Psu-Ip-Address': '198.51.100.7' } });
    expect(partial.status).toBe(422);
    expect(partial.body).toMatchObject({ error: 'PSU_HEADER_NOT_PROVIDED', detail: 'PSU header Psu-User-Agent is not provided' });

    // Another endpoint and another account have their own counts; a read's further pages are not counted.
    for (let i = 0; i < 4; i++) await allPages(uid);
    expect(fake.unattendedReads('fi-checking', 'transactions')).toBe(4);
    expect((await api('GET', `/accounts/${uid}/transactions`)).status).toBe(429);
    expect((await api('GET', `/accounts/${fake.uidOf(session.session_id, 'fi-card')}/balances`)).status).toBe(200);

    // A new session of the same account does not reset the count; the next UTC day does.
    const renewed = await link();
    expect((await api('GET', `/accounts/${fake.uidOf(renewed.session_id, 'fi-checking')}/balances`)).status).toBe(429);
    fake.now = (Math.floor(NOW / DAY) + 1) * DAY;
    expect((await api('GET', `/accounts/${uid}/balances`)).status).toBe(200);
    expect(fake.unattendedReads('fi-checking')).toBe(1);
    expect(PSU_HEADERS).toContain('Psu-Ip-Address');
  });
});

describe('session lifecycle', () => {
  it('expires a session at valid_until by the fake clock', async () => {
    const session = await link({ access: { valid_until: validUntil(3600) } });
    const uid = session.accounts[0].uid;
    expect((await api('GET', `/accounts/${uid}/details`)).body.uid).toBe(uid);
    fake.advance(3600);
    const expired = await api('GET', `/accounts/${uid}/transactions`);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 401, error: 'EXPIRED_SESSION' });
    expect((await api('GET', `/sessions/${session.session_id}`)).body.status).toBe('EXPIRED');
    expect(fake.session(session.session_id).status).toBe('EXPIRED');
  });

  it('answers REVOKED_SESSION after the bank revokes and CLOSED_SESSION after DELETE', async () => {
    const revoked = await link();
    fake.revoke(revoked.session_id);
    const afterRevoke = await api('GET', `/accounts/${revoked.accounts[0].uid}/balances`);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.error).toBe('REVOKED_SESSION');
    expect((await api('GET', `/sessions/${revoked.session_id}`)).body.status).toBe('REVOKED');

    const closed = await link();
    expect((await api('DELETE', `/sessions/${closed.session_id}`)).body).toEqual({ message: 'OK' });
    const afterClose = await api('GET', `/accounts/${closed.accounts[0].uid}/balances`);
    expect(afterClose.status).toBe(401);
    expect(afterClose.body.error).toBe('CLOSED_SESSION');
    expect((await api('GET', `/sessions/${closed.session_id}`)).body).toMatchObject({ status: 'CLOSED', closed: new Date(NOW * 1000).toISOString() });
    expect((await api('GET', '/sessions/00000000-0000-4000-8000-000000000000')).body.error).toBe('SESSION_DOES_NOT_EXIST');
  });
});

describe('faults', () => {
  it('answers the next request on a path with the fault, then as usual', async () => {
    fake.fault({ status: 503, body: { code: 503, message: 'Service Unavailable', error: null, detail: null } }, { path: '/aspsps' });
    fake.fault({ garbage: true }, { path: '/aspsps' });
    expect((await api('GET', '/aspsps')).status).toBe(503);
    const garbage = await api('GET', '/aspsps');
    expect(garbage.status).toBe(200);
    expect(typeof garbage.body).toBe('string');
    expect((await api('GET', '/aspsps')).body.aspsps).toHaveLength(2);

    fake.fault({ status: 429 }, { path: /\/balances$/, times: 2 });
    fake.fault(undefined, { path: /\/balances$/ });
    const session = await link();
    expect((await api('GET', `/accounts/${session.accounts[0].uid}/balances`)).status).toBe(200);
  });
});
