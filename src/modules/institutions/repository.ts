import { sql } from 'kysely';
import type { DialectName, Executor } from '../../platform/db/database.js';
import type { InstitutionRow, InstitutionTable } from './table.js';

/** Rows per page of forEachInstitutionPage: a few hundred kilobytes of row objects at a time. */
const LOAD_PAGE_ROWS = 1000;

/**
 * Every institution in id order, handed to `visit` a page at a time (keyset paging on the primary key), so that a
 * reader who keeps the rows compactly never holds all 11,631 row objects at once.
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

/** Whether the catalogue has any institution yet. */
export async function hasInstitutions(db: Executor): Promise<boolean> {
  return (await db.selectFrom('institutions').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function institutionExists(db: Executor, id: number): Promise<boolean> {
  return (await db.selectFrom('institutions').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Every institution's id and name. */
export async function listInstitutionNames(db: Executor): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('institutions').select(['id', 'name']).execute();
}

/** The highest institution id from `from` up, if there is one. */
export async function maxInstitutionIdFrom(db: Executor, from: number): Promise<number | undefined> {
  const top = await db
    .selectFrom('institutions')
    .select((eb) => eb.fn.max('id').as('max'))
    .where('id', '>=', from)
    .executeTakeFirst();
  return top?.max === null || top?.max === undefined ? undefined : Number(top.max);
}

/** SQLite rows per insert: 52 columns x 500 rows stays under its 32766 bound parameters. */
const SQLITE_CATALOG_BATCH = 500;
/** PostgreSQL rows per insert: one JSON parameter of a few megabytes each. */
const POSTGRES_CATALOG_BATCH = 2500;

/** Inserts the generated catalogue, skipping ids already there, in statements of the database's dialect. */
export async function insertCatalogRows(tx: Executor, dialect: DialectName, rows: readonly InstitutionTable[]): Promise<void> {
  if (dialect === 'postgres') {
    // One JSON document per batch, spread over the columns by name: much faster than bound VALUES lists.
    for (let i = 0; i < rows.length; i += POSTGRES_CATALOG_BATCH) {
      const batch = JSON.stringify(rows.slice(i, i + POSTGRES_CATALOG_BATCH));
      await sql`insert into institutions select * from json_populate_recordset(null::institutions, ${batch}::json) on conflict (id) do nothing`.execute(tx);
    }
    return;
  }
  for (let i = 0; i < rows.length; i += SQLITE_CATALOG_BATCH) {
    await tx
      .insertInto('institutions')
      .values(rows.slice(i, i + SQLITE_CATALOG_BATCH))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
}

/** Rows per statement of the batched writes below. */
const BATCH = 200;

/** Inserts institutions, a batch per statement. */
export async function insertInstitutionRows(db: Executor, rows: readonly InstitutionTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH)
    await db
      .insertInto('institutions')
      .values(rows.slice(i, i + BATCH))
      .execute();
}

/** Inserts an institution unless one with its id exists. */
export async function insertInstitutionRowIfAbsent(db: Executor, row: InstitutionTable): Promise<void> {
  await db
    .insertInto('institutions')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Marks these institutions as offering transaction aggregation and the products `flags` set, changed in catalogue `version`. */
export async function enableTransactionAggregation(
  db: Executor,
  ids: readonly number[],
  version: number,
  flags: Partial<Pick<InstitutionTable, 'ach' | 'aha' | 'avail_balance' | 'account_owner' | 'loan_payment_details' | 'ps_ach' | 'ps_aha'>> = {},
): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH)
    await db
      .updateTable('institutions')
      .set({ ...flags, trans_agg: 1, changed_version: version })
      .where('id', 'in', ids.slice(i, i + BATCH))
      .execute();
}
