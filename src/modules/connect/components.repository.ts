/** Connect Components' queries: the partners' configurations (connect_component_configurations). */
import type { Executor } from '../../platform/db/database.js';
import type { ConnectComponentConfigurationRow } from './table.js';

export async function insertConfigurationRow(db: Executor, row: ConnectComponentConfigurationRow): Promise<void> {
  await db.insertInto('connect_component_configurations').values(row).execute();
}

/** The partner's configuration with this id. */
export async function findConfigurationRow(db: Executor, partnerId: string, id: string): Promise<ConnectComponentConfigurationRow | undefined> {
  return db.selectFrom('connect_component_configurations').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

/** The partner's configurations, oldest first. */
export async function listConfigurationRows(db: Executor, partnerId: string): Promise<ConnectComponentConfigurationRow[]> {
  return db.selectFrom('connect_component_configurations').selectAll().where('partner_id', '=', partnerId).orderBy('created_at').orderBy('id').execute();
}

/** Deletes the partner's configuration; false when it has none of this id. */
export async function deleteConfigurationRow(db: Executor, partnerId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('connect_component_configurations').where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
