import type { Database } from '../../db/database.js';
import { ServiceError } from '../../errors/service-error.js';
import * as repo from './repository.js';
import { ensureInstitutionCatalog } from './seed.js';
import { SearchIndex, foldText } from './search-index.js';
import type { InstitutionRow, InstitutionTable } from './table.js';

/**
 * The institution catalogue as one process sees it: every row, most popular first, plus the search index.
 *
 * Rows are read from the database into memory once and searched there, so a search costs microseconds instead of
 * a round trip. Product flags and statuses do change, so copies are kept fresh by the `institution_catalog`
 * version counter, which every change moves on in the same transaction, and by each row's `changed_version`:
 *   - changes made through `updateInstitution` in this process are visible when it returns;
 *   - changes made by another process sharing the database are picked up within CATALOG_RECHECK_MS: a request
 *     that finds the copy older than that reads the counter (one primary-key lookup) and, when it moved, reads
 *     just the rows changed since.
 * The search index depends only on names, web addresses and popularity; it is rebuilt only when one of those
 * changed. The first use on a database loads the catalogue into it if nobody has yet (see seed.ts).
 */
export const CATALOG_RECHECK_MS = 1000;

export class CatalogSnapshot {
  private readonly positions: Map<number, number>;

  constructor(
    readonly version: number,
    /** Every institution, in search order: popularity, then name, then id. */
    readonly rows: readonly InstitutionRow[],
    readonly index: SearchIndex,
  ) {
    this.positions = new Map(rows.map((r, i) => [r.id, i]));
  }

  byId(id: number): InstitutionRow | undefined {
    const i = this.positions.get(id);
    return i === undefined ? undefined : this.rows[i];
  }

  positionOf(id: number): number | undefined {
    return this.positions.get(id);
  }
}

/** Most popular first, then by name (case and accents ignored), then by id. */
function sortForSearch(rows: readonly InstitutionRow[]): InstitutionRow[] {
  const keyed = rows.map((row) => ({ row, name: foldText(row.name) }));
  keyed.sort((a, b) => b.row.search_rank - a.row.search_rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.row.id - b.row.id));
  return keyed.map((k) => k.row);
}

const indexedFields = (r: InstitutionRow) => `${r.name}\n${r.url_home_app}\n${r.url_logon_app}\n${r.search_rank}`;

function sameIndexedFields(a: readonly InstitutionRow[], b: readonly InstitutionRow[]): boolean {
  return a.length === b.length && a.every((row, i) => row.id === b[i]!.id && indexedFields(row) === indexedFields(b[i]!));
}

/** A snapshot of these rows, reusing the previous one's search index when nothing it depends on changed. */
function buildSnapshot(version: number, rows: readonly InstitutionRow[], previous: CatalogSnapshot | undefined): CatalogSnapshot {
  const sorted = sortForSearch(rows);
  const index = previous && sameIndexedFields(previous.rows, sorted)
    ? previous.index
    : new SearchIndex(sorted.map((r) => ({ name: r.name, urlHomeApp: r.url_home_app, urlLogonApp: r.url_logon_app })));
  return new CatalogSnapshot(version, sorted, index);
}

/** The snapshot with some rows replaced or added; search order and index are redone only if they must be. */
function patchSnapshot(current: CatalogSnapshot, version: number, changed: readonly InstitutionRow[]): CatalogSnapshot {
  const rows = [...current.rows];
  let reorder = false;
  for (const row of changed) {
    const at = current.positionOf(row.id);
    if (at === undefined) {
      rows.push(row);
      reorder = true;
    } else {
      reorder ||= indexedFields(rows[at]!) !== indexedFields(row);
      rows[at] = row;
    }
  }
  return reorder ? buildSnapshot(version, rows, current) : new CatalogSnapshot(version, rows, current.index);
}

interface Holder {
  snapshot: CatalogSnapshot | undefined;
  /** performance.now() of the last version check. */
  checkedAt: number;
  pending: Promise<CatalogSnapshot> | undefined;
}

const holders = new WeakMap<Database, Holder>();

function holderOf(database: Database): Holder {
  let holder = holders.get(database);
  if (!holder) {
    holder = { snapshot: undefined, checkedAt: 0, pending: undefined };
    holders.set(database, holder);
  }
  return holder;
}

async function refresh(database: Database, current: CatalogSnapshot | undefined): Promise<CatalogSnapshot> {
  if (!current) await ensureInstitutionCatalog(database);
  // The version is read before the rows: rows changed after it are re-read next time, none is missed.
  const version = await repo.readCatalogVersion(database.kysely);
  if (!current) return buildSnapshot(version, await repo.loadAllInstitutions(database.kysely), undefined);
  if (version === current.version) return current;
  return patchSnapshot(current, version, await repo.loadInstitutionsChangedSince(database.kysely, current.version));
}

/** The current catalogue of a database (loaded on first use, then kept fresh as described above). */
export async function catalogOf(database: Database): Promise<CatalogSnapshot> {
  const holder = holderOf(database);
  const age = performance.now() - holder.checkedAt;
  if (holder.snapshot && age >= 0 && age < CATALOG_RECHECK_MS) return holder.snapshot;
  holder.pending ??= refresh(database, holder.snapshot)
    .then((snapshot) => {
      holder.snapshot = snapshot;
      holder.checkedAt = performance.now();
      return snapshot;
    })
    .finally(() => {
      holder.pending = undefined;
    });
  return holder.pending;
}

export type InstitutionChanges = Partial<Omit<InstitutionTable, 'id' | 'changed_version'>>;

/**
 * Changes one institution (e.g. its product flags or production status) and makes every process see it:
 * this one when the call returns, others within CATALOG_RECHECK_MS. Throws InstitutionNotFound for an unknown id.
 */
export async function updateInstitution(database: Database, id: number, changes: InstitutionChanges): Promise<InstitutionRow> {
  await catalogOf(database);
  const row = await database.kysely.transaction().execute(async (tx) => {
    const version = await repo.bumpCatalogVersion(tx);
    if (!(await repo.updateInstitutionRow(tx, id, changes, version))) throw new ServiceError('InstitutionNotFound');
    return (await repo.findInstitutionRow(tx, id))!;
  });
  const holder = holderOf(database);
  await holder.pending?.catch(() => undefined);
  holder.checkedAt = Number.NEGATIVE_INFINITY;
  await catalogOf(database);
  return row;
}
