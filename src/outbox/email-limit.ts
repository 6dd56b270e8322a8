import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { ServiceError } from '../contract/errors/service-error.js';

const HOUR = 3600;

// Literal, so both databases can use the partial index deliveries_email_partner.
const EMAIL = sql<boolean>`kind = 'email'`;

/**
 * Refuses (429 EmailLimitReached, with Retry-After) a partner that already queued `limit` e-mails in the hour
 * before `now`. Counted in the outbox itself, so every process sees the same count and nothing else is stored;
 * two requests racing at the very limit may both pass, which a limit of this kind can live with.
 */
export async function assertEmailAllowance(db: Executor, partnerId: string, now: number, limit: number): Promise<void> {
  // The limit-th newest e-mail of the hour: when it leaves the hour, one more may go.
  const row = await db
    .selectFrom('deliveries')
    .select('created_at')
    .where(EMAIL)
    .where('partner_id', '=', partnerId)
    .where('created_at', '>', now - HOUR)
    .orderBy('created_at', 'desc')
    .limit(1)
    .offset(limit - 1)
    .executeTakeFirst();
  if (!row) return;
  const wait = Math.max(1, Number(row.created_at) + HOUR - now);
  throw new ServiceError('EmailLimitReached', `This partner has queued ${limit} e-mails in the last hour, as many as it may; retry in ${wait} s.`, {
    'retry-after': String(wait),
  });
}
