/** SQL of the institutions sources list themselves (listed.service.ts). */
import type { Executor } from '../../platform/db/database.js';
import type { ListedInstitutionTable } from './table.js';

export async function selectListedOfSource(db: Executor, source: string): Promise<ListedInstitutionTable[]> {
  return db.selectFrom('listed_institutions').selectAll().where('source', '=', source).execute();
}

/** The source's JSON about reaching an institution while the source lists it. */
export async function findListedConnection(db: Executor, institutionId: number, source: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('listed_institutions')
    .select('connection')
    .where('institution_id', '=', institutionId)
    .where('source', '=', source)
    .where('listed', '=', 1)
    .executeTakeFirst();
  return row?.connection;
}

/** The highest id a source's institutions have, if any. */
export async function maxListedId(db: Executor, source: string): Promise<number | undefined> {
  const top = await db
    .selectFrom('listed_institutions')
    .select((eb) => eb.fn.max('institution_id').as('max'))
    .where('source', '=', source)
    .executeTakeFirst();
  return top?.max === null || top?.max === undefined ? undefined : Number(top.max);
}

export async function insertListed(db: Executor, row: ListedInstitutionTable): Promise<void> {
  await db.insertInto('listed_institutions').values(row).execute();
}

export async function updateListed(
  db: Executor,
  institutionId: number,
  changes: Partial<Pick<ListedInstitutionTable, 'connection' | 'logo_url' | 'listed' | 'synced_at'>>,
): Promise<void> {
  await db.updateTable('listed_institutions').set(changes).where('institution_id', '=', institutionId).execute();
}

/** The logo of a listed institution, if its source gave one. */
export async function findListedLogo(db: Executor, institutionId: number): Promise<string | undefined> {
  const row = await db.selectFrom('listed_institutions').select('logo_url').where('institution_id', '=', institutionId).executeTakeFirst();
  return row?.logo_url ?? undefined;
}
