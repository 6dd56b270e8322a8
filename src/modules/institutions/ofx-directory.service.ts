/**
 * Real institutions that answer OFX Direct Connect, from the directory that ships with Ledgerlink
 * (assets/ofx-institutions.json: community data first collected by ofxhome.com, MIT licensed, see
 * assets/ofx-institutions.LICENSE), and the ones an operator adds. Each becomes a catalogue institution served by
 * the OFX connector, with its server in `ofx_servers`.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ServiceError } from '../../contract/errors/service-error.js';
import { ofx } from '../../connectors/ofx/index.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { type PolicyMode, serverUrlProblem } from '../../platform/net/outbound.js';
import { hasDirectoryServers, insertOfxServers, upsertOfxServer } from './ofx-directory.repository.js';
import { bumpCatalogVersion, enableTransactionAggregation, insertInstitutionRows, listInstitutionNames, maxInstitutionIdFrom } from './repository.js';
import { foldText } from './search-index.js';
import { sourceInstitutionRow, sourceProductFlags } from './sources.service.js';
import type { InstitutionTable, OfxServerTable } from './table.js';

/** Directory institutions get this plus their directory number as id: stable across releases and installations. */
export const OFX_DIRECTORY_ID_BASE = 600_000;
/** Institutions an operator adds get the next id from here. */
export const OFX_OPERATOR_ID_BASE = 700_000;

interface DirectoryEntry {
  name: string;
  url: string;
  fid: string;
  org: string;
  brokerid?: string;
  ofxhome_id: string;
  profile?: Record<string, string | undefined>;
}

const DIRECTORY_FILE = fileURLToPath(new URL('../../../assets/ofx-institutions.json', import.meta.url));

/** The directory's entries. Read when needed: a process reads it once per database it seeds. */
export function readOfxDirectory(file = DIRECTORY_FILE): DirectoryEntry[] {
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { institutions: DirectoryEntry[] };
  return parsed.institutions;
}

function countryOf(value: string | undefined): 'USA' | 'CAN' {
  const v = (value ?? '').trim().toUpperCase();
  return v === 'CAN' || v === 'CA' || v === 'CANADA' ? 'CAN' : 'USA';
}

function homeOf(entry: DirectoryEntry): string {
  const url = entry.profile?.url?.trim();
  if (url && /^https?:\/\//i.test(url)) return url;
  return `https://${new URL(entry.url).hostname}`;
}

/** A catalogue row for an OFX institution the catalogue did not have yet. */
export function ofxInstitutionRow(id: number, name: string, home: string, profile: Record<string, string | undefined>, version: number): InstitutionTable {
  const signInHelp = `Please enter the User ID and Password you use for ${name} in Quicken or another personal finance program (OFX Direct Connect).`;
  return sourceInstitutionRow(
    { id, name, homeUrl: home, signInHelp },
    version,
    {
      phone: (profile.csphone ?? profile.tsphone ?? '').trim(),
      email: (profile.email ?? '').trim(),
      addressLine1: (profile.addr1 ?? '').trim(),
      addressLine2: (profile.addr2 ?? '').trim(),
      city: (profile.city ?? '').trim(),
      state: (profile.state ?? '').trim(),
      postalCode: (profile.postalcode ?? '').trim(),
      country: countryOf(profile.country),
    },
    ofx.products,
  );
}

/** Ids of catalogue institutions by folded name, for merging an OFX institution into one already there. */
async function idsByName(db: Executor, names: string[]): Promise<Map<string, number>> {
  const wanted = new Set(names.map(foldText));
  const rows = await listInstitutionNames(db);
  const out = new Map<string, number>();
  for (const r of rows) {
    const key = foldText(r.name);
    if (wanted.has(key) && !out.has(key)) out.set(key, Number(r.id));
  }
  return out;
}

/**
 * Loads the directory into the catalogue once per database (later calls find it there and do nothing): a new
 * institution for each entry, or, where the catalogue already has an institution of that name, its OFX server
 * on that institution (which then offers transaction aggregation). One transaction; safe when several processes
 * start at once.
 */
export async function ensureOfxDirectory(database: Database, entries: () => DirectoryEntry[] = readOfxDirectory): Promise<void> {
  if (await hasDirectoryServers(database.kysely)) return;
  const list = entries();
  try {
    await database.kysely.transaction().execute(async (tx) => {
      if (await hasDirectoryServers(tx)) return;
      const version = await bumpCatalogVersion(tx);
      const existing = await idsByName(
        tx,
        list.map((e) => e.name),
      );
      const servers: OfxServerTable[] = [];
      const rows: InstitutionTable[] = [];
      const merged: number[] = [];
      for (const e of list) {
        const known = existing.get(foldText(e.name));
        const id = known ?? OFX_DIRECTORY_ID_BASE + Number(e.ofxhome_id);
        if (known === undefined) rows.push(ofxInstitutionRow(id, e.name.trim(), homeOf(e), e.profile ?? {}, version));
        else merged.push(known);
        servers.push({
          institution_id: id,
          url: e.url,
          fid: e.fid ?? '',
          org: e.org ?? '',
          broker_id: e.brokerid ?? null,
          app_id: null,
          app_ver: null,
          ofx_version: null,
          source: 'directory',
          updated_at: null,
        });
      }
      await insertInstitutionRows(tx, rows);
      await enableTransactionAggregation(tx, merged, version, sourceProductFlags(ofx.products));
      await insertOfxServers(tx, servers);
    });
  } catch (e) {
    // Another process loaded it first.
    if (await hasDirectoryServers(database.kysely)) return;
    throw e;
  }
}

export interface OfxInstitutionInput {
  name: string;
  url: string;
  fid: string;
  org: string;
  brokerId?: string | undefined;
  appId?: string | undefined;
  appVer?: string | undefined;
  ofxVersion?: number | undefined;
}

/**
 * Why an OFX server URL is refused, or undefined. It is the check the connectors' transport makes before it connects
 * (serverUrlProblem: https only in production mode; in sandbox mode plain http too, for a test server, to any host the
 * outbound target policy allows there), so a stored server is one the connector may call; the transport checks the
 * address a name resolves to again when it connects. Credentials have no place in the URL (OFX signs on in the body).
 */
export function ofxUrlProblem(value: string, mode: PolicyMode): string | undefined {
  if (!URL.canParse(value)) return `"${value}" is not a URL`;
  const url = new URL(value);
  if (url.username || url.password) return 'the URL may not carry a user name or password';
  return serverUrlProblem(url, mode);
}

/**
 * Adds an OFX institution, or overrides the server of the institution of that name: an operator's entry wins
 * over the directory's. Returns the institution id. (service.ts's addOfxInstitution also refreshes this process's
 * catalogue.)
 */
export async function insertOfxInstitution(database: Database, mode: 'sandbox' | 'production', input: OfxInstitutionInput, now: number): Promise<number> {
  const name = input.name.trim();
  if (!name) throw new ServiceError('MissingParameter', 'Missing parameter (name)');
  for (const [field, value] of [
    ['fid', input.fid],
    ['org', input.org],
  ] as const)
    if (!value.trim()) throw new ServiceError('MissingParameter', `Missing parameter (${field})`);
  const problem = ofxUrlProblem(input.url, mode);
  if (problem) throw new ServiceError('InvalidParameter', `Invalid parameter (url): ${problem}`);
  if (input.ofxVersion !== undefined && ![102, 103, 151, 160, 200, 201, 202, 203, 210, 211, 220].includes(input.ofxVersion))
    throw new ServiceError('InvalidParameter', `Invalid parameter (ofxVersion): ${input.ofxVersion} is not an OFX version (102, 103, 151, 160, 200-220)`);
  const id = await database.kysely.transaction().execute(async (tx) => {
    const version = await bumpCatalogVersion(tx);
    const known = (await idsByName(tx, [name])).get(foldText(name));
    let id = known;
    if (id === undefined) {
      id = Math.max(OFX_OPERATOR_ID_BASE, ((await maxInstitutionIdFrom(tx, OFX_OPERATOR_ID_BASE)) ?? OFX_OPERATOR_ID_BASE - 1) + 1);
      await insertInstitutionRows(tx, [ofxInstitutionRow(id, name, `https://${new URL(input.url).hostname}`, {}, version)]);
    } else {
      await enableTransactionAggregation(tx, [id], version, sourceProductFlags(ofx.products));
    }
    const server: OfxServerTable = {
      institution_id: id,
      url: input.url,
      fid: input.fid.trim(),
      org: input.org.trim(),
      broker_id: input.brokerId?.trim() || null,
      app_id: input.appId?.trim() || null,
      app_ver: input.appVer?.trim() || null,
      ofx_version: input.ofxVersion ?? null,
      source: 'operator',
      updated_at: now,
    };
    await upsertOfxServer(tx, server);
    return id;
  });
  return id;
}
