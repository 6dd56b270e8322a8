/** The Connect module's queries: links (connect_links) and experiences (connect_experiences). */
import type { Executor } from '../../platform/db/database.js';
import type { ConnectExperienceRow, ConnectLinkRow } from './table.js';

export async function insertLinkRow(db: Executor, row: ConnectLinkRow): Promise<void> {
  await db.insertInto('connect_links').values(row).execute();
}

/** The partner's link with this id, as stored (PostgreSQL answers its bigint columns as strings). */
export async function findLinkRow(db: Executor, id: string, partnerId: string): Promise<ConnectLinkRow | undefined> {
  return db.selectFrom('connect_links').selectAll().where('id', '=', id).where('partner_id', '=', partnerId).executeTakeFirst();
}

/** Sets used_at on a link not used yet; false when it already was. */
export async function setLinkUsed(db: Executor, id: string, usedAt: number): Promise<boolean> {
  const result = await db.updateTable('connect_links').set({ used_at: usedAt }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The institution a sign-in session (link_sessions) is at; undefined when there is no such session. */
export async function findSessionInstitutionId(db: Executor, sessionId: string): Promise<number | undefined> {
  const row = await db.selectFrom('link_sessions').select('institution_id').where('id', '=', sessionId).executeTakeFirst();
  return row?.institution_id;
}

export async function findExperienceRow(db: Executor, partnerId: string, name: string): Promise<ConnectExperienceRow | undefined> {
  return db.selectFrom('connect_experiences').selectAll().where('partner_id', '=', partnerId).where('name', '=', name).executeTakeFirst();
}

/** The partner's experiences, by name. */
export async function listExperienceRows(db: Executor, partnerId: string): Promise<ConnectExperienceRow[]> {
  return db.selectFrom('connect_experiences').selectAll().where('partner_id', '=', partnerId).orderBy('name').execute();
}

/** Creates an experience, or replaces the look of the one of that name. */
export async function upsertExperienceRow(
  db: Executor,
  row: Pick<ConnectExperienceRow, 'partner_id' | 'name' | 'app_name' | 'logo_url' | 'primary_color' | 'updated_at'>,
  createdAt: number,
): Promise<void> {
  const { partner_id, name, ...values } = row;
  await db
    .insertInto('connect_experiences')
    .values({ partner_id, name, ...values, created_at: createdAt })
    .onConflict((oc) => oc.columns(['partner_id', 'name']).doUpdateSet(values))
    .execute();
}

/** The partner's name (the application name of a `default` experience never saved). */
export async function findPartnerName(db: Executor, partnerId: string): Promise<string | undefined> {
  const partner = await db.selectFrom('partners').select('name').where('id', '=', partnerId).executeTakeFirst();
  return partner?.name;
}
