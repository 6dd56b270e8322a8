/**
 * The connector sources, in the order they are asked which institution they serve, and the registry that opens
 * them. A new source is its folder, exporting its ConnectorSource from index.ts, and one line in SOURCES.
 */
import type { InstitutionConnector } from './connector.js';
import { enableBanking } from './enablebanking/index.js';
import { ofx } from './ofx/index.js';
import { simplefin } from './simplefin/index.js';
import type { ConnectorSource, OpenSource, SignInRedirect, SourceDeps } from './source.js';
import { testbank } from './testbank/index.js';

/** Every source. An institution served by two is served by the first (none is today). */
export const SOURCES: readonly ConnectorSource[] = [testbank, simplefin, ofx, enableBanking];

export type ConnectorLookup = { available: true; connector: InstitutionConnector; source: ConnectorSource } | { available: false; reason: string };

export interface ConnectorRegistry {
  /** The connector of an institution, from the first source that serves it, or why there is none. */
  resolve(institutionId: number): Promise<ConnectorLookup>;
  /** A source as opened here, for what it offers beyond connectors (the test bank's OAuth sign-in page). */
  opened<Open extends OpenSource>(source: ConnectorSource<Open>): Open;
  /** How the sources' sign-in pages send the browser back (sources with a redirect only). */
  readonly redirects: readonly SignInRedirect[];
  /** The open sources that list their own institutions (OpenSource.listInstitutions). */
  readonly listing: readonly { source: ConnectorSource; opened: OpenSource }[];
  /** Runs every open source's start-up checks: the warnings they give, each prefixed with the source's name. */
  checkAtStart(): Promise<string[]>;
}

/** What the registry opens every source with; `settings` holds each source's by its name (Config's connectorSettings). */
export type RegistryDeps = Omit<SourceDeps, 'settings'> & { settings: Readonly<Record<string, Readonly<Record<string, string>>>> };

const NONE = (institutionId: number): ConnectorLookup => ({ available: false, reason: `No connector is available for institution ${institutionId} yet.` });

/** The settings of each source, refusing a setting no source declares (a misspelt variable would otherwise do nothing). */
function settingsOf(sources: readonly ConnectorSource[], given: RegistryDeps['settings']): Map<ConnectorSource, Readonly<Record<string, string>>> {
  for (const [name, values] of Object.entries(given)) {
    const source = sources.find((s) => s.name === name);
    for (const key of Object.keys(values)) {
      if (!source?.settings.some((s) => s.name === key)) {
        const known = source ? source.settings.map((s) => s.name).join(', ') || 'none' : `no source ${name}`;
        throw new Error(`LEDGERLINK_CONNECTOR_${name.toUpperCase()}_${key} is not a connector setting (${known}; docs/connectors.md)`);
      }
    }
  }
  return new Map(sources.map((s) => [s, given[s.name] ?? {}]));
}

/** Opens the sources (SOURCES unless given: tests open the test bank alone). */
export function createConnectorRegistry(deps: RegistryDeps, sources: readonly ConnectorSource[] = SOURCES): ConnectorRegistry {
  const settings = settingsOf(sources, deps.settings);
  // A source that needs settings it was not given is not opened: nothing about it shows.
  const enabled = sources.filter((s) => s.enabled?.(settings.get(s)!) ?? true);
  const open = new Map<ConnectorSource, OpenSource>(enabled.map((s) => [s, s.open({ ...deps, settings: settings.get(s)! })]));
  return {
    async resolve(institutionId) {
      for (const [source, opened] of open) {
        const connector = await opened.connectorFor(institutionId);
        if (connector) return { available: true, connector, source };
      }
      return NONE(institutionId);
    },
    opened<Open extends OpenSource>(source: ConnectorSource<Open>): Open {
      const opened = open.get(source as ConnectorSource);
      if (!opened) throw new Error(`The connector source ${source.name} is not open in this registry`);
      return opened as Open;
    },
    redirects: enabled.flatMap((s) => (s.redirect ? [s.redirect] : [])),
    listing: [...open].filter(([, opened]) => opened.listInstitutions).map(([source, opened]) => ({ source, opened })),
    async checkAtStart() {
      const warnings: string[] = [];
      for (const [source, opened] of open) {
        const found = await opened.checkAtStart?.().catch((error: unknown) => [`the start-up check failed: ${(error as Error).message}`]);
        for (const warning of found ?? []) warnings.push(`${source.name}: ${warning}`);
      }
      return warnings;
    },
  };
}
