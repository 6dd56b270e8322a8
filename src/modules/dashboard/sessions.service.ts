/**
 * Dashboard sessions. The browser holds a random id in a cookie; the database holds only its SHA-256, the partner
 * and the expiry, so a copy of the database signs nobody in. The CSRF token is derived from the id with a key of
 * its own: the page reads it once and sends it back in a header on every change.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import type { Keys } from '../../platform/keys.js';
import { sha256Hex } from '../../platform/secrets.js';
import * as repo from './sessions.repository.js';

export interface SessionContext {
  database: { kysely: Executor };
  clock: Clock;
  keys: Keys;
  config: { dashboardSessionTtlSeconds: number };
}

export interface DashboardSession {
  partnerId: string;
  /** Epoch seconds. */
  expiresAt: number;
  csrfToken: string;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The CSRF token of a session id. */
function csrfTokenOf(keys: Keys, sessionId: string): string {
  return createHmac('sha256', keys.derive('dashboard-csrf')).update(sessionId).digest('base64url');
}

/** Starts a session for a partner; answers the id for the cookie (shown nowhere else) and the session. */
export async function startSession(ctx: SessionContext, partnerId: string): Promise<{ sessionId: string; session: DashboardSession }> {
  const sessionId = randomBytes(32).toString('base64url');
  const now = epochSeconds(ctx.clock);
  const expiresAt = now + ctx.config.dashboardSessionTtlSeconds;
  await repo.insertSession(ctx.database.kysely, { id_hash: sha256Hex(sessionId), partner_id: partnerId, created_at: now, expires_at: expiresAt });
  // Every sign-in clears the expired sessions, so the table does not grow without bound.
  await repo.deleteExpiredSessions(ctx.database.kysely, now);
  return { sessionId, session: { partnerId, expiresAt, csrfToken: csrfTokenOf(ctx.keys, sessionId) } };
}

/** The live session of a cookie value: 401 DashboardSignInRequired when absent or unknown, DashboardSessionExpired after its expiry. */
export async function findSession(ctx: SessionContext, sessionId: string | undefined): Promise<DashboardSession> {
  if (!sessionId || !ID_PATTERN.test(sessionId)) throw new ServiceError('DashboardSignInRequired');
  const row = await repo.findSessionByHash(ctx.database.kysely, sha256Hex(sessionId));
  if (!row) throw new ServiceError('DashboardSignInRequired');
  if (Number(row.expires_at) <= epochSeconds(ctx.clock)) {
    await repo.deleteSessionByHash(ctx.database.kysely, row.id_hash);
    throw new ServiceError('DashboardSessionExpired');
  }
  return { partnerId: row.partner_id, expiresAt: Number(row.expires_at), csrfToken: csrfTokenOf(ctx.keys, sessionId) };
}

/** Whether a presented CSRF token is the session's, compared in constant time. */
export function csrfTokenMatches(session: DashboardSession, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Ends a session (sign-out); nothing happens for an unknown id. */
export async function endSession(ctx: SessionContext, sessionId: string): Promise<void> {
  await repo.deleteSessionByHash(ctx.database.kysely, sha256Hex(sessionId));
}

/** Ends every other session of a partner (after a secret change, the other browsers must sign in again). */
export async function endOtherSessions(ctx: SessionContext, partnerId: string, keepSessionId: string): Promise<void> {
  await repo.deleteOtherSessions(ctx.database.kysely, partnerId, sha256Hex(keepSessionId));
}
