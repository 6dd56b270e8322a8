/**
 * Enable Banking as a connector source: the banks of Europe it reaches through PSD2 (some 2,500), listed from its API
 * into the catalogue, each signing in on its own pages and read through the customer's consent. Off unless the
 * operator gives an application's id and key (LEDGERLINK_ENABLE_BANKING_APP_ID and _KEY_FILE; docs/connectors.md).
 */
import { OAUTH_CALLBACK_PATH, type ConnectorSource, type OpenSource, type SourceDeps } from '../source.js';
import { createHttpTransport, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, EnableBankingClient, type EnableBankingTransport } from './client.js';
import { EnableBankingConnector } from './connector.js';
import { failureOf } from './errors.js';
import { listInstitutions, readConnection } from './institutions.js';
import { JwtSigner } from './jwt.js';
import { ReadLedger } from './limits.js';
import { apiBaseUrl, appIdOf, ENABLE_BANKING_SETTINGS, hasRequiredSettings, readPrivateKey } from './settings.js';

export { ENABLE_BANKING_ERROR_TABLE, type EnableBankingErrorRow } from './errors.js';

/** The first catalogue id of Enable Banking's banks. */
export const ENABLE_BANKING_ID_BASE = 800_000;

/** What tests open the source with instead of the network and the real clock. */
export interface OpenOptions {
  transport?: EnableBankingTransport;
  /** Milliseconds since the epoch, for the JWT. */
  clock?: () => number;
}

/** The redirect URL the application must allow, for a public base URL. */
export function callbackUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${OAUTH_CALLBACK_PATH}`;
}

/**
 * Whether the application allows Connect's callback: a warning when it does not (saying which URL to register), when
 * the application is not active, or when it could not be asked. Never throws.
 */
async function checkApplication(client: EnableBankingClient, publicUrl: string): Promise<string[]> {
  try {
    if (!publicUrl) return ['LEDGERLINK_PUBLIC_URL is not set: banks cannot send the customer back to Connect after signing in'];
    const expected = callbackUrl(publicUrl);
    const answer = await client.application();
    if (!answer.ok) return [`the application could not be read (GET /application): ${failureOf(answer.problem, 'read').message}`];
    const warnings: string[] = [];
    if (!answer.value.redirectUrls.includes(expected)) {
      warnings.push(`the application does not allow the redirect URL ${expected}: add it in the Enable Banking control panel, or sign-ins will fail`);
    }
    if (answer.value.active === false) warnings.push('the application is not active in the Enable Banking control panel');
    return warnings;
  } catch (e) {
    return [`the application could not be checked: ${e instanceof Error ? e.name : 'unknown error'}`];
  }
}

/** Opens the source: reads the key once, checks the address, and shares one client and read ledger among its banks. */
export function openEnableBanking(deps: SourceDeps, options: OpenOptions = {}): OpenSource {
  const appId = appIdOf(deps.settings.APP_ID);
  const key = readPrivateKey((deps.settings.KEY_FILE ?? '').trim());
  const baseUrl = apiBaseUrl(deps.settings.URL, deps.mode);
  const client = new EnableBankingClient({
    baseUrl,
    transport: options.transport ?? createHttpTransport({ mode: deps.mode, timeoutMs: DEFAULT_TIMEOUT_MS, maxBytes: DEFAULT_MAX_BYTES }),
    signer: new JwtSigner(appId, key, options.clock),
  });
  const ledger = new ReadLedger();
  return {
    async connectorFor(institutionId) {
      const bank = readConnection(await deps.catalogue.connection(institutionId, enableBanking.name));
      return bank ? new EnableBankingConnector({ client, bank, ledger, mode: deps.mode }) : undefined;
    },
    listInstitutions: () => listInstitutions(client),
    checkAtStart: () => checkApplication(client, deps.publicUrl),
  };
}

export const enableBanking: ConnectorSource = {
  name: 'enablebanking',
  settings: ENABLE_BANKING_SETTINGS,
  institutions: [],
  listedIdBase: ENABLE_BANKING_ID_BASE,
  enabled: hasRequiredSettings,
  redirect: { kind: 'code-state' },
  open: (deps) => openEnableBanking(deps),
};
