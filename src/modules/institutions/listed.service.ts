/**
 * Institutions of sources that list their own (Enable Banking's banks): the catalogue follows each source's list,
 * asked at start and then daily (startListedInstitutionSync). A key seen for the first time becomes a new
 * institution, with the next id of the source's range; a key seen before keeps its id for good (logins, accounts
 * and clients' saved ids stay valid), its row follows what the source says; a key no longer listed is retired: it
 * stays in the catalogue, searchable, but offers no connection (Connect shows it unavailable) until it is listed again.
 */
import type { Logger } from 'pino';
import type { ConnectorRegistry } from '../../connectors/registry.js';
import type { ConnectorSource, ListedInstitution } from '../../connectors/source.js';
import { countryOf } from '../../platform/countries.js';
import type { Database } from '../../platform/db/database.js';
import { catalogChanged, catalogOf } from './catalog.service.js';
import { findListedLogo, insertListed, maxListedId, selectListedOfSource, updateListed } from './listed.repository.js';
import { bumpCatalogVersion, findInstitutionRow, insertInstitutionRowIfAbsent, updateInstitutionRow } from './repository.js';
import { sourceInstitutionRow } from './sources.service.js';
import type { InstitutionTable } from './table.js';

/** How often the catalogue asks each listing source for its list again. */
export const LISTED_SYNC_INTERVAL_SECONDS = 86_400;

export interface ListedSyncResult {
  added: number;
  changed: number;
  retired: number;
}

/** ISO 3166-1 alpha-3 of an alpha-2 code; the code itself, upper case, when unknown. */
function alpha3(country: string): string {
  return countryOf(country)?.alpha3 ?? country.trim().toUpperCase();
}

function rowOf(entry: ListedInstitution, id: number, version: number, products: ConnectorSource['products']): InstitutionTable {
  return sourceInstitutionRow(
    { id, name: entry.name, homeUrl: entry.homeUrl, signInHelp: entry.signInHelp },
    version,
    { country: alpha3(entry.country), currency: entry.currency },
    products,
  );
}

/** What of a catalogue row follows the source's entry. */
function catalogueFields(row: InstitutionTable): Pick<InstitutionTable, 'name' | 'display_name' | 'country' | 'currency' | 'special_text' | 'trans_agg'> {
  return {
    name: row.name,
    display_name: row.display_name,
    country: row.country,
    currency: row.currency,
    special_text: row.special_text,
    trans_agg: row.trans_agg,
  };
}

/**
 * Makes the catalogue follow a source's list, in one transaction (and one catalogue version when anything changed).
 * Entries with an empty key or name are skipped; a key listed twice counts once.
 */
export async function syncListedInstitutions(
  database: Database,
  source: ConnectorSource,
  listed: readonly ListedInstitution[],
  now: number,
): Promise<ListedSyncResult> {
  const base = source.listedIdBase;
  if (base === undefined) throw new Error(`The connector source ${source.name} lists institutions but has no listedIdBase`);
  // The catalogue is seeded first: ids of its own ranges, and a first start's empty table, are its business.
  await catalogOf(database);
  const entries = new Map<string, ListedInstitution>();
  for (const entry of listed) if (entry.key && entry.name.trim() && !entries.has(entry.key)) entries.set(entry.key, entry);
  const result: ListedSyncResult = { added: 0, changed: 0, retired: 0 };
  await database.kysely.transaction().execute(async (tx) => {
    const known = new Map((await selectListedOfSource(tx, source.name)).map((row) => [row.key, row]));
    let version: number | undefined;
    const nextVersion = async () => (version ??= await bumpCatalogVersion(tx));
    let nextId = Math.max(base, ((await maxListedId(tx, source.name)) ?? base - 1) + 1);
    for (const [key, entry] of entries) {
      const connection = JSON.stringify(entry.connection);
      const logo = entry.logoUrl ?? null;
      const row = known.get(key);
      if (!row) {
        const id = nextId++;
        await insertInstitutionRowIfAbsent(tx, rowOf(entry, id, await nextVersion(), source.products));
        await insertListed(tx, { institution_id: id, source: source.name, key, connection, logo_url: logo, listed: 1, synced_at: now });
        result.added++;
        continue;
      }
      const id = Number(row.institution_id);
      const stored = await findInstitutionRow(tx, id);
      const wanted = catalogueFields(rowOf(entry, id, 0, source.products));
      const rowChanged = !stored || (Object.keys(wanted) as (keyof typeof wanted)[]).some((k) => String(stored[k]) !== String(wanted[k]));
      if (rowChanged) await updateInstitutionRow(tx, id, wanted, await nextVersion());
      if (rowChanged || row.connection !== connection || row.logo_url !== logo || Number(row.listed) !== 1) {
        await updateListed(tx, id, { connection, logo_url: logo, listed: 1, synced_at: now });
        result.changed++;
      }
    }
    // An empty list from a source that listed institutions before is taken for a fault of the source's, not for every
    // institution closing at once: nothing is retired (the next list decides).
    const retiring = entries.size > 0;
    for (const [key, row] of known) {
      if (!retiring || entries.has(key) || Number(row.listed) === 0) continue;
      const id = Number(row.institution_id);
      await updateInstitutionRow(tx, id, { trans_agg: 0 }, await nextVersion());
      await updateListed(tx, id, { listed: 0, synced_at: now });
      result.retired++;
    }
  });
  if (result.added + result.changed + result.retired > 0) await catalogChanged(database);
  return result;
}

/** Asks every listing source of the registry for its list and follows it; a source that fails is logged and skipped. */
export async function syncAllListed(database: Database, registry: ConnectorRegistry, now: number, logger?: Logger): Promise<void> {
  for (const { source, opened } of registry.listing) {
    try {
      const listed = await opened.listInstitutions!();
      const result = await syncListedInstitutions(database, source, listed, now);
      logger?.info({ source: source.name, listed: listed.length, ...result }, 'institution list synchronised');
    } catch (error) {
      logger?.warn({ source: source.name, err: error }, 'the institution list could not be read; the catalogue keeps the last one');
    }
  }
}

/**
 * Synchronises now and then every LISTED_SYNC_INTERVAL_SECONDS (real time) until stopped. Nothing to do, and no
 * timer, without a listing source.
 */
export function startListedInstitutionSync(
  database: Database,
  registry: ConnectorRegistry,
  options: { now: () => number; logger?: Logger; intervalMs?: number },
): { ready: Promise<void>; stop(): Promise<void> } {
  if (registry.listing.length === 0) return { ready: Promise.resolve(), stop: async () => {} };
  let running: Promise<void> = syncAllListed(database, registry, options.now(), options.logger);
  const timer = setInterval(
    () => {
      running = running.then(() => syncAllListed(database, registry, options.now(), options.logger));
    },
    options.intervalMs ?? LISTED_SYNC_INTERVAL_SECONDS * 1000,
  );
  timer.unref();
  return {
    ready: running,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** The https logo a listing source gave an institution, if any (the generated image is the fallback). */
export async function listedLogo(database: Database, institutionId: number): Promise<string | undefined> {
  const url = await findListedLogo(database.kysely, institutionId);
  return url?.startsWith('https://') ? url : undefined;
}
