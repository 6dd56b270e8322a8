/**
 * Registered sandbox listeners, an outbox table (`ledgerlink listen --partner`): while one is registered, every TxPUSH notification
 * and Connect webhook queued for the partner is also queued, with the same event id, body, headers and signing
 * secret, to the listener, so a developer sees the partner's deliveries without changing any subscription or link.
 * A registration lasts LISTENER_LEASE_SECONDS and is renewed while the listener runs, so one that died lapses.
 */
import { sql } from 'kysely';
import { ServiceError } from '../contract/errors/service-error.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { isPostgresExecutor } from './wake.js';

export const LISTENER_LEASE_SECONDS = 60;

/**
 * Live listeners a partner may have at once, of both kinds. Every push and webhook queued for the partner is copied
 * to each of them inside the transaction that queues it, so their number bounds the work one partner adds to every
 * write; a developer needs one or two.
 */
export const MAX_LIVE_LISTENERS = 5;

// Literal, so both databases can use the partial index deliveries_open_target (see claim.ts).
const OPEN = sql<boolean>`status in ('pending', 'delivering')`;

/**
 * 409 ListenerLimitReached when the partner already has MAX_LIVE_LISTENERS live listeners. Call it in the
 * transaction that registers one: on PostgreSQL it locks the partner's row, so concurrent registrations count one
 * after another (SQLite runs one write transaction at a time).
 */
async function assertRoomForListener(tx: Executor, partnerId: string, now: number): Promise<void> {
  if (isPostgresExecutor(tx)) await tx.selectFrom('partners').select('id').where('id', '=', partnerId).forNoKeyUpdate().execute();
  const { live } = await tx
    .selectFrom('sandbox_listeners')
    .select((eb) => eb.fn.countAll<number | string>().as('live'))
    .where('partner_id', '=', partnerId)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  if (Number(live) >= MAX_LIVE_LISTENERS)
    throw new ServiceError(
      'ListenerLimitReached',
      `Partner ${partnerId} already has ${MAX_LIVE_LISTENERS} live listeners, the most it may have: stop one, or wait until one that stopped lapses (${LISTENER_LEASE_SECONDS} seconds)`,
    );
}

/**
 * Registers a listener URL for the partner; returns its id. The caller checks the partner may use the sandbox.
 * 409 ListenerLimitReached beyond MAX_LIVE_LISTENERS.
 */
export async function registerSandboxListener(db: Executor, partnerId: string, url: string, now: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    await assertRoomForListener(tx, partnerId, now);
    const { id } = await tx
      .insertInto('sandbox_listeners')
      .values({ partner_id: partnerId, url, created_at: now, expires_at: now + LISTENER_LEASE_SECONDS })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(id);
  });
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

const STOPPED = 'the ledgerlink listen it was held for stopped';

/**
 * Cancels the open copies held for one polled listener (`listen://ID`) of the partner. Exported as a query so a test
 * can ask the planners: it walks deliveries_open_target, never the whole table.
 */
export function cancelHeldCopiesQuery(db: Executor, partnerId: string, target: string, now: number) {
  return db
    .updateTable('deliveries')
    .set({ status: 'cancelled', cancelled_at: now, locked_by: null, locked_until: null, last_error: STOPPED })
    .where('partner_id', '=', partnerId)
    .where('target', '=', target)
    .where(OPEN);
}

/**
 * Deletes lapsed registrations (of one partner, or of all) and cancels the open copies held for the polled ones among
 * them; returns how many copies. Such copies would otherwise stay pending, since no worker sends them. Each listener
 * goes in a transaction of its own: its copies are cancelled exactly when its registration is gone, and one renewed
 * meanwhile is left alone.
 */
export async function retireLapsedListeners(db: Executor, now: number, partnerId?: string): Promise<number> {
  let lapsed = db.selectFrom('sandbox_listeners').select(['id', 'partner_id', 'url']).where('expires_at', '<=', now);
  if (partnerId !== undefined) lapsed = lapsed.where('partner_id', '=', partnerId);
  let cancelled = 0;
  for (const listener of await lapsed.orderBy('id').execute()) {
    cancelled += await inTransaction(db, async (tx) => {
      const gone = await tx.deleteFrom('sandbox_listeners').where('id', '=', listener.id).where('expires_at', '<=', now).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1 || !listener.url.startsWith(POLLED_LISTENER_PREFIX)) return 0;
      return Number((await cancelHeldCopiesQuery(tx, listener.partner_id, listener.url, now).executeTakeFirst()).numUpdatedRows);
    });
  }
  return cancelled;
}

/**
 * Registers a polled listener for the partner. The caller checks the partner may use the sandbox. 409
 * ListenerLimitReached beyond MAX_LIVE_LISTENERS; the partner's lapsed listeners are retired first.
 */
export async function registerPolledListener(db: Executor, partnerId: string, now: number): Promise<PolledListener> {
  await retireLapsedListeners(db, now, partnerId);
  return inTransaction(db, async (tx) => {
    await assertRoomForListener(tx, partnerId, now);
    // Its target needs its id: written in the same transaction, so no copy goes to a half-made registration.
    const { id } = await tx
      .insertInto('sandbox_listeners')
      .values({ partner_id: partnerId, url: POLLED_LISTENER_PREFIX, created_at: now, expires_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const url = `${POLLED_LISTENER_PREFIX}${Number(id)}`;
    await tx
      .updateTable('sandbox_listeners')
      .set({ url, expires_at: now + LISTENER_LEASE_SECONDS })
      .where('id', '=', Number(id))
      .execute();
    return { id: Number(id), partnerId, target: url, expiresAt: now + LISTENER_LEASE_SECONDS };
  });
}

/**
 * Renews the partner's live polled listener; undefined when there is none of that id (another partner's included).
 * With `pollToken`, the renewing poll becomes the listener's open poll, and any other one waiting ends (pollState).
 */
export async function renewPolledListener(db: Executor, id: number, partnerId: string, now: number, pollToken?: string): Promise<PolledListener | undefined> {
  const row = await db
    .updateTable('sandbox_listeners')
    .set({ expires_at: now + LISTENER_LEASE_SECONDS, ...(pollToken !== undefined ? { poll_token: pollToken } : {}) })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .where('url', '=', `${POLLED_LISTENER_PREFIX}${id}`)
    .where('expires_at', '>', now)
    .returning(['id', 'partner_id', 'url', 'expires_at'])
    .executeTakeFirst();
  return row ? polledListener(row) : undefined;
}

/**
 * Whether the poll that wrote `pollToken` is still the listener's open poll: `replaced` when a newer poll started,
 * `gone` when the listener was removed or lapsed.
 */
export async function pollState(db: Executor, listener: PolledListener, pollToken: string, now: number): Promise<'current' | 'replaced' | 'gone'> {
  const row = await db
    .selectFrom('sandbox_listeners')
    .select('poll_token')
    .where('id', '=', listener.id)
    .where('partner_id', '=', listener.partnerId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return 'gone';
  return row.poll_token === pollToken ? 'current' : 'replaced';
}

/** Removes the partner's polled listener and cancels what was held for it; false when there is none of that id. */
export async function removePolledListener(db: Executor, id: number, partnerId: string, now: number): Promise<boolean> {
  const target = `${POLLED_LISTENER_PREFIX}${id}`;
  return inTransaction(db, async (tx) => {
    const result = await tx
      .deleteFrom('sandbox_listeners')
      .where('id', '=', id)
      .where('partner_id', '=', partnerId)
      .where('url', '=', target)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) return false;
    await cancelHeldCopiesQuery(tx, partnerId, target, now).execute();
    return true;
  });
}
