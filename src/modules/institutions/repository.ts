import type { Executor } from '../../platform/db/database.js';
import type { InstitutionRow, InstitutionTable } from './table.js';

/** Rows per page of forEachInstitutionPage: a few hundred kilobytes of row objects at a time. */
const LOAD_PAGE_ROWS = 1000;

/**
 * Every institution in id order, handed to `visit` a page at a time (keyset paging on the primary key), so that a
 * reader who keeps the rows compactly never holds all 10,578 row objects at once.
 */
export async function forEachInstitutionPage(db: Executor, visit: (rows: InstitutionRow[]) => void): Promise<void> {
  for (let after: number | undefined; ; ) {
    let query = db.selectFrom('institutions').selectAll().orderBy('id').limit(LOAD_PAGE_ROWS);
    if (after !== undefined) query = query.where('id', '>', after);
    const rows = await query.execute();
    if (rows.length) visit(rows);
    if (rows.length < LOAD_PAGE_ROWS) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** The rows changed by catalogue versions after `version`. */
export async function loadInstitutionsChangedSince(db: Executor, version: number): Promise<InstitutionRow[]> {
  return db.selectFrom('institutions').selectAll().where('changed_version', '>', version).execute();
}

export async function findInstitutionRow(db: Executor, id: number): Promise<InstitutionRow | undefined> {
  return db.selectFrom('institutions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function readCatalogVersion(db: Executor): Promise<number> {
  const row = await db.selectFrom('institution_catalog').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.version);
}

/** Moves the catalogue version on; call in the transaction that changed institutions. Returns the new version. */
export async function bumpCatalogVersion(db: Executor): Promise<number> {
  const row = await db
    .updateTable('institution_catalog')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

export async function updateInstitutionRow(
  db: Executor,
  id: number,
  changes: Partial<Omit<InstitutionTable, 'id' | 'changed_version'>>,
  version: number,
): Promise<boolean> {
  const result = await db
    .updateTable('institutions')
    .set({ ...changes, changed_version: version })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
