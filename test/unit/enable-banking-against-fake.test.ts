import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AuthResult,
  ConnectorContext,
  ConnectorResult,
  ConnectorSession,
  InstitutionConnector,
  JsonValue,
  PsuContext,
} from '../../src/connectors/connector.js';
import { openEnableBanking } from '../../src/connectors/enablebanking/index.js';
import type { OpenSource } from '../../src/connectors/source.js';
import { type EnableBankingFake, startEnableBankingFake } from '../helpers/enable-banking.js';
import { started } from '../helpers/oauth.js';

const DAY = 86_400;
const PUBLIC_URL = 'https://ledgerlink.example';
const CALLBACK = `${PUBLIC_URL}/connect/oauth/callback`;
const PSU: PsuContext = { ipAddress: '198.51.100.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0', acceptLanguage: 'fi' };

let fake: EnableBankingFake;
let source: OpenSource;
const catalogue = new Map<number, JsonValue>();
const idOf = new Map<string, number>();

function ctx(psu?: PsuContext): ConnectorContext {
  return psu ? { institutionId: 0, now: fake.now, psu } : { institutionId: 0, now: fake.now };
}

function ok<T>(result: ConnectorResult<T>): { value: T; session: ConnectorSession | undefined } {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  return { value: result.value, session: result.session };
}

function sessionOf(result: AuthResult): ConnectorSession {
  if (!result.ok || result.kind !== 'authenticated') throw new Error(`expected a session, got ${JSON.stringify(result)}`);
  return result.session;
}

async function connectorOf(key: string): Promise<InstitutionConnector> {
  const connector = await source.connectorFor(idOf.get(key)!);
  if (!connector) throw new Error(`no connector for ${key}`);
  return connector;
}

/** The customer consents at the bank page; the session of the code it sends back, as listed in Connect. */
async function link(connector: InstitutionConnector): Promise<ConnectorSession> {
  const start = started(await connector.startOAuth(ctx(), { redirectUri: CALLBACK, state: 'connect-session-1' }));
  const callback = new URL(fake.approve(start.authorizeUrl));
  expect(callback.searchParams.get('state')).toBe('connect-session-1');
  const session = sessionOf(
    await connector.completeOAuth(ctx(PSU), { code: callback.searchParams.get('code')!, redirectUri: CALLBACK, pending: start.pending }),
  );
  return ok(await connector.listAccounts(ctx(PSU), session)).session ?? session;
}

beforeAll(async () => {
  fake = await startEnableBankingFake({ redirectUrls: [CALLBACK] });
  const keyFile = fake.writeKeyFile(mkdtempSync(path.join(tmpdir(), 'eb-fake-')));
  source = openEnableBanking({
    mode: 'sandbox',
    publicUrl: PUBLIC_URL,
    deriveKey: () => Buffer.alloc(32),
    catalogue: { connection: async (id, name) => (name === 'enablebanking' ? catalogue.get(id) : undefined) },
    settings: { APP_ID: fake.appId, KEY_FILE: keyFile, URL: fake.url },
  });
});

afterAll(() => fake.close());

beforeEach(async () => {
  // Noon of today (UTC): the reads of a test stay on one day of the bank's count.
  fake.now = Math.floor(Date.now() / 1000 / DAY) * DAY + DAY / 2;
  fake.reset();
  catalogue.clear();
  const listed = await source.listInstitutions!();
  listed.forEach((institution, i) => {
    catalogue.set(800_000 + i, institution.connection);
    idOf.set(institution.key, 800_000 + i);
  });
  fake.requests.length = 0;
});

describe('the Enable Banking connector against the local fake of the API', () => {
  it('finds the application allows the callback, and lists both banks with their countries and currencies', async () => {
    expect(await source.checkAtStart!()).toEqual([]);
    const listed = await source.listInstitutions!();
    expect(listed.map((i) => [i.key, i.country, i.currency])).toEqual([
      ['FI:Aurora Pankki', 'FI', 'EUR'],
      ['SE:Fjäll Sparbank', 'SE', 'SEK'],
    ]);
    expect(listed[0]?.connection).toMatchObject({ psu_types: ['personal', 'business'], required_psu_headers: ['Psu-Ip-Address', 'Psu-User-Agent'] });
  });

  it('links through the bank page and reads the shared accounts and every page of transactions, with a valid JWT on every request', async () => {
    const connector = await connectorOf('FI:Aurora Pankki');
    const session = await link(connector);
    const listed = ok(await connector.listAccounts(ctx(PSU), session)).value;
    expect(listed.map((a) => [a.ref, a.type, a.balance, a.currency])).toEqual([
      [fake.identificationHashOf('fi-checking'), 'checking', 2143.57, 'EUR'],
      [fake.identificationHashOf('fi-card'), 'creditCard', -134.87, 'EUR'],
    ]);
    expect(listed[1]).toMatchObject({ number: '5413 33** **** 4242', accountNumberDisplay: '4242' });

    const checking = fake.identificationHashOf('fi-checking');
    const read = ok(await connector.fetchTransactions(ctx(), session, checking, fake.now - 60 * DAY, fake.now)).value;
    const published = fake.account('fi-checking').transactions;
    expect(read).toHaveLength(published.length);
    const pages = fake.requests.filter((r) => r.endpoint === 'transactions');
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.slice(1).every((r) => r.query.continuation_key !== undefined)).toBe(true);
    const pending = read.filter((t) => t.status === 'pending');
    expect(pending).toHaveLength(2);
    expect(pending.every((t) => t.ref.startsWith('h:') && t.postedDate === undefined)).toBe(true);
    expect(read.find((t) => t.ref === 'e:AUR-CHK-0009')).toMatchObject({ amount: 3200, description: 'Revontuli Oy', memo: 'SALARY' });

    // A second read names the same transactions, though every transaction_id is new.
    const again = ok(await connector.fetchTransactions(ctx(), session, checking, fake.now - 60 * DAY, fake.now)).value;
    expect(again.map((t) => t.ref)).toEqual(read.map((t) => t.ref));

    const card = ok(await connector.fetchTransactions(ctx(), session, fake.identificationHashOf('fi-card'), fake.now - 60 * DAY, fake.now)).value;
    expect(card.find((t) => t.ref === 'e:AUR-CRD-0001')).toMatchObject({ amount: -45.87, description: 'AMAZON.COM' });

    expect(fake.requests.length).toBeGreaterThan(5);
    for (const request of fake.requests) {
      expect(request.jwtProblem, `${request.method} ${request.path}`).toBeUndefined();
      expect(request.jwt?.header).toMatchObject({ kid: fake.appId, alg: 'RS256' });
    }
  });

  it('sends the PSU headers while the customer is in Connect, and counts no more than 4 unattended reads a day at the bank', async () => {
    const connector = await connectorOf('FI:Aurora Pankki');
    let session = await link(connector);
    expect(fake.requests.filter((r) => r.endpoint).every((r) => r.attended)).toBe(true);
    for (let i = 0; i < 4; i++) {
      fake.advance(60);
      session = ok(await connector.listAccounts(ctx(), session)).session ?? session;
    }
    fake.advance(60);
    const fifth = await connector.listAccounts(ctx(), session);
    expect(fifth).toMatchObject({ ok: false, code: 102 });
    expect(fake.unattendedReads('fi-checking', 'balances')).toBe(4);
    expect(fake.requests.some((r) => r.error === 'ASPSP_RATE_LIMIT_EXCEEDED')).toBe(false);
    expect(connector.backgroundRefreshAt!(ctx(), session)).toBeGreaterThan(fake.now);
    // The customer in Connect reads all the same.
    ok(await connector.listAccounts(ctx(PSU), session));
  });

  it('reports an expired consent (945) and a revoked one (947), and a new consent keeps the accounts by their identification hash', async () => {
    const connector = await connectorOf('FI:Aurora Pankki');
    const first = await link(connector);
    const refs = ok(await connector.listAccounts(ctx(PSU), first)).value.map((a) => a.ref);

    // The bank's clock passes the consent's end while the customer's has not yet: Enable Banking says EXPIRED.
    const validUntil = fake.session(first.sessionId as string).validUntil;
    fake.now = validUntil + 1;
    expect(await connector.listAccounts({ institutionId: 0, now: validUntil - 60, psu: PSU }, first)).toMatchObject({ ok: false, code: 945 });
    fake.now = validUntil - 120;

    fake.revoke(first.sessionId as string);
    expect(await connector.listAccounts(ctx(PSU), first)).toMatchObject({ ok: false, code: 947 });

    const second = await link(connector);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(ok(await connector.listAccounts(ctx(PSU), second)).value.map((a) => a.ref)).toEqual(refs);
    expect(fake.uidOf(second.sessionId as string, 'fi-checking')).not.toBe(fake.uidOf(first.sessionId as string, 'fi-checking'));
  });

  it('asks for a consent no longer than the bank allows (90 days at the Swedish bank), and sends the customer to its page', async () => {
    const connector = await connectorOf('SE:Fjäll Sparbank');
    const start = started(await connector.startOAuth(ctx(), { redirectUri: CALLBACK, state: 's' }));
    const auth = fake.requests.find((r) => r.path === '/auth');
    expect(auth?.status).toBe(200);
    expect(Date.parse((auth!.body as { access: { valid_until: string } }).access.valid_until) / 1000).toBeLessThanOrEqual(fake.now + 90 * DAY);
    expect(start.authorizeUrl.startsWith(fake.url)).toBe(true);
  });
});
