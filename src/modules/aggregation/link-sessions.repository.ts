import type { Executor } from '../../platform/db/database.js';
import type { LinkSessionRow, LinkSessionUpdate } from './table.js';

export async function insertLinkSession(db: Executor, row: LinkSessionRow): Promise<void> {
  await db.insertInto('link_sessions').values(row).execute();
}

export async function updateLinkSession(db: Executor, id: string, changes: LinkSessionUpdate): Promise<void> {
  await db.updateTable('link_sessions').set(changes).where('id', '=', id).execute();
}

/** The partner's sign-in session with this id. */
export async function findLinkSession(db: Executor, id: string, partnerId: string): Promise<LinkSessionRow | undefined> {
  return db.selectFrom('link_sessions').selectAll().where('id', '=', id).where('partner_id', '=', partnerId).executeTakeFirst();
}

/** The sign-in session with this id while it is at the OAuth step. */
export async function findOAuthLinkSession(db: Executor, id: string): Promise<LinkSessionRow | undefined> {
  return db.selectFrom('link_sessions').selectAll().where('id', '=', id).where('step', '=', 'oauth').executeTakeFirst();
}

/** Moves a session from the accounts step to finished; false when it was not at the accounts step (any more). */
export async function claimLinkSession(db: Executor, id: string, now: number): Promise<boolean> {
  const claimed = await db
    .updateTable('link_sessions')
    .set({ step: 'finished', state_encrypted: null, updated_at: now })
    .where('id', '=', id)
    .where('step', '=', 'accounts')
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** Deletes the sessions that expired by `now`; returns how many went. */
export async function deleteExpiredLinkSessions(db: Executor, now: number): Promise<number> {
  const result = await db.deleteFrom('link_sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
