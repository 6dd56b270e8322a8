/**
 * Registered sandbox listeners, an outbox table (`ledgerlink listen --partner`): while one is registered, every TxPUSH notification
 * and Connect webhook queued for the partner is also queued, with the same event id, body, headers and signing
 * secret, to the listener, so a developer sees the partner's deliveries without changing any subscription or link.
 * A registration lasts LISTENER_LEASE_SECONDS and is renewed while the listener runs, so one that died lapses.
 */
import type { Executor } from '../platform/db/database.js';

export const LISTENER_LEASE_SECONDS = 60;

/** Registers a listener URL for the partner; returns its id. The caller checks the partner may use the sandbox. */
export async function registerSandboxListener(db: Executor, partnerId: string, url: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('sandbox_listeners')
    .values({ partner_id: partnerId, url, created_at: now, expires_at: now + LISTENER_LEASE_SECONDS })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

/** Renews a registration; false when it is gone (removed, or its partner was). */
export async function renewSandboxListener(db: Executor, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sandbox_listeners')
    .set({ expires_at: now + LISTENER_LEASE_SECONDS })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function removeSandboxListener(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('sandbox_listeners').where('id', '=', id).execute();
}

/** The URLs of the partner's live registrations (what enqueueing copies a delivery to). */
export async function sandboxListenerUrls(db: Executor, partnerId: string, now: number): Promise<string[]> {
  const rows = await db.selectFrom('sandbox_listeners').select('url').where('partner_id', '=', partnerId).where('expires_at', '>', now).orderBy('id').execute();
  return [...new Set(rows.map((r) => r.url))];
}
