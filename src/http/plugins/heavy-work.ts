/**
 * Heavy work (statement uploads, refreshes that call institutions) is limited per partner and process: a partner
 * may run `LEDGERLINK_PARTNER_CONCURRENT_UPLOADS` uploads and `LEDGERLINK_PARTNER_CONCURRENT_REFRESHES` refreshes at
 * once, and is answered 429 (10432) with Retry-After beyond, so that no tenant uses up the database pool, the
 * SQLite writer or the statement readers for everyone else. The slot is taken before the body is read and given
 * back when the answer is sent (or the client goes away), unless the route keeps it for work it leaves running.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Config } from '../../platform/dependencies.js';
import { KeyedLimit } from '../../platform/keyed-limit.js';

export type HeavyWork = 'upload' | 'refresh';

/** The per-partner limits of one app. */
export type HeavyWorkLimits = Record<HeavyWork, KeyedLimit>;

export function heavyWorkLimits(config: Pick<Config, 'partnerConcurrentUploads' | 'partnerConcurrentRefreshes'>): HeavyWorkLimits {
  return { upload: new KeyedLimit(config.partnerConcurrentUploads), refresh: new KeyedLimit(config.partnerConcurrentRefreshes) };
}

const WHAT: Record<HeavyWork, string> = { upload: 'statement uploads', refresh: 'refreshes' };

interface Slot {
  release: () => void;
  kept: boolean;
}
const slots = new WeakMap<FastifyRequest, Slot>();

/** Takes one of the partner's slots of `kind` for this request, or refuses it with 429. */
export function holdHeavySlot(limits: HeavyWorkLimits, request: FastifyRequest, reply: FastifyReply, partnerId: string, kind: HeavyWork): void {
  const limit = limits[kind];
  const release = limit.tryTake(partnerId);
  if (!release) {
    throw new ServiceError('PartnerBusy', `This partner already runs ${limit.limit} ${WHAT[kind]} at once, the most it may; try again when one has finished.`, {
      'retry-after': '2',
    });
  }
  const slot: Slot = { release, kept: false };
  slots.set(request, slot);
  const done = () => {
    if (!slot.kept) release();
  };
  reply.raw.once('finish', done);
  reply.raw.once('close', done);
}

/**
 * A refusal made before the body was read: the answer says to close the connection, so the client's remaining
 * bytes are not read at all (Node would otherwise read and discard them to keep the connection). Returns the error.
 */
export function refuseUnread(reply: FastifyReply, error: unknown): unknown {
  reply.header('connection', 'close');
  return error;
}

/** An api route's onRequest hook: holds one of the calling partner's slots of `kind` for the request. */
export function partnerSlot(kind: HeavyWork) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      holdHeavySlot(request.server.heavyWork, request, reply, request.caller.partnerId, kind);
    } catch (error) {
      throw refuseUnread(reply, error);
    }
  };
}

/** Keeps the request's slot past its answer, for work it leaves running; the caller releases it when that ends. */
export function keepHeavySlot(request: FastifyRequest): () => void {
  const slot = slots.get(request);
  if (!slot) return () => {};
  slot.kept = true;
  return slot.release;
}
