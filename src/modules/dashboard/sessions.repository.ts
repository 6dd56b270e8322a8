import type { Executor } from '../../platform/db/database.js';
import type { DashboardSessionRow, DashboardSessionTable } from './table.js';

export async function insertSession(db: Executor, row: DashboardSessionTable): Promise<void> {
  await db.insertInto('dashboard_sessions').values(row).execute();
}

/** The session whose id hashes to `idHash`. */
export async function findSessionByHash(db: Executor, idHash: string): Promise<DashboardSessionRow | undefined> {
  return db.selectFrom('dashboard_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

export async function deleteSessionByHash(db: Executor, idHash: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
}

/** Deletes the sessions that expired by `now` (an indexed range). */
export async function deleteExpiredSessions(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).execute();
}

/** Deletes every session of the partner but the one whose id hashes to `keepIdHash`. */
export async function deleteOtherSessions(db: Executor, partnerId: string, keepIdHash: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('partner_id', '=', partnerId).where('id_hash', '!=', keepIdHash).execute();
}
