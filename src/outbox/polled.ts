import { sql } from 'kysely';
import { ServiceError } from '../contract/errors/service-error.js';
import type { Executor } from '../platform/db/database.js';
import type { Keys } from '../platform/keys.js';
import { claimDueDeliveries, type ClaimedDelivery } from './claim.js';
import { POLLED_CLAIM_SECONDS, type PolledListener } from './listeners.js';
import { type FinishedAttempt, recordAttempts } from './record.js';
import { findDelivery } from './repository.js';
import { deliveryRequestHeaders } from './request-headers.js';

/**
 * The deliveries of a polled listener (`ledgerlink listen` in client mode, listeners.ts): taken through the service
 * like a worker claims them, sent on by the listener, and their outcome recorded as an attempt by the listener.
 */

/** A delivery taken for a polled listener: what to send, signed now, and the claim to report its outcome with. */
export interface HeldDelivery {
  deliveryId: number;
  claim: string;
  kind: 'txpush' | 'webhook';
  eventId: string;
  attempt: number;
  headers: Array<{ name: string; value: string }>;
  body: string;
}

/** What became of a held delivery, as its listener reports it: an error when it was not received. */
export interface PolledOutcome {
  claim: string;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** The start of what the forward target answered, if anything. */
  response?: string | null;
}

function held(keys: Keys, d: ClaimedDelivery, now: number): HeldDelivery {
  return {
    deliveryId: Number(d.id),
    claim: d.locked_by,
    kind: d.kind === 'webhook' ? 'webhook' : 'txpush',
    eventId: d.event_id,
    attempt: d.attempts,
    headers: Object.entries(deliveryRequestHeaders(keys, d, now)).map(([name, value]) => ({ name, value })),
    body: d.body,
  };
}

// Literal, so both databases can use the partial index deliveries_open_target (see claim.ts).
const OPEN = sql<boolean>`status in ('pending', 'delivering')`;

/**
 * Whether anything is due for the listener: one row of its open copies, found through deliveries_open_target. A
 * waiting poll asks this several times a second, so it must never scan the table; exported for the test that asks
 * the planners.
 */
export function dueForListenerQuery(db: Executor, listener: Pick<PolledListener, 'partnerId' | 'target'>, now: number) {
  return db
    .selectFrom('deliveries')
    .select('id')
    .where('target', '=', listener.target)
    .where('partner_id', '=', listener.partnerId)
    .where(OPEN)
    .where('next_attempt_at', '<=', now)
    .limit(1);
}

/** Takes up to `limit` deliveries due for the listener, oldest first (none, without a write, when none is due). */
export async function takePolledDeliveries(db: Executor, keys: Keys, listener: PolledListener, input: { now: number; limit: number }): Promise<HeldDelivery[]> {
  const due = await dueForListenerQuery(db, listener, input.now).executeTakeFirst();
  if (!due) return [];
  const claimed = await claimDueDeliveries(db, {
    workerId: listener.target,
    limit: input.limit,
    now: input.now,
    leaseSeconds: POLLED_CLAIM_SECONDS,
    target: listener.target,
  });
  return claimed.map((d) => held(keys, d, input.now));
}

/**
 * Records the outcome of a delivery the listener took, as a worker records its own (recordAttempts): an attempt by
 * the listener, then delivered, or (on an error) retried at its next retry time or failed when its retry window is
 * over. 404 for a delivery not held for this listener; 409 (14096) when the claim is no longer the listener's (it
 * came too late, or was taken again).
 */
export async function recordPolledOutcome(
  db: Executor,
  listener: PolledListener,
  deliveryId: number,
  outcome: PolledOutcome,
  now: number,
): Promise<'delivered' | 'retrying' | 'failed'> {
  const row = await findDelivery(db, deliveryId, listener.partnerId);
  if (!row || row.target !== listener.target) throw new ServiceError('ResourceNotFound', `Delivery ${deliveryId} not found for listener ${listener.id}`);
  const lost = () => new ServiceError('ListenerClaimLost', `Delivery ${deliveryId} is no longer held for listener ${listener.id}; it was not changed`);
  if (row.status !== 'delivering' || row.locked_by !== outcome.claim || row.first_attempt_at === null) throw lost();
  const attempt: FinishedAttempt = {
    delivery: row as ClaimedDelivery,
    outcome: { ok: outcome.error === null, statusCode: outcome.statusCode, error: outcome.error, response: outcome.response ?? null },
    attemptedAt: now,
    latencyMs: Math.round(outcome.latencyMs),
    now,
  };
  const result = await db.transaction().execute(async (tx) => {
    const [done] = await recordAttempts(tx, listener.target, [attempt]);
    // Rolls the attempt back with it: the claim went to someone else meanwhile.
    if (done === 'claim-lost') throw lost();
    return done;
  });
  return result === 'delivered' ? 'delivered' : result === 'retry' ? 'retrying' : 'failed';
}
