import type { Executor } from '../../db/database.js';
import type { InstitutionRow, InstitutionTable } from './table.js';

export async function loadAllInstitutions(db: Executor): Promise<InstitutionRow[]> {
  return db.selectFrom('institutions').selectAll().execute();
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

export async function updateInstitutionRow(db: Executor, id: number, changes: Partial<Omit<InstitutionTable, 'id' | 'changed_version'>>, version: number): Promise<boolean> {
  const result = await db.updateTable('institutions').set({ ...changes, changed_version: version }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
