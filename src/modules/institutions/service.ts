import type { Database } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { catalogChanged, catalogOf, type CatalogSnapshot } from './catalog.service.js';
import { isTestInstitution } from '../../connectors/testbank/institutions.js';
import { listOfxServerInstitutionIds } from './ofx-directory.repository.js';
import { insertOfxInstitution, type OfxInstitutionInput } from './ofx-directory.service.js';
import type { ProductFlag } from './catalog/generate.js';
import type { InstitutionRow } from './table.js';

/** Product names accepted by `type` (any case, underscores optional) and the flag each one filters on. */
const PRODUCT_TYPES: Record<string, ProductFlag> = {
  transagg: 'trans_agg',
  voa: 'voa',
  voi: 'voi',
  stateagg: 'state_agg',
  ach: 'ach',
  aha: 'aha',
  availbalance: 'avail_balance',
  accountowner: 'account_owner',
};

/** The product flags named by a `type` parameter ("voa", "state_agg", "voa,voi"); none for a blank one. */
export function parseProductTypes(type: string | undefined): ProductFlag[] {
  if (type === undefined || !type.trim()) return [];
  return type.split(',').map((part) => {
    const key = part.trim().toLowerCase().replace(/_/g, '');
    // Own properties only: "constructor" or "__proto__" are not products.
    const flag = Object.hasOwn(PRODUCT_TYPES, key) ? PRODUCT_TYPES[key] : undefined;
    if (!flag)
      throw new ServiceError(
        'InvalidParameter',
        `Invalid parameter (type): "${part.trim()}" is not a product; use voa, voi, state_agg, ach, aha, trans_agg, avail_balance or account_owner (several separated by commas)`,
      );
    return flag;
  });
}

const COUNTRY_CODES: Record<string, string> = { us: 'USA', ca: 'CAN' };

/** Alpha-3 countries named by `supportedCountries` ("us", "us,ca"); undefined for "*" or absent (every country). */
export function parseCountries(supportedCountries: string | undefined): Set<string> | undefined {
  if (supportedCountries === undefined || supportedCountries.trim() === '*' || !supportedCountries.trim()) return undefined;
  return new Set(
    supportedCountries.split(',').map((c) => {
      const key = c.trim().toLowerCase();
      return Object.hasOwn(COUNTRY_CODES, key) ? COUNTRY_CODES[key]! : c.trim().toUpperCase();
    }),
  );
}

export interface InstitutionSearch {
  search?: string | undefined;
  /** 1-based index of the first record. */
  start: number;
  limit: number;
  type?: string | undefined;
  supportedCountries?: string | undefined;
  /** Only the institutions this lets through (a customer's rule of where it may link), counted and paged among themselves. */
  allow?: ((institutionId: number) => boolean) | undefined;
  /** Leave out the generated, fictional institutions (Connect outside the sandbox: a production partner's). */
  withoutFictional?: boolean | undefined;
}

export interface InstitutionPage {
  found: number;
  displaying: number;
  moreAvailable: boolean;
  institutions: InstitutionRow[];
}

const CERTIFICATION_FLAGS: readonly ProductFlag[] = ['trans_agg', 'voa', 'voi', 'state_agg', 'ach', 'aha'];

function assertSearchNotBlank(search: string | undefined): void {
  if (search !== undefined && !search.trim()) {
    throw new ServiceError('MissingParameter', 'Missing parameter (search): the search text is blank; omit search to list every institution');
  }
}

type Filter = (position: number) => boolean;

function page(catalog: CatalogSnapshot, search: string | undefined, start: number, limit: number, accept: Filter | undefined): InstitutionPage {
  const { total, indices } = catalog.index.search(search, { offset: start - 1, limit, ...(accept ? { accept } : {}) });
  return { found: total, displaying: indices.length, moreAvailable: start - 1 + indices.length < total, institutions: indices.map((i) => catalog.row(i)) };
}

/** Every flag set, the country among these, and certified for a product when asked: read from the catalogue's columns, no row objects made. */
function filterFor(catalog: CatalogSnapshot, flags: readonly ProductFlag[], countries: Set<string> | undefined, certifiedOnly = false): Filter | undefined {
  if (!flags.length && !countries && !certifiedOnly) return undefined;
  const required = flags.map((f) => catalog.table.reader(f));
  const country = catalog.table.reader('country');
  const certifications = CERTIFICATION_FLAGS.map((f) => catalog.table.reader(f));
  return (p) =>
    required.every((flag) => flag(p) === 1) && (!countries || countries.has(country(p))) && (!certifiedOnly || certifications.some((flag) => flag(p) === 1));
}

/** A web address on the reserved `.example` domain, where the generated institutions' web sites are (catalog/generate.ts). */
const EXAMPLE_DOMAIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\.example(?:[:/?#]|$)/i;

/**
 * Whether an institution is one of the generated, fictional ones (docs/institutions.md): its home page on the
 * `.example` domain, and neither a test institution (they are on it too) nor given an OFX server since (`served`:
 * an operator's `institutions add-ofx`, or the directory, attach one to the catalogue's institution of that name).
 */
export function isFictionalInstitution(id: number, homeUrl: string, served: ReadonlySet<number>): boolean {
  return EXAMPLE_DOMAIN.test(homeUrl) && !isTestInstitution(id) && !served.has(id);
}

/** A filter that leaves out the fictional institutions, read from the catalogue's columns. */
async function realOnly(database: Database, catalog: CatalogSnapshot, filter: Filter | undefined): Promise<Filter> {
  const served = new Set(await listOfxServerInstitutionIds(database.kysely));
  const [id, home] = [catalog.table.reader('id'), catalog.table.reader('url_home_app')];
  return (p) => (!filter || filter(p)) && !isFictionalInstitution(id(p), home(p), served);
}

/**
 * Get Institutions: every institution whose name, home page or login page contains `search`, best matches
 * first (see search-index.ts), or all of them without `search`. A blank `search` is refused (10005).
 */
export async function searchInstitutions(database: Database, query: InstitutionSearch): Promise<InstitutionPage> {
  assertSearchNotBlank(query.search);
  const flags = parseProductTypes(query.type);
  const countries = parseCountries(query.supportedCountries);
  const catalog = await catalogOf(database);
  let filter = filterFor(catalog, flags, countries);
  if (query.withoutFictional) filter = await realOnly(database, catalog, filter);
  return page(catalog, query.search, query.start, query.limit, allowing(catalog, filter, query.allow));
}

/** The filter narrowed to the institutions `allow` lets through, when there is an `allow`. */
function allowing(catalog: CatalogSnapshot, filter: Filter | undefined, allow: InstitutionSearch['allow']): Filter | undefined {
  if (!allow) return filter;
  const id = catalog.table.reader('id');
  return (p) => (!filter || filter(p)) && allow(id(p));
}

/**
 * Get Certified Institutions: institutions certified for at least one product (or for every product named by
 * `type`). `search=*` returns all of them in one response and ignores start and limit; other text searches
 * like Get Institutions; without `search` the whole list is paged.
 */
export async function searchCertifiedInstitutions(database: Database, query: InstitutionSearch): Promise<InstitutionPage> {
  assertSearchNotBlank(query.search);
  const flags = parseProductTypes(query.type);
  const countries = parseCountries(query.supportedCountries);
  const catalog = await catalogOf(database);
  const all = query.search?.trim() === '*';
  return page(
    catalog,
    all ? undefined : query.search,
    all ? 1 : query.start,
    all ? Number.POSITIVE_INFINITY : query.limit,
    filterFor(catalog, flags, countries, true),
  );
}

/**
 * Get Certified Institutions With RSSD: the certified institutions the query matches whose RSSD id (the Federal
 * Reserve's identifier of a bank) is known. Neither the catalogue nor any source states one, and an RSSD id is never
 * made up, so none is known and the answer is empty, as the reference answers when nothing matches. The query is
 * read as Get Certified Institutions reads it, so a bad one is refused the same way.
 */
export function searchCertifiedInstitutionsWithRssd(query: InstitutionSearch): { found: number; displaying: number; moreAvailable: boolean } {
  assertSearchNotBlank(query.search);
  parseProductTypes(query.type);
  parseCountries(query.supportedCountries);
  return { found: 0, displaying: 0, moreAvailable: false };
}

/** The institution with this id, or undefined. */
export async function findInstitution(database: Database, id: number): Promise<InstitutionRow | undefined> {
  return (await catalogOf(database)).byId(id);
}

/** The institution with this id; 404 InstitutionNotFound when there is none. */
export async function getInstitution(database: Database, id: number): Promise<InstitutionRow> {
  const row = await findInstitution(database, id);
  if (!row) throw new ServiceError('InstitutionNotFound', `Institution not found (id ${id}).`);
  return row;
}

/** Adds an OFX institution or overrides its server (see insertOfxInstitution); this process sees it at once. */
export async function addOfxInstitution(database: Database, mode: 'sandbox' | 'production', input: OfxInstitutionInput, now: number): Promise<number> {
  const id = await insertOfxInstitution(database, mode, input, now);
  await catalogChanged(database);
  return id;
}
