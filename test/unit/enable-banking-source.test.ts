import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHttpTransport, EnableBankingClient } from '../../src/connectors/enablebanking/client.js';
import { ENABLE_BANKING_ID_BASE, enableBanking, openEnableBanking } from '../../src/connectors/enablebanking/index.js';
import { OAUTH_CALLBACK_PATH } from '../../src/connectors/source.js';
import { institutionsOf, readConnection } from '../../src/connectors/enablebanking/institutions.js';
import { JwtSigner } from '../../src/connectors/enablebanking/jwt.js';
import { apiBaseUrl, DEFAULT_API_URL, readPrivateKey } from '../../src/connectors/enablebanking/settings.js';
import { parseAspsps } from '../../src/connectors/enablebanking/wire.js';
import { createConnectorRegistry, SOURCES } from '../../src/connectors/registry.js';
import type { SourceDeps } from '../../src/connectors/source.js';
import { loadConfig } from '../../src/main/config.js';
import { apiError, applicationKey, aspsp, STUB_BASE, type StubRoute, stubApi, tempFile } from '../helpers/enable-banking-stub.js';

const key = applicationKey();
const PUBLIC_URL = 'https://ledgerlink.example';

function deps(settings: Record<string, string>, extra: Partial<SourceDeps> = {}): SourceDeps {
  return {
    mode: 'production',
    publicUrl: PUBLIC_URL,
    deriveKey: () => Buffer.alloc(32),
    catalogue: { connection: async () => undefined },
    settings,
    ...extra,
  };
}

const SETTINGS = { APP_ID: 'app-1', KEY_FILE: key.file, URL: STUB_BASE };

function open(routes: Record<string, StubRoute>, extra: Partial<SourceDeps> = {}) {
  const api = stubApi(routes);
  return { api, source: openEnableBanking(deps(SETTINGS, extra), { transport: api.transport }) };
}

describe('the Enable Banking source', () => {
  it('is listed after OFX, names its settings, lists its banks from id 800000 and sends the browser back with code and state', () => {
    expect(SOURCES.map((s) => s.name)).toEqual(['testbank', 'simplefin', 'ofx', 'enablebanking']);
    expect(enableBanking.settings.map((s) => s.name)).toEqual(['APP_ID', 'KEY_FILE', 'URL']);
    expect(enableBanking.listedIdBase).toBe(ENABLE_BANKING_ID_BASE);
    expect(ENABLE_BANKING_ID_BASE).toBe(800_000);
    expect(enableBanking.institutions).toEqual([]);
    expect(enableBanking.redirect).toEqual({ kind: 'code-state' });
    expect(OAUTH_CALLBACK_PATH).toBe('/connect/oauth/callback');
  });

  it('is on only with an application id and a key file, from LEDGERLINK_ENABLE_BANKING_ variables', () => {
    expect(enableBanking.enabled?.({})).toBe(false);
    expect(enableBanking.enabled?.({ APP_ID: 'app-1' })).toBe(false);
    expect(enableBanking.enabled?.({ APP_ID: ' ', KEY_FILE: '/k.pem' })).toBe(false);
    expect(enableBanking.enabled?.({ APP_ID: 'app-1', KEY_FILE: '/k.pem' })).toBe(true);
    const config = loadConfig({ LEDGERLINK_ENABLE_BANKING_APP_ID: 'app-1', LEDGERLINK_ENABLE_BANKING_KEY_FILE: key.file });
    const registry = createConnectorRegistry({ ...deps({}), settings: config.connectorSettings });
    expect(registry.listing.map((l) => l.source.name)).toEqual(['enablebanking']);
    expect(createConnectorRegistry({ ...deps({}), settings: {} }).listing).toEqual([]);
  });

  it('reads the key once at start and stops the start, naming the variable, when it is missing or not an RSA private key; never quoting it', () => {
    expect(readPrivateKey(key.file).asymmetricKeyType).toBe('rsa');
    const secretish = key.pem.split('\n')[1]!;
    const attempts = [
      '/nonexistent/eb-key.pem',
      tempFile('public.pem', key.publicKey.export({ type: 'spki', format: 'pem' })),
      tempFile('garbled.pem', key.pem.replace(secretish, `${secretish.slice(0, 10)}!!!${secretish.slice(13)}`)),
      tempFile('ec.pem', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' })),
      tempFile('short.pem', generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' })),
      tempFile('encrypted.pem', key.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' })),
    ];
    for (const file of attempts) {
      let message = '';
      try {
        openEnableBanking(deps({ ...SETTINGS, KEY_FILE: file }));
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, file).toMatch(/^LEDGERLINK_ENABLE_BANKING_KEY_FILE: /);
      expect(message).toContain(file);
      expect(message).not.toContain(secretish.slice(0, 16));
    }
  });

  it('calls https anywhere, plain http only to a loopback address in sandbox mode, and nothing else', () => {
    expect(apiBaseUrl(undefined, 'production').href).toBe(`${DEFAULT_API_URL}/`);
    expect(apiBaseUrl('https://eb.example/v1/', 'production').href).toBe('https://eb.example/v1');
    expect(apiBaseUrl('http://127.0.0.1:4010', 'sandbox').href).toBe('http://127.0.0.1:4010/');
    expect(apiBaseUrl('http://localhost:4010', 'sandbox').host).toBe('localhost:4010');
    expect(apiBaseUrl('http://[::1]:4010', 'sandbox').host).toBe('[::1]:4010');
    for (const [url, mode] of [
      ['http://127.0.0.1:4010', 'production'],
      ['http://eb.example', 'sandbox'],
      ['http://10.0.0.5', 'sandbox'],
      ['ftp://eb.example', 'sandbox'],
      ['https://user:pw@eb.example', 'production'],
      ['https://eb.example/?x=1', 'production'],
      ['https://127.0.0.1', 'production'],
      ['https://169.254.169.254', 'sandbox'],
      ['not a url', 'sandbox'],
    ] as const) {
      expect(() => apiBaseUrl(url, mode), url).toThrow(/^LEDGERLINK_ENABLE_BANKING_URL /);
    }
    expect(() => openEnableBanking(deps({ ...SETTINGS, URL: 'http://127.0.0.1:1' }))).toThrow(/LEDGERLINK_ENABLE_BANKING_URL/);
    expect(() => openEnableBanking(deps({ ...SETTINGS, APP_ID: 'app id with spaces' }))).toThrow(/LEDGERLINK_ENABLE_BANKING_APP_ID/);
  });

  it('reaches a local test API over plain http on loopback in sandbox mode, through the connectors HTTP transport', async () => {
    const seen: { path: string; authorization?: string }[] = [];
    const server = createServer((request, response) => {
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ aspsps: [aspsp('Nordea', 'FI')] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = apiBaseUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'sandbox');
      const client = new EnableBankingClient({
        baseUrl: base,
        transport: createHttpTransport({ mode: 'sandbox', timeoutMs: 5000, maxBytes: 1 << 20 }),
        signer: new JwtSigner('app-1', key.privateKey),
      });
      const answer = await client.aspsps('personal');
      expect(answer).toMatchObject({ ok: true, value: [{ name: 'Nordea', country: 'FI' }] });
      expect(seen[0]).toMatchObject({ path: '/aspsps?psu_type=personal&service=AIS', authorization: expect.stringMatching(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/) });
      // The same address is refused in production mode before anything is sent.
      const production = new EnableBankingClient({
        baseUrl: base,
        transport: createHttpTransport({ mode: 'production', timeoutMs: 5000, maxBytes: 1 << 20 }),
        signer: new JwtSigner('app-1', key.privateKey),
      });
      expect(await production.aspsps('personal')).toEqual({ ok: false, problem: { kind: 'refused' } });
      expect(seen).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('Enable Banking banks as institutions', () => {
  it('come from GET /aspsps for personal and business customers, one institution per bank, with its country, currency, logo and connection', async () => {
    const { api, source } = open({
      'GET /aspsps': (r) => ({
        body: {
          aspsps:
            r.query.psu_type === 'personal'
              ? [
                  aspsp('Nordea', 'FI', { psu_types: ['personal', 'business'] }),
                  aspsp('Swedbank', 'SE', { maximum_consent_validity: 90 * 86_400 }),
                  aspsp('Nordea', 'SE'),
                ]
              : [
                  aspsp('Nordea', 'FI', { psu_types: ['business'], required_psu_headers: ['Psu-Ip-Address', 'Psu-Accept'] }),
                  aspsp('Holvi', 'FI', { psu_types: [] }),
                ],
        },
      }),
    });
    const listed = await source.listInstitutions!();
    expect(api.requests.map((r) => r.query)).toEqual([
      { psu_type: 'personal', service: 'AIS' },
      { psu_type: 'business', service: 'AIS' },
    ]);
    expect(listed.map((i) => [i.key, i.country, i.currency])).toEqual([
      ['FI:Holvi', 'FI', 'EUR'],
      ['FI:Nordea', 'FI', 'EUR'],
      ['SE:Nordea', 'SE', 'SEK'],
      ['SE:Swedbank', 'SE', 'SEK'],
    ]);
    const nordea = listed.find((i) => i.key === 'FI:Nordea')!;
    // Nordea in two countries: each named with its country; a name in one country stays as it is.
    expect(listed.map((i) => i.name)).toEqual(['Holvi', 'Nordea (Finland)', 'Nordea (Sweden)', 'Swedbank']);
    expect(nordea).toMatchObject({ name: 'Nordea (Finland)', logoUrl: 'https://enablebanking.com/brands/FI/Nordea/', homeUrl: 'https://enablebanking.com/' });
    expect(nordea.signInHelp).toMatch(/Nordea.*180 days/);
    expect(nordea.connection).toEqual({
      name: 'Nordea',
      country: 'FI',
      psu_types: ['personal', 'business'],
      maximum_consent_validity: 180 * 86_400,
      required_psu_headers: ['Psu-Ip-Address', 'Psu-User-Agent', 'Psu-Accept'],
    });
    expect(listed.find((i) => i.key === 'FI:Holvi')?.connection).toMatchObject({ psu_types: ['business'] });
    expect(listed.find((i) => i.key === 'SE:Swedbank')?.signInHelp).toMatch(/90 days/);
    for (const institution of listed) expect(readConnection(institution.connection)).toEqual(institution.connection);
  });

  it('leave out a bank entry that cannot be read, and keep a logo only when it is an https URL', () => {
    const parsed = parseAspsps(
      JSON.stringify({
        aspsps: [
          aspsp('Good', 'DE', { logo: 'http://insecure.example/logo.png' }),
          aspsp('', 'DE'),
          aspsp('No country', 'Germany'),
          aspsp('No validity', 'DE', { maximum_consent_validity: 'long' }),
          'not an object',
          aspsp('Also good', 'at', { required_psu_headers: null, psu_types: ['personal', 'corporate'] }),
        ],
      }),
    );
    if (!parsed.ok) throw new Error(parsed.detail);
    expect(parsed.value.map((a) => [a.name, a.country, a.logo ?? null, a.psuTypes, a.requiredPsuHeaders])).toEqual([
      ['Good', 'DE', null, ['personal'], ['Psu-Ip-Address', 'Psu-User-Agent']],
      ['Also good', 'AT', 'https://enablebanking.com/brands/at/Also%20good/', ['personal'], []],
    ]);
    expect(institutionsOf([parsed.value]).map((i) => [i.key, i.currency])).toEqual([
      ['AT:Also good', 'EUR'],
      ['DE:Good', 'EUR'],
    ]);
    expect(parseAspsps('{"aspsps": {}}')).toEqual({ ok: false, detail: 'aspsps is not a list' });
  });

  it('are not listed at all when either list fails, so that the catalogue keeps what it has', async () => {
    const { source } = open({ 'GET /aspsps': (r) => (r.query.psu_type === 'business' ? apiError(503) : { body: { aspsps: [aspsp('Nordea', 'FI')] } }) });
    await expect(source.listInstitutions!()).rejects.toThrow(/list of business banks could not be read.*HTTP 503/);
  });

  it("give each of their institutions a connector, from the connection the catalogue stored, and none to another source's", async () => {
    const stored = new Map<number, unknown>([
      [800_001, { name: 'Nordea', country: 'FI', psu_types: ['personal'], maximum_consent_validity: 15_552_000, required_psu_headers: [] }],
      [800_002, { host: 'ofx.example' }],
    ]);
    const asked: [number, string][] = [];
    const { source } = open({}, { catalogue: { connection: async (id, name) => (asked.push([id, name]), stored.get(id)) } });
    const connector = await source.connectorFor(800_001);
    expect(connector?.capabilities).toEqual({ authMode: 'oauth', historyDays: 90 });
    expect(await source.connectorFor(800_002)).toBeUndefined();
    expect(await source.connectorFor(12_345)).toBeUndefined();
    expect(asked).toEqual([
      [800_001, 'enablebanking'],
      [800_002, 'enablebanking'],
      [12_345, 'enablebanking'],
    ]);
  });
});

describe('the Enable Banking start-up check', () => {
  const application = (redirect_urls: string[], active = true): StubRoute => ({
    body: { name: 'Ledgerlink', kid: 'app-1', environment: 'PRODUCTION', redirect_urls, active, countries: ['FI'], services: ['AIS'] },
  });

  it("is quiet when the application allows Connect's callback", async () => {
    const { api, source } = open({ 'GET /application': application([`${PUBLIC_URL}/connect/oauth/callback`, 'https://other.example/cb']) });
    expect(await source.checkAtStart!()).toEqual([]);
    expect(api.requests.map((r) => r.path)).toEqual(['/application']);
  });

  it('warns, naming the URL to register, when the application does not allow it; and when the application is not active', async () => {
    const { source } = open({ 'GET /application': application(['https://ledgerlink.example/callback'], false) });
    expect(await source.checkAtStart!()).toEqual([
      'the application does not allow the redirect URL https://ledgerlink.example/connect/oauth/callback: add it in the Enable Banking control panel, or sign-ins will fail',
      'the application is not active in the Enable Banking control panel',
    ]);
    const slash = open({ 'GET /application': application([`${PUBLIC_URL}/connect/oauth/callback`]) }, { publicUrl: `${PUBLIC_URL}/` });
    expect(await slash.source.checkAtStart!()).toEqual([]);
  });

  it('warns and never throws when the application cannot be read, or there is no public URL', async () => {
    expect(await open({ 'GET /application': apiError(401, 'UNAUTHORIZED_ACCESS') }).source.checkAtStart!()).toEqual([
      expect.stringMatching(/^the application could not be read \(GET \/application\): .*UNAUTHORIZED_ACCESS/),
    ]);
    expect(await open({ 'GET /application': { fail: 'unreachable' } }).source.checkAtStart!()).toEqual([expect.stringContaining('could not be reached')]);
    expect(await open({ 'GET /application': { body: 'nonsense' } }).source.checkAtStart!()).toEqual([expect.stringContaining('not JSON')]);
    expect(await open({}, { publicUrl: '' }).source.checkAtStart!()).toEqual([expect.stringContaining('LEDGERLINK_PUBLIC_URL')]);
  });
});
