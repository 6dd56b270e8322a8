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

/**
 * Polled listeners: `ledgerlink listen` in client mode, which reaches the service over HTTP but may not be reachable
 * from it (another host, a container). Its registration's URL is `listen://ID`; the copies queued to it are never
 * sent by a worker (claimDueDeliveries leaves them) but held until the listener takes them through the service
 * (claimDueDeliveries with its target) and reports what became of each (recordPolledOutcome).
 */
export const POLLED_LISTENER_PREFIX = 'listen://';

/** How long a polled listener holds a delivery it took before it may be taken again (it forwards within 10 s). */
export const POLLED_CLAIM_SECONDS = 60;

export interface PolledListener {
  id: number;
  partnerId: string;
  /** `listen://ID`: the target its copies carry. */
  target: string;
  expiresAt: number;
}

function polledListener(row: { id: number; partner_id: string; url: string; expires_at: number }): PolledListener {
  return { id: Number(row.id), partnerId: row.partner_id, target: row.url, expiresAt: Number(row.expires_at) };
}

/**
 * Cancels the open copies held for polled listeners that are gone (removed, or lapsed without renewal) and deletes
 * lapsed registrations; returns how many copies. Such copies would otherwise stay pending, since no worker sends them.
 */
export async function retireLapsedListeners(db: Executor, now: number): Promise<number> {
  const live = db.selectFrom('sandbox_listeners').select('url').where('expires_at', '>', now);
  const result = await db
    .updateTable('deliveries')
    .set({ status: 'cancelled', cancelled_at: now, locked_by: null, locked_until: null, last_error: 'the ledgerlink listen it was held for stopped' })
    .where('target', 'like', `${POLLED_LISTENER_PREFIX}%`)
    .where('status', 'in', ['pending', 'delivering'])
    .where('target', 'not in', live)
    .executeTakeFirst();
  await db.deleteFrom('sandbox_listeners').where('expires_at', '<=', now).execute();
  return Number(result.numUpdatedRows);
}

/** Registers a polled listener for the partner. The caller checks the partner may use the sandbox. */
export async function registerPolledListener(db: Executor, partnerId: string, now: number): Promise<PolledListener> {
  await retireLapsedListeners(db, now);
  // Not live (expires now) until it has its target, so no copy goes to a half-made registration.
  const { id } = await db
    .insertInto('sandbox_listeners')
    .values({ partner_id: partnerId, url: POLLED_LISTENER_PREFIX, created_at: now, expires_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const url = `${POLLED_LISTENER_PREFIX}${Number(id)}`;
  await db
    .updateTable('sandbox_listeners')
    .set({ url, expires_at: now + LISTENER_LEASE_SECONDS })
    .where('id', '=', Number(id))
    .execute();
  return { id: Number(id), partnerId, target: url, expiresAt: now + LISTENER_LEASE_SECONDS };
}

/** Renews the partner's live polled listener; undefined when there is none of that id (another partner's included). */
export async function renewPolledListener(db: Executor, id: number, partnerId: string, now: number): Promise<PolledListener | undefined> {
  const row = await db
    .updateTable('sandbox_listeners')
    .set({ expires_at: now + LISTENER_LEASE_SECONDS })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .where('url', '=', `${POLLED_LISTENER_PREFIX}${id}`)
    .where('expires_at', '>', now)
    .returning(['id', 'partner_id', 'url', 'expires_at'])
    .executeTakeFirst();
  return row ? polledListener(row) : undefined;
}

/** Removes the partner's polled listener and cancels what was held for it; false when there is none of that id. */
export async function removePolledListener(db: Executor, id: number, partnerId: string, now: number): Promise<boolean> {
  const target = `${POLLED_LISTENER_PREFIX}${id}`;
  const result = await db.deleteFrom('sandbox_listeners').where('id', '=', id).where('partner_id', '=', partnerId).where('url', '=', target).executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) return false;
  await db
    .updateTable('deliveries')
    .set({ status: 'cancelled', cancelled_at: now, locked_by: null, locked_until: null, last_error: 'the ledgerlink listen it was held for stopped' })
    .where('target', '=', target)
    .where('partner_id', '=', partnerId)
    .where('status', 'in', ['pending', 'delivering'])
    .execute();
  return true;
}
