import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds } from '../../platform/clock.js';
import * as repo from './repository.js';
import type { PartnerContext } from './service.js';

/**
 * Revokes every token of a partner at once: the partner's own API call or dashboard button, or the operator's CLI.
 * The tokens' rows are deleted, so the next request presenting one finds no token (10022) in every process: on
 * PostgreSQL each request reads the database, and on SQLite the callers kept in memory are forgotten whenever the
 * database changes, whichever process or connection changed it (src/platform/db/stamped-memo.ts), as with a key rotation.
 * A token issued while this runs may survive it; whoever got it presented the secret, which revocation leaves valid.
 *
 * Neither a secret change nor a key rotation calls this: clients written for the real-world service keep their
 * tokens through both.
 */
export async function revokePartnerTokens(ctx: PartnerContext, partnerId: string): Promise<{ revoked: number }> {
  const now = epochSeconds(ctx.clock);
  const expiries = await repo.deleteTokensOf(ctx.database.kysely, partnerId);
  if (expiries.length === 0 && !(await repo.findPartnerById(ctx.database.kysely, partnerId))) {
    throw new ServiceError('ResourceNotFound', `Partner ${partnerId} not found`);
  }
  // Expired rows wait for the next authentication to be dropped; only tokens that still worked count.
  return { revoked: expiries.filter((expiresAt) => expiresAt > now).length };
}
