import type { Database } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import * as repo from './repository.js';
import { ensureInstitutionCatalog } from './seed.service.js';
import { type RowTable, RowTableBuilder } from './row-table.js';
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
 * changed. The first use on a database loads the catalogue into it if nobody has yet (see seed.service.ts).
 */
export const CATALOG_RECHECK_MS = 1000;

/**
 * One version of the catalogue: every institution in search order (popularity, then name, then id), held
 * compactly (see row-table.ts), and the search index over the same positions. Row objects are made only for the
 * rows asked for.
 */
export class CatalogSnapshot {
  /** Positions ordered by id, and their ids, for lookups by id without a map of some 11,600 entries. */
  private readonly byIdPositions: Int32Array;
  private readonly sortedIds: Float64Array;

  constructor(
    readonly version: number,
    readonly table: RowTable,
    readonly index: SearchIndex,
  ) {
    const id = table.reader('id');
    this.byIdPositions = Int32Array.from({ length: table.size }, (_, i) => i).sort((a, b) => id(a) - id(b));
    this.sortedIds = Float64Array.from(this.byIdPositions, (p) => id(p));
  }

  /** How many institutions there are. */
  get size(): number {
    return this.table.size;
  }

  /** The institution at a search position, as a new row object. */
  row(position: number): InstitutionRow {
    return this.table.row(position);
  }

  byId(id: number): InstitutionRow | undefined {
    const at = this.positionOf(id);
    return at === undefined ? undefined : this.table.row(at);
  }

  positionOf(id: number): number | undefined {
    const ids = this.sortedIds;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    return ids[lo] === id ? this.byIdPositions[lo] : undefined;
  }
}

/** The order to finish collected rows in for search: most popular first, then by name (case and accents ignored), then by id. */
function searchOrder(rows: RowTableBuilder): Int32Array {
  const names = Array.from({ length: rows.size }, (_, i) => foldText(rows.value(i, 'name')));
  const rank = (i: number) => rows.value(i, 'search_rank');
  const id = (i: number) => rows.value(i, 'id');
  return Int32Array.from({ length: rows.size }, (_, i) => i).sort(
    (a, b) => rank(b) - rank(a) || (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : id(a) - id(b)),
  );
}

/** What the search index depends on, per position. */
function indexedFields(table: RowTable): (position: number) => string {
  const [name, home, logon, rank] = [table.reader('name'), table.reader('url_home_app'), table.reader('url_logon_app'), table.reader('search_rank')];
  return (p) => `${name(p)}\n${home(p)}\n${logon(p)}\n${rank(p)}`;
}

function sameIndexedFields(a: RowTable, b: RowTable): boolean {
  if (a.size !== b.size) return false;
  const [idA, idB, fieldsA, fieldsB] = [a.reader('id'), b.reader('id'), indexedFields(a), indexedFields(b)];
  for (let p = 0; p < a.size; p++) if (idA(p) !== idB(p) || fieldsA(p) !== fieldsB(p)) return false;
  return true;
}

function searchIndexOf(table: RowTable): SearchIndex {
  const [name, home, logon] = [table.reader('name'), table.reader('url_home_app'), table.reader('url_logon_app')];
  return new SearchIndex(Array.from({ length: table.size }, (_, p) => ({ name: name(p), urlHomeApp: home(p), urlLogonApp: logon(p) })));
}

/**
 * The search index this process built last, for whichever database: a process that opens several stores with the
 * same catalogue (the CLI's commands, a test per store) builds it once. A process with one store holds nothing more.
 */
let lastBuilt: { table: RowTable; index: SearchIndex } | undefined;

/** A snapshot of the collected rows, reusing a search index when nothing it depends on changed. */
function buildSnapshot(version: number, rows: RowTableBuilder, previous: CatalogSnapshot | undefined): CatalogSnapshot {
  const table = rows.finish(searchOrder(rows));
  // With one store the last index built is the previous snapshot's: compared once, not twice.
  const candidates = lastBuilt?.table === previous?.table ? [previous] : [previous, lastBuilt];
  const reusable = candidates.find((built) => built !== undefined && sameIndexedFields(built.table, table));
  const index = reusable?.index ?? searchIndexOf(table);
  lastBuilt = { table, index };
  return new CatalogSnapshot(version, table, index);
}

/**
 * The snapshot with some rows replaced or added. Changes are rare (product flags, statuses), so the table is
 * simply collected again, which also drops values no row uses any more; the index is rebuilt only if it must be.
 */
function patchSnapshot(current: CatalogSnapshot, version: number, changed: readonly InstitutionRow[]): CatalogSnapshot {
  const replaced = new Map(changed.map((row) => [row.id, row]));
  const rows = new RowTableBuilder();
  for (let p = 0; p < current.size; p++) {
    const row = current.row(p);
    rows.add(replaced.get(row.id) ?? row);
    replaced.delete(row.id);
  }
  for (const row of replaced.values()) rows.add(row);
  return buildSnapshot(version, rows, current);
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

/** Every institution, read a page at a time so that only one page of row objects exists at once. */
async function loadRows(database: Database): Promise<RowTableBuilder> {
  const rows = new RowTableBuilder();
  await repo.forEachInstitutionPage(database.kysely, (page) => page.forEach((row) => rows.add(row)));
  return rows;
}

async function refresh(database: Database, current: CatalogSnapshot | undefined): Promise<CatalogSnapshot> {
  if (!current) await ensureInstitutionCatalog(database);
  // The version is read before the rows: rows changed after it are re-read next time, none is missed.
  const version = await repo.readCatalogVersion(database.kysely);
  if (!current) return buildSnapshot(version, await loadRows(database), undefined);
  if (version === current.version) return current;
  return patchSnapshot(current, version, await repo.loadInstitutionsChangedSince(database.kysely, current.version));
}

/**
 * The current catalogue of a database (loaded on first use, then kept fresh as described above): at once while
 * the one in memory is fresh, else a promise.
 */
export function catalogOf(database: Database): CatalogSnapshot | Promise<CatalogSnapshot> {
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

/** Makes this process see a change to the catalogue written outside updateInstitution at once. */
export async function catalogChanged(database: Database): Promise<void> {
  const holder = holderOf(database);
  await holder.pending?.catch(() => undefined);
  holder.checkedAt = Number.NEGATIVE_INFINITY;
  await catalogOf(database);
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
