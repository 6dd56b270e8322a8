import { describe, expect, it } from 'vitest';
import type { InstitutionConnector } from '../../src/connectors/connector.js';
import { createConnectorRegistry, SOURCES } from '../../src/connectors/registry.js';
import { type ConnectorSource, redirectOutcome, type SourceDeps, sessionParamOf } from '../../src/connectors/source.js';
import { testbank } from '../../src/connectors/testbank/index.js';
import { loadConfig } from '../../src/main/config.js';
import { connector, KEY } from '../helpers/testbank.js';
import { started } from '../helpers/oauth.js';

const deps = { mode: 'sandbox', publicUrl: 'https://ledgerlink.example', deriveKey: () => KEY, catalogue: { connection: async () => undefined } } as const;

/** A source serving the given institutions with the test bank's FinBank connector, remembering what it was opened with. */
function fakeSource(name: string, ids: number[], extra: Partial<ConnectorSource> = {}): ConnectorSource & { openedWith?: SourceDeps } {
  const source: ConnectorSource & { openedWith?: SourceDeps } = {
    name,
    settings: [{ name: 'APP_ID', description: 'the application id' }],
    institutions: [],
    ...extra,
    open(given) {
      source.openedWith = given;
      return { connectorFor: async (id: number): Promise<InstitutionConnector | undefined> => (ids.includes(id) ? connector(101732) : undefined) };
    },
  };
  return source;
}

describe('connector sources', () => {
  it('are the test bank, SimpleFIN, OFX and Enable Banking, in that order, each named in lower case', () => {
    expect(SOURCES.map((s) => s.name)).toEqual(['testbank', 'simplefin', 'ofx', 'enablebanking']);
    for (const source of SOURCES) expect(source.name).toMatch(/^[a-z0-9]+$/);
  });

  it('serve an institution from the first source that serves it, and say so when none does', async () => {
    const first = fakeSource('first', [1, 2]);
    const second = fakeSource('second', [2, 3]);
    const registry = createConnectorRegistry({ ...deps, settings: {} }, [first, second]);
    expect(await registry.resolve(2)).toMatchObject({ available: true, source: first });
    expect(await registry.resolve(3)).toMatchObject({ available: true, source: second });
    expect(await registry.resolve(4)).toEqual({ available: false, reason: 'No connector is available for institution 4 yet.' });
  });

  it('hand each source its own settings, and refuse a setting no source declares', () => {
    const mine = fakeSource('mine', []);
    createConnectorRegistry({ ...deps, settings: { mine: { APP_ID: 'app-1' } } }, [mine]);
    expect(mine.openedWith?.settings).toEqual({ APP_ID: 'app-1' });
    expect(() => createConnectorRegistry({ ...deps, settings: { mine: { APP_KEY: 'x' } } }, [mine])).toThrow(
      'LEDGERLINK_CONNECTOR_MINE_APP_KEY is not a connector setting (APP_ID; docs/connectors.md)',
    );
    expect(() => createConnectorRegistry({ ...deps, settings: { nosuch: { APP_ID: 'x' } } }, [mine])).toThrow(
      /LEDGERLINK_CONNECTOR_NOSUCH_APP_ID .*no source nosuch/,
    );
  });

  it('collect LEDGERLINK_CONNECTOR_<SOURCE>_<NAME> variables by source, leaving other variables and empty values out', () => {
    const config = loadConfig({
      LEDGERLINK_CONNECTOR_ENABLEBANKING_APP_ID: 'app-1',
      LEDGERLINK_CONNECTOR_ENABLEBANKING_KEY_FILE: '/etc/key.pem',
      LEDGERLINK_CONNECTOR_OFX_TIMEOUT: '',
      LEDGERLINK_MODE: 'sandbox',
    });
    expect(config.connectorSettings).toEqual({ enablebanking: { APP_ID: 'app-1', KEY_FILE: '/etc/key.pem' } });
    expect(loadConfig({}).connectorSettings).toEqual({});
  });

  it("also take a source's documented prefix (LEDGERLINK_ENABLE_BANKING_) beside the LEDGERLINK_CONNECTOR_ form", () => {
    const config = loadConfig({
      LEDGERLINK_ENABLE_BANKING_APP_ID: 'app-2',
      LEDGERLINK_ENABLE_BANKING_URL: 'http://127.0.0.1:9/',
      LEDGERLINK_CONNECTOR_ENABLEBANKING_KEY_FILE: '/etc/key.pem',
      LEDGERLINK_ENABLE_BANKING_: 'not a setting',
    });
    expect(config.connectorSettings).toEqual({ enablebanking: { APP_ID: 'app-2', URL: 'http://127.0.0.1:9/', KEY_FILE: '/etc/key.pem' } });
  });

  it('leave a source off without the settings it needs: not opened, no redirect, nothing it serves', async () => {
    const needy = fakeSource('needy', [7], { enabled: (settings) => Boolean(settings.APP_ID), redirect: { kind: 'reference', param: 'ref' } });
    const off = createConnectorRegistry({ ...deps, settings: {} }, [needy]);
    expect(needy.openedWith).toBeUndefined();
    expect(off.redirects).toEqual([]);
    expect(await off.resolve(7)).toMatchObject({ available: false });
    const on = createConnectorRegistry({ ...deps, settings: { needy: { APP_ID: 'a' } } }, [needy]);
    expect(on.redirects).toEqual([{ kind: 'reference', param: 'ref' }]);
    expect(await on.resolve(7)).toMatchObject({ available: true, source: needy });
  });

  it("run the sources' start-up checks, naming the source in each warning, a failing check a warning too", async () => {
    const listing: ConnectorSource = {
      name: 'lister',
      settings: [],
      institutions: [],
      listedIdBase: 1,
      open: () => ({ connectorFor: () => undefined, listInstitutions: async () => [], checkAtStart: async () => ['register https://x/cb'] }),
    };
    const failing: ConnectorSource = {
      name: 'failing',
      settings: [],
      institutions: [],
      open: () => ({
        connectorFor: () => undefined,
        checkAtStart: async () => {
          throw new Error('no answer');
        },
      }),
    };
    const registry = createConnectorRegistry({ ...deps, settings: {} }, [listing, failing, fakeSource('quiet', [])]);
    expect(await registry.checkAtStart()).toEqual(['lister: register https://x/cb', 'failing: the start-up check failed: no answer']);
    expect(registry.listing.map((l) => l.source.name)).toEqual(['lister']);
  });

  it('open the test bank with its key and its sign-in page at the public URL, and its OAuth page with the same key', async () => {
    const registry = createConnectorRegistry({ ...deps, settings: {} }, [testbank]);
    const oauth = registry.opened(testbank).connectorFor(102168)!;
    const start = started(
      await oauth.startOAuth({ institutionId: 102168, now: 1_768_000_000 }, { redirectUri: 'https://ledgerlink.example/cb', state: 's-1' }),
    );
    expect(start.authorizeUrl.startsWith('https://ledgerlink.example/connect/testbank/oauth/authorize?')).toBe(true);
    const request = registry.opened(testbank).oauthPages.parseAuthorizeRequest(Object.fromEntries(new URL(start.authorizeUrl).searchParams));
    expect(request).toMatchObject({ ok: true, request: { institutionId: 102168, state: 's-1' } });
    expect(registry.redirects).toEqual([{ kind: 'code-state' }]);
    expect(() => registry.opened(fakeSource('other', []))).toThrow(/not open/);
  });
});

describe('sign-in redirects', () => {
  it('find the session in `state` and complete with `code`, or report a decline', () => {
    const redirect = { kind: 'code-state' } as const;
    expect(sessionParamOf(redirect)).toBe('state');
    expect(redirectOutcome(redirect, { state: 's', code: 'c' })).toEqual({ code: 'c' });
    expect(redirectOutcome(redirect, { state: 's', error: 'access_denied' })).toEqual({ declined: true });
  });

  it('find the session in a reference parameter and complete with that reference', () => {
    const redirect = { kind: 'reference', param: 'ref' } as const;
    expect(sessionParamOf(redirect)).toBe('ref');
    expect(redirectOutcome(redirect, { ref: 'session-1' })).toEqual({ code: 'session-1' });
    expect(redirectOutcome(redirect, { state: 'session-1' })).toEqual({ declined: true });
  });
});
