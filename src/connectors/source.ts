/**
 * A connector source: one folder under src/connectors/ (the test bank, SimpleFIN, OFX), described by one value its
 * index.ts exports and registry.ts lists. The value says everything the rest of Ledgerlink needs to know about the
 * source: its name, the settings it reads, the catalogue institutions it brings, how an institution's sign-in page
 * sends the browser back (OAuth-style sources), and how to open it, which gives the connector of each institution it
 * serves. Nothing above the registry names a source.
 */
import type { InstitutionConnector, JsonValue } from './connector.js';

/**
 * A setting a source reads from the environment: `LEDGERLINK_CONNECTOR_<SOURCE>_<NAME>`, the source's name in upper
 * case (`LEDGERLINK_CONNECTOR_OFX_...`), or a source's shorter prefix (`LEDGERLINK_ENABLE_BANKING_...`, config.ts's
 * SOURCE_PREFIXES). loadConfig collects every such variable; the registry refuses one that no
 * source declares, so a misspelt setting stops the start instead of being ignored.
 */
export interface SourceSetting {
  /** Upper case, as it appears after the source's name in the variable (`APP_ID`). */
  readonly name: string;

  /** What it is, for docs/connectors.md. */
  readonly description: string;
}

/**
 * An institution a source brings to the catalogue at a fixed id (stable across releases and installations). The
 * institutions module adds it once per database, when no institution has that id; fields left out get the values
 * of an OFX directory institution (United States, US dollars, no address).
 */
export interface SourceInstitution {
  readonly id: number;
  readonly name: string;
  /** The institution's web site, used for every URL of its catalogue entry. */
  readonly homeUrl: string;
  /** What Connect shows above the sign-in form. */
  readonly signInHelp: string;
  /** Higher ranks first among equally good search matches; 0 unless given. */
  readonly searchRank?: number;
}

/**
 * How an institution's sign-in page sends the browser back to Connect's one callback, `/connect/oauth/callback`,
 * for sources whose institutions sign in on their own site (`capabilities.authMode` 'oauth'). Connect finds the
 * sign-in session by the parameter named here and hands the connector's completeOAuth what came back.
 *
 * - `code-state`: OAuth 2.0's authorization code: `code`, and `state` holding the session (the connector's
 *   startOAuth passes the state it is given); `error` instead of a code when the user declined.
 * - `reference`: the session alone, in the query parameter `param` (the reference the connector gave the
 *   institution when it started: startOAuth's `state`); completeOAuth gets it as its `code` and asks the
 *   institution's API how the sign-in ended.
 */
export type SignInRedirect = { readonly kind: 'code-state' } | { readonly kind: 'reference'; readonly param: string };

/** Connect's one return address for every source's sign-in pages, under the public URL (docs/connectors.md). */
export const OAUTH_CALLBACK_PATH = '/connect/oauth/callback';

/** The query parameter of a redirect that names the sign-in session. */
export function sessionParamOf(redirect: SignInRedirect): string {
  return redirect.kind === 'code-state' ? 'state' : redirect.param;
}

/** What a redirect brought back: what to complete the sign-in with, or that the user declined at the institution. */
export function redirectOutcome(redirect: SignInRedirect, query: Readonly<Record<string, string | undefined>>): { code: string } | { declined: true } {
  const code = redirect.kind === 'code-state' ? query.code : query[redirect.param];
  return code ? { code } : { declined: true };
}

/**
 * The catalogue as a source sees it: what it stores about reaching an institution through the named source (an OFX
 * server's address and identifiers), or undefined when it stores nothing for that institution and source.
 */
export interface SourceCatalogue {
  connection(institutionId: number, source: string): Promise<unknown>;
}

/** What every source is opened with; the engine builds it from the runtime. */
export interface SourceDeps {
  /** The service mode: which addresses may be contacted (the outbound target policy) and how. */
  readonly mode: 'sandbox' | 'production';
  /** The service's public base URL, for pages it serves and the addresses it hands out. */
  readonly publicUrl: string;
  /** A key derived from the master key for a purpose: the same in every process sharing the database. */
  deriveKey(purpose: string): Buffer;
  readonly catalogue: SourceCatalogue;
  /** The source's own settings (SourceSetting), by name; absent when not set. */
  readonly settings: Readonly<Record<string, string>>;
}

/**
 * An institution of a source whose catalogue changes (Enable Banking's list of banks), as the source lists it now.
 * The catalogue keeps one institution id per key for good and stores `connection` with it, which the source's
 * connector reads back through SourceCatalogue.connection.
 */
export interface ListedInstitution {
  /** Stable within the source (a bank's country and name). */
  readonly key: string;
  readonly name: string;
  readonly homeUrl: string;
  readonly signInHelp: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** ISO 4217: the currency its accounts are mostly in. */
  readonly currency: string;
  /** An image of the institution's own, served by the source (https). */
  readonly logoUrl?: string;
  readonly connection: JsonValue;
}

/**
 * A product beyond transaction aggregation that a source's institutions serve, by the name of the catalogue's product
 * flag: `ach` (routing and full account numbers), `aha` (account history: historic transactions), `availBalance`
 * (available balances, stored and live), `accountOwner` (the account's owners), `loanPaymentDetails` (how to pay a
 * loan). A product is served where the source gives what it needs (docs/payments.md).
 */
export type SourceProduct = 'ach' | 'aha' | 'availBalance' | 'accountOwner' | 'loanPaymentDetails';

/** The products of a source that names none: available balances, which every source's deposit accounts have. */
export const DEFAULT_SOURCE_PRODUCTS: readonly SourceProduct[] = ['availBalance'];

/** An open source: the connectors of the institutions it serves. */
export interface OpenSource {
  /** The connector of an institution, or undefined when this source does not serve it. */
  connectorFor(institutionId: number): InstitutionConnector | undefined | Promise<InstitutionConnector | undefined>;
  /**
   * Sources whose institutions come from their own list: the list as it is now. The catalogue asks at start and then
   * every day (docs/connectors.md), adding new institutions and retiring those no longer listed.
   */
  listInstitutions?(): Promise<ListedInstitution[]>;
  /** Checks made once at start; what they find is logged as warnings and never stops the service. */
  checkAtStart?(): Promise<string[]>;
}

export interface ConnectorSource<Open extends OpenSource = OpenSource> {
  /** Lower case letters and digits: names its settings (`LEDGERLINK_CONNECTOR_<NAME>_...`) and its catalogue data. */
  readonly name: string;
  readonly settings: readonly SourceSetting[];
  /** Institutions it adds to the catalogue; sources whose institutions come from elsewhere have none. */
  readonly institutions: readonly SourceInstitution[];
  /**
   * For sources that list their institutions (OpenSource.listInstitutions): the first catalogue id of theirs; ids
   * are handed out upwards from it, one per listed key, and never reused.
   */
  readonly listedIdBase?: number;
  /**
   * Whether the source is configured: a source that needs settings to work (an application id and key) is off
   * without them, and then nothing about it shows. Always on unless given.
   */
  enabled?(settings: Readonly<Record<string, string>>): boolean;
  /** The products its institutions serve, which their catalogue flags show; DEFAULT_SOURCE_PRODUCTS unless given. */
  readonly products?: readonly SourceProduct[];
  /** For sources whose institutions sign in on their own site. */
  readonly redirect?: SignInRedirect;
  /** Builds the source's connectors (once per engine, so once per process and database). */
  open(deps: SourceDeps): Open;
}
